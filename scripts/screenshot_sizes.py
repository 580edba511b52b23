"""Screenshots of the start screen and a game's table at a scale and a text size, and a
check that no text is clipped and no laid-out widgets overlap there.

    python scripts/screenshot_sizes.py --scale 2 [--font 1.5] [--game discorder]
        [--out docs/img] [--check]

``--scale`` is the screen's scaling (``QT_SCALE_FACTOR``: 2 is 200 %, the pictures have
twice the pixels), ``--font`` multiplies the system's text size.  Writes
``start-<tag>.png`` and ``table-<tag>.png`` (the tag: ``1x``, ``2x``, ``1x-font150``...;
another game than Consensus: ``table-<game>-<tag>.png``)
and prints what is clipped; with ``--check`` it exits 1 if anything is.  Offscreen unless
``QT_QPA_PLATFORM`` says otherwise (Xvfb: ``xvfb-run -a``); the same seed gives the same
game.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--font", type=float, default=1.0)
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "img")
    parser.add_argument("--plies", type=int, default=9, help="plies played before the shot")
    parser.add_argument("--game", default="consensus", help="the table's game")
    parser.add_argument("--check", action="store_true", help="exit 1 if any text is clipped")
    args = parser.parse_args()
    os.environ["QT_SCALE_FACTOR"] = f"{args.scale:g}"
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    os.environ.setdefault("PALABRE_HOME", tempfile.mkdtemp(prefix="palabre-sizes-"))

    import qtrio
    import trio
    from PySide6.QtWidgets import QApplication

    from client.bots import RandomBot
    from client.sessions.local_game import LocalGame
    from engines import find_engine
    from ui.app import MainWindow
    from ui.i18n import install_language
    from ui.layout_check import clipped, overlapping

    application = QApplication([sys.argv[0]])
    font = application.font()
    font.setPointSizeF(font.pointSizeF() * args.font)
    application.setFont(font)
    tag = f"{args.scale:g}x" + (f"-font{round(args.font * 100)}" if args.font != 1 else "")
    problems: list[str] = []
    engine = find_engine(args.game)
    table_name = "table" if args.game == "consensus" else f"table-{args.game}"

    def shoot(window: MainWindow, name: str, screen: object) -> None:
        out = args.out / f"{name}-{tag}.png"
        out.parent.mkdir(parents=True, exist_ok=True)
        if not window.grab().save(str(out)):
            raise SystemExit(f"could not write {out}")
        found = [f"{name}: clipped {what}" for what in clipped(screen)]  # type: ignore[arg-type]
        found += [f"{name}: overlap {what}" for what in overlapping(screen)]  # type: ignore[arg-type]
        problems.extend(found)
        print(f"wrote {out} ({window.width()}x{window.height()} at {args.scale:g}x)")

    async def run() -> None:
        install_language("en")
        async with trio.open_nursery() as nursery:
            window = MainWindow(nursery)
            window.resize(1200, 800)
            window.show()
            await trio.sleep(0.3)
            shoot(window, "start", window.start)
            game = LocalGame(
                engine,
                {"seats": 4 if args.game == "consensus" else 2},
                player_name="Ana",
                bot_kind="random",
                seed=5,
                bot_delay=0,
            )
            window.open_session(game)
            me = RandomBot(5)
            while game.snapshot.ply < args.plies and game.snapshot.outcome is None:
                snapshot = game.snapshot
                if snapshot.my_turn:
                    game.move(engine.move_to_wire(me.choose(engine, snapshot.state)))
                await trio.sleep(0.001)
            await trio.sleep(0.3)
            shoot(window, table_name, window.table)
            window.close()
            nursery.cancel_scope.cancel()

    qtrio.run(run)
    for problem in problems:
        print(problem)
    return 1 if args.check and problems else 0


if __name__ == "__main__":
    sys.exit(main())
