"""The clocks' widgets, on their own: the players list's clock faces (fixed-width boxes, "?"
for a clock not known here, tenths under 10 s) and the host form's time control, which makes
the same clock ``palabre host --clock`` makes from the same text."""

from __future__ import annotations

from typing import Any

import pytest
import qtrio
from PySide6.QtCore import Qt

from client.rules.clock import parse_time_control
from client.sessions.local_game import LocalGame
from client.sessions.net_session import NetSession
from client.tabletop.table_clock import ClockDisplay
from engines.forbans import ENGINE
from tests.ui.windows import free_port, open_window
from ui.screens.player_clocks import ClockFace
from ui.screens.table_parts import PlayersPanel
from ui.screens.time_control import PRESETS, TimeControlBox

pytestmark = [pytest.mark.gui, pytest.mark.filterwarnings("error")]
qt_trio = pytest.mark.trio(run=qtrio.run)


def panel(qtbot: Any) -> PlayersPanel:
    game = LocalGame(ENGINE, {}, player_name="Ana", think_in_thread=False)
    players = PlayersPanel()
    qtbot.addWidget(players)
    players.resize(420, 200)
    players.show()
    players.show_players(game.snapshot, {})
    return players


def faces(players: PlayersPanel) -> list[ClockFace | None]:
    return [players.clock_of(row) for row in range(players.count())]


def test_each_line_shows_its_seats_clock_and_the_names_stay(qtbot: Any) -> None:
    players = panel(qtbot)
    names = [players.item(row).text() for row in range(players.count())]
    assert faces(players) == [None, None]  # a game without a clock shows none
    players.show_clocks(ClockDisplay((3_727_000, 9_840), running=2, low_ms=10_000))
    assert faces(players) == [
        ClockFace("1:02:07", running=False, low=False),
        ClockFace("9.8", running=True, low=True),  # tenths and red under 10 s
    ]
    players.show_clocks(ClockDisplay((65_000, None), running=2, low_ms=10_000))
    assert faces(players) == [
        ClockFace("1:05", running=False, low=False),
        ClockFace("?", running=True, low=False),  # restarted here: not known until a verdict
    ]
    assert [players.item(row).text() for row in range(players.count())] == names
    players.show_clocks(None)
    assert faces(players) == [None, None]


def test_the_clock_box_is_one_width_whatever_it_shows(qtbot: Any) -> None:
    players = panel(qtbot)
    delegate = players.clock_delegate
    font = players.font()
    width = delegate.box_width(font)
    assert width > players.fontMetrics().horizontalAdvance("0:00:00")
    for display in (
        ClockDisplay((9_999, 600_000), running=1, low_ms=10_000),
        ClockDisplay((3_600_000, 0), running=2, low_ms=10_000),
    ):
        players.show_clocks(display)
        image = players.grab()  # painted through the delegate without error
        assert not image.isNull()
        rows = [players.visualItemRect(players.item(row)) for row in range(players.count())]
        boxes = [delegate.clock_box(players, rect) for rect in rows]
        assert {box.width() for box in boxes} == {width}
        rights = {box.right() for box in boxes}  # one column, at the lines' right end
        assert len(rights) == 1 and rows[0].right() - 2 <= rights.pop() <= rows[0].right()


def test_every_time_control_of_the_form_is_the_command_lines(qtbot: Any) -> None:
    box = TimeControlBox()
    qtbot.addWidget(box)
    assert box.spec() is None and box.text() == ""  # no clock unless chosen
    for preset in PRESETS:
        box.choose(preset)
        assert not box.custom.isVisibleTo(box)
        assert box.spec() == parse_time_control(preset)
    box.choose("0.1+0")  # no preset: the host's own, six seconds each
    assert box.choice.currentData() == "custom" and box.custom.isVisibleTo(box)
    assert box.text() == "0.1+0" and box.spec() == parse_time_control("0.1+0")
    assert box.spec().base_ms == 6_000  # type: ignore[union-attr]
    box.minutes.setValue(2.5)
    box.seconds.setValue(7)
    assert box.spec() == parse_time_control("2.5+7")


@qt_trio
async def test_the_host_forms_clock_is_the_tables(qtbot: Any) -> None:
    async with open_window(qtbot, "ana", name="Ana") as window:
        start = window.start
        start.host_clock.choose("3+2")
        start.host_bots.setValue(1)
        start.host_port.setValue(free_port())
        qtbot.mouseClick(start.host_button, Qt.MouseButton.LeftButton)
        hosted = window.session
        assert isinstance(hosted, NetSession), start.message.text()
        assert hosted.peer.host is not None
        assert hosted.peer.host.config.clock == parse_time_control("3+2")
