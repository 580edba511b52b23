"""Measure the Qt client offscreen: launch time, click-to-redraw time, memory during a game.

    python scripts/bench_ui.py [--launches 5] [--plies 200]

* launch: ``palabre`` started in a fresh process with ``PALABRE_QUIT_AFTER_MS=1``; the time
  from spawning it to the moment it reports its window shown (the start screen), median.
* click to redrawn board: on a mid-game Consensus table, a click on a piece (the step view
  asked, highlights set) and the synchronous repaint of the board, for each movable piece;
  median and worst.
* memory: the process's peak resident size after a local game of ``--plies`` plies (or to
  its end) against random bots through the window.

Prints a Markdown table.  Figures vary ±30 % on shared machines; compare within one run.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("PALABRE_HOME", tempfile.mkdtemp(prefix="palabre-bench-"))

import qtrio  # noqa: E402
import trio  # noqa: E402

from client.bots import RandomBot  # noqa: E402
from client.sessions.local_game import LocalGame  # noqa: E402
from engines.consensus import ENGINE  # noqa: E402
from ui.app import MainWindow  # noqa: E402
from ui.boards.consensus import Board  # noqa: E402


def launch_seconds() -> float:
    env = {**os.environ, "PALABRE_QUIT_AFTER_MS": "1"}
    began = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, "-m", "ui.entry"],
        cwd=ROOT,
        env=env,
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        text=True,
    )
    assert process.stderr is not None
    for line in process.stderr:
        if "window shown" in line:
            shown = time.perf_counter() - began
            break
    else:
        raise SystemExit("palabre never reported its window")
    process.wait(timeout=60)
    return shown


async def in_window(plies: int, results: dict[str, object]) -> None:
    async with trio.open_nursery() as nursery:
        window = MainWindow(nursery)
        window.resize(1200, 800)
        window.show()
        game = LocalGame(ENGINE, {"seats": 4}, bot_kind="random", seed=1, bot_delay=0)
        window.open_session(game)
        me = RandomBot(1)
        while game.snapshot.ply < plies and game.snapshot.outcome is None:
            if game.snapshot.my_turn and game.snapshot.ply >= 20:
                break  # a mid-game position on my turn: measure clicks here
            if game.snapshot.my_turn:
                game.move(ENGINE.move_to_wire(me.choose(ENGINE, game.snapshot.state)))
            await trio.sleep(0)
        board = window.table.board
        assert isinstance(board, Board)
        clicks: list[float] = []
        if game.snapshot.my_turn:
            for _ in range(20):
                for piece in ENGINE.movable_pieces(game.snapshot.state):
                    began = time.perf_counter()
                    board.click_square(piece)
                    board.canvas.repaint()
                    clicks.append(time.perf_counter() - began)
                    board.reset()
        results["clicks"] = clicks
        while game.snapshot.ply < plies and game.snapshot.outcome is None:
            if game.snapshot.my_turn:
                game.move(ENGINE.move_to_wire(me.choose(ENGINE, game.snapshot.state)))
            await trio.sleep(0)
        results["plies"] = game.snapshot.ply
        results["rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        window.close()
        nursery.cancel_scope.cancel()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--launches", type=int, default=5)
    parser.add_argument("--plies", type=int, default=200)
    args = parser.parse_args()
    launches = [launch_seconds() for _ in range(args.launches)]
    results: dict[str, object] = {}
    qtrio.run(in_window, args.plies, results)
    clicks = results["clicks"]
    assert isinstance(clicks, list) and clicks
    print("| Qt client measure (offscreen) | figure | target |")
    print("|---|---|---|")
    print(
        f"| launch to start screen, median of {len(launches)} | "
        f"{statistics.median(launches):.2f} s | ≤ 1.5 s |"
    )
    print(
        f"| click on a piece to redrawn board, median ({len(clicks)} clicks) | "
        f"{statistics.median(clicks) * 1000:.2f} ms | ≤ 16 ms |"
    )
    print(f"| same, worst | {max(clicks) * 1000:.2f} ms | |")
    print(
        f"| peak memory after a {results['plies']}-ply game in the window | "
        f"{results['rss_mb']:.0f} MB | ≤ 250 MB |"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
