#!/usr/bin/env python3
"""Measure the Consensus engine and its sensible bot; print markdown tables.

Usage: scripts/bench_consensus.py [--quick]

* For three positions (the start, a crowded middle game, a ruler on e5): the time to list
  every destination of every piece that can move (``destinations_by_piece``) and the time to
  list every complete move (``legal_moves``), medians of several batches.
* Random playouts from the start (``legal_moves`` + ``apply`` per ply): moves per second.
* perft(1..3) from the start, with their times: counting the leaf moves, and applying them.
* The sensible bot in one seat against three random bots, seeds 0-99, seat = seed % 4 + 1.

``--quick`` runs fewer batches, playouts and games (for a smoke check, not for figures).
"""

from __future__ import annotations

import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from client.bots import RandomBot  # noqa: E402
from client.bots.consensus import SensibleBot  # noqa: E402
from client.match import play_match  # noqa: E402
from engines.consensus import ENGINE, ConsensusState  # noqa: E402
from engines.consensus_board import board_from_diagram  # noqa: E402
from engines.consensus_turns import NOBODY_SINCE_POWER  # noqa: E402

MIDDLE_GAME = """
    P2 G2 .  .  .  .  S3 .  P3
    H2 .  S2 .  .  .  .  F3 H3
    S2 .  C2 S2 .  .  C3 S3 .
    .  .  F2 .  s1 .  .  .  S3
    .  S1 .  .  .  .  G3 .  .
    .  .  .  S1 .  s3 .  .  .
    S1 .  C1 .  H4 .  C4 S4 S4
    H1 F1 .  .  .  .  S4 F4 .
    P1 G1 S1 .  .  .  .  G4 P4
"""
RULER_ON_E5 = """
    .  G2 S2 .  .  .  S3 G3 P3
    H2 F2 .  .  .  .  .  F3 H3
    S2 S2 C2 .  .  .  C3 S3 S3
    .  .  .  S1 .  .  .  .  .
    .  .  .  .  P2 .  .  .  .
    .  .  C1 .  .  .  .  .  .
    S1 .  .  .  .  .  C4 S4 S4
    H1 F1 .  .  .  .  S4 F4 H4
    P1 G1 S1 .  .  .  S4 G4 P4
"""


def _position(diagram: str) -> ConsensusState:
    board = board_from_diagram(diagram)
    return ConsensusState(board, (1, 2, 3, 4), 1, False, NOBODY_SINCE_POWER, 0, (), 0, 0)


def _median_ms(action: Callable[[], object], batches: int, per_batch: int) -> float:
    times = []
    for _ in range(batches):
        start = time.perf_counter()
        for _ in range(per_batch):
            action()
        times.append((time.perf_counter() - start) / per_batch)
    return statistics.median(times) * 1000


def _playouts(games: int) -> tuple[int, float]:
    plies = 0
    start = time.perf_counter()
    for seed in range(games):
        rng = random.Random(seed)
        state = ENGINE.initial_state({"seats": 4})
        while ENGINE.outcome(state) is None:
            moves = ENGINE.legal_moves(state)
            state = ENGINE.apply(state, moves[rng.randrange(len(moves))])
            plies += 1
    return plies, time.perf_counter() - start


def _perft(state: ConsensusState, depth: int, apply_leaves: bool = False) -> int:
    moves = ENGINE.legal_moves(state)
    if depth == 1:
        if apply_leaves:
            for move in moves:
                ENGINE.apply(state, move)
        return len(moves)
    return sum(_perft(ENGINE.apply(state, move), depth - 1, apply_leaves) for move in moves)


def _bot_match(games: int) -> tuple[int, float]:
    wins = 0
    start = time.perf_counter()
    for seed in range(games):
        seat = seed % 4 + 1
        bots = {s: RandomBot(seed * 10 + s) for s in range(1, 5)}
        bots[seat] = SensibleBot(seed)
        wins += seat in play_match(ENGINE, {"seats": 4}, bots).outcome.winners
    return wins, time.perf_counter() - start


def main(quick: bool) -> int:
    batches, per_batch = (3, 200) if quick else (9, 2000)
    positions = [
        ("start", ENGINE.initial_state({"seats": 4})),
        ("crowded middle game", _position(MIDDLE_GAME)),
        ("ruler on e5 (P2), seat 1 to move", _position(RULER_ON_E5)),
    ]
    print(f"Machine: {platform.python_implementation()} {platform.python_version()}, ", end="")
    print(f"{platform.machine()}, {platform.system()} {platform.release()}\n")
    print(
        "| position | pieces that can move | destinations | complete moves | "
        "list destinations (ms) | list complete moves (ms) |"
    )
    print("|---|---:|---:|---:|---:|---:|")
    for name, state in positions:
        by_piece = ENGINE.destinations_by_piece(state)
        moves = ENGINE.legal_moves(state)
        dest_ms = _median_ms(lambda s=state: ENGINE.destinations_by_piece(s), batches, per_batch)
        moves_ms = _median_ms(lambda s=state: ENGINE.legal_moves(s), batches, per_batch // 4)
        count = sum(len(targets) for _, targets in by_piece)
        print(
            f"| {name} | {len(by_piece)} | {count} | {len(moves)} | "
            f"{dest_ms:.4f} | {moves_ms:.4f} |"
        )

    plies, seconds = _playouts(5 if quick else 200)
    print(
        f"\nRandom playouts (legal_moves + apply): {plies:,} plies in {seconds:.2f} s = "
        f"**{plies / seconds:,.0f} moves/s**\n"
    )

    print("| perft from the start | nodes | time, leaves counted (s) | time, leaves applied (s) |")
    print("|---:|---:|---:|---:|")
    start_state = ENGINE.initial_state({"seats": 4})
    for depth in (1, 2, 3):
        began = time.perf_counter()
        nodes = _perft(start_state, depth)
        counted = time.perf_counter() - began
        began = time.perf_counter()
        assert _perft(start_state, depth, apply_leaves=True) == nodes
        applied = time.perf_counter() - began
        print(f"| {depth} | {nodes:,} | {counted:.4f} | {applied:.4f} |")

    games = 10 if quick else 100
    wins, seconds = _bot_match(games)
    print(
        f"\nSensible bot vs three random bots, seeds 0-{games - 1}, seat = seed % 4 + 1: "
        f"**{wins}/{games} wins** ({seconds:.1f} s)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main("--quick" in sys.argv[1:]))
