"""Render the players and moves of a hosted table with bots of the host's, to a PNG.

    python scripts/screenshot_bot_names.py [--out docs/img/bot-names-after.png]

A real window hosts a Consensus table on loopback (Ana, two bot seats of her own); a second
peer ("Bruno", a real joining ``Peer`` played by a bot) joins with the invite and the game
starts; Ana plays two moves (the first legal one).  On her next turn the window's players
list and move list are grabbed: each bot under its own name.  The README's "before" picture
is this script run against a tree from before the bots got their own names (its hosted bots
were "Bot of Ana (normal) (you)", both of them).
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
from PySide6.QtCore import QPoint, QRect  # noqa: E402
from PySide6.QtWidgets import QWidget  # noqa: E402
from screenshot_lobby import host_with_bruno, until  # noqa: E402  (a sibling script)

from ui.app import MainWindow  # noqa: E402
from ui.i18n import install_language  # noqa: E402


def shown_area(window: MainWindow, *widgets: QWidget) -> QRect:
    """The part of ``window`` that ``widgets`` cover, with a small margin."""
    area = QRect()
    for widget in widgets:
        area = area.united(QRect(widget.mapTo(window, QPoint(0, 0)), widget.size()))
    return area.adjusted(-8, -24, 8, 8)


async def shoot(out: Path) -> None:
    install_language("en")
    async with trio.open_nursery() as nursery:
        window = MainWindow(nursery)
        window.resize(1100, 720)
        window.show()
        await host_with_bruno(window, nursery, bots=2, bot_delay=0.3)
        lobby = window.lobby
        lobby.ready.click()
        await until(lobby.start.isEnabled, "everyone to be ready")
        lobby.start.click()
        table = window.table
        await until(lambda: window.stack.currentWidget() is table, "the table")
        session = table.session
        for _ in range(2):  # two rounds: every seat's name in the move list too
            await until(lambda: session.snapshot.my_turn, "Ana's turn")
            snapshot = session.snapshot
            engine = snapshot.engine
            session.move(engine.move_to_wire(engine.legal_moves(snapshot.state)[0]))
            await until(lambda: not session.snapshot.my_turn, "Ana's move")
        await until(lambda: session.snapshot.my_turn, "Ana's turn again")
        await trio.sleep(0.5)
        out.parent.mkdir(parents=True, exist_ok=True)
        if not window.grab(shown_area(window, table.players, table.moves)).save(str(out)):
            raise SystemExit(f"could not write {out}")
        names = [table.players.item(row).text() for row in range(table.players.count())]
        print(f"wrote {out} (players: {names})")
        window.close()
        nursery.cancel_scope.cancel()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "img" / "bot-names-after.png")
    args = parser.parse_args()
    qtrio.run(shoot, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
