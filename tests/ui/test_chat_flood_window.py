"""A chat flood seen in a real window over real TCP: a lying process (tests/e2e/liar.py)
signs 500 lines at once; the window shows a person's pace of them and says once, naming the
player plainly, how many were dropped."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import qtrio

from client.tabletop.flood_guard import CHAT_BURST
from tests.ui.test_network_window import host_from_the_window, lobby_rows, loopback_invite
from tests.ui.windows import click, open_window, until

pytestmark = [pytest.mark.gui, pytest.mark.filterwarnings("error")]
qt_trio = pytest.mark.trio(run=qtrio.run)
SENT = 500


@qt_trio
async def test_a_chat_flood_is_shown_at_a_persons_pace_and_told_once_in_the_window(
    qtbot: Any, palabre_home: Path
) -> None:
    async with open_window(qtbot, "ana", name="Ana", bot_delay=0, activate=False) as ana:
        host_from_the_window(qtbot, ana, bots=2)
        invite = await loopback_invite(ana)
        env = {
            **os.environ,
            "PALABRE_HOME": str(palabre_home),
            "PALABRE_TEST_LIES": f"flood_signed@1:{SENT}",
        }
        args = ["join", invite, "--headless", "--bot", "--bot-delay", "0", "--name", "Bea"]
        liar = subprocess.Popen(
            [sys.executable, "-m", "tests.e2e.liar", "--profile", "bea", *args],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        try:
            bea = ["of Bea (normal)", "bot", "✓"]  # her palabre's bot plays her seat (--bot)
            await until(lambda: bea in [[row[1][-15:], row[3], row[4]] for row in lobby_rows(ana)])
            click(qtbot, ana.lobby.ready)
            click(qtbot, ana.lobby.start)
            await until(lambda: ana.stack.currentWidget() is ana.table)
            lines = ana.table.chat.lines

            def texts() -> list[str]:
                return [lines.item(row).text() for row in range(lines.count())]

            told = re.compile(r"^Bea is flooding the table; (\d+) lines dropped\.$")
            await until(lambda: any(told.search(text) for text in texts()), timeout=60)
            shown = [text for text in texts() if re.fullmatch(rf"Bea: flood \d+ of {SENT}", text)]
            [notice] = [found for text in texts() if (found := told.search(text))]
            assert len(shown) + int(notice[1]) == SENT, texts()
            assert CHAT_BURST <= len(shown) < SENT // 4
            expected = [f"Bea: flood {n} of {SENT}" for n in range(1, CHAT_BURST + 1)]
            assert shown[:CHAT_BURST] == expected
        finally:
            liar.kill()
            liar.communicate()
