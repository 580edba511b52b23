"""The window on a LAN: tables heard over mDNS joined with one click, and "Play again".

The multicast itself is tested between network namespaces (tests/e2e/test_mdns_lab.py);
here the window's ``TableFinder`` is told what it heard by the same call its zeroconf thread
makes, about a real host listening on loopback, and everything after that is real: the
click, the handshake against the announced key, the lobby, the game, the rematch.
"""

from __future__ import annotations

from typing import Any

import pytest
import trio
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QPushButton

from client.node.discovery import FoundTable, TableAd
from client.node.hosting import HostConfig
from client.node.joining import JoinConfig
from client.node.peer_node import NodeConfig, next_role
from client.runtime.mdns import TableFinder
from client.runtime.peer import Peer
from client.sessions.net_session import NetSession
from engines import find_engine
from net.identity import load_profile_identity
from net.invite import Invite, parse_invite
from tests.ui.test_window import free_port, open_window, qt_trio, until
from ui.app import MainWindow
from ui.screens.found_tables import FoundTablesBox

pytestmark = [pytest.mark.gui, pytest.mark.filterwarnings("error")]


def _row_texts(box: FoundTablesBox, row: int) -> list[str]:
    return [box.table.item(row, column).text() for column in range(4)]


@qt_trio
@pytest.mark.parametrize("by_keys", [False, True], ids=["click", "keys"])
async def test_a_table_heard_on_the_lan_is_listed_live_and_joined_with_one_click(
    qtbot: Any, by_keys: bool
) -> None:
    finder = TableFinder()  # not browsing: the test tells it what it hears
    engine = find_engine("cognes")
    hosting = HostConfig(engine, {"seats": 3}, "Ann")
    host = Peer(load_profile_identity("ann"), hosting)
    async with trio.open_nursery() as nursery:
        await host.open(free_port())
        nursery.start_soon(host.run)
        window = MainWindow(nursery, finder=finder)
        qtbot.addWidget(window)
        window.show()
        box = window.start.found
        await until(lambda: "none heard yet" in box.note.text())
        assert box.table.rowCount() == 0

        ad = TableAd("cognes", "cognes/1", "Ann", 2, 3, hosting.table_id, host.identity.fingerprint)
        finder.heard("ann's table", FoundTable(ad, ("127.0.0.1",), host.port))
        await until(lambda: box.table.rowCount() == 1)
        assert _row_texts(box, 0) == ["Cognes", "Ann", f"127.0.0.1:{host.port}", "2 of 3"]
        assert box.note.text() == "1 table heard on the LAN."
        elsewhere = TableAd("forbans", "forbans/1", "Zoé", 1, 2, b"\x01" * 16, ad.fingerprint)
        finder.heard("zoé's table", FoundTable(elsewhere, ("127.0.0.1",), 1))
        await until(lambda: box.table.rowCount() == 2)
        assert box.note.text() == "2 tables heard on the LAN."
        finder.heard("zoé's table", None)  # withdrawn
        await until(lambda: box.table.rowCount() == 1)

        join = box.table.cellWidget(0, 4)
        assert isinstance(join, QPushButton) and join.isEnabled()
        if by_keys:  # Tab to the list, an arrow to the row, Enter (issue 30)
            window.activateWindow()
            await until(lambda: QApplication.activeWindow() is window)
            window.start.name.setFocus()
            for _ in range(40):
                if QApplication.focusWidget() is box.table:
                    break
                qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
            assert QApplication.focusWidget() is box.table
            qtbot.keyClick(box.table, Qt.Key.Key_Down)
            assert box.table.currentRow() == 0
            qtbot.keyClick(box.table, Qt.Key.Key_Return)
        else:
            qtbot.mouseClick(join, Qt.MouseButton.LeftButton)
        assert window.stack.currentWidget() is window.lobby, window.start.message.text()
        session = window.session
        assert isinstance(session, NetSession) and session.peer.joining is not None
        target = session.peer.joining.config.target
        assert isinstance(target, Invite) and target.table_id == hosting.table_id
        await until(lambda: session.peer.me in host.host.lobby.peers)
        await until(lambda: window.lobby.seats.rowCount() == 3)
        # The host says how full its table is now; the list follows.
        full = TableAd("cognes", "cognes/1", "Ann", 0, 3, hosting.table_id, ad.fingerprint)
        finder.heard("ann's table", FoundTable(full, ("127.0.0.1",), host.port))
        await until(lambda: box.table.item(0, 3).text() == "0 of 3")
        button = box.table.cellWidget(0, 4)
        assert isinstance(button, QPushButton) and not button.isEnabled()
        assert button.toolTip() == "Every seat is taken."
        window.close()
        host.finish(0)
        nursery.cancel_scope.cancel()


