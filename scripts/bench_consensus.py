#!/usr/bin/env python3
"""Measure the Consensus engine and its sensible bot; print markdown tables.

Usage: scripts/bench_consensus.py [--quick]

* For three positions (the start, a crowded middle game, a ruler on e5): the time to list
  every destination of every piece that can move (``destinations_by_piece``) and the time to
  list every complete move (``legal_moves``), medians of several batches.
* Random playouts from the start (``legal_moves`` + ``apply`` per ply): moves per second.
* perft(1..3) from the start, with their times: counting the leaf moves, and applying them.
* The sensible bot in one seat against three random bots, seeds 0-99, seat = seed % 4 + 1.
* Four sensible bots, seeds 0-99 (bot of seat s: seed * 100 + s, as the demo gives them):
  winners by seat, how the games end, their lengths.
* The sensible bot's time per move in both matches (wall clock and CPU time of the process).

``--quick`` runs fewer batches, playouts and games (for a smoke check, not for figures).
"""

from __future__ import annotations

import platform
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from client.bots import Bot, RandomBot  # noqa: E402
from client.bots.consensus import SensibleBot  # noqa: E402
from client.bots.match import play_match  # noqa: E402
from engines import AnyEngine  # noqa: E402
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


class _Timed:
    """A bot whose every move is timed, by the wall clock and by the process's CPU time."""

    def __init__(self, bot: Bot, wall: list[float], cpu: list[float]) -> None:
        self._bot, self._wall, self._cpu = bot, wall, cpu

    def choose(self, engine: AnyEngine, state: object) -> object:
        wall, cpu = time.perf_counter(), time.process_time()
        move = self._bot.choose(engine, state)
        self._cpu.append(time.process_time() - cpu)
        self._wall.append(time.perf_counter() - wall)
        return move


def _ms(times: list[float]) -> str:
    ordered = sorted(times)
    p95 = ordered[int(0.95 * (len(ordered) - 1))]
    return f"{statistics.median(ordered) * 1000:.2f} / {p95 * 1000:.2f}"


def _bot_match(games: int) -> tuple[int, list[float], list[float]]:
    wins = 0
    wall: list[float] = []
    cpu: list[float] = []
    for seed in range(games):
        seat = seed % 4 + 1
        bots: dict[int, Bot] = {s: RandomBot(seed * 10 + s) for s in range(1, 5)}
        bots[seat] = _Timed(SensibleBot(seed), wall, cpu)
        wins += seat in play_match(ENGINE, {"seats": 4}, bots).outcome.winners
    return wins, wall, cpu


def _sensible_match(
    games: int,
) -> tuple[Counter[int], Counter[str], list[int], list[float], list[float]]:
    winners: Counter[int] = Counter()
    reasons: Counter[str] = Counter()
    lengths: list[int] = []
    wall: list[float] = []
    cpu: list[float] = []
    for seed in range(games):
        bots: dict[int, Bot] = {
            s: _Timed(SensibleBot(seed * 100 + s), wall, cpu) for s in range(1, 5)
        }
        record = play_match(ENGINE, {"seats": 4}, bots)
        winners.update(record.outcome.winners or (0,))
        reasons[record.outcome.reason] += 1
        lengths.append(len(record.plies))
    return winners, reasons, lengths, wall, cpu


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
    began = time.perf_counter()
    wins, wall, cpu = _bot_match(games)
    seconds = time.perf_counter() - began
    print(
        f"\nSensible bot vs three random bots, seeds 0-{games - 1}, seat = seed % 4 + 1: "
        f"**{wins}/{games} wins** ({seconds:.1f} s); its ms per move, median / p95: "
        f"wall {_ms(wall)}, CPU {_ms(cpu)}"
    )
    began = time.perf_counter()
    winners, reasons, lengths, wall, cpu = _sensible_match(games)
    seconds = time.perf_counter() - began
    by_seat = ", ".join(f"seat {seat} {winners[seat]}" for seat in range(1, 5))
    print(
        f"\nFour sensible bots, seeds 0-{games - 1} ({seconds:.1f} s): wins {by_seat}, "
        f"draws {winners[0]}; endings {dict(sorted(reasons.items()))}; plies median "
        f"{statistics.median(lengths):g}, min {min(lengths)}, max {max(lengths)}; "
        f"ms per move, median / p95: wall {_ms(wall)}, CPU {_ms(cpu)}"
    )
    return 0


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer runs: a smoke check")
    sys.exit(main(parser.parse_args().quick))
