"""A table screen that first sees a game at ply N (a window that rejoined, or reopened its
game file) still says the plies since its player's move in words (issue 21).

Seen in a real window: the host's palabre was killed, came back and rejoined from the recent
tables, and the line under the board said "1. Bot 2 of Ana (normal): Fb8-g3 · 2. Bea: Si7-i6"
where it said "Bot 2 of Ana (normal)'s Fonctionnaire went from b8 to g3" before: the new
screen knew the position after the last ply only, not the ones before it, so it could not
say what each ply did.  The positions are the session's to give (its chain has every one)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import qtrio

from engines.consensus import ENGINE
from tests.ui.windows import click_move, open_window, start_local, until
from ui.boards.consensus import Board

pytestmark = [pytest.mark.gui, pytest.mark.filterwarnings("error")]
qt_trio = pytest.mark.trio(run=qtrio.run)
NOTATION = re.compile(r": [A-Za-z]*[a-i][1-9]")


@qt_trio
async def test_a_screen_that_sees_the_game_late_says_the_plies_in_words(
    qtbot: Any, palabre_home: Path
) -> None:
    async with open_window(qtbot, "ana", name="Ana") as window:
        session = start_local(qtbot, window, "consensus", my_seat=1, pace_ms=0)
        await until(lambda: session.snapshot.my_turn)
        board = window.table.board
        assert isinstance(board, Board)
        click_move(qtbot, board, ENGINE.move_to_wire(ENGINE.legal_moves(session.snapshot.state)[0]))
        await until(lambda: session.snapshot.my_turn and session.snapshot.ply == 4)
        window.table.set_session(session)  # a new screen on the game, as after a rejoin
        line = window.table.recent_line
        await until(lambda: len(line.parts) == 3)
        for part in line.parts:
            assert not NOTATION.search(part), line.parts
            assert "'s " in part, line.parts  # "Bot 2 of Ana (normal)'s GIGN …", in words
