"""Render the start screen of a host whose palabre crashed: its recent tables, to a PNG.

    python scripts/screenshot_recent.py [--out docs/img/recent-tables.png] [--join-box]

A real window hosts a Consensus table on loopback through its start screen (Ana, two bot
seats); a second peer ("Bruno", a real joining ``Peer`` with its own key) joins with the
invite, and the game starts.  Then Ana's palabre stops abruptly (its tasks are cancelled: no
goodbye).  A new window on Ana's profile shows the table under *Recent tables* with every
address its players listen at, Bruno's first, the row chosen and *Rejoin* ready to click.
``--join-box`` keeps the *Join a table* box only (the README's before/after pair: its
"before" is this script run against a tree from before the recent tables kept every table).
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
from screenshot_lobby import host_with_bruno, until  # noqa: E402  (a sibling script)

from client.commands.launcher import Launcher  # noqa: E402
from client.profile.settings import SettingsStore  # noqa: E402
from client.runtime.peer import Peer  # noqa: E402
from ui.app import MainWindow  # noqa: E402
from ui.i18n import install_language  # noqa: E402


async def host_and_crash(nursery: trio.Nursery) -> Peer:
    """Ana hosts, Bruno joins, the game starts, Ana's palabre dies; Bruno's peer is left."""
    async with trio.open_nursery() as crashed:
        window = MainWindow(crashed, Launcher(profile="ana"), SettingsStore("ana"))
        window.show()
        bruno = await host_with_bruno(window, nursery, bots=2, bot_delay=60)
        lobby = window.lobby
        lobby.ready.click()
        await until(lobby.start.isEnabled, "everyone to be ready")
        lobby.start.click()
        await until(lambda: window.stack.currentWidget() is window.table, "the table")
        crashed.cancel_scope.cancel()  # no goodbye: the process is gone
    window.session = None  # a dead palabre says nothing more when its window goes
    window.close()
    return bruno


async def shoot(out: Path, join_box: bool) -> None:
    install_language("en")
    async with trio.open_nursery() as nursery:
        await host_and_crash(nursery)
        window = MainWindow(nursery, Launcher(profile="ana"), SettingsStore("ana"))
        window.resize(1100, 720)
        window.show()
        start = window.start
        start.recent.setCurrentRow(0)
        await trio.sleep(0.5)
        out.parent.mkdir(parents=True, exist_ok=True)
        box = start.recent.parentWidget()
        area = QRect(box.mapTo(window, QPoint(0, 0)), box.size()).adjusted(-8, -8, 8, 8)
        shown = window.grab(area) if join_box else window.grab()
        if not shown.save(str(out)):
            raise SystemExit(f"could not write {out}")
        first = start.recent.item(0)
        print(f"wrote {out} ({first.text() if first is not None else 'no recent table'})")
        window.close()
        nursery.cancel_scope.cancel()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "img" / "recent-tables.png")
    parser.add_argument("--join-box", action="store_true", help="the Join a table box only")
    args = parser.parse_args()
    qtrio.run(shoot, args.out, args.join_box)
    return 0


if __name__ == "__main__":
    sys.exit(main())
