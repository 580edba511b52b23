"""An evening in the window, offscreen, and the resident memory it leaves.

    python scripts/bench_evening.py [--switches 10] [--tree PATH]

Runs the real window loop (``ui.app.main``) with ``QT_QPA_PLATFORM=offscreen`` and a fresh
profile, and plays through it what a player's evening holds: four local games against
random bots (Consensus, Discorder, Les Forbans, Cognes), started from the start screen as a
player does and played to their end (the player's moves chosen by a random bot and sent
through the table's session); a replay of a signed 4-peer Consensus game file, stepped ply
by ply; and ``--switches`` language switches on the start screen (between the games, then
the rest at the end).  It prints the process's resident size after each step, the final
one and the peak, in MB.

``--tree PATH`` runs another checkout's code (e.g. the previous main, unpacked with ``git
archive``) with this script, so both figures come from one run on one machine.
"""

from __future__ import annotations

import argparse
import gc
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def _tree() -> Path:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--switches", type=int, default=10, help="language switches")
    parser.add_argument("--tree", type=Path, default=HERE.parent, help="the code to run")
    args = parser.parse_args()
    _ARGS.update(switches=args.switches)
    return args.tree.resolve()


_ARGS: dict[str, int] = {}
TREE = _tree()
sys.path.insert(0, str(TREE))
sys.path.insert(1, str(TREE / "scripts"))  # its bench_verify makes the replayed file
os.environ["QT_QPA_PLATFORM"] = "offscreen"
os.environ["PALABRE_HOME"] = tempfile.mkdtemp(prefix="palabre-evening-")
os.environ["PALABRE_MDNS"] = "off"
os.environ.pop("PALABRE_LANG", None)

import qtrio  # noqa: E402
import trio  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from client.bots import make_bot  # noqa: E402
from ui.app import MainWindow, main  # noqa: E402

GAMES = ("consensus", "discorder", "forbans", "cognes")


def resident_mb() -> float:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


async def until(predicate: object, timeout: float = 600.0) -> None:
    assert callable(predicate)
    with trio.fail_after(timeout):
        while not predicate():
            await trio.sleep(0.002)


def shown_window() -> MainWindow | None:
    for widget in QApplication.topLevelWidgets():
        if isinstance(widget, MainWindow) and widget.isVisible():
            return widget
    return None


class Evening:
    def __init__(self) -> None:
        self.window: MainWindow | None = None
        self.steps: list[tuple[str, float]] = []
        self.language = "en"

    def note(self, step: str) -> None:
        gc.collect()
        self.steps.append((step, resident_mb()))
        print(f"  {step:<34} {self.steps[-1][1]:6.1f} MB", flush=True)

    async def current(self) -> MainWindow:
        old = self.window
        await until(lambda: (w := shown_window()) is not None and w is not old)
        self.window = shown_window()
        assert self.window is not None
        return self.window

    async def switch(self) -> None:
        window = self.window
        assert window is not None
        self.language = "fr" if self.language == "en" else "en"
        combo = window.start.language
        combo.setCurrentIndex(combo.findData(self.language))
        combo.activated.emit(combo.currentIndex())  # what a click on the item sends
        await self.current()

    async def play(self, game: str, seed: int) -> int:
        window = self.window
        assert window is not None
        start = window.start
        start.local_game.setCurrentIndex(start.local_game.findData(game))
        start.local_bot_kind.setCurrentIndex(start.local_bot_kind.findData("random"))
        start.local_pace.setValue(0)
        start.local_play.click()
        session = window.session
        assert session is not None, start.message.text()
        engine = session.snapshot.engine
        me = make_bot(engine.name, "random", seed)
        while session.snapshot.outcome is None:
            snapshot = session.snapshot
            if snapshot.my_turn:
                session.move(engine.move_to_wire(me.choose(engine, snapshot.state)))
            await trio.sleep(0)
        plies = session.snapshot.ply
        for _ in range(20):
            await trio.sleep(0)  # the summary and last redraws
        window.leave_table()
        return plies

    async def replay(self, path: Path) -> int:
        window = self.window
        assert window is not None
        window.open_replay(path)
        screen = window.replay
        await until(lambda: screen.replay is not None)
        for ply in range(screen.last_ply + 1):
            screen.go_to(ply)
            screen.repaint()
            await trio.sleep(0)
        plies = screen.last_ply
        window.show_start()
        return plies

    async def run(self, replay_file: Path) -> None:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(main)
            await self.current()
            self.note("start screen")
            switches = _ARGS["switches"]
            done = 0
            for index, game in enumerate(GAMES):
                plies = await self.play(game, seed=index)
                self.note(f"after {game} ({plies} plies)")
                if done < switches:
                    await self.switch()
                    done += 1
                    self.note(f"after switch {done} ({self.language})")
            plies = await self.replay(replay_file)
            self.note(f"after the replay ({plies} plies)")
            while done < switches:
                await self.switch()
                done += 1
            self.note(f"after {switches} switches in all")
            window = self.window
            assert window is not None
            window.close()


def make_replay_file(directory: Path) -> Path:
    from bench_verify import play_one

    path, _plies = play_one(directory, 0, 7)
    return path


def main_() -> int:
    print(f"code: {TREE}")
    began = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="palabre-evening-") as tmp:
        replay_file = make_replay_file(Path(tmp))
        gc.collect()
        evening = Evening()
        qtrio.run(evening.run, replay_file)
    final = evening.steps[-1][1]
    print(f"resident at the end: {final:.1f} MB; peak {peak_mb():.1f} MB; "
          f"{time.perf_counter() - began:.0f} s")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main_())
