#!/usr/bin/env python3
"""Les Forbans speed and strength figures, printed as a markdown table.

Usage: scripts/bench_forbans.py [--games N]     (default 100 bot games, seeds 0..N-1)

* legal-move listing: mean time of ``legal_moves`` over every position of 20 random games,
  setup and movement positions apart;
* random playouts: plies per second of whole random 2-player games (list, choose, apply);
* the sensible bot against the random bot, 2 players, seeds 0..N-1, alternating seats:
  wins / draws / losses and the bot's mean time per decision.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from client.bots import Bot, RandomBot  # noqa: E402
from client.bots.forbans import SensibleBot  # noqa: E402
from engines.forbans import ENGINE, PLACEMENTS, ForbansState  # noqa: E402


def _random_games(count: int) -> tuple[list[ForbansState], int, float]:
    """Every state of ``count`` random games, the plies played and the seconds taken."""
    states: list[ForbansState] = []
    plies = 0
    start = time.perf_counter()
    for seed in range(count):
        bot = RandomBot(seed)
        state = ENGINE.initial_state({"seats": 2})
        while ENGINE.outcome(state) is None:
            states.append(state)
            state = ENGINE.apply(state, bot.choose(ENGINE, state))
            plies += 1
    return states, plies, time.perf_counter() - start


def _listing_micros(states: list[ForbansState]) -> tuple[float, float]:
    """Mean microseconds of ``legal_moves`` on setup positions and on movement positions."""
    seconds = {True: 0.0, False: 0.0}
    counts = {True: 0, False: 0}
    for state in states:
        start = time.perf_counter()
        ENGINE.legal_moves(state)
        setup = state.ply < PLACEMENTS
        seconds[setup] += time.perf_counter() - start
        counts[setup] += 1
    setup_us, movement_us = (1e6 * seconds[k] / max(1, counts[k]) for k in (True, False))
    return setup_us, movement_us


def _bot_match(games: int) -> tuple[int, int, int, float]:
    wins = draws = losses = 0
    thinking = 0.0
    decisions = 0
    for seed in range(games):
        seat = 1 + seed % 2
        bots: dict[int, Bot] = {seat: SensibleBot(seed), 3 - seat: RandomBot(seed)}
        state = ENGINE.initial_state({"seats": 2})
        while ENGINE.outcome(state) is None:
            mover = ENGINE.to_move(state)
            assert mover is not None
            start = time.perf_counter()
            move = bots[mover].choose(ENGINE, state)
            if mover == seat:
                thinking += time.perf_counter() - start
                decisions += 1
            state = ENGINE.apply(state, move)
        outcome = ENGINE.outcome(state)
        assert outcome is not None
        if seat in outcome.winners:
            wins += 1
        elif outcome.draw:
            draws += 1
        else:
            losses += 1
    return wins, draws, losses, 1e3 * thinking / max(1, decisions)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="bot games (default 100)")
    args = parser.parse_args(argv)
    states, plies, seconds = _random_games(20)
    setup_us, movement_us = _listing_micros(states)
    wins, draws, losses, ms_per_move = _bot_match(args.games)
    rows = [
        ("legal_moves, setup position (mean)", f"{setup_us:,.0f} µs"),
        ("legal_moves, movement position (mean)", f"{movement_us:,.0f} µs"),
        ("random playouts, 2 players", f"{plies / seconds:,.0f} plies/s"),
        (f"sensible vs random, {args.games} games (W/D/L)", f"{wins} / {draws} / {losses}"),
        ("sensible bot, time per decision (mean)", f"{ms_per_move:.2f} ms"),
    ]
    print("| Les Forbans | figure |")
    print("|---|---|")
    for name, figure in rows:
        print(f"| {name} | {figure} |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
