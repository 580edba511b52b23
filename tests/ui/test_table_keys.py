"""The table's keys (issue 21): Enter writes in the chat and sends, Ctrl+Z asks for a
takeback, the arrows browse plies (test_browse_plies.py), Esc steps back as before, and F1 or
? lists them all in an overlay."""

from __future__ import annotations

from typing import Any

import pytest
import qtrio
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QApplication

from tests.ui.windows import click_move, open_window, start_local, type_text, until
from ui.boards.consensus import Board
from ui.screens.keys_help import KEYS

pytestmark = [pytest.mark.gui, pytest.mark.filterwarnings("error")]
qt_trio = pytest.mark.trio(run=qtrio.run)


@qt_trio
async def test_every_key_of_the_table_works_and_is_listed(qtbot: Any) -> None:
    async with open_window(qtbot, name="Zoé") as window:
        session = start_local(qtbot, window, "consensus", pace_ms=3000)
        table = window.table
        board = table.board
        assert isinstance(board, Board)
        # A click on the board: its keys are the mouse player's (the cursor's are in
        # test_board_cursor.py).
        qtbot.mouseClick(board.canvas, Qt.MouseButton.LeftButton, pos=QPoint(1, 1))
        assert board.hasFocus()

        qtbot.keyClick(board, Qt.Key.Key_F1)
        help_text = table.keys_help.table.text()
        assert table.keys_help.isVisible()
        for keys, _what in KEYS:
            assert f"<b>{keys}</b>" in help_text
        assert "Ask to take back your last move" in help_text
        qtbot.keyClick(board, Qt.Key.Key_Escape)
        assert not table.keys_help.isVisible()
        qtbot.keyClick(board, "?")
        assert table.keys_help.isVisible()
        qtbot.mouseClick(table.keys_help, Qt.MouseButton.LeftButton)
        assert not table.keys_help.isVisible()
        qtbot.mouseClick(table.help_button, Qt.MouseButton.LeftButton)
        assert table.keys_help.isVisible()
        qtbot.keyClick(board, Qt.Key.Key_F1)
        assert not table.keys_help.isVisible()

        qtbot.keyClick(board, Qt.Key.Key_Return)  # Enter: to the chat
        assert QApplication.focusWidget() is table.chat.field
        type_text(table.chat.field, "bonsoir ")
        qtbot.keyClick(table.chat.field, "?")  # in the field "?" is typed, not the help
        assert not table.keys_help.isVisible() and table.chat.field.text() == "bonsoir ?"
        qtbot.keyClick(table.chat.field, Qt.Key.Key_Return)  # Enter again: sent
        assert session.snapshot.chat[-1].text == "bonsoir ?"
        assert table.chat.field.text() == ""

        board.setFocus()
        qtbot.keyClick(board, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
        assert session.snapshot.ply == 0
        assert table.error.text().startswith("Nothing to take back now")

        click_move(qtbot, board, [20])
        qtbot.keyClick(board, Qt.Key.Key_Escape)  # Esc as before: one step back
        assert board.partial == []
        click_move(qtbot, board, [20, 29])
        assert session.snapshot.ply == 1 and table.takeback_button.isEnabled()
        qtbot.keyClick(board, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
        await until(lambda: session.snapshot.plies[-1].kind == "takeback")
        assert session.snapshot.my_turn
