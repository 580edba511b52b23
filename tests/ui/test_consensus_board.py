"""The Consensus board widget on hand-made positions: compound moves click by click.

Every move the board emits is checked against ``engine.legal_moves``; the board never
decides legality itself, it walks ``engine.next_choices``.
"""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import QEvent, QSize, Qt
from PySide6.QtGui import QKeyEvent

from engines.consensus import ENGINE, NO_KILL
from engines.consensus_board import DEAD, parse_square
from tests.ui.conftest import consensus_state
from ui.boards.consensus import Board
from ui.boards.consensus_canvas import cell_to_square, square_to_cell

# Like napari: a warning in a UI test is an error.
pytestmark = [pytest.mark.gui, pytest.mark.filterwarnings("error")]

# Seat 4's Président rules e5; seat 1 has a Syndicaliste facing seat 2's, a GIGN and a
# Fonctionnaire in line with e5, and a Haussaire that can land beside seat 2's Syndicaliste.
POSITION = """
P2 .  .  .  .  .  .  .  P3
.  .  .  .  .  .  .  .  .
.  .  .  .  .  .  .  .  .
.  .  .  .  .  .  .  .  .
.  .  .  .  P4 .  .  .  .
.  .  S2 .  .  .  .  .  .
.  .  S1 .  .  .  .  .  .
.  .  .  .  G1 .  .  .  .
P1 .  .  .  .  .  H1 .  F1
"""


def sq(name: str) -> int:
    square = parse_square(name)
    assert square is not None
    return square


def legal_wires(state: Any) -> list[tuple[int, ...]]:
    return [tuple(ENGINE.move_to_wire(move)) for move in ENGINE.legal_moves(state)]


@pytest.fixture
def board(qtbot: Any) -> Board:
    widget = Board()
    qtbot.addWidget(widget)
    widget.resize(640, 700)
    widget.show()
    return widget


def click(qtbot: Any, board: Board, name: str) -> None:
    canvas = board.canvas
    qtbot.mouseClick(canvas, Qt.MouseButton.LeftButton, pos=canvas.square_center(sq(name)))


def show(board: Board, state: Any, seat: int = 1, interactive: bool = True) -> None:
    board.show_position(ENGINE, state, last_move=None, my_seat=seat, interactive=interactive)


def test_clicking_a_piece_shows_exactly_its_destinations(qtbot: Any, board: Board) -> None:
    state = ENGINE.initial_state({"seats": 4})
    show(board, state)
    assert set(board.canvas.movable) == set(ENGINE.movable_pieces(state))
    click(qtbot, board, "c3")
    assert board.canvas.selected == (sq("c3"),)
    assert board.canvas.targets == ENGINE.destinations(state, sq("c3"))
    assert len(board.canvas.targets) == 12  # the Coutumier's 12 moves (rules section 9)
    click(qtbot, board, "a3")  # another of my pieces: select it instead
    assert board.canvas.selected == (sq("a3"),)
    assert board.canvas.targets == ENGINE.destinations(state, sq("a3"))


def test_a_kill_with_corpse_placement_is_sent_only_when_complete(qtbot: Any, board: Board) -> None:
    state = consensus_state(POSITION)
    sent: list[tuple[int, ...]] = []
    board.moveChosen.connect(sent.append)
    show(board, state)
    click(qtbot, board, "c3")
    click(qtbot, board, "c4")
    assert sent == []
    assert "where the corpse (Syndicaliste) goes" in board.prompt.text()
    # The preview lifts the victim off: my Syndicaliste stands on c4, c3 is empty.
    assert board.canvas.board[sq("c4")] == state.board[sq("c3")]
    assert board.canvas.board[sq("c3")] == 0
    assert sq("e5") not in board.canvas.targets  # a corpse never goes to e5
    click(qtbot, board, "e5")  # not offered: ignored
    assert sent == []
    click(qtbot, board, "h8")
    assert sent == [(sq("c3"), sq("c4"), sq("h8"))]
    assert sent[0] in legal_wires(state)
    assert board.partial == []


def test_escape_right_click_back_and_cancel_step_back(qtbot: Any, board: Board) -> None:
    state = consensus_state(POSITION)
    show(board, state)
    click(qtbot, board, "c3")
    click(qtbot, board, "c4")
    assert board.partial == [sq("c3"), sq("c4")]
    board.setFocus()
    escape = QKeyEvent(QEvent.Type.KeyPress, Qt.Key.Key_Escape, Qt.KeyboardModifier.NoModifier)
    board.keyPressEvent(escape)
    assert board.partial == [sq("c3")]
    assert board.canvas.board == state.board
    qtbot.mouseClick(board.canvas, Qt.MouseButton.RightButton, pos=board.canvas.square_center(0))
    assert board.partial == []
    click(qtbot, board, "c3")
    click(qtbot, board, "c4")
    qtbot.mouseClick(board.cancel, Qt.MouseButton.LeftButton)
    assert board.partial == [] and board.canvas.targets == ()


def test_the_gign_kills_the_ruler_and_must_exit(qtbot: Any, board: Board) -> None:
    state = consensus_state(POSITION)
    sent: list[tuple[int, ...]] = []
    board.moveChosen.connect(sent.append)
    show(board, state)
    click(qtbot, board, "e2")
    click(qtbot, board, "e5")
    assert "must leave e5" in board.prompt.text()
    # The ruler's corpse falls on the GIGN's origin; e5 itself is not an exit.
    assert board.canvas.board[sq("e2")] & DEAD
    assert sq("e5") not in board.canvas.targets and sq("e2") not in board.canvas.targets
    click(qtbot, board, "b8")
    assert sent == [(sq("e2"), sq("e5"), sq("b8"))]
    assert sent[0] in legal_wires(state)


