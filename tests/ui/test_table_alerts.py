"""A loss of control, a new ruler on e5 and the end of the game get a banner, the window's
alert and a sound that the player can mute, the choice remembered (issue 21)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
import qtrio

from client.profile.settings import SettingsStore
from tests.ui.conftest import consensus_state
from tests.ui.test_consensus_board import POSITION
from tests.ui.windows import click, open_window, start_local, until
from ui.table_alerts import alerts_between

pytestmark = [pytest.mark.gui, pytest.mark.filterwarnings("error")]
qt_trio = pytest.mark.trio(run=qtrio.run)


@qt_trio
async def test_the_mute_setting_is_remembered(qtbot: Any) -> None:
    async with open_window(qtbot, "mute", name="Zoé") as window:
        start_local(qtbot, window, "consensus", pace_ms=60_000)
        button = window.table.sound_button
        assert button.isChecked()
        click(qtbot, button)
        assert not button.isChecked()
    assert SettingsStore("mute").settings.muted
    async with open_window(qtbot, "mute") as window:
        assert not window.table.sound_button.isChecked()
        click(qtbot, window.table.sound_button)
    assert not SettingsStore("mute").settings.muted


@qt_trio
async def test_resigning_says_the_loss_of_control_in_a_banner(qtbot: Any) -> None:
    async with open_window(qtbot, name="Zoé") as window:
        session = start_local(qtbot, window, "consensus")
        table = window.table
        assert table.alert_line.isHidden()  # a table's first look alerts nothing
        click(qtbot, table.resign_button)
        click(qtbot, table.confirm_yes)
        await until(lambda: not table.alert_line.isHidden())
        assert "You lost control: your pieces are out of play." in table.alert_line.text()
        assert session.snapshot.my_seat is not None


@qt_trio
async def test_a_new_ruler_and_a_killed_president_are_alerts(qtbot: Any) -> None:
    async with open_window(qtbot, name="Zoé") as window:
        session = start_local(qtbot, window, "consensus", pace_ms=60_000)
        before = session.snapshot
        assert alerts_between(None, before) == []
        assert alerts_between(before, before) == []
        ruled = replace(before, state=consensus_state(POSITION))  # P4 stands on e5
        assert alerts_between(before, ruled) == [f"{before.seat_name(4)} rules e5 now."]
        taken = replace(before, state=replace(before.state, controllers=(2, 2, 3, 4)))
        assert alerts_between(before, taken) == [
            f"You lost control: {before.seat_name(2)} plays your pieces now."
        ]
        # Another seat losing its pieces is no alert for me.
        others = replace(before, state=replace(before.state, controllers=(1, 3, 3, 4)))
        assert alerts_between(before, others) == []


@qt_trio
async def test_the_end_of_the_game_is_an_alert(qtbot: Any) -> None:
    async with open_window(qtbot, name="Zoé") as window:
        session = start_local(qtbot, window, "cognes")
        table = window.table
        click(qtbot, table.resign_button)
        click(qtbot, table.confirm_yes)
        await until(lambda: session.snapshot.outcome is not None)
        assert table.alerted == ["The game is over."]  # the window's alert and the beep
        # said once, by the game-over banner, not again in the alert line under it
        assert table.banner.isVisible() and not table.alert_line.isVisible()
        assert "The game is over." not in table.alert_line.text()
