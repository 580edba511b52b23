"""The start screen's recent tables through a real window (qtrio, real TCP on loopback, clicks
on the real widgets; issue 21).

Ana hosts Discorder against a hosted bot twice: she resigns the first game, and the second
goes on.  On main both read "Discorder — Ana" and both offered *Rejoin*.  Each line must say
what tells it apart (when, who sat, over with its result or in progress), and the finished
table offers *Replay*, which opens its game file.
"""

from __future__ import annotations

from typing import Any

import pytest
import qtrio

from tests.ui.test_clock_window import session_of
from tests.ui.test_result_names import host_and_start_alone
from tests.ui.windows import click, free_port, open_window, until
from ui.app import MainWindow

pytestmark = [pytest.mark.gui, pytest.mark.filterwarnings("error")]
qt_trio = pytest.mark.trio(run=qtrio.run)


async def host_discorder_against_a_bot(qtbot: Any, window: MainWindow) -> None:
    start = window.start
    start.host_game.setCurrentIndex(start.host_game.findData("discorder"))
    start.host_bots.setValue(1)
    start.host_pace.setValue(60_000)  # the bot waits: the game stays at Ana's first turn
    start.host_port.setValue(free_port())
    await host_and_start_alone(qtbot, window, 2)
    await until(lambda: session_of(window).snapshot.my_turn)


def recent_lines(window: MainWindow) -> list[str]:
    recent = window.start.recent
    return [recent.item(row).text() for row in range(recent.count())]


@qt_trio
async def test_recent_tables_say_when_who_and_how_they_stand_and_a_finished_one_replays(
    qtbot: Any,
) -> None:
    async with open_window(qtbot, "ana", name="Ana", bot_delay=0, activate=False) as ana:
        await host_discorder_against_a_bot(qtbot, ana)
        click(qtbot, ana.table.resign_button)
        click(qtbot, ana.table.confirm_yes)
        await until(lambda: session_of(ana).snapshot.outcome is not None)
        await until(
            lambda: session_of(ana).peer.table is None or not session_of(ana).peer.table.view.live()
        )
        click(qtbot, ana.table.leave_button)
        await until(lambda: ana.stack.currentWidget() is ana.start)

        await host_discorder_against_a_bot(qtbot, ana)
        ana.start.show_recent()  # what the start screen shows meanwhile
        await until(lambda: len(recent_lines(ana)) == 2)
        live, over = recent_lines(ana)
        assert live != over
        for line in (live, over):
            assert line.startswith("Discorder — 20"), line  # the day and time come next
            assert "Ana, Bot 2 of Ana (normal)" in line, line
        assert "In progress" in live, live
        assert "Over: Bot 2 of Ana (normal) won." in over, over
        assert "resigned" in over, over

        start = ana.start
        start.recent.setCurrentRow(0)
        assert start.rejoin_button.text() == "Rejoin"
        start.recent.setCurrentRow(1)
        assert start.rejoin_button.text() == "Replay"
        click(qtbot, ana.table.leave_button)
        if ana.table.leave_confirm.isVisible():
            click(qtbot, ana.table.leave_yes)
        await until(lambda: ana.stack.currentWidget() is ana.start)
        start.recent.setCurrentRow(1)
        assert start.rejoin_button.text() == "Replay"
        click(qtbot, start.rejoin_button)
        await until(lambda: ana.stack.currentWidget() is ana.replay)
        await until(lambda: ana.replay.replay is not None)
