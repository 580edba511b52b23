"""A replayed game whose seat changed hands says who did what, as the table screen does
(issue 21).

The file is a real one: a clocked four-player Consensus game played in a window, a terminal,
and two bot peers, one of them frozen (SIGSTOP) until it was voted off and a bot of the
host's took its seat and went on to win; two people let their clocks run out. Seen in the
replay window: the result named the seat's first player ("Dora wins"), not the bot that
won; the move list said "peer GHHS-4VFY… (Dora) removed; bots take seats [4]" and
"seat 1 resigns"; the status line said "Seat 4 rules e5"."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt

from tests.ui.test_replay_screen import opened

pytestmark = [pytest.mark.gui, pytest.mark.filterwarnings("error")]

GAME = Path(__file__).parents[1] / "data" / "clocked-removal-consensus.palabre-log"
BOT = "Bot 4 of Ana (normal)"


def lines_of(screen: Any) -> list[str]:
    return [screen.record.item(row).text() for row in range(screen.record.count())]


def test_the_bot_that_won_in_a_removed_players_seat_is_named(qtbot: Any) -> None:
    screen = opened(qtbot, GAME)
    verdict = screen.verdict.text()
    assert f"Result: {BOT} wins by holding power on e5." in verdict, verdict
    assert "Dora wins" not in verdict


def test_every_ply_is_said_in_the_players_words(qtbot: Any) -> None:
    screen = opened(qtbot, GAME)
    lines = lines_of(screen)
    said = "\n".join(lines)
    for word in ("peer ", "bots take seats", "[4]", "seat 1 resigns", "seat 2 resigns"):
        assert word not in said, said
    by_ply = {int(line.split(".")[0]): line for line in lines if line.split(".")[0].strip()}
    assert "Dora" in by_ply[4] and "Bot" not in by_ply[4], by_ply[4]  # before the removal
    assert "Dora voted off the table" in by_ply[8], by_ply[8]
    assert BOT in by_ply[9], by_ply[9]
    assert "Ana lost on time" in by_ply[10], by_ply[10]
    assert "Bruno lost on time" in by_ply[17], by_ply[17]


def test_the_line_under_the_board_names_the_ruler(qtbot: Any) -> None:
    screen = opened(qtbot, GAME)
    screen.setFocus()
    qtbot.keyClick(screen, Qt.Key.Key_End)
    text = screen.frame_text.text()
    assert f"{BOT} rules e5" in text, text
    assert "Seat 4" not in text
    screen.go_to(10)
    text = screen.frame_text.text()
    assert "Ana lost on time" in text and "seat 1 resigns" not in text, text
