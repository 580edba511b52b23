"""The board cursor on every board (issue 30): every spot can be reached with the arrows,
and Enter does on each board what a click (or, on Cognes, a drag) there does — Forbans ports,
Discorder cells and peg sites, Cognes coins aimed by keys."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QLineEdit, QVBoxLayout, QWidget

from client.sessions.session_api import Pointed
from engines import find_engine
from engines.discorder import CELLS, WIDTH
from tests.ui.keyboard_input import press_at, steer
from tests.ui.test_consensus_board import sq
from tests.ui.test_forbans_board import THREAT, movement_state, port
from tests.ui.test_pointing import table_with_local_game
from ui.boards import make_board
from ui.boards.board_cursor import ARROWS, BoardCursor, step_towards
from ui.boards.cursor_games import attach_cursor

pytestmark = [pytest.mark.gui, pytest.mark.filterwarnings("error")]

SEATS = {"consensus": 4, "forbans": 2, "discorder": 2, "cognes": 3}
_OPEN: list[QWidget] = []
"""The test's windows, kept alive until the next test opens its own."""


@pytest.fixture(autouse=True)
def _windows() -> Any:
    yield
    _OPEN.clear()


def open_board(qtbot: Any, game: str, state: Any = None, seat: int = 1) -> tuple[Any, Any]:
    """The game's board in a window beside a text field, shown at ``state`` (the start by
    default) at seat ``seat``'s turn, the keys on its cursor (entered by Tab)."""
    engine = find_engine(game)
    window = QWidget()
    board = make_board(engine, game)
    layout = QVBoxLayout(window)
    layout.addWidget(board, 1)
    field = QLineEdit()
    layout.addWidget(field)
    qtbot.addWidget(window)
    _OPEN.append(window)
    window.resize(900, 760)
    window.show()
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window)
    shown = state if state is not None else engine.initial_state({"seats": SEATS[game]})
    board.show_position(engine, shown, last_move=None, my_seat=seat, interactive=True)
    cursor = attach_cursor(board)
    assert cursor is not None
    field.setFocus()
    board.setFocus(Qt.FocusReason.TabFocusReason)
    assert cursor.armed and cursor.spot is not None
    return board, cursor


def arrow_edges(cursor: BoardCursor) -> dict[int, set[int]]:
    """Where each arrow leads from each spot."""
    points = {}
    for spot in cursor.game.spots():
        point = cursor.mark_point(spot)
        if point is not None:
            points[spot] = point
    edges: dict[int, set[int]] = {spot: set() for spot in points}
    for spot in points:
        for direction in ARROWS.values():
            there = step_towards(points, spot, direction)
            if there is not None:
                edges[spot].add(there)
    return edges


def reached(edges: dict[int, set[int]], start: int) -> set[int]:
    seen, todo = {start}, [start]
    while todo:
        for there in edges[todo.pop()] - seen:
            seen.add(there)
            todo.append(there)
    return seen


@pytest.mark.parametrize("game", sorted(SEATS))
def test_the_arrows_reach_every_spot_from_anywhere(qtbot: Any, game: str) -> None:
    _board, cursor = open_board(qtbot, game)
    edges = arrow_edges(cursor)
    assert set(edges) == set(cursor.game.spots())
    backwards: dict[int, set[int]] = {spot: set() for spot in edges}
    for spot, targets in edges.items():
        for there in targets:
            backwards[there].add(spot)
    # From one spot every spot is reached, and every spot reaches it: from anywhere, anywhere.
    start = min(edges)
    assert reached(edges, start) == set(edges), game
    assert reached(backwards, start) == set(edges), game


def test_forbans_placements_and_moves_by_keys(qtbot: Any) -> None:
    board, cursor = open_board(qtbot, "forbans")
    sent: list[tuple[int, ...]] = []
    board.moveChosen.connect(sent.append)
    qtbot.keyClick(board, Qt.Key.Key_N)  # to a ringed port, then Space places the piece
    assert cursor.spot in board.choices
    placed = cursor.spot
    qtbot.keyClick(board, Qt.Key.Key_Space)
    assert sent == [(placed,)]

    board, cursor = open_board(qtbot, "forbans", movement_state(**THREAT))
    board.moveChosen.connect(sent.append)
    press_at(qtbot, cursor, port("new_york"))  # Vert's: the click's own refusal
    assert board.partial == [] and "not yours" in board.prompt.text()
    press_at(qtbot, cursor, port("guam"))
    assert board.partial == [port("guam")]
    qtbot.keyClick(board, Qt.Key.Key_Escape)  # a step back, as before
    assert board.partial == []
    press_at(qtbot, cursor, port("maracaibo"))
    qtbot.keyClick(board, Qt.Key.Key_N)  # its one target: Curaçao
    assert cursor.spot == port("curacao")
    qtbot.keyClick(board, Qt.Key.Key_N, Qt.KeyboardModifier.ShiftModifier)  # still the one
    assert cursor.spot == port("curacao")
    qtbot.keyClick(board, Qt.Key.Key_Return)
    assert sent[-1] == (port("maracaibo"), port("curacao"))


