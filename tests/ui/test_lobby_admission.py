"""Admission from the window (issue 13): a table secret chosen on the start screen, a player
sent away from the lobby, and a warning about a known name with another key."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
import trio
from PySide6.QtCore import Qt

from client.node.joining import JoinConfig
from client.node.peer_events import JoinFailed
from client.node.peer_node import NodeConfig
from client.profile.known_peers import KnownPeers
from client.runtime.peer import Peer
from net.identity import load_profile_identity, profile_dir
from net.invite import parse_invite
from tests.ui.test_window import free_port, open_window, qt_trio, until

pytestmark = [pytest.mark.gui, pytest.mark.filterwarnings("error")]


def guest(name: str, target: Any, profile: str | None = None) -> Peer:
    return Peer(
        load_profile_identity(profile or name.lower()),
        JoinConfig(target, name, ready=False),
        NodeConfig(bot_me=True),
    )


@qt_trio
async def test_a_secret_table_from_the_window_and_a_player_sent_away(qtbot: Any) -> None:
    mallory_key = load_profile_identity("mallory").public_key
    KnownPeers(profile_dir("default") / "known-peers.json").remember(
        [(load_profile_identity("guest").public_key, "Guest")]
    )
    async with open_window(qtbot) as window, trio.open_nursery() as nursery:
        start = window.start
        start.host_game.setCurrentIndex(start.host_game.findData("discorder"))
        start.host_port.setValue(free_port())
        start.host_secret.setChecked(True)
        qtbot.mouseClick(start.host_button, Qt.MouseButton.LeftButton)
        lobby = window.lobby
        await until(lambda: lobby.invite.text().startswith("palabre://"))
        invite = parse_invite(lobby.invite.text())
        assert invite.secret is not None and len(invite.secret) == 26

        outsider = guest("Eve", ("127.0.0.1", invite.port))  # the address only
        failures: list[Any] = []
        outsider.observers.append(failures.append)
        nursery.start_soon(outsider.run)
        await until(lambda: outsider.done.is_set())
        refusal = next(e for e in failures if isinstance(e, JoinFailed))
        assert "did not give the table secret" in refusal.reason

        local = replace(invite, addresses=("127.0.0.1",))
        impostor = guest("Guest", local, profile="mallory")  # a name the host knows, new key
        nursery.start_soon(impostor.run)
        await until(
            lambda: lobby.seats.item(1, 1) is not None and lobby.seats.item(1, 1).text() == "Guest"
        )
        await until(lobby.warnings.isVisible)
        assert lobby.warnings.text().startswith("Careful: Guest (")
        assert "is not the Guest you played with before" in lobby.warnings.text()

        qtbot.mouseClick(lobby.remove_player, Qt.MouseButton.LeftButton)  # nothing selected
        assert lobby.status.text() == "Select a player's seat to send them away."
        lobby.seats.selectRow(1)
        qtbot.mouseClick(lobby.remove_player, Qt.MouseButton.LeftButton)
        await until(lambda: impostor.done.is_set())
        assert impostor.exit_code == 4
        assert "Guest was sent away" in lobby.status.text()
        await until(lambda: lobby.seats.item(1, 1).text() != "Guest")
        host = window.session.peer.host  # type: ignore[union-attr]
        assert host is not None
        seats = host.lobby.seats
        assert mallory_key not in {seat.key for seat in seats if seat is not None}
