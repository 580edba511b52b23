"""The host's lobby window shows a joiner whose seat its palabre's bot plays (``palabre join
--bot``) as a bot with its level, not as a person; the host may still send that player away
(it is no bot of the host's to remove).  A real window hosting over loopback, a real joiner."""

from __future__ import annotations

from typing import Any

import pytest
import trio
from PySide6.QtCore import Qt

from client.node.joining import JoinConfig
from client.node.peer_node import NodeConfig
from client.runtime.peer import Peer
from net.identity import load_profile_identity
from tests.ui.test_window import free_port, open_window, qt_trio, until

pytestmark = [pytest.mark.gui, pytest.mark.filterwarnings("error")]

KIND = 3  # the seats table's Kind column


@qt_trio
async def test_the_host_sees_a_joiner_played_by_its_bot_as_a_bot(qtbot: Any) -> None:
    async with open_window(qtbot) as window, trio.open_nursery() as nursery:
        start = window.start
        start.host_game.setCurrentIndex(start.host_game.findData("forbans"))
        start.host_port.setValue(free_port())
        qtbot.mouseClick(start.host_button, Qt.MouseButton.LeftButton)
        lobby = window.lobby
        await until(lambda: lobby.invite.text().startswith("palabre://"))
        port = int(lobby.invite.text().split(":")[2].split("/")[0])
        bea = Peer(
            load_profile_identity("bea"),
            JoinConfig(("127.0.0.1", port), "Bea", ready=False, own_bot="strong"),
            NodeConfig(profile="bea", bot_me=True, bot_kind="strong"),
        )
        nursery.start_soon(bea.run)
        await until(
            lambda: lobby.seats.item(1, KIND) is not None and lobby.seats.item(1, KIND).text() != ""
        )
        assert lobby.seats.item(1, 1).text() == "Bot 2 of Bea (strong)"
        assert lobby.seats.item(1, KIND).text() == "bot"
        assert lobby.seats.item(0, KIND).text() == "person"  # the host plays its own seat
        assert not lobby.remove_bot.isEnabled()  # not the host's bot: nothing to remove
        lobby.seats.selectRow(1)
        qtbot.mouseClick(lobby.remove_player, Qt.MouseButton.LeftButton)
        await until(lambda: bea.done.is_set())
        assert bea.exit_code == 4
        await until(lambda: lobby.seats.item(1, 1).text() != "Bot 2 of Bea (strong)")
