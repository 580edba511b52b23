"""The board cursor (issue 30): arrows move a ring over the spots as drawn, Enter does what a
click there does (the same refusals), Esc steps back; a Consensus compound move, a kill
and the corpse's placement, is built with key events only."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import QPointF, Qt
from PySide6.QtWidgets import QApplication, QLineEdit, QVBoxLayout, QWidget

from engines.consensus import ENGINE, NO_KILL
from engines.consensus_board import E5
from tests.ui.conftest import consensus_state
from tests.ui.keyboard_input import press_at, steer
from tests.ui.test_consensus_board import POSITION, sq
from ui.boards.board_cursor import BoardCursor, step_towards
from ui.boards.consensus import Board
from ui.boards.cursor_games import attach_cursor

pytestmark = [pytest.mark.gui, pytest.mark.filterwarnings("error")]


@pytest.fixture
def host(qtbot: Any) -> QWidget:
    """A window holding a Consensus board and a text field (the chat's stand-in)."""
    window = QWidget()
    layout = QVBoxLayout(window)
    layout.addWidget(Board(), 1)
    layout.addWidget(QLineEdit())
    qtbot.addWidget(window)
    window.resize(640, 760)
    window.show()
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window)
    return window


def parts(host: QWidget) -> tuple[Board, BoardCursor, QLineEdit]:
    board = host.findChild(Board)
    field = host.findChild(QLineEdit)
    assert isinstance(board, Board) and isinstance(field, QLineEdit)
    cursor = board.findChild(BoardCursor) or attach_cursor(board)
    assert cursor is not None
    field.setFocus()  # the board is entered by Tab in each test
    return board, cursor, field


def my_turn(host: QWidget) -> tuple[Board, BoardCursor, Any, list[tuple[int, ...]]]:
    """``POSITION`` at seat 1's turn, the board entered by Tab; the moves it sends."""
    board, cursor, _field = parts(host)
    state = consensus_state(POSITION)
    board.show_position(ENGINE, state, last_move=None, my_seat=1, interactive=True)
    sent: list[tuple[int, ...]] = []
    board.moveChosen.connect(sent.append)
    board.setFocus(Qt.FocusReason.TabFocusReason)
    return board, cursor, state, sent


def test_a_kill_and_its_corpse_placement_by_keys_only(qtbot: Any, host: QWidget) -> None:
    board, cursor, state, sent = my_turn(host)
    assert board.hasFocus() and cursor.spot is not None

    press_at(qtbot, cursor, sq("d4"))  # an empty square: the click's own refusal
    assert board.prompt.text() == "d4 is empty: click one of your pieces."
    press_at(qtbot, cursor, sq("c3"))  # pick my Syndicaliste
    assert board.partial == [sq("c3")]
    qtbot.keyClick(board, Qt.Key.Key_Escape)  # Esc: one step back, as before
    assert board.partial == []
    press_at(qtbot, cursor, sq("c3"))
    press_at(qtbot, cursor, sq("c4"))  # onto seat 2's Syndicaliste: a kill
    assert sent == [] and "where the corpse (Syndicaliste) goes" in board.prompt.text()
    press_at(qtbot, cursor, sq("e5"))  # a corpse never goes to e5: refused in words
    assert board.partial == [sq("c3"), sq("c4")]
    assert board.prompt.text().startswith("e5 is not one of the highlighted squares.")
    press_at(qtbot, cursor, sq("h8"))  # the corpse's square: the move is complete
    assert sent == [(sq("c3"), sq("c4"), sq("h8"))]
    assert sent[0] in [tuple(ENGINE.move_to_wire(m)) for m in ENGINE.legal_moves(state)]


