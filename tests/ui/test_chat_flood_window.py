"""A player pasting faster than a person types, through real windows over real TCP: the
other window shows a person's pace of it and says once that the rest was dropped."""

from __future__ import annotations

import re
from typing import Any

import pytest
import qtrio

from client.flood_guard import CHAT_BURST
from tests.ui.test_network_window import (
    both_ready_and_started,
    host_from_the_window,
    join_from_the_window,
    loopback_invite,
)
from tests.ui.windows import click, open_window, type_text, until

pytestmark = [pytest.mark.gui, pytest.mark.filterwarnings("error")]
qt_trio = pytest.mark.trio(run=qtrio.run)
SENT = CHAT_BURST + 20


@qt_trio
async def test_a_chat_flood_is_shown_at_a_persons_pace_and_told_once_in_the_window(
    qtbot: Any,
) -> None:
    async with (
        open_window(qtbot, "ana", name="Ana", bot_delay=0, activate=False) as ana,
        open_window(qtbot, "bea", name="Bea", bot_delay=0, activate=False) as bea,
    ):
        host_from_the_window(qtbot, ana, bots=2)
        join_from_the_window(qtbot, bea, await loopback_invite(ana))
        await both_ready_and_started(qtbot, ana, bea)
        for n in range(1, SENT + 1):  # all at once: faster than anyone types
            type_text(bea.table.chat.field, f"line {n}")
            click(qtbot, bea.table.chat.button)
        lines = ana.table.chat.lines

        def texts() -> list[str]:
            return [lines.item(row).text() for row in range(lines.count())]

        told = re.compile(r"^Bea is flooding the table; (\d+) lines dropped\.$")
        await until(lambda: any(told.search(text) for text in texts()), timeout=30)
        shown = [text for text in texts() if re.fullmatch(r"Bea: line \d+", text)]
        [notice] = [found for text in texts() if (found := told.search(text))]
        assert len(shown) + int(notice[1]) == SENT, texts()
        assert CHAT_BURST <= len(shown) < SENT
        assert shown[:CHAT_BURST] == [f"Bea: line {n}" for n in range(1, CHAT_BURST + 1)]
