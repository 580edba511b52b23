"""The move box (issue 30): a move typed in the game's notation is read by the engine's own
parser (the terminal's), completed among the legal moves, played by Enter; what the engine
cannot read or refuses is said under the box, and nothing is played."""

from __future__ import annotations

from typing import Any

import pytest
import qtrio
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from engines.consensus import ENGINE
from tests.ui.windows import open_window, start_local, until

pytestmark = [pytest.mark.gui, pytest.mark.filterwarnings("error")]
qt_trio = pytest.mark.trio(run=qtrio.run)


@qt_trio
async def test_a_typed_move_is_completed_read_by_the_engine_and_played(qtbot: Any) -> None:
    async with open_window(qtbot) as window:
        session = start_local(qtbot, window, "consensus", pace_ms=3000)
        table = window.table
        box = table.keyboard.move_box
        assert box is not None
        state = session.snapshot.state
        legal = {ENGINE.format_move(state, move) for move in ENGINE.legal_moves(state)}
        assert set(box.moves) == legal  # the completion is exactly the legal moves

        qtbot.keyClick(table.board, Qt.Key.Key_M, Qt.KeyboardModifier.ControlModifier)
        field = box.field
        assert QApplication.focusWidget() is field
        qtbot.keyClicks(field, "Sc1-e9")  # a Syndicaliste moves two squares at most
        qtbot.keyClick(field, Qt.Key.Key_Return)
        assert session.snapshot.ply == 0 and field.text() == "Sc1-e9"
        assert box.message.text().startswith("Not a move here: ")
        field.clear()
        qtbot.keyClicks(field, "zz")  # not notation at all
        qtbot.keyClick(field, Qt.Key.Key_Return)
        assert session.snapshot.ply == 0 and box.message.text().startswith("Not a move here: ")
        assert QApplication.focusWidget() is field  # Enter stayed the box's (not the chat's)

        field.clear()
        qtbot.keyClicks(field, "c1-d")  # found anywhere in a move, case aside
        shown = box.completer.completionModel()
        offered = {shown.index(row, 0).data() for row in range(shown.rowCount())}
        assert offered == {move for move in legal if "c1-d" in move.lower()} and offered
        qtbot.keyClick(box.completer.popup(), Qt.Key.Key_Down)
        chosen = field.text()
        assert chosen in offered
        qtbot.keyClick(box.completer.popup(), Qt.Key.Key_Return)
        await until(lambda: session.snapshot.ply == 1)
        played = session.snapshot.plies[0]
        assert played.notation == chosen and played.player == 1
        assert box.message.text() == f"Played {chosen}."
        await until(lambda: field.text() == "")
        assert box.moves == ()  # not my turn: nothing to complete
        qtbot.keyClicks(field, "Sc1-d1")
        qtbot.keyClick(field, Qt.Key.Key_Return)
        assert box.message.text() == "It is not your turn yet." and session.snapshot.ply == 1


@qt_trio
async def test_a_refusal_goes_once_the_move_is_played_on_the_board(qtbot: Any) -> None:
    """Played by keys in a real window: 'Not a move here: …' stayed under the box for the
    rest of the game after the move was made on the board."""
    async with open_window(qtbot) as window:
        session = start_local(qtbot, window, "discorder", pace_ms=3000)
        box = window.table.keyboard.move_box
        assert box is not None
        qtbot.keyClick(window.table.board, Qt.Key.Key_M, Qt.KeyboardModifier.ControlModifier)
        qtbot.keyClicks(box.field, "zz")
        qtbot.keyClick(box.field, Qt.Key.Key_Return)
        assert box.message.text().startswith("Not a move here: ")
        qtbot.keyClick(box.field, Qt.Key.Key_B, Qt.KeyboardModifier.ControlModifier)
        qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_N)
        qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Return)
        await until(lambda: session.snapshot.ply == 1)
        assert box.message.text() == ""