def test_every_kind_of_move_of_a_position_is_built_by_keys(qtbot: Any, host: QWidget) -> None:
    """One legal move of each kind (each piece; moving, killing, onto e5; with a corpse to
    place, a GIGN leaving e5, a Fonctionnaire's four choices, a Haussaire sparing everyone
    by Enter on itself, as a click): every one by arrows and Enter."""
    board, cursor, state, sent = my_turn(host)
    kinds: dict[tuple[object, ...], tuple[int, ...]] = {}
    for move in ENGINE.legal_moves(state):
        wire = tuple(ENGINE.move_to_wire(move))
        kind = (state.board[wire[0]] & 7, len(wire), NO_KILL in wire, wire[1] == E5)
        kinds.setdefault((*kind, bool(state.board[wire[1]])), wire)
    wires = list(kinds.values())
    assert len(wires) == 12  # five kinds of piece, each of its ways
    assert {len(wire) for wire in wires} == {2, 3, 4} and any(NO_KILL in w for w in wires)
    for wire in wires:
        for index, choice in enumerate(wire):
            press_at(qtbot, cursor, wire[1] if choice == NO_KILL else choice)
            assert board.partial == ([] if index == len(wire) - 1 else list(wire[: index + 1]))
        assert sent[-1] == wire
    assert sent == wires


def test_the_arrows_follow_the_board_as_drawn(qtbot: Any, host: QWidget) -> None:
    board, cursor, _field = parts(host)
    state = consensus_state(POSITION)
    # Seat 2 sees the board turned a quarter: "right" on the screen is not the next file.
    board.show_position(ENGINE, state, last_move=None, my_seat=2, interactive=False)
    board.setFocus(Qt.FocusReason.TabFocusReason)
    start = cursor.spot
    assert start is not None
    before = cursor.mark_point(start)
    qtbot.keyClick(board, Qt.Key.Key_Right)
    after = cursor.mark_point(cursor.spot) if cursor.spot is not None else None
    assert before is not None and after is not None
    assert after.x() > before.x() and abs(after.y() - before.y()) < 1
    assert steer(qtbot, cursor, sq("a1")) > 0 and cursor.spot == sq("a1")
    qtbot.keyClick(board, Qt.Key.Key_Return)  # not my turn: Enter presses nothing
    assert board.partial == []


def test_n_jumps_among_the_highlighted_spots(qtbot: Any, host: QWidget) -> None:
    board, cursor, _field = parts(host)
    state = consensus_state(POSITION)
    board.show_position(ENGINE, state, last_move=None, my_seat=1, interactive=True)
    board.setFocus(Qt.FocusReason.TabFocusReason)
    seen = set()
    for _ in range(len(board.choices)):
        qtbot.keyClick(board, Qt.Key.Key_N)
        seen.add(cursor.spot)
    assert seen == set(board.choices)


def test_a_text_field_keeps_its_keys(qtbot: Any, host: QWidget) -> None:
    board, cursor, field = parts(host)
    board.show_position(
        ENGINE, consensus_state(POSITION), last_move=None, my_seat=1, interactive=True
    )
    board.setFocus(Qt.FocusReason.TabFocusReason)
    spot = cursor.spot
    field.setFocus()
    qtbot.keyClicks(field, "abc")
    qtbot.keyClick(field, Qt.Key.Key_Left)
    qtbot.keyClick(field, Qt.Key.Key_Return)
    assert field.text() == "abc" and field.cursorPosition() == 2
    assert cursor.spot == spot and board.partial == []


def test_a_click_gives_the_arrows_back_to_browsing(qtbot: Any, host: QWidget) -> None:
    board, cursor, _field = parts(host)
    state = consensus_state(POSITION)
    board.show_position(ENGINE, state, last_move=None, my_seat=1, interactive=True)
    board.setFocus(Qt.FocusReason.TabFocusReason)
    assert cursor.armed
    qtbot.mouseClick(board.canvas, Qt.MouseButton.LeftButton, pos=board.canvas.square_center(20))
    assert board.partial == [20] and not cursor.armed
    spot = cursor.spot
    qtbot.keyClick(board, Qt.Key.Key_Right)  # not the cursor's: it stays
    assert cursor.spot == spot


def test_an_arrow_goes_to_the_nearest_spot_ahead() -> None:
    points = {0: QPointF(0, 0), 1: QPointF(10, 0), 2: QPointF(10, 10), 3: QPointF(5, -1)}
    assert step_towards(points, 0, (1, 0)) == 3  # nearer ahead, barely off the line
    assert step_towards(points, 1, (1, 0)) is None  # nothing further right
    assert step_towards(points, 0, (0, 1)) == 2
    assert step_towards(points, 9, (0, 1)) is None
