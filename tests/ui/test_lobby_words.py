"""What a lobby says to a player who just joined, through real windows on loopback: the title
is a sentence (``Ana's table: Consensus — 4 seats``, no ``seats=4``), and the invite box,
which is the host's to give, is not shown empty to the joiner."""

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
from tests.ui.windows import open_window, until

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
