"""Playing a whole game between bots in one process: the demo, benchmarks and tests use it.

The bot that picks each move is the one sitting at the seat that *controls* the seat to
move, so games where control changes hands (Consensus) are played as the rules say.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from client.bots import Bot
from engines import AnyEngine, Outcome

__all__ = ["MatchRecord", "PlyRecord", "play_match"]

# A game that has not ended after this many plies means an engine lost its draw rules.
MAX_PLIES = 100_000


@dataclass(frozen=True)
class PlyRecord:
    ply: int
    seat: int
    player: int
    notation: str
    digest: bytes


@dataclass(frozen=True)
class MatchRecord:
    plies: tuple[PlyRecord, ...]
    outcome: Outcome
    final_state: object


def play_match(
    engine: AnyEngine,
    params: Mapping[str, int | str],
    bots: Mapping[int, Bot],
    on_ply: Callable[[PlyRecord, object], None] | None = None,
) -> MatchRecord:
    """Play from the start until the engine reports an outcome.

    ``bots`` maps each seat to the bot that plays it.  ``on_ply`` is called after every
    ply with its record and the new state.
    """
    state = engine.initial_state(params)
    plies: list[PlyRecord] = []
    while (outcome := engine.outcome(state)) is None:
        seat = engine.to_move(state)
        if seat is None:
            raise RuntimeError(f"{engine.name}: no outcome yet nobody to move")
        if len(plies) >= MAX_PLIES:
            raise RuntimeError(f"{engine.name}: no outcome after {MAX_PLIES} plies")
        player = engine.controller(state, seat)
        move = bots[player].choose(engine, state)
        notation = engine.format_move(state, move)
        state = engine.apply(state, move)
        record = PlyRecord(len(plies) + 1, seat, player, notation, engine.digest(state))
        plies.append(record)
        if on_ply is not None:
            on_ply(record, state)
    return MatchRecord(tuple(plies), outcome, state)
