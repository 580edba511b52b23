"""A host attempt that fails (the port is taken, or needs rights) leaves the player on the
start screen with the reason in the window's words, never in a lobby titled as if the table
were open, and never with a command-line flag to use; the screen stays usable (issue 21).
A real window, a real socket holding the port on loopback."""

from __future__ import annotations

import socket
from typing import Any

import pytest
import qtrio

from tests.ui.windows import click, free_port, open_window, until

pytestmark = [pytest.mark.gui, pytest.mark.filterwarnings("error")]
qt_trio = pytest.mark.trio(run=qtrio.run)


@qt_trio
async def test_hosting_on_a_port_in_use_says_so_on_the_start_screen(qtbot: Any) -> None:
    with socket.socket() as taken:
        taken.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 0)
        taken.bind(("", 0))
        taken.listen()
        port = taken.getsockname()[1]
        async with open_window(qtbot, "ana", name="Ana", activate=False) as window:
            start = window.start
            start.host_game.setCurrentIndex(start.host_game.findData("consensus"))
            start.host_port.setValue(port)
            click(qtbot, start.host_button)
            assert window.stack.currentWidget() is window.lobby
            assert window.lobby.title.text() == "Opening your table…"  # not "You host…"
            assert not window.lobby.copy_invite.isEnabled()
            await until(lambda: bool(start.message.text()), timeout=20)
            assert window.stack.currentWidget() is start
            message = start.message.text()
            assert f"Port {port} is already in use" in message, message
            assert "--" not in message and "Port box" in message, message
            assert window.session is None

            start.host_port.setValue(free_port())  # the screen still works: another port
            click(qtbot, start.host_button)
            assert window.stack.currentWidget() is window.lobby
            await until(lambda: window.lobby.invite.text().startswith("palabre://"))
            assert window.lobby.title.text().startswith("You host this table: Consensus")
            assert start.message.text() == ""
