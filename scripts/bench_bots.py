#!/usr/bin/env python3
"""Play a seeded match between two bot levels and print the tables issue 24 asks for.

Usage: scripts/bench_bots.py [--game consensus] [--level strong] [--against normal]
                             [--games 200] [--first-seed 0] [--careful-random] [--jobs 1]
                             [--deadline 0]

Game ``n`` uses seed ``first_seed + n``; the ``--level`` bot sits at seat ``n % seats + 1``
and every other seat plays ``--against`` (``client.bots.arena``).  ``--careful-random`` sets
Cognes' random player that never fouls against it instead.  Each game prints a progress line
on stderr; the tables (markdown) go to stdout: wins by seat, how the games end, their
lengths, and the CPU time per move of both sides (median, p95, max).  ``--jobs N`` plays N
games at a time in worker processes; each game and its figures are the same either way (the
CPU time per move is each process's own).
"""

from __future__ import annotations

import argparse
import functools
import multiprocessing
import platform
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from client.bots import BOT_LEVELS, Bot  # noqa: E402
from client.bots.arena import MatchSummary, median, percentile, play_one, rotation  # noqa: E402


def _careful(seed: int) -> Bot:
    from client.bots.cognes import CarefulRandomBot

    bot: Bot = CarefulRandomBot(seed)
    return bot


def _game(
    game: str, level: str, against: str, careful: bool, seed_and_seat: tuple[int, int]
) -> MatchSummary:
    seed, seat = seed_and_seat
    return play_one(game, level, against, seed, seat, opponent=_careful if careful else None)


def _ms(times: list[float]) -> str:
    return (
        f"{median(times) * 1000:.0f} | {percentile(times, 0.95) * 1000:.0f} | "
        f"{max(times, default=0.0) * 1000:.0f}"
    )


def print_tables(summary: MatchSummary, level: str, against: str, seconds: float) -> None:
    games = summary.games
    seats = sorted({game.seat for game in games})
    print(f"Machine: {platform.python_implementation()} {platform.python_version()}, ", end="")
    print(f"{platform.machine()}; {len(games)} games in {seconds:.0f} s wall\n")
    par = 1 / len(seats) if seats else 0
    print(f"| {level} vs {against} | games | wins | draws | win rate | par |")
    print("|---|---:|---:|---:|---:|---:|")
    rate = summary.wins / len(games) if games else 0
    print(
        f"| all seats | {len(games)} | {summary.wins} | {summary.draws} | "
        f"**{rate:.0%}** | {par:.0%} |"
    )
    for seat in seats:
        at = [game for game in games if game.seat == seat]
        won = sum(game.won for game in at)
        drawn = sum(game.draw for game in at)
        print(f"| {level} at seat {seat} | {len(at)} | {won} | {drawn} | {won / len(at):.0%} | |")
    endings = Counter((game.reason, game.won) for game in games)
    print("\n| ending | games the tested bot won | games it did not win |")
    print("|---|---:|---:|")
    for reason in sorted({reason for reason, _ in endings}):
        print(f"| {reason} | {endings[reason, True]} | {endings[reason, False]} |")
    lengths = [game.plies for game in games]
    print("\n| game length (plies) | median | min | max |")
    print("|---|---:|---:|---:|")
    if lengths:
        print(f"| all games | {statistics.median(lengths):g} | {min(lengths)} | {max(lengths)} |")
    print("\n| CPU per move (ms) | moves | median | p95 | max |")
    print("|---|---:|---:|---:|---:|")
    print(f"| {level} | {len(summary.tested_cpu)} | {_ms(summary.tested_cpu)} |")
    print(f"| {against} | {len(summary.others_cpu)} | {_ms(summary.others_cpu)} |")


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--game", default="consensus")
    parser.add_argument("--level", default="strong", choices=BOT_LEVELS)
    parser.add_argument("--against", default="normal", choices=BOT_LEVELS)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=1, help="games played at a time")
    parser.add_argument(
        "--deadline",
        type=float,
        default=0,
        help="stop after this many seconds of wall time and print the games finished (the "
        "seeds come in order, so they are about the first ones); 0: play them all",
    )
    parser.add_argument(
        "--careful-random",
        action="store_true",
        help="Cognes: the random player that never fouls plays the other seats",
    )
    args = parser.parse_args()
    against = "careful random" if args.careful_random else args.against
    began = time.perf_counter()
    games = rotation(args.game, range(args.first_seed, args.first_seed + args.games))
    play = functools.partial(_game, args.game, args.level, args.against, args.careful_random)
    summary = MatchSummary()
    with multiprocessing.Pool(args.jobs) as pool:
        for one in pool.imap_unordered(play, games):
            if args.deadline and time.perf_counter() - began > args.deadline:
                pool.terminate()
                print(f"deadline: {len(summary.games)} games finished", file=sys.stderr)
                break
            summary.add(one)
            result, done = one.games[0], len(summary.games)
            print(
                f"game {done}/{args.games} seed {result.seed} seat {result.seat}: "
                f"{'won' if result.won else 'draw' if result.draw else 'lost'} "
                f"({result.reason}, {result.plies} plies); {summary.wins}/{done} won, "
                f"median CPU {median(summary.tested_cpu) * 1000:.0f} ms/move, "
                f"{time.perf_counter() - began:.0f} s",
                file=sys.stderr,
                flush=True,
            )
    summary.games.sort(key=lambda game: game.seed)
    print_tables(summary, args.level, against, time.perf_counter() - began)
    return 0


if __name__ == "__main__":
    sys.exit(main())
