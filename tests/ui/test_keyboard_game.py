"""A whole Discorder game against bots with the keyboard only (issue 30): from the start
screen (Tab to the game, the arrows to choose Discorder and fast bots, Space on *Play against
bots*) to the result, then Tab to *Leave table* and back to the start screen.

Seat 1's moves are chosen by a seeded bot and made by key events only: one move in two with
the board's cursor (arrows, then Enter), the other in the move box (Ctrl+M, the first
letter, ↓ through the completion to the move, Enter).  No mouse event is sent, and no
widget's method is called to act: the test only reads where the cursor and the focus are.
"""

from __future__ import annotations

import os
from typing import Any

import pytest
import qtrio
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QWidget

from client.bots import make_bot
from client.rules.seat_words import with_seat_names
from engines.discorder import CELLS
from tests.ui.keyboard_input import press_at
from tests.ui.windows import open_window, start_local, until
from ui.screens.bot_speed import PRESETS_MS

pytestmark = [pytest.mark.gui, pytest.mark.filterwarnings("error")]
qt_trio = pytest.mark.trio(run=qtrio.run)


def focus() -> QWidget | None:
    return QApplication.focusWidget()


def tab_to(qtbot: Any, widget: QWidget, limit: int = 60) -> int:
    """Tab until ``widget`` has the keyboard; how many Tabs it took."""
    for count in range(limit):
        if focus() is widget:
            return count
        qtbot.keyClick(focus(), Qt.Key.Key_Tab)
    raise AssertionError(f"Tab never reached {widget!r}, stuck at {focus()!r}")


def choose_by_arrows(qtbot: Any, box: Any, data: object) -> None:
    """Down (or Up) on a focused combo box until it holds ``data``."""
    target = box.findData(data)
    assert target >= 0
    while box.currentIndex() != target:
        key = Qt.Key.Key_Down if box.currentIndex() < target else Qt.Key.Key_Up
        qtbot.keyClick(box, key)


@qt_trio
async def test_a_whole_discorder_game_with_the_keyboard_only(qtbot: Any) -> None:
    async with open_window(qtbot) as window:
        window.resize(1300, 900)
        start = window.start
        assert focus() is start.name  # the start screen gives the name field the keyboard
        qtbot.keyClick(start.name, Qt.Key.Key_Tab)
        assert focus() is start.local_game
        choose_by_arrows(qtbot, start.local_game, "discorder")
        # Discorder has two seats: the seat count is skipped, Tab goes on to your seat.
        assert tab_to(qtbot, start.local_pace) <= 4
        choose_by_arrows(qtbot, start.local_pace, dict(PRESETS_MS)["fast"])
        qtbot.keyClick(start.local_pace, Qt.Key.Key_Tab)
        assert focus() is start.local_play
        qtbot.keyClick(start.local_play, Qt.Key.Key_Space)
        assert window.stack.currentWidget() is window.table, start.message.text()
        session = window.session
        assert session is not None
        table = window.table
        board, keyboard = table.board, table.keyboard
        cursor, box = keyboard.cursor, keyboard.move_box
        assert cursor is not None and box is not None
        await until(lambda: focus() is board)  # the table gives the board the keyboard

        engine = session.snapshot.engine
        me = make_bot("discorder", "sensible", 1007)
        mine: list[tuple[int, ...]] = []
        keys = 0
        while session.snapshot.outcome is None:
            await until(lambda: session.snapshot.my_turn or session.snapshot.outcome is not None)
            if session.snapshot.outcome is not None:
                break
            state = session.snapshot.state
            wire = tuple(engine.move_to_wire(me.choose(engine, state)))
            before = session.snapshot.ply
            if len(mine) % 2 == 0:
                if focus() is not board:
                    qtbot.keyClick(focus(), Qt.Key.Key_B, Qt.KeyboardModifier.ControlModifier)
                assert focus() is board
                keys += press_at(qtbot, cursor, wire[0])
            else:
                notation = engine.format_move(state, engine.move_from_wire(list(wire)))
                keys += type_with_completion(qtbot, box, notation)
            assert session.snapshot.ply > before, f"ply {before}: {wire} was not played"
            assert session.snapshot.plies[before].wire == wire
            assert session.snapshot.plies[before].player == 1
            mine.append(wire)
        outcome = session.snapshot.outcome
        assert outcome is not None and len(mine) >= 3
        if os.environ.get("PALABRE_SAY_KEYS"):  # for the closing note: what was played
            pegs = sum(number >= CELLS for (number,) in mine)
            print(f"\n{len(mine)} moves ({pegs} pegs), {keys} keys; {outcome.summary}")
        await until(lambda: table.banner.isVisible())
        assert with_seat_names(outcome.summary, session.snapshot.seat_name) in table.banner.text()
        assert table.summary.isVisible()
        await until(lambda: focus() is table.summary.again_button)  # the end takes the keys
        tab_to(qtbot, table.moves)  # Enter on a ply of the move list shows it
        qtbot.keyClick(table.moves, Qt.Key.Key_Home)
        qtbot.keyClick(table.moves, Qt.Key.Key_Return)
        assert table.browser.viewing == 1 and table.browser.isVisible()
        qtbot.keyClick(table.moves, Qt.Key.Key_Escape)  # back to the end of the game
        assert table.browser.viewing is None
        tab_to(qtbot, table.leave_button)
        qtbot.keyClick(table.leave_button, Qt.Key.Key_Space)  # over: leaves at once
        assert window.stack.currentWidget() is window.start
        assert keys > len(mine)


def type_with_completion(qtbot: Any, box: Any, notation: str) -> int:
    """Ctrl+M, the move's first letter, ↓ through the completion to it, Enter."""
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_M, Qt.KeyboardModifier.ControlModifier)
    field = box.field
    assert QApplication.focusWidget() is field
    qtbot.keyClicks(field, notation[0])
    model = box.completer.completionModel()
    shown = [model.index(row, 0).data() for row in range(model.rowCount())]
    assert notation in shown, (notation, shown)
    presses = 2
    for _ in range(shown.index(notation) + 1):
        qtbot.keyClick(box.completer.popup(), Qt.Key.Key_Down)
        presses += 1
    assert field.text() == notation
    qtbot.keyClick(box.completer.popup(), Qt.Key.Key_Return)
    return presses + 1


@qt_trio
async def test_resigning_and_its_question_by_keys(qtbot: Any) -> None:
    async with open_window(qtbot) as window:
        session = start_local(qtbot, window, "discorder", pace_ms=3000)
        table = window.table
        await until(lambda: focus() is table.board)
        # The board, the move box, the pointing buttons, the lists, the chat, then Resign….
        assert tab_to(qtbot, table.resign_button) == 10
        qtbot.keyClick(table.resign_button, Qt.Key.Key_Return)  # Enter presses, as Space
        assert table.confirm.isVisible() and focus() is table.confirm_no  # the safe answer
        qtbot.keyClick(table.confirm_no, Qt.Key.Key_Tab, Qt.KeyboardModifier.ShiftModifier)
        assert focus() is table.confirm_yes
        qtbot.keyClick(table.confirm_yes, Qt.Key.Key_Space)
        await until(lambda: session.snapshot.outcome is not None)
        assert session.snapshot.outcome is not None and 1 not in session.snapshot.outcome.winners
        await until(lambda: focus() is table.summary.again_button)
