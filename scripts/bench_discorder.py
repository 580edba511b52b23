#!/usr/bin/env python3
"""Discorder figures for docs/BENCHMARKS.md, printed as one markdown table.

Usage: scripts/bench_discorder.py [--games N] [--bot-games N]

* listing every legal move, averaged over the positions of N seeded random games;
* applying one move, and the run-status query the UI calls after each move;
* random-playout moves per second (listing, choosing and applying);
* the sensible bot against the random bot: seeds 0 to M-1, seats alternating (the sensible
  bot is Jaune on even seeds), its wins, the average score and its time per move.

Figures vary about ±30 % between runs on these shared machines: compare ratios within one
run, never across runs.
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
from client.bots.discorder import SensibleBot  # noqa: E402
from client.bots.match import play_match  # noqa: E402
from engines.discorder import ENGINE, run_views  # noqa: E402

PARAMS = {"seats": 2}


def _positions(games: int) -> tuple[list[Any], list[Any]]:
    states, moves = [], []
    for seed in range(games):
        bot = RandomBot(seed)
        state = ENGINE.initial_state(PARAMS)
        while ENGINE.outcome(state) is None:
            move = bot.choose(ENGINE, state)
            states.append(state)
            moves.append(move)
            state = ENGINE.apply(state, move)
    return states, moves


def _per_call_us(calls: int, start: float) -> str:
    return f"{(time.perf_counter() - start) / calls * 1e6:,.1f} µs"


def engine_rows(games: int) -> list[tuple[str, str]]:
    states, moves = _positions(games)
    rows = [("positions measured", f"{len(states)} ({games} random games)")]
    start = time.perf_counter()
    for state in states:
        ENGINE.legal_moves(state)
    rows.append(("list every legal move, per position", _per_call_us(len(states), start)))
    start = time.perf_counter()
    for state, move in zip(states, moves, strict=True):
        ENGINE.apply(state, move)
    rows.append(("apply one move", _per_call_us(len(states), start)))
    start = time.perf_counter()
    for state in states:
        run_views(state)
    rows.append(("run statuses (`run_views`), per position", _per_call_us(len(states), start)))
    plies = 0
    start = time.perf_counter()
    for seed in range(games):
        bot = RandomBot(1000 + seed)
        state = ENGINE.initial_state(PARAMS)
        while ENGINE.outcome(state) is None:
            state = ENGINE.apply(state, bot.choose(ENGINE, state))
            plies += 1
    rate = plies / (time.perf_counter() - start)
    rows.append(("random playout", f"{rate:,.0f} moves/s"))
    return rows


def bot_rows(games: int) -> list[tuple[str, str]]:
    wins = draws = own = other = plies = 0
    start = time.perf_counter()
    for seed in range(games):
        seat = 1 if seed % 2 == 0 else 2
        bots = {seat: SensibleBot(seed), 3 - seat: RandomBot(seed)}
        match = play_match(ENGINE, PARAMS, bots)
        outcome = match.outcome
        wins += outcome.winners == (seat,)
        draws += outcome.draw
        own += outcome.scores[seat - 1]
        other += outcome.scores[2 - seat]
        plies += sum(1 for ply in match.plies if ply.seat == seat)
    elapsed = time.perf_counter() - start
    return [
        (
            f"sensible bot vs random bot, seeds 0–{games - 1}, seats alternating",
            f"{wins} wins, {draws} draws, {games - wins - draws} losses",
        ),
        ("average final score, sensible – random", f"{own / games:.1f} – {other / games:.1f}"),
        (
            "sensible bot, time per move (whole match / its moves)",
            f"{elapsed / plies * 1e3:.1f} ms",
        ),
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50, help="random games for engine timings")
    parser.add_argument("--bot-games", type=int, default=100, help="sensible-vs-random games")
    args = parser.parse_args()
    print(f"Python {platform.python_version()} on {platform.machine()}\n")
    print("| Discorder measure | figure |")
    print("|---|---|")
    for label, figure in [*engine_rows(args.games), *bot_rows(args.bot_games)]:
        print(f"| {label} | {figure} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
