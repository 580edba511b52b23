"""A clocked table through real windows: two MainWindows in one trio run (qtrio), real TCP on
loopback, every action a click or a choice on the real widgets.

Ana hosts Discorder with a six-second clock chosen on the host form (custom: 0.1 min + 0 s),
Bea joins from her window; both lobbies say the clock and that with two machines neither can
make the other lose on time.  At the table every player's clock sits at the end of their
line, the running one highlighted, in tenths and red under 10 s, ticking from the window's
timer; Ana is warned once.  Ana never moves: her own palabre resigns for her at her limit,
and both windows say "Ana lost on time" in the move list, the chat, the banner and the
summary.  The replay of her game file shows both clocks at each ply.
"""

from __future__ import annotations

from typing import Any

import pytest
import qtrio

from client.sessions.net_session import NetSession
from tests.ui.test_network_window import (
    both_ready_and_started,
    join_from_the_window,
    loopback_invite,
)
from tests.ui.windows import click, free_port, open_window, until
from ui.app import MainWindow
from ui.screens.player_clocks import CLOCK_ROLE, ClockFace

pytestmark = [pytest.mark.gui, pytest.mark.filterwarnings("error")]
qt_trio = pytest.mark.trio(run=qtrio.run)


def clocks(window: MainWindow) -> list[ClockFace | None]:
    players = window.table.players
    return [players.clock_of(row) for row in range(players.count())]


def host_clocked_discorder(qtbot: Any, window: MainWindow, minutes: float, seconds: int) -> None:
    start = window.start
    start.host_game.setCurrentIndex(start.host_game.findData("discorder"))
    start.host_bots.setValue(0)
    start.host_port.setValue(free_port())
    clock = start.host_clock
    clock.choice.setCurrentIndex(clock.choice.findData("custom"))
    assert clock.custom.isVisible()  # the fields for the host's own clock
    clock.minutes.setValue(minutes)
    clock.seconds.setValue(seconds)
    click(qtbot, start.host_button)
    assert window.stack.currentWidget() is window.lobby, start.message.text()


def session_of(window: MainWindow) -> NetSession:
    session = window.session
    assert isinstance(session, NetSession)
    return session


@qt_trio
async def test_a_clocked_table_of_two_windows_shows_ticks_warns_and_loses_on_time(
    qtbot: Any,
) -> None:
    async with (
        open_window(qtbot, "ana", name="Ana", bot_delay=0, activate=False) as ana,
        open_window(qtbot, "bea", name="Bea", bot_delay=0, activate=False) as bea,
    ):
        host_clocked_discorder(qtbot, ana, 0.1, 0)
        invite = await loopback_invite(ana)
        assert ana.lobby.clock.isVisible()
        assert ana.lobby.clock.text() == "Clock: 0.1 min + 0 s a move for each player."
        join_from_the_window(qtbot, bea, invite)
        await until(lambda: "two computers" in bea.lobby.clock.text())
        for window in (ana, bea):  # both machines, once two are at the table
            await until(lambda w=window: "two computers" in w.lobby.clock.text())
            said = window.lobby.clock.text()
            assert said.startswith("Clock: 0.1 min + 0 s a move for each player.\n")
            assert "neither can make the other's player lose on time" in said
            assert "marks as disputed" in said
        await both_ready_and_started(qtbot, ana, bea)

        # Ana's clock runs (hers is the first move): highlighted, in tenths, red; Bea's waits.
        await until(lambda: None not in clocks(ana) and clocks(ana)[0].running)  # type: ignore[union-attr]
        first, second = clocks(ana)
        assert first is not None and second is not None
        assert first.running and first.low and "." in first.text
        assert (second.running, second.text) == (False, "6.0")
        # It ticks from the window's own timer: nothing is clicked, no message is needed.
        shown = first.text
        await until(lambda: clocks(ana)[0] is not None and clocks(ana)[0].text != shown)  # type: ignore[union-attr]
        await until(lambda: clocks(bea)[0] is not None and clocks(bea)[0].running)  # type: ignore[union-attr]
        # Ana is told once, with the window's alert; Bea (not running) is not.
        await until(lambda: ana.table.alerted == ["Under 10 seconds on your clock!"])
        assert ana.table.alert_line.isVisible()
        assert bea.table.alerted != ["Under 10 seconds on your clock!"]
        # The clock's box is one width whatever it shows: the names never move.
        delegate = ana.table.players.clock_delegate
        font = ana.table.players.font()
        assert delegate.box_width(font) >= ana.fontMetrics().horizontalAdvance("0:00:00")

        # Ana never moves: her palabre resigns for her at her limit, and both windows say so.
        for window in (ana, bea):
            await until(lambda w=window: session_of(w).snapshot.outcome is not None, 30)
        for window in (ana, bea):
            snapshot = session_of(window).snapshot
            assert snapshot.lost_on_time == ((1, 1),)
            table = window.table
            assert "Ana lost on time" in table.moves.item(0).text()
            if window is bea:  # the line under the board (Ana's ply is her own: not on hers)
                said = " ".join(table.recent_line.parts)
                assert "Ana lost on time" in said and "resigns" not in said, said
            assert "Ana lost on time." in table.banner.text()
            assert "Bea won." in table.banner.text() or "You win!" in table.banner.text()
            lines = table.chat.lines
            chat = [lines.item(row).text() for row in range(lines.count())]
            assert any("Ana lost on time." in line for line in chat), chat
            assert "Ana lost on time." in table.summary.headline.text()
            assert "lost on time" in table.summary.standings.text()
            assert not table.clock_timer.isActive()  # over: the clocks stop
            assert clocks(window)[0] == ClockFace("0.0", running=False, low=True)

        # The replay of Ana's game file: both clocks at each ply.
        click(qtbot, ana.table.summary.replay_button)
        replay = ana.replay
        await until(lambda: replay.replay is not None, 30)
        players = replay.players
        replay.go_to(0)
        faces = [players.item(row).data(CLOCK_ROLE) for row in range(players.count())]
        assert [face.text for face in faces] == ["6.0", "6.0"]
        assert faces[0].running
        replay.go_to(1)
        faces = [players.item(row).data(CLOCK_ROLE) for row in range(players.count())]
        assert [face.text for face in faces] == ["0.0", "6.0"]
        assert "Ana ran out of time" in replay.frame_text.text()
        assert "lost on time" in replay.frame_text.text()
