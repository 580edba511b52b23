#!/usr/bin/env python3
"""Measure the Cognes engine and bots; print a markdown table (docs/BENCHMARKS.md).

Usage: scripts/bench_cognes.py [--games N]      (N bot games per match, default 100)

Rows: listing every legal move (start, middle and end of games), the end test (an
exhaustive search when no legal flip remains: measured on the final positions of games
played to the last legal flip, and on positions where a flip exists), random playouts in
moves per second, and the sensible bot against the random bot (seeds 0..N-1, alternating
seats) and against a random player that never fouls.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from client.bots import RandomBot  # noqa: E402
from client.bots.cognes import CarefulRandomBot, SensibleBot  # noqa: E402
from client.bots.match import play_match  # noqa: E402
from engines import find_engine  # noqa: E402
from engines.cognes import CognesState, Flip, has_legal_flip  # noqa: E402

ENGINE = find_engine("cognes")
DEFAULTS: dict[str, int | str] = {"seats": 2}
CROWDED: dict[str, int | str] = {"seats": 2, "coins": 24, "coin_radius": 60, "min_gain": 20}


def _median_us(action: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e6


def _careful_games(count: int, params: dict[str, int | str]) -> list[list[CognesState]]:
    """Games with no foul, played to the last legal flip: every state of each."""
    games = []
    for seed in range(count):
        bot = CarefulRandomBot(seed)
        state = ENGINE.initial_state(params)
        states = [state]
        while ENGINE.outcome(state) is None:
            state = ENGINE.apply(state, bot.choose(ENGINE, state))
            states.append(state)
        games.append(states)
    return games


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="bot games per match")
    args = parser.parse_args(argv)
    rows: list[tuple[str, str]] = []

    games = _careful_games(10, DEFAULTS)
    for label, pick in (("start", 0.0), ("middle", 0.5), ("last turn", 1.0)):
        states = [g[min(int(pick * (len(g) - 1)), len(g) - 2)] for g in games]
        times = [_median_us(lambda s=s: ENGINE.legal_moves(s), 5) for s in states]
        counts = [len(ENGINE.legal_moves(s)) for s in states]
        rows.append(
            (
                f"legal_moves, {label} of a game (7 coins; ~{statistics.median(counts):.0f} moves)",
                f"{statistics.median(times) / 1000:.2f} ms",
            )
        )

    finals = [g[-1] for g in games]
    assert not any(has_legal_flip(s) for s in finals)
    exhaustive = [_median_us(lambda s=s: has_legal_flip(s), 5) for s in finals]
    rows.append(
        (
            "end test, no legal flip left (exhaustive: every free coin × 720)",
            f"{statistics.median(exhaustive) / 1000:.2f} ms (max {max(exhaustive) / 1000:.2f})",
        )
    )
    crowded = [g[-1] for g in _careful_games(3, CROWDED)]
    exhaustive = [_median_us(lambda s=s: has_legal_flip(s), 5) for s in crowded]
    rows.append(
        (
            "end test, no legal flip left, 24 coins of radius 6 mm",
            f"{statistics.median(exhaustive) / 1000:.2f} ms (max {max(exhaustive) / 1000:.2f})",
        )
    )
    ongoing = [s for g in games for s in g[:-1]]
    found = [_median_us(lambda s=s: has_legal_flip(s), 3) for s in ongoing]
    rows.append(
        (
            "end test, a legal flip exists (stops at the first)",
            f"{statistics.median(found):.0f} µs (max {max(found) / 1000:.2f} ms)",
        )
    )

    plies, start = 0, time.perf_counter()
    for seed in range(20):
        bot, state = RandomBot(seed), ENGINE.initial_state(DEFAULTS)
        while ENGINE.outcome(state) is None:
            state = ENGINE.apply(state, bot.choose(ENGINE, state))
            plies += 1
    rate = plies / (time.perf_counter() - start)
    rows.append(("random playouts (list + choose + apply)", f"{rate:.0f} moves/s"))

    for name, opponent in (("RandomBot", RandomBot), ("a random bot that never fouls", None)):
        wins, bot_time, bot_moves = 0, 0.0, 0
        for seed in range(args.games):
            seat = 1 + seed % 2
            sensible = SensibleBot(seed)
            other = opponent(seed) if opponent else CarefulRandomBot(seed)
            timed = _Timed(sensible)
            match = play_match(ENGINE, DEFAULTS, {seat: timed, 3 - seat: other})
            wins += seat in match.outcome.winners
            bot_time += timed.seconds
            bot_moves += timed.moves
        rows.append(
            (
                f"SensibleBot vs {name}, {args.games} games (seeds 0–{args.games - 1}, "
                "alternating seats)",
                f"{wins}/{args.games} won; {bot_time / bot_moves * 1000:.1f} ms per bot move",
            )
        )

    print("| Cognes (default options, 2 players) | figure |")
    print("|---|---|")
    for label, value in rows:
        print(f"| {label} | {value} |")
    return 0


class _Timed:
    """Wraps a bot and adds up the time it thinks."""

    def __init__(self, bot: SensibleBot) -> None:
        self.bot, self.seconds, self.moves = bot, 0.0, 0

    def choose(self, engine: Any, state: Any) -> Flip:
        start = time.perf_counter()
        move = self.bot.choose(engine, state)
        self.seconds += time.perf_counter() - start
        self.moves += 1
        return move


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
