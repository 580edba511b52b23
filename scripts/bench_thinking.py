#!/usr/bin/env python3
"""How long a peer's trio loop stalls while its bots think: inline, then in a worker thread.

Usage: scripts/bench_thinking.py [--game consensus] [--level strong] [--plies 40]

One real host (``client.runtime.peer.Peer``; its own profile in a temporary folder, listening on
loopback) whose
every seat is one of its bots at ``--level`` (``--bot`` for its own seat); it plays
``--plies`` plies (each after the peer's usual 0.3 s pause), then leaves.  Beside it a task
asks the loop to wake it every 10 ms and notes how late each wake-up comes: what a link's
heartbeat, a record to pass on or a chat would wait.  ``client.bots.thinking`` says why
the runtime thinks in a thread.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import trio

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from client.bots import BOT_LEVELS, kind_of_level  # noqa: E402
from client.bots.arena import median, percentile  # noqa: E402
from client.node.hosting import HostConfig  # noqa: E402
from client.node.peer_node import NodeConfig  # noqa: E402
from client.runtime.peer import Peer  # noqa: E402
from client.tabletop.events import PlyApplied  # noqa: E402
from engines import find_engine  # noqa: E402
from net.identity import load_profile_identity  # noqa: E402

TICK = 0.010
BOT_DELAY = 0.3
"""A peer's own pause before a bot moves (``NodeConfig.bot_delay``'s default)."""


async def _stalls(game: str, level: str, plies: int, in_thread: bool) -> tuple[list[float], float]:
    """Each wake-up's lateness (s), and the CPU time the game took."""
    engine = find_engine(game)
    with tempfile.TemporaryDirectory(prefix="palabre-bench-") as home:
        seats = engine.seat_count(engine.initial_state(engine.sample_params[0]))
        host = Peer(
            load_profile_identity("host", Path(home)),
            HostConfig(engine, dict(engine.sample_params[0]), "Host", bots=seats - 1),
            NodeConfig(
                profile="host", home=Path(home), bot_me=True, bot_kind=kind_of_level(level),
                bot_delay=BOT_DELAY, think_in_thread=in_thread,
            ),
        )  # fmt: skip
        played = 0

        def count(event: Any) -> None:
            nonlocal played
            if isinstance(event, PlyApplied):
                played += 1
                if played == plies:
                    host.call_soon(lambda: host.finish(0, "measured"))

        host.observers.append(count)
        late: list[float] = []
        await host.open(0)
        cpu = time.process_time()
        async with trio.open_nursery() as nursery:

            async def watch() -> None:
                while True:
                    asked = trio.current_time()
                    await trio.sleep(TICK)
                    late.append(trio.current_time() - asked - TICK)

            nursery.start_soon(watch)
            await trio.sleep(0)  # the watch is asking before the game begins
            await host.run()
            nursery.cancel_scope.cancel()
        return late, time.process_time() - cpu


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="consensus")
    parser.add_argument("--level", default="strong", choices=BOT_LEVELS)
    parser.add_argument("--plies", type=int, default=40)
    args = parser.parse_args()
    print(f"{args.game}, every seat a {args.level} bot, {args.plies} plies\n")
    print("| bots think | wake-ups | late: median | p99 | max | CPU of the game |")
    print("|---|---:|---:|---:|---:|---:|")
    for in_thread in (False, True):
        late, cpu = trio.run(_stalls, args.game, args.level, args.plies, in_thread)
        where = "in a worker thread" if in_thread else "on the trio loop"
        print(
            f"| {where} | {len(late)} | {median(late) * 1000:.1f} ms | "
            f"{percentile(late, 0.99) * 1000:.0f} ms | {max(late) * 1000:.0f} ms | {cpu:.1f} s |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
