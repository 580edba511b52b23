"""What the screens say to those who join a table, through real windows on loopback.

The lobby's title is a sentence (``Ana's table: Consensus — 4 seats``, no ``seats=4``) and the
invite box, which is the host's to give, is not shown empty to a joiner.  A full table's
*Watch* leads to a table screen that says it watches whom, and shows none of a player's
controls (resign, draws, takeback, move box, pointing, the chat's field)."""

from __future__ import annotations

from typing import Any

import pytest
import qtrio

from tests.ui.test_network_window import (
    host_from_the_window,
    join_from_the_window,
    lobby_rows,
    loopback_invite,
)
from tests.ui.windows import click, open_window, until

pytestmark = [pytest.mark.gui, pytest.mark.filterwarnings("error")]
qt_trio = pytest.mark.trio(run=qtrio.run)


@qt_trio
async def test_a_joiner_reads_the_table_in_words_and_sees_no_empty_invite(qtbot: Any) -> None:
    async with (
        open_window(qtbot, "ana", name="Ana", bot_delay=0, activate=False) as ana,
        open_window(qtbot, "bea", name="Bea", bot_delay=0, activate=False) as bea,
    ):
        host_from_the_window(qtbot, ana, bots=1)
        invite = await loopback_invite(ana)
        assert ana.lobby.title.text() == "You host this table: Consensus — 4 seats"
        assert ana.lobby.invite_row.isVisible() and ana.lobby.invite.text()
        join_from_the_window(qtbot, bea, invite)
        await until(lambda: "Bea (you)" in [row[1] for row in lobby_rows(bea)])
        assert bea.lobby.title.text() == "Ana's table: Consensus — 4 seats"
        assert not bea.lobby.invite.isVisible()  # no empty box for a joiner


@qt_trio
async def test_a_watcher_is_told_it_watches_and_sees_no_players_controls(qtbot: Any) -> None:
    async with (
        open_window(qtbot, "ana", name="Ana", bot_delay=0, activate=False) as ana,
        open_window(qtbot, "eve", name="Eve", bot_delay=0, activate=False) as eve,
    ):
        host_from_the_window(qtbot, ana, bots=3)  # every seat taken
        invite = await loopback_invite(ana)
        join_from_the_window(qtbot, eve, invite)
        await until(eve.lobby.watch.isVisible)  # the table is full: Eve may watch
        click(qtbot, eve.lobby.watch)
        click(qtbot, ana.lobby.ready)
        await until(ana.lobby.start.isEnabled)
        click(qtbot, ana.lobby.start)
        await until(lambda: eve.stack.currentWidget() is eve.table)
        await until(lambda: eve.table.title.text().startswith("Watching"))
        assert eve.table.title.text() == (
            "Watching — Ana, Bot 2 of Ana (normal), Bot 3 of Ana (normal), "
            "Bot 4 of Ana (normal) play Consensus"
        )
        table = eve.table
        for control in (
            table.resign_button,
            table.offer_button,
            table.accept_button,
            table.takeback_button,
            table.keyboard.move_box,
            table.pointing and table.pointing.toolbar,
            table.chat.field,  # a spectator signs nothing: its chat reached nobody
            table.chat.button,
        ):
            assert control is not None and not control.isVisible(), control
        assert table.leave_button.isVisible()  # a watcher can always go
        # a seated player keeps them all
        assert ana.table.resign_button.isVisible() and ana.table.keyboard.move_box is not None
        assert ana.table.keyboard.move_box.isVisible()
        assert not ana.table.title.text().startswith("Watching")
        assert table.chat.lines.isVisible()  # a watcher reads the chat, never says a word
