"""A strong Discorder bot: the sensible bot's best moves, each followed by the opponent's best
reply and this bot's best answer (``client.bots.reply_search`` says how).

Scores are the sensible bot's ``evaluate`` (hundredths of a point) times ``SCALE``, so the
search's jitter (below one unit of ``evaluate``) only breaks ties.  Measured against the
sensible bot (scripts/bench_bots.py, docs/BENCHMARKS.md).
"""

from __future__ import annotations

from collections.abc import Iterator

from client.bots import reply_search
from client.bots.discorder import evaluate
from engines import AnyEngine
from engines.discorder import DiscorderState, Move

__all__ = ["SEARCH"]

SCALE = 1000


def scored_moves(
    engine: AnyEngine, state: DiscorderState
) -> Iterator[tuple[Move, DiscorderState, float]]:
    """Every legal move, the state it leaves and ``evaluate`` of it for the mover, in the
    engine's order."""
    if engine.name != "discorder":
        raise TypeError(f"the Discorder bot plays Discorder, not {engine.name}")
    seat = state.to_move
    for move in engine.legal_moves(state):
        after = engine.apply(state, move)
        yield move, after, float(evaluate(after, seat) * SCALE)


def score_for(engine: AnyEngine, state: DiscorderState, me: int) -> float:
    return float(evaluate(state, me) * SCALE)


SEARCH = reply_search.SearchGame(
    scored_moves=scored_moves,
    score_for=score_for,
    width=10,  # the 10 best first moves
    jitter=SCALE,  # below one unit of evaluate: ties only
    round_plies=4,  # the opponent's reply, or several when this bot's player passes
)