@qt_trio
async def test_play_again_opens_a_new_table_with_the_seats_rotated(qtbot: Any) -> None:
    async with open_window(qtbot) as window, trio.open_nursery() as nursery:
        start = window.start
        start.host_game.setCurrentIndex(start.host_game.findData("discorder"))
        start.host_port.setValue(free_port())
        qtbot.mouseClick(start.host_button, Qt.MouseButton.LeftButton)
        lobby = window.lobby
        await until(lambda: lobby.invite.text().startswith("palabre://"))
        invite = parse_invite(lobby.invite.text())
        target = Invite(("127.0.0.1",), invite.port, invite.table_id, invite.fingerprint)
        identity = load_profile_identity("guest")
        guest = Peer(
            identity,
            JoinConfig(target, "Guest"),
            NodeConfig(bot_me=True, bot_delay=0.05, rematch=True, profile="guest"),
        )
        nursery.start_soon(guest.run)
        await until(lambda: lobby.seats.rowCount() == 2 and lobby.seats.item(1, 1) is not None)
        qtbot.mouseClick(lobby.ready, Qt.MouseButton.LeftButton)
        await until(lobby.start.isEnabled)
        qtbot.mouseClick(lobby.start, Qt.MouseButton.LeftButton)
        await until(lambda: window.stack.currentWidget() is window.table)
        first = window.session
        assert isinstance(first, NetSession) and first.snapshot.my_seat == 1

        table = window.table
        assert not table.rematch.isVisible()
        peer_table = first.peer.table
        assert peer_table is not None
        await until(lambda: peer_table.final_ply >= 0)  # every peer confirmed the start
        qtbot.mouseClick(table.resign_button, Qt.MouseButton.LeftButton)
        qtbot.mouseClick(table.confirm_yes, Qt.MouseButton.LeftButton)
        await until(lambda: table.rematch.isVisible())  # every END came
        await until(lambda: "Guest would like to play again." in table.rematch_status.text())
        assert table.again_button.isEnabled() and table.banner.isVisible()
        qtbot.mouseClick(table.again_button, Qt.MouseButton.LeftButton)

        # The guest's part of the new table (a headless peer's loop does this by itself).
        await until(lambda: guest.done.is_set())
        assert guest.rematch.next is not None
        config = NodeConfig(bot_me=True, bot_delay=0.05, profile="guest")
        second_guest = Peer(identity, next_role(guest.rematch.next, "Guest", config), config)
        nursery.start_soon(second_guest.run)

        await until(lambda: window.session is not first and window.session is not None)
        second = window.session
        assert isinstance(second, NetSession) and second.peer.host is not None
        assert second.peer.host.table_id != invite.table_id
        await until(lambda: window.stack.currentWidget() is window.table, timeout=30)
        assert second.snapshot.my_seat == 2  # seat 1 -> 2 of 2: the guest starts now
        assert second.snapshot.seats[0].name == "Guest"
        assert not table.rematch.isVisible()
        qtbot.mouseClick(table.leave_button, Qt.MouseButton.LeftButton)
        if table.leave_confirm.isVisible():  # mid-game, leaving is asked first
            qtbot.mouseClick(table.leave_yes, Qt.MouseButton.LeftButton)
        await until(lambda: second.peer.done.is_set())
        # The guest plays on alone until the host is away, then ends the table as abandoned.
        nursery.cancel_scope.cancel()
