"""A strong Consensus bot: the sensible bot's best moves, each followed round the table.

The sensible bot (``client.bots.consensus``) looks one move ahead: it cannot see that the
next player will kill the Président it just moved, or strike the e5 it just took, unless its
hand-made score foresaw it.  This bot searches one round further, as max^n does with every
player maximising its own score, but narrowed to what can be afforded in a fraction of a
second of Python:

1. it scores every move the sensible bot would try, as the sensible bot does, and keeps the
   ``WIDTH`` best (a win at once is among them and stays the best);
2. after each of them it lets every other player make the move the sensible score likes best
   for that player (no jitter), turn after turn, the ruler's extra moves included, until it
   is this bot's player's turn again: a player's best reply by its own score is the max^n
   choice at a one-move horizon;
3. there it takes its own best move by the sensible score, and that score is the value of
   the first move.  The best value wins; ties and a small jitter come from the bot's own
   seeded generator.

Measured on seeded matches against three sensible bots (scripts/bench_bots.py,
docs/BENCHMARKS.md): a wider first step (12) won no more games than 8 for half again the
time, a narrower one (4, 6) won fewer; stopping before step 3 (scoring the position where
this bot must move) won fewer; two rounds (at width 5) took twice the time and won no more
in the games played.

Every rule is the engine's: moves come from the sensible bot's candidates (every origin and
target the engine offers, with representative placements and exits), states from
``engine.apply``, so extra moves, control passing to a killer (the replies are then played
by whoever controls each seat) and the centre actions are moves like any other.  The bot
never changes a state, and its only randomness is its ``random.Random(seed)``: given a seed
and the same positions it plays the same moves.
"""

from __future__ import annotations

import random
from typing import cast

from client.bots.consensus import score_for, scored_moves
from engines import AnyEngine
from engines.consensus import ConsensusEngine, ConsensusState, Move

__all__ = ["StrongBot"]

WIDTH = 8
"""How many of the best moves by the sensible score are followed round the table."""
JITTER = 300
"""A random part of a value, in the sensible score's units, so seeds play different games."""
ROUND_PLIES = 8
"""Plies a round may hold (three other slots and as many extra moves); a bound, not a cut."""


def best_reply(engine: AnyEngine, state: ConsensusState) -> tuple[Move, ConsensusState, float]:
    """The move the sensible score likes best for the player to move (the first of equals),
    the state it leaves and that score."""
    best: tuple[Move, ConsensusState, float] | None = None
    for item in scored_moves(engine, state):
        if best is None or item[2] > best[2]:
            best = item
    assert best is not None, "the engine always leaves the player to move a legal move"
    return best


def value_after(engine: ConsensusEngine, state: ConsensusState, me: int) -> float:
    """``me``'s sensible score once every other player has played its best reply and ``me``
    its best move in turn (or the game has ended)."""
    for _ in range(ROUND_PLIES):
        if engine.outcome(state) is not None:
            break
        seat = engine.to_move(state)
        assert seat is not None
        if engine.controller(state, seat) == me:
            return best_reply(engine, state)[2]
        state = best_reply(engine, state)[1]
    return score_for(engine, state, me)


class StrongBot:
    """One round of best replies after each of the sensible bot's best moves."""

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)

    def choose(self, engine: AnyEngine, state: ConsensusState) -> Move:
        scored = list(scored_moves(engine, state))  # refuses another game's engine
        engine = cast(ConsensusEngine, engine)
        seat = engine.to_move(state)
        assert seat is not None, "asked to move in a finished game"
        me = engine.controller(state, seat)
        scored.sort(key=lambda item: -item[2])  # stable: equals keep the engine's order
        best, best_value = scored[0][0], -float(10**12)
        for move, after, _ in scored[:WIDTH]:
            value = value_after(engine, after, me) + self._rng.randrange(JITTER)
            if value > best_value:
                best, best_value = move, value
        return best
