"""A strong Les Forbans bot: the sensible bot's placements, then its moves each followed by
the enemy's best reply and this bot's best answer (``client.bots.reply_search`` says how).

A position's score for a side is the sensible bot's ranking made one number
(``client.bots.forbans.position_score``: winning threats first, then the gathering
distance, then the enemy's weakest group), a won game above every score and a lost one
below; a position where the enemy, to move, has a winning move costs ``HANDED`` (the
sensible bot's own "never hand the enemy a win"); a win sooner is worth more than one later,
so a win at once is played (the search would otherwise weigh it against a win it expects
after the enemy's reply).  Placements are the sensible bot's.
Measured against the sensible bot (scripts/bench_bots.py, docs/BENCHMARKS.md).
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from client.bots import reply_search
from client.bots.forbans import SensibleBot, position_score
from engines import AnyEngine
from engines.forbans import (
    PLACEMENTS,
    ForbansEngine,
    ForbansMove,
    ForbansState,
    side_seats,
    turn_of,
)

__all__ = ["SEARCH", "StrongBot"]

WON = 10**9
HANDED = 10**8
"""What a position where the enemy to move can win at once costs."""


def _side_of(state: ForbansState, seat: int) -> int:
    return next(side for side in (1, 2) if seat in side_seats(state.seats, side))


def _score(engine: ForbansEngine, state: ForbansState, side: int) -> float:
    if engine.outcome(state) is not None:
        if not state.winner:
            return 0.0
        # the sooner a win (the later a loss), the better: by more than the jitter per ply
        sooner = (state.max_plies - state.ply) * 10**4
        return float(WON + sooner if state.winner == side else -WON - sooner)
    threats, closer, tighter = position_score(engine, state.board, side)
    value = threats * 10**6 + closer * 10**3 + tighter
    mover = turn_of(state.seats, state.ply)[0]
    if mover != side and engine.has_winning_move(state.board, mover):
        value -= HANDED
    return float(value)


def scored_moves(
    engine: AnyEngine, state: ForbansState
) -> Iterator[tuple[ForbansMove, ForbansState, float]]:
    """Every legal move, the state it leaves and its score for the side that moved."""
    if not isinstance(engine, ForbansEngine):
        raise TypeError(f"the Forbans bot plays Les Forbans, not {engine.name}")
    side = turn_of(state.seats, state.ply)[0]
    for move in engine.legal_moves(state):
        after = engine.apply(state, move)
        yield move, after, _score(engine, after, side)


def score_for(engine: AnyEngine, state: ForbansState, me: int) -> float:
    assert isinstance(engine, ForbansEngine)
    return _score(engine, state, _side_of(state, me))


SEARCH = reply_search.SearchGame(
    scored_moves=scored_moves,
    score_for=score_for,
    width=8,  # the 8 best first moves
    jitter=1000,  # one step of the gathering distance
    round_plies=6,  # the enemy's reply, and the teammates' between (up to 6 seats)
)


class StrongBot:
    """The sensible bot's placements, then ``SEARCH``; deterministic given ``seed``."""

    def __init__(self, seed: int) -> None:
        self._placer = SensibleBot(seed)
        self._rng = random.Random(seed)

    def choose(self, engine: AnyEngine, state: ForbansState) -> ForbansMove:
        if not isinstance(engine, ForbansEngine):
            raise TypeError(f"the Forbans bot plays Les Forbans, not {engine.name}")
        if state.ply < PLACEMENTS:
            return self._placer.choose(engine, state)
        return reply_search.choose(SEARCH, engine, state, self._rng)