def test_discorder_cells_and_peg_sites_by_keys(qtbot: Any) -> None:
    engine = find_engine("discorder")
    state = engine.apply(
        engine.initial_state({"seats": 2}),
        engine.parse_move(engine.initial_state({"seats": 2}), "d4"),
    )
    board, cursor = open_board(qtbot, "discorder", state, seat=2)
    sent: list[tuple[int, ...]] = []
    board.moveChosen.connect(sent.append)
    d4, d5 = 3 * WIDTH + 3, 4 * WIDTH + 3
    steer(qtbot, cursor, d4)
    # Seat 2 sees the board turned: "up" on the screen is toward row 3 …
    qtbot.keyClick(board, Qt.Key.Key_Down)
    assert cursor.spot == CELLS + d4  # … the peg site between d4 and d5 first
    qtbot.keyClick(board, Qt.Key.Key_Down)
    assert cursor.spot == d5
    qtbot.keyClick(board, Qt.Key.Key_Up)
    qtbot.keyClick(board, Qt.Key.Key_Return)
    if CELLS + d4 in board.choices:
        assert sent == [(CELLS + d4,)]
    else:  # a peg not allowed here: Enter, like a click, sends nothing
        assert sent == []
    press_at(qtbot, cursor, d4)  # taken: nothing, as a click
    press_at(qtbot, cursor, d5)
    assert sent[-1] == (d5,)


def test_a_cognes_flip_aimed_and_released_by_keys(qtbot: Any) -> None:
    engine = find_engine("cognes")
    board, cursor = open_board(qtbot, "cognes")
    sent: list[tuple[int, ...]] = []
    board.moveChosen.connect(sent.append)
    coin = cursor.spot
    assert coin in board.canvas.movable
    qtbot.keyClick(board, Qt.Key.Key_Return)  # pick: aimed toward the middle
    ghost = board.canvas.ghost
    assert ghost is not None and ghost.coin == coin and ghost.allowed and ghost.gain > 0
    assert "closer" in board.prompt.text()
    first = ghost.direction
    offered = sorted(board.offered(coin))
    qtbot.keyClick(board, Qt.Key.Key_Left)  # one offered direction counter-clockwise
    assert board.canvas.ghost is not None
    assert board.canvas.ghost.direction == offered[(offered.index(first) + 1) % len(offered)]
    qtbot.keyClick(board, Qt.Key.Key_PageDown)  # ten the other way
    assert board.canvas.ghost.direction == offered[(offered.index(first) - 9) % len(offered)]
    qtbot.keyClick(board, Qt.Key.Key_Escape)  # the aim is dropped
    assert board.canvas.ghost is None and sent == []
    qtbot.keyClick(board, Qt.Key.Key_Right)  # the arrows move the cursor again
    qtbot.keyClick(board, Qt.Key.Key_Left)
    steer(qtbot, cursor, coin)
    qtbot.keyClick(board, Qt.Key.Key_Space)
    qtbot.keyClick(board, Qt.Key.Key_PageUp)
    aimed = board.canvas.ghost
    assert aimed is not None
    qtbot.keyClick(board, Qt.Key.Key_Return)  # release: the flip the ghost showed
    if aimed.foul:  # the drag's own question, answered by keys as well
        assert sent == [] and board.confirm.isVisible()
        board.play_foul.setFocus(Qt.FocusReason.TabFocusReason)
        qtbot.keyClick(board.play_foul, Qt.Key.Key_Space)
    assert sent == [(coin, aimed.direction)]
    legal = [tuple(engine.move_to_wire(m)) for m in engine.legal_moves(board.state)]
    assert sent[0] in legal


def test_pointing_by_keys_highlights_and_draws_arrows(qtbot: Any) -> None:
    screen, _game, seen = table_with_local_game(qtbot)
    board, cursor = screen.board, screen.keyboard.cursor
    assert board is not None and cursor is not None and cursor.armed
    screen.window().activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is screen.window())
    board.setFocus(Qt.FocusReason.TabFocusReason)
    steer(qtbot, cursor, sq("a1"))
    qtbot.keyClick(board, Qt.Key.Key_A)  # an arrow from a1 …
    steer(qtbot, cursor, sq("b2"))
    qtbot.keyClick(board, Qt.Key.Key_Escape)  # … dropped, nothing sent
    assert seen == [] and cursor.arrow_from is None
    steer(qtbot, cursor, sq("a1"))
    qtbot.keyClick(board, Qt.Key.Key_A)
    steer(qtbot, cursor, sq("e5"))
    qtbot.keyClick(board, Qt.Key.Key_A)  # … to e5
    steer(qtbot, cursor, sq("c3"))
    qtbot.keyClick(board, Qt.Key.Key_P)  # and c3 highlighted, as right drags and clicks
    assert seen[-1] == Pointed(0, 1, "You", ((sq("a1"), sq("e5")),), (sq("c3"),))
    qtbot.keyClick(board, Qt.Key.Key_P)  # again: no more
    assert seen[-1].squares == () and seen[-1].arrows == ((sq("a1"), sq("e5")),)
    assert board.partial == []  # pointing built no move
