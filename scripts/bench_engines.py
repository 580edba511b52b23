#!/usr/bin/env python3
"""Measure every engine the same way and print one markdown table (docs/BENCHMARKS.md).

Usage: scripts/bench_engines.py [GAME ...] [--games N]

For each engine and its first sample parameters: the time to list every legal move, averaged
over the positions of N seeded random games; the time to apply one move; random-playout
moves per second (listing, choosing and applying).  Game-specific rows (perft, end tests)
come from ``scripts/bench_<game>.py``.  Figures vary about ±30 % between runs on these
shared machines: compare ratios within one run, never across runs.
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from client.bots import RandomBot  # noqa: E402
from engines import AnyEngine, engine_names, find_engine  # noqa: E402


def _positions(engine: AnyEngine, params: Any, games: int) -> tuple[list[Any], list[Any]]:
    states, moves = [], []
    for seed in range(games):
        bot = RandomBot(seed)
        state = engine.initial_state(params)
        while engine.outcome(state) is None:
            move = bot.choose(engine, state)
            states.append(state)
            moves.append(move)
            state = engine.apply(state, move)
    return states, moves


def measure(engine: AnyEngine, games: int) -> list[str]:
    params = engine.sample_params[0]
    states, moves = _positions(engine, params, games)
    start = time.perf_counter()
    for state in states:
        engine.legal_moves(state)
    list_us = (time.perf_counter() - start) / len(states) * 1e6
    start = time.perf_counter()
    for state, move in zip(states, moves, strict=True):
        engine.apply(state, move)
    apply_us = (time.perf_counter() - start) / len(states) * 1e6
    start = time.perf_counter()
    plies = 0
    for seed in range(games):
        bot = RandomBot(1000 + seed)
        state = engine.initial_state(params)
        while engine.outcome(state) is None:
            state = engine.apply(state, bot.choose(engine, state))
            plies += 1
    rate = plies / (time.perf_counter() - start)
    shown = ",".join(f"{k}={v}" for k, v in sorted(params.items()))
    return [
        f"| {engine.name} ({shown}) | {len(states)} | {list_us:,.1f} µs | {apply_us:,.1f} µs "
        f"| {rate:,.0f} |"
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games_wanted", nargs="*", metavar="GAME")
    parser.add_argument("--games", type=int, default=20, help="random games per engine")
    args = parser.parse_args()
    print(f"Python {platform.python_version()} on {platform.machine()}, {args.games} games each\n")
    print("| engine | positions | list all legal moves | apply one move | playout moves/s |")
    print("|---|---|---|---|---|")
    for name in args.games_wanted or engine_names():
        for row in measure(find_engine(name), args.games):
            print(row, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
