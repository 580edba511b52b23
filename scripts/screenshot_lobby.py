"""Render the lobby screen of a real hosted table with a joined bot peer to a PNG.

    python scripts/screenshot_lobby.py [--out docs/img/lobby.png]

The real window hosts a Consensus table on loopback, through its own start screen (Ana's
name, the game, one bot seat); a second peer ("Bruno", a real joining ``Peer`` with its own key,
played by a bot) joins with the invite the lobby shows, and Ana says she is ready.  The
window is then grabbed: the seats with names, fingerprints, bots and ready marks, and the
invite to hand to the fourth player.
"""

from __future__ import annotations

import argparse
import os
import socket
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("PALABRE_HOME", tempfile.mkdtemp(prefix="palabre-shot-"))

import qtrio  # noqa: E402
import trio  # noqa: E402

from client.node.joining import JoinConfig  # noqa: E402
from client.node.peer_node import NodeConfig  # noqa: E402
from client.runtime.peer import Peer  # noqa: E402
from net.identity import load_profile_identity  # noqa: E402
from net.invite import Invite, parse_invite  # noqa: E402
from ui.app import MainWindow  # noqa: E402
from ui.i18n import install_language  # noqa: E402


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def until(predicate: Callable[[], bool], what: str, timeout: float = 30.0) -> None:
    with trio.move_on_after(timeout):
        while not predicate():
            await trio.sleep(0.01)
        return
    raise SystemExit(f"gave up waiting for {what}")


async def host_with_bruno(
    window: MainWindow,
    nursery: trio.Nursery,
    *,
    bots: int,
    bot_delay: float,
    game: str = "consensus",
    clock: str = "",
) -> Peer:
    """Ana hosts ``game`` from ``window``'s start screen with ``bots`` bot seats (and the
    time control ``clock``, ``5+3``, if given), and Bruno's peer (run in ``nursery``) joins
    with the invite the lobby shows; returns Bruno's peer."""
    start = window.start
    start.name.setText("Ana")
    start.name.editingFinished.emit()
    start.host_game.setCurrentIndex(start.host_game.findData(game))
    start.host_clock.choose(clock)
    start.host_bots.setValue(bots)
    start.host_port.setValue(free_port())
    start.host_button.click()
    lobby = window.lobby
    await until(lambda: lobby.invite.text().startswith("palabre://"), "the invite")
    invite = parse_invite(lobby.invite.text())
    target = Invite(("127.0.0.1",), invite.port, invite.table_id, invite.fingerprint)
    guest = Peer(
        load_profile_identity("bruno"),
        JoinConfig(target, "Bruno"),
        NodeConfig(bot_me=True, bot_delay=bot_delay, profile="bruno"),
    )
    nursery.start_soon(guest.run)

    def seated(name: str) -> bool:
        rows = range(lobby.seats.rowCount())
        cells = [lobby.seats.item(row, 1) for row in rows]
        return any(cell is not None and cell.text().startswith(name) for cell in cells)

    await until(lambda: seated("Bruno"), "Bruno to join")
    return guest


async def shoot(out: Path) -> None:
    install_language("en")
    async with trio.open_nursery() as nursery:
        window = MainWindow(nursery)
        window.resize(1100, 420)
        window.show()
        await host_with_bruno(window, nursery, bots=1, bot_delay=0.05)
        lobby = window.lobby
        lobby.ready.click()
        await until(lambda: lobby.ready.isChecked(), "Ana to be ready")
        await trio.sleep(0.5)
        out.parent.mkdir(parents=True, exist_ok=True)
        if not window.grab().save(str(out)):
            raise SystemExit(f"could not write {out}")
        rows = lobby.seats.rowCount()
        print(f"wrote {out} ({rows} seats, invite {lobby.invite.text()[:24]}…)")
        window.close()
        nursery.cancel_scope.cancel()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "img" / "lobby.png")
    args = parser.parse_args()
    qtrio.run(shoot, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
