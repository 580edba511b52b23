"""The Discorder board widget: tiles and pegs by clicks, runs and the provisional score.

Every move the board emits is checked against ``engine.legal_moves``; the board never
decides legality itself, it walks ``engine.next_choices``.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from PySide6.QtCore import QSize

from client.sessions.local_game import LocalGame
from engines.discorder import (
    CELLS,
    ENGINE,
    GIVEN_AWAY,
    HEIGHT,
    PENDING,
    SECURED,
    SITES,
    TILES_PER_PLAYER,
    WIDTH,
)
from tests.ui.board_input import click_discorder
from tests.ui.test_window import open_window, qt_trio, until
from ui.boards.discorder import Board

pytestmark = [pytest.mark.gui, pytest.mark.filterwarnings("error")]

# Row 1: a Jaune three closed by the edge and a Noir tile (secured); row 2: a Noir three
# with d2 still open (pending); row 3: a Jaune four (given away to Noir).
DIAGRAM = """
. . . . . . . .
. . . . . . . .
. . . . . . . .
. . . . . . . .
J J J J . . . .
N N N . . . . .
J J J N . . . .
"""


def cell(name: str) -> int:
    return (int(name[1]) - 1) * WIDTH + "abcdefgh".index(name[0])


def site(name: str) -> int:
    """``c3|4`` -> the site above c3."""
    return cell(name.split("|")[0])


def position(diagram: str = DIAGRAM, pegs: tuple[str, ...] = (), **changes: Any) -> Any:
    rows = [line.split() for line in diagram.strip().splitlines()]
    board = [0] * CELLS
    for row_from_top, row in enumerate(rows):
        for col, mark in enumerate(row):
            board[(len(rows) - 1 - row_from_top) * WIDTH + col] = {".": 0, "J": 1, "N": 2}[mark]
    pegged = [False] * SITES
    for name in pegs:
        pegged[site(name)] = True
    start = ENGINE.initial_state({"seats": 2})
    state = replace(
        start,
        board=tuple(board),
        pegs=tuple(pegged),
        pegs_left=start.pegs_left - len(pegs),
        tiles_left=(TILES_PER_PLAYER - board.count(1), TILES_PER_PLAYER - board.count(2)),
    )
    return replace(state, **changes)


def legal_wires(state: Any) -> list[tuple[int, ...]]:
    return [tuple(ENGINE.move_to_wire(move)) for move in ENGINE.legal_moves(state)]


@pytest.fixture
def board(qtbot: Any) -> Board:
    widget = Board()
    qtbot.addWidget(widget)
    widget.resize(640, 640)
    widget.show()
    return widget


def show(
    board: Board, state: Any, seat: int = 1, interactive: bool = True, last: Any = None
) -> None:
    board.show_position(ENGINE, state, last_move=last, my_seat=seat, interactive=interactive)


def click_cell(qtbot: Any, board: Board, name: str) -> None:
    click_discorder(qtbot, board, cell(name))


def click_site(qtbot: Any, board: Board, name: str) -> None:
    click_discorder(qtbot, board, CELLS + site(name))


def test_a_tile_goes_on_an_empty_cell_only(qtbot: Any, board: Board) -> None:
    state = position()
    sent: list[tuple[int, ...]] = []
    board.moveChosen.connect(sent.append)
    show(board, state)
    click_cell(qtbot, board, "b2")  # holds a Noir tile
    assert sent == []
    click_cell(qtbot, board, "f5")
    assert sent == [(cell("f5"),)]
    assert sent[0] in legal_wires(state)


def test_a_peg_goes_on_a_legal_site_only(qtbot: Any, board: Board) -> None:
    state = position()
    sent: list[tuple[int, ...]] = []
    board.moveChosen.connect(sent.append)
    show(board, state)
    assert board.canvas.site_choices == {
        wire[0] - CELLS for wire in legal_wires(state) if wire[0] >= CELLS
    }
    click_site(qtbot, board, "a1|2")  # both cells hold tiles
    click_site(qtbot, board, "g6|7")  # follows no tile and no peg
    assert sent == []
    click_site(qtbot, board, "d2|3")
    assert sent == [(CELLS + site("d2|3"),)]
    assert sent[0] in legal_wires(state)


def test_a_player_who_made_a_three_may_not_peg(qtbot: Any, board: Board) -> None:
    state = position(banned=(True, False))
    sent: list[tuple[int, ...]] = []
    board.moveChosen.connect(sent.append)
    show(board, state)
    assert board.canvas.site_choices == frozenset()
    assert "No peg this turn" in board.prompt.text()
    click_site(qtbot, board, "d2|3")
    assert sent == []
    assert "no peg this turn" in board.seat_notes(ENGINE, state)[1]


def test_without_tiles_only_pegs_are_offered(qtbot: Any, board: Board) -> None:
    state = position(tiles_left=(0, 3))
    sent: list[tuple[int, ...]] = []
    board.moveChosen.connect(sent.append)
    show(board, state)
    assert "no tile left" in board.prompt.text()
    click_cell(qtbot, board, "f5")
    click_site(qtbot, board, "d1|2")
    assert sent == [(CELLS + site("d1|2"),)] and sent[0] in legal_wires(state)


def test_nothing_is_sent_when_it_is_not_my_turn(qtbot: Any, board: Board) -> None:
    sent: list[tuple[int, ...]] = []
    board.moveChosen.connect(sent.append)
    show(board, position(), interactive=False)
    click_cell(qtbot, board, "f5")
    click_site(qtbot, board, "d2|3")
    assert sent == [] and board.prompt.text() == ""


def test_runs_are_marked_and_the_provisional_score_shown(board: Board) -> None:
    state = position(pegs=("d1|2",))
    show(board, state)
    runs = {run.name: run.status for run in board.canvas.runs}
    assert runs == {"a1-c1": SECURED, "a2-c2": PENDING, "a3-d3": GIVEN_AWAY}
    assert "Provisional score: Jaune 1 – Noir 1" in board.score.text()
    assert board.canvas.pegs_left == 9 and board.canvas.tiles_left == (21, 24)
    assert board.status_note(ENGINE, state) == "Jaune 1 – Noir 1, 9 pegs left"


def test_the_last_tile_and_the_last_peg_are_highlighted(board: Board) -> None:
    show(board, position(), last=(cell("d1"),))
    assert (board.canvas.last_cell, board.canvas.last_site) == (cell("d1"), None)
    show(board, position(pegs=("d1|2",)), last=(CELLS + site("d1|2"),))
    assert (board.canvas.last_cell, board.canvas.last_site) == (None, site("d1|2"))


@pytest.mark.parametrize("seat", [1, 2])
def test_each_seat_sees_the_board_from_its_side(seat: int, board: Board) -> None:
    show(board, position(), seat=seat)
    canvas = board.canvas
    a1, h7 = canvas.cell_rect(cell("a1")), canvas.cell_rect(cell("h7"))
    if seat == 1:
        assert a1.left() < h7.left() and a1.top() > h7.top()
    else:
        assert a1.left() > h7.left() and a1.top() < h7.top()
    for number in range(CELLS):
        assert canvas.target_at(canvas.cell_rect(number).center()) == ("cell", number)
    for number in range(SITES):
        low, high = canvas.cell_rect(number), canvas.cell_rect(number + WIDTH)
        assert abs(low.center().x() - high.center().x()) < 1e-6  # columns stay vertical
        assert canvas.target_at(canvas.site_center(number).toPointF()) == ("site", number)


@pytest.mark.parametrize("size", [QSize(300, 300), QSize(1200, 500), QSize(500, 1100)])
def test_the_board_resizes_cleanly(size: QSize, board: Board) -> None:
    board.resize(size)
    board.layout().activate()
    show(board, position())
    canvas = board.canvas
    rects = [canvas.cell_rect(number) for number in range(CELLS)]
    assert all(canvas.rect().toRectF().contains(rect) for rect in rects)
    assert len({round(rect.width(), 3) for rect in rects}) == 1
    assert rects[0].width() == pytest.approx(rects[0].height())
    side = rects[0].width()  # the grid fills the direction that limits it
    assert side * WIDTH > 0.75 * canvas.width() or side * HEIGHT > 0.65 * canvas.height()
    assert not board.grab().toImage().isNull()


@qt_trio
async def test_a_local_game_is_played_through_the_board(qtbot: Any) -> None:
    async with open_window(qtbot) as window:
        game = LocalGame(ENGINE, {"seats": 2}, player_name="Ana", bot_kind="random", bot_delay=0)
        window.open_session(game)
        board = window.table.board
        assert isinstance(board, Board)
        for turn in range(4):
            await until(lambda: game.snapshot.my_turn)
            wires = legal_wires(game.snapshot.state)
            pegs = [wire for wire in wires if wire[0] >= CELLS]
            wire = pegs[0] if turn % 2 and pegs else wires[0]
            click_discorder(qtbot, board, wire[0])
            assert game.snapshot.plies[-1].wire == wire
        assert any(ply.wire[0] >= CELLS for ply in game.snapshot.plies if ply.player == 1)
