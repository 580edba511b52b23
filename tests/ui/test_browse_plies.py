"""Looking back at a ply while the game goes on (issue 21): a click in the move list shows
that position with a "viewing ply N — back to live" bar, the arrows browse, a new ply at the
table does not pull the view away, and Esc or the button goes back to the live game."""

from __future__ import annotations

from typing import Any

import pytest
import qtrio
from PySide6.QtCore import QPoint, Qt

from engines.consensus import ENGINE
from tests.ui.windows import open_window, start_local, until
from ui.app import MainWindow
from ui.boards.consensus import Board

pytestmark = [pytest.mark.gui, pytest.mark.filterwarnings("error")]
qt_trio = pytest.mark.trio(run=qtrio.run)


def position_after(plies: Any, count: int) -> Any:
    state = ENGINE.initial_state({"seats": 4})
    for ply in plies[:count]:
        state = ENGINE.apply(state, ENGINE.move_from_wire(list(ply.wire)))
    return state


def click_row(qtbot: Any, window: MainWindow, row: int) -> None:
    moves = window.table.moves
    rect = moves.visualItemRect(moves.item(row))
    qtbot.mouseClick(moves.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())


@qt_trio
async def test_a_click_in_the_move_list_shows_that_ply_while_the_game_goes_on(
    qtbot: Any,
) -> None:
    async with open_window(qtbot) as window:
        # Three bots play first, one after the other.
        session = start_local(qtbot, window, "consensus", my_seat=4, pace_ms=400)
        table = window.table
        assert isinstance(table.board, Board)
        board, browser = table.board, table.browser
        assert not browser.isVisible()
        await until(lambda: session.snapshot.ply >= 2)
        assert session.snapshot.ply == 2
        click_row(qtbot, window, 1)  # the last ply is the live position: no bar
        assert browser.viewing is None and not browser.isVisible()
        click_row(qtbot, window, 0)
        assert browser.isVisible() and browser.viewing == 1
        assert "Viewing ply 1 of 2" in browser.label.text()
        assert ENGINE.digest(board.state) == ENGINE.digest(
            position_after(session.snapshot.plies, 1)
        )
        assert not board.interactive

        await until(lambda: session.snapshot.my_turn)  # two more bot plies arrived meanwhile
        assert browser.viewing == 1 and "Viewing ply 1 of 3" in browser.label.text()
        assert ENGINE.digest(board.state) == ENGINE.digest(
            position_after(session.snapshot.plies, 1)
        )
        assert table.moves.currentRow() == 0
        assert "Your move." in table.status.text()  # the status line is the live game's
        # A click on the board (a mouse player's) leaves the arrows to browsing; the board
        # cursor has them only when the board got the keys by keyboard (test_board_cursor).
        qtbot.mouseClick(board.canvas, Qt.MouseButton.LeftButton, pos=QPoint(1, 1))

        qtbot.keyClick(board, Qt.Key.Key_Right)
        assert browser.viewing == 2
        assert ENGINE.digest(board.state) == ENGINE.digest(
            position_after(session.snapshot.plies, 2)
        )
        qtbot.keyClick(board, Qt.Key.Key_Left)
        qtbot.keyClick(board, Qt.Key.Key_Left)
        assert browser.viewing == 0 and "Viewing the start" in browser.label.text()
        assert ENGINE.digest(board.state) == ENGINE.digest(ENGINE.initial_state({"seats": 4}))
        qtbot.keyClick(board, Qt.Key.Key_Escape)
        assert browser.viewing is None and not browser.isVisible()
        assert board.state is session.snapshot.state and board.interactive

        qtbot.keyClick(board, Qt.Key.Key_Left)  # from live, one ply back
        assert browser.viewing == 2
        qtbot.mouseClick(browser.live_button, Qt.MouseButton.LeftButton)
        assert browser.viewing is None and board.interactive
        qtbot.keyClick(board, Qt.Key.Key_Right)  # already live: stays live
        assert browser.viewing is None
