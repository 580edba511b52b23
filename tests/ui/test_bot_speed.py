"""Bot speed on the start screen's forms: the choice is the wait before each bot move
(``bot_delay``, ``--bot-delay`` on the command line), for a local game and a hosted table."""

from __future__ import annotations

from typing import Any

import pytest
import qtrio
from PySide6.QtCore import Qt

from client.sessions.local_game import LocalGame
from client.sessions.net_session import NetSession
from tests.ui.windows import free_port, open_window

pytestmark = [pytest.mark.gui, pytest.mark.filterwarnings("error")]
qt_trio = pytest.mark.trio(run=qtrio.run)


@qt_trio
async def test_the_speed_chosen_on_each_form_is_the_bots_wait(qtbot: Any) -> None:
    async with open_window(qtbot, "ana", name="Ana") as window:
        start = window.start
        speeds = [start.local_pace.itemText(i) for i in range(start.local_pace.count())]
        assert speeds == ["fast", "normal", "slow"] and start.local_pace.currentText() == "normal"
        start.local_pace.setFocus()
        qtbot.keyClick(start.local_pace, Qt.Key.Key_Down)  # normal -> slow
        assert start.local_pace.currentText() == "slow"
        qtbot.mouseClick(start.local_play, Qt.MouseButton.LeftButton)
        local = window.session
        assert isinstance(local, LocalGame) and local.bot_delay == 2.0
        local.leave()
        window.show_start()

        start.host_pace.setFocus()
        qtbot.keyClick(start.host_pace, Qt.Key.Key_Up)  # normal -> fast
        assert start.host_pace.currentText() == "fast"
        start.host_bots.setValue(1)
        start.host_port.setValue(free_port())
        qtbot.mouseClick(start.host_button, Qt.MouseButton.LeftButton)
        hosted = window.session
        assert isinstance(hosted, NetSession), start.message.text()
        assert hosted.peer.config.bot_delay == 0.15  # what --bot-delay 150 sets
