"""Every control of every screen has an accessible name a screen reader can say
(``ui.accessible_names``): the start screen and its forms, the lobby of a hosted table, the
table of each game with its board and, once the game ended, its summary, the replay of a
game file, the rules window."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import qtrio
from PySide6.QtGui import QAccessible
from PySide6.QtWidgets import QPushButton, QWidget

from client.commands.launcher import HostRequest
from client.sessions.local_game import LocalGame
from engines import find_engine
from tests.client.test_replay import pointed_game
from tests.ui.windows import free_port, open_window, until
from ui.accessible_names import name_controls, unnamed
from ui.screens.replay import ReplayScreen
from ui.screens.rules import RulesDialog

pytestmark = [pytest.mark.gui, pytest.mark.filterwarnings("error")]
qt_trio = pytest.mark.trio(run=qtrio.run)


def silent(root: QWidget) -> list[str]:
    """The controls without a name, described for the failure message."""
    return [
        f"{type(widget).__name__} {widget.objectName()!r} in {type(widget.parentWidget()).__name__}"
        for widget in unnamed(root)
    ]


def test_the_check_finds_a_silent_control(qtbot: Any) -> None:
    root = QWidget()
    qtbot.addWidget(root)
    symbol = QPushButton("◀", root)
    symbol.setToolTip("")
    assert len(unnamed(root)) == 1
    name_controls(root, {symbol: ("Previous ply", "")})
    assert unnamed(root) == []
    assert QAccessible.queryAccessibleInterface(symbol).text(QAccessible.Text.Name) == (
        "Previous ply"
    )


@pytest.mark.parametrize("game", ["cognes", "consensus", "discorder", "forbans"])
@qt_trio
async def test_every_control_of_the_window_has_a_name(qtbot: Any, game: str) -> None:
    async with open_window(qtbot) as window:
        assert silent(window.start) == []
        session = LocalGame(
            find_engine(game),
            {"seats": 2 if game != "consensus" else 4},
            player_name="Ana",
            seed=1,
            bot_delay=0,
        )
        window.open_session(session)
        table = window.table
        assert silent(table) == []
        session.resign()
        await until(lambda: session.snapshot.outcome is not None)
        await until(lambda: table.summary.isVisibleTo(table))
        assert silent(table) == []
        assert silent(table.show_rules()) == []


@qt_trio
async def test_the_lobby_of_a_hosted_table_names_its_controls(qtbot: Any) -> None:
    async with open_window(qtbot) as window:
        session = window.launcher.host(
            HostRequest(game="discorder", seats=2, bots=1, port=free_port()), "Ana"
        )
        window.open_table(session)
        await until(lambda: bool(session.lobby.view.invite))
        assert silent(window.lobby) == []


def test_the_replay_and_rules_windows_name_their_controls(qtbot: Any, tmp_path: Path) -> None:
    screen = ReplayScreen()
    qtbot.addWidget(screen)
    screen.open_file(pointed_game(tmp_path).paths["B"])
    qtbot.waitUntil(lambda: screen.worker is None, timeout=30_000)
    assert screen.board is not None
    assert silent(screen) == []
    rules = RulesDialog()
    qtbot.addWidget(rules)
    assert silent(rules) == []