def test_the_fonctionnaire_displaces_the_ruler_then_exits(qtbot: Any, board: Board) -> None:
    state = consensus_state(POSITION)
    sent: list[tuple[int, ...]] = []
    board.moveChosen.connect(sent.append)
    show(board, state)
    click(qtbot, board, "i1")
    click(qtbot, board, "e5")
    assert "displaced Président" in board.prompt.text()
    click(qtbot, board, "a9")  # occupied by P2: not offered
    click(qtbot, board, "h5")
    assert board.canvas.board[sq("h5")] == state.board[sq("e5")]  # displaced alive
    assert "must leave e5" in board.prompt.text()
    click(qtbot, board, "f6")
    assert sent == [(sq("i1"), sq("e5"), sq("h5"), sq("f6"))]
    assert sent[0] in legal_wires(state)


def test_the_haussaire_may_kill_a_neighbour_or_nobody(qtbot: Any, board: Board) -> None:
    state = consensus_state(POSITION)
    sent: list[tuple[int, ...]] = []
    board.moveChosen.connect(sent.append)
    show(board, state)
    click(qtbot, board, "g1")
    click(qtbot, board, "d4")
    assert board.no_kill.isVisible()
    assert board.canvas.targets == (sq("c4"),)
    qtbot.mouseClick(board.no_kill, Qt.MouseButton.LeftButton)
    click(qtbot, board, "g1")
    click(qtbot, board, "d4")
    click(qtbot, board, "c4")
    click(qtbot, board, "g1")
    click(qtbot, board, "d4")
    click(qtbot, board, "d4")  # clicking the Haussaire itself spares everyone
    spare = (sq("g1"), sq("d4"), NO_KILL)
    assert sent == [spare, (sq("g1"), sq("d4"), sq("c4")), spare]
    assert all(wire in legal_wires(state) for wire in sent)


def test_nothing_is_built_when_it_is_not_my_turn(qtbot: Any, board: Board) -> None:
    state = consensus_state(POSITION)
    show(board, state, interactive=False)
    click(qtbot, board, "c3")
    assert board.partial == [] and board.canvas.targets == () and board.prompt.text() == ""


@pytest.mark.parametrize("seat", [1, 2, 3, 4])
def test_each_seat_sees_its_corner_at_the_bottom_left(seat: int, board: Board) -> None:
    corner = {1: "a1", 2: "a9", 3: "i9", 4: "i1"}[seat]
    show(board, ENGINE.initial_state({"seats": 4}), seat=seat)
    turns = board.canvas.turns
    assert square_to_cell(sq(corner), turns) == (0, 8)
    for square in range(81):
        assert cell_to_square(*square_to_cell(square, turns), turns) == square
        assert board.canvas.square_at(board.canvas.square_rect(square).center()) == square


def test_the_ruler_and_the_slots_owing_a_turn_are_named(board: Board) -> None:
    state = consensus_state(POSITION)
    status = ENGINE.power_status(state)
    notes = board.seat_notes(ENGINE, state)
    assert status.ruler == 4 and notes[4] == "♛ rules e5"
    for seat in status.owing:
        assert notes[seat] == "owes the ruler a turn"
    assert board.status_note(ENGINE, state).startswith("Seat 4 rules e5")
    start = ENGINE.initial_state({"seats": 4})
    assert board.status_note(ENGINE, start) == "Nobody rules e5"


@pytest.mark.parametrize("size", [QSize(300, 300), QSize(1200, 500), QSize(500, 1100)])
def test_the_board_resizes_cleanly(size: QSize, board: Board) -> None:
    board.resize(size)
    board.layout().activate()
    show(board, consensus_state(POSITION))
    canvas = board.canvas
    assert canvas.width() == size.width() and canvas.height() > size.height() * 0.8
    rects = [canvas.square_rect(square) for square in range(81)]
    assert all(canvas.rect().toRectF().contains(rect) for rect in rects)
    assert len({round(rect.width(), 3) for rect in rects}) == 1
    assert rects[0].width() == pytest.approx(rects[0].height())
    image = board.grab().toImage()
    assert image.width() == board.width() and not image.isNull()


def test_a_click_that_is_not_allowed_says_why_and_keeps_the_selection(
    qtbot: Any, board: Board
) -> None:
    state = consensus_state(POSITION)
    sent: list[tuple[int, ...]] = []
    board.moveChosen.connect(sent.append)
    show(board, state)
    click(qtbot, board, "d4")
    assert board.prompt.text() == "d4 is empty: click one of your pieces."
    click(qtbot, board, "c4")
    assert board.prompt.text() == "The Syndicaliste on c4 is not yours."
    click(qtbot, board, "c3")
    click(qtbot, board, "f3")  # a Syndicaliste moves straight, at most two squares
    assert board.partial == [sq("c3")] and sent == []
    assert board.prompt.text().startswith("That Syndicaliste cannot reach f3.")
    assert board.canvas.selected == (sq("c3"),)
    assert board.canvas.targets == ENGINE.destinations(state, sq("c3"))
    click(qtbot, board, "c4")  # the kill goes on from the kept selection
    click(qtbot, board, "e5")  # a corpse never goes to e5
    assert board.partial == [sq("c3"), sq("c4")]
    assert board.prompt.text().startswith("e5 is not one of the highlighted squares.")
    click(qtbot, board, "h8")
    assert sent == [(sq("c3"), sq("c4"), sq("h8"))]
