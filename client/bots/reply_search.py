"""The search behind the strong bots: a sensible bot's best moves, each followed round the table.

A sensible bot looks one move ahead: it cannot see the reply that punishes its move unless its
hand-made score foresaw it.  The strong bot of a game searches one round further, as max^n
does with every player maximising its own score, narrowed to what a fraction of a second of
Python affords:

1. it scores every move the sensible bot would try, as the sensible bot does, and keeps the
   ``width`` best (a win at once is among them and stays the best);
2. after each of them it lets every other player make the move its own sensible score likes
   best (no jitter), turn after turn, until this bot's player is to move again: a player's
   best reply by its own score is the max^n choice at a one-move horizon;
3. there it takes its own best move by the sensible score, and that score is the value of the
   first move.  The best value wins; ties and a small jitter come from the bot's own seeded
   generator.

Every rule is the engine's: moves and states come from the game's ``SearchGame.scored_moves``
(built on ``engine.apply``), whoever controls the seat to move plays it, and the game's end
is ``engine.outcome``.  The search never changes a state and draws its randomness only from
the ``random.Random`` it is given, so a bot is deterministic given its seed.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Generic, TypeVar

from engines import AnyEngine

__all__ = ["SearchBot", "SearchGame", "best_reply", "choose", "value_after"]

S = TypeVar("S")  # a game's state
M = TypeVar("M")  # a game's move
Scored = tuple[M, S, float]  # (move, the state it leaves, its score for the mover)


@dataclass(frozen=True)
class SearchGame(Generic[S, M]):
    """What the search needs from a game's sensible bot."""

    scored_moves: Callable[[AnyEngine, S], Iterable[Scored[M, S]]]
    """Each move the sensible bot tries for the player to move, with its state and score."""
    score_for: Callable[[AnyEngine, S, int], float]
    """The sensible score of a state (finished or not) for a player."""
    width: int
    """How many of the best first moves are followed round the table."""
    jitter: int
    """A random part of a value, in the score's units, so seeds play different games."""
    round_plies: int
    """Plies a round may hold (a bound on the replies followed, not a cut)."""


def best_reply(game: SearchGame[S, M], engine: AnyEngine, state: S) -> Scored[M, S]:
    """The move the sensible score likes best for the player to move (the first of equals),
    the state it leaves and that score."""
    best: Scored[M, S] | None = None
    for item in game.scored_moves(engine, state):
        if best is None or item[2] > best[2]:
            best = item
    assert best is not None, "the engine always leaves the player to move a legal move"
    return best


def value_after(game: SearchGame[S, M], engine: AnyEngine, state: S, me: int) -> float:
    """``me``'s sensible score once every other player has played its best reply and ``me``
    its best move in turn (or the game has ended)."""
    for _ in range(game.round_plies):
        if engine.outcome(state) is not None:
            break
        seat = engine.to_move(state)
        assert seat is not None
        if engine.controller(state, seat) == me:
            return best_reply(game, engine, state)[2]
        state = best_reply(game, engine, state)[1]
    return game.score_for(engine, state, me)


def choose(game: SearchGame[S, M], engine: AnyEngine, state: S, rng: random.Random) -> M:
    """The strong bot's move for the player to move in ``state``."""
    scored = list(game.scored_moves(engine, state))  # refuses another game's engine
    seat = engine.to_move(state)
    assert seat is not None, "asked to move in a finished game"
    me = engine.controller(state, seat)
    scored.sort(key=lambda item: -item[2])  # stable: equals keep the engine's order
    best, best_value = scored[0][0], -float(10**12)
    for move, after, _ in scored[: game.width]:
        value = value_after(game, engine, after, me) + rng.randrange(game.jitter)
        if value > best_value:
            best, best_value = move, value
    return best


class SearchBot(Generic[S, M]):
    """A strong bot: ``search`` (a game's ``SEARCH``) with its own seeded generator."""

    def __init__(self, seed: int, search: SearchGame[S, M]) -> None:
        self.search = search
        self._rng = random.Random(seed)

    def choose(self, engine: AnyEngine, state: S) -> M:
        return choose(self.search, engine, state, self._rng)
