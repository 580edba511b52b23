"""``palabre demo``: a headless game between bots, printed move by move in notation."""

from __future__ import annotations

import sys
import time
from typing import TextIO

from client.bots import make_bot
from client.bots.match import PlyRecord, play_match
from engines import find_engine

__all__ = ["run_demo"]


def run_demo(
    game: str,
    seed: int,
    pace_ms: int,
    seats: int | None = None,
    out: TextIO = sys.stdout,
) -> int:
    """Play one game between sensible bots and print it; return the exit code (0)."""
    engine = find_engine(game)
    params: dict[str, int | str] = dict(engine.sample_params[0])
    if seats is not None:
        params["seats"] = seats
    state = engine.initial_state(params)
    seat_count = engine.seat_count(state)
    bots = {
        seat: make_bot(game, "sensible", seed * 100 + seat) for seat in range(1, seat_count + 1)
    }
    print(f"palabre demo: {engine.ruleset}, {seat_count} bots, seed {seed}", file=out)

    def show(record: PlyRecord, _state: object) -> None:
        who = f"seat {record.seat}"
        if record.player != record.seat:
            who += f" (played by seat {record.player})"
        print(f"{record.ply:4d}. {who:<28} {record.notation}", file=out, flush=True)
        if pace_ms:
            time.sleep(pace_ms / 1000)

    match = play_match(engine, params, bots, on_ply=show)
    outcome = match.outcome
    print(f"Result after {len(match.plies)} plies: {outcome.summary}", file=out)
    print(f"Final digest: {engine.digest(match.final_state).hex()}", file=out)
    return 0
