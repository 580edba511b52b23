"""Render a Consensus table played from the keyboard, to a PNG.

    python scripts/screenshot_keyboard.py [--out docs/img/consensus-keyboard.png]

A real window starts a game against three slow bots from its start screen by keys only (Tab
to the game, Space on *Play against bots*); then, with key events only, the board's cursor
picks seat 1's Coutumier on c3 (its destinations ringed) and moves on to a target, and the
move box holds a move half typed.  The white ring is the cursor.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("PALABRE_HOME", tempfile.mkdtemp(prefix="palabre-shot-"))

import qtrio  # noqa: E402
import trio  # noqa: E402
from PySide6.QtCore import Qt  # noqa: E402
from PySide6.QtTest import QTest  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from client.commands.launcher import Launcher  # noqa: E402
from client.profile.settings import SettingsStore  # noqa: E402
from engines.consensus_board import parse_square  # noqa: E402
from ui.app import MainWindow  # noqa: E402
from ui.i18n import install_language  # noqa: E402


def key(widget: object, code: Qt.Key, modifier: Qt.KeyboardModifier | None = None) -> None:
    QTest.keyClick(widget, code, modifier or Qt.KeyboardModifier.NoModifier)  # type: ignore[arg-type]


async def shoot(out: Path) -> None:
    install_language("en")
    async with trio.open_nursery() as nursery:
        window = MainWindow(nursery, Launcher(profile="ana"), SettingsStore("ana"))
        window.resize(1280, 820)
        window.show()
        window.activateWindow()
        await trio.sleep(0.3)
        start = window.start
        key(start.name, Qt.Key.Key_Tab)
        while start.local_game.currentData() != "consensus":
            key(start.local_game, Qt.Key.Key_Up)
        while QApplication.focusWidget() is not start.local_pace:
            key(QApplication.focusWidget(), Qt.Key.Key_Tab)
        while start.local_pace.currentIndex() < start.local_pace.count() - 1:
            key(start.local_pace, Qt.Key.Key_Down)  # slow bots: the picture holds still
        key(start.local_pace, Qt.Key.Key_Tab)
        key(start.local_play, Qt.Key.Key_Space)
        await trio.sleep(0.3)
        table = window.table
        cursor = table.keyboard.cursor
        assert cursor is not None and table.keyboard.move_box is not None
        board = table.board
        for target in ("c3", "c5"):
            square = parse_square(target)
            while cursor.spot != square:
                here, there = cursor.mark_point(cursor.spot), cursor.mark_point(square)
                if abs(there.x() - here.x()) > 4:
                    key(board, Qt.Key.Key_Right if there.x() > here.x() else Qt.Key.Key_Left)
                else:
                    key(board, Qt.Key.Key_Down if there.y() > here.y() else Qt.Key.Key_Up)
            if target == "c3":
                key(board, Qt.Key.Key_Return)
        field = table.keyboard.move_box.field
        field.setText("Cc3-")  # seen, not played: the keys stay on the board
        await trio.sleep(0.3)
        out.parent.mkdir(parents=True, exist_ok=True)
        if not window.grab().save(str(out)):
            raise SystemExit(f"could not write {out}")
        print(f"wrote {out}")
        window.close()
        nursery.cancel_scope.cancel()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--out", type=Path, default=ROOT / "docs" / "img" / "consensus-keyboard.png"
    )
    args = parser.parse_args()
    qtrio.run(shoot, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
