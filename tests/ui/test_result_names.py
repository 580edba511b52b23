"""A clocked Consensus table through a real window (qtrio, real TCP on loopback, clicks on the
real widgets): Ana hosts against three hosted bots with a 0.1 + 1 clock and never moves.

Her clock runs out: the alert says she lost on time, not Consensus's "You lost control" (her
pieces go out of play because the clock resigned for her, which the player must be told).
The bots play on to the end, and the result names the winner by its seated name (a bot's
name) in the banner and the summary, never "Seat 4" (issue 21).
"""

from __future__ import annotations

import re
from typing import Any

import pytest
import qtrio

from tests.ui.test_clock_window import session_of
from tests.ui.test_notices import lines as chat_lines
from tests.ui.windows import click, free_port, open_window, until
from ui.app import MainWindow

pytestmark = [pytest.mark.gui, pytest.mark.filterwarnings("error")]
qt_trio = pytest.mark.trio(run=qtrio.run)
SEAT_NUMBER = re.compile(r"\b[Ss]eat \d")


async def host_and_start_alone(qtbot: Any, window: MainWindow, seats: int) -> None:
    """Click *Host* on the form as filled, then *Ready* and *Start* once the bots sit."""
    click(qtbot, window.start.host_button)
    assert window.stack.currentWidget() is window.lobby, window.start.message.text()
    lobby = window.lobby
    last = seats - 1
    await until(lambda: lobby.seats.rowCount() == seats and lobby.seats.item(last, 1) is not None)
    click(qtbot, lobby.ready)
    await until(lobby.start.isEnabled)
    click(qtbot, lobby.start)
    await until(lambda: window.stack.currentWidget() is window.table)


async def host_clocked_consensus_with_bots(qtbot: Any, window: MainWindow) -> None:
    start = window.start
    start.host_game.setCurrentIndex(start.host_game.findData("consensus"))
    start.host_bots.setValue(3)
    start.host_pace.setValue(0)
    start.host_port.setValue(free_port())
    clock = start.host_clock
    clock.choice.setCurrentIndex(clock.choice.findData("custom"))
    clock.minutes.setValue(0.1)
    clock.seconds.setValue(1)
    await host_and_start_alone(qtbot, window, 4)


@qt_trio
async def test_losing_on_time_says_so_and_the_result_names_the_seated_players(
    qtbot: Any,
) -> None:
    async with open_window(qtbot, "ana", name="Ana", bot_delay=0, activate=False) as ana:
        await host_clocked_consensus_with_bots(qtbot, ana)
        session = session_of(ana)
        await until(lambda: session.snapshot.lost_on_time != (), 30)
        await until(lambda: bool(ana.table.alerted))
        said = " ".join(ana.table.alerted)
        assert "You lost on time." in said, said
        assert "lost control" not in said, said

        await until(lambda: session.snapshot.outcome is not None, 120)
        snapshot = session.snapshot
        outcome = snapshot.outcome
        assert outcome is not None and outcome.winners
        winner = snapshot.seat_name(outcome.winners[0])
        banner = ana.table.banner.text()
        assert winner in banner, banner
        assert not SEAT_NUMBER.search(banner), banner
        headline = ana.table.summary.headline.text()
        assert not SEAT_NUMBER.search(headline), headline
        chat = chat_lines(ana.table)
        assert not any(SEAT_NUMBER.search(line) for line in chat), chat
