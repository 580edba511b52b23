"""The pointing marks and the recent plies' badges name their author by its side's shape as
well as by its colour (issue 30): read as sets of pixels, the four Consensus sides' tags are
four shapes, and one side's tag is the same shape on a ring and on an arrow's tail."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import QPointF
from PySide6.QtGui import QImage

from client.sessions.session_api import Pointed
from engines import find_engine
from tests.ui.test_side_marks import Mask, assert_shapes_differ, jaccard, mark_mask
from ui.boards import make_board
from ui.boards.author_tag import SHAPE
from ui.boards.consensus import Board as ConsensusBoard
from ui.boards.pointing import ShownMarks, ring_tag_spot, tag_radius
from ui.boards.recent_plies import RecentMark, tag_spot
from ui.theme import seat_colour, text_on

pytestmark = [pytest.mark.gui, pytest.mark.filterwarnings("error")]

SEATS = (1, 2, 3, 4)


def empty_board(qtbot: Any) -> ConsensusBoard:
    engine = find_engine("consensus")
    board = make_board(engine, "Consensus")
    assert isinstance(board, ConsensusBoard)
    qtbot.addWidget(board)
    board.canvas.board = (0,) * 81  # no pieces: only the marks are drawn
    board.resize(760, 760)
    board.show()
    qtbot.waitExposed(board)
    return board


def grab(canvas: Any) -> QImage:
    return canvas.grab().toImage()


def tag_mask(image: QImage, spot: QPointF, radius: float, seat: int) -> Mask:
    return mark_mask(image, spot, radius * SHAPE, text_on(seat_colour(seat)))


def test_each_authors_highlight_and_arrow_carry_its_shape(qtbot: Any) -> None:
    board = empty_board(qtbot)
    canvas = board.canvas
    size = canvas.square_rect(0).width()
    squares = {seat: 10 + 20 * (seat - 1) for seat in SEATS}
    board.show_marks(
        [ShownMarks(Pointed(0, seat, f"P{seat}", (), (squares[seat],))) for seat in SEATS]
    )
    image = grab(canvas)
    rings: dict[int, Mask] = {}
    for seat, square in squares.items():
        spot, radius = ring_tag_spot(canvas.square_rect(square).center(), size, 0)
        rings[seat] = tag_mask(image, spot, radius, seat)
    assert_shapes_differ(rings)

    # The same seats' arrows: the tag is on each arrow's tail, the same shape as on its ring.
    board.show_marks(
        [
            ShownMarks(Pointed(0, seat, f"P{seat}", ((squares[seat], squares[seat] + 2),), ()))
            for seat in SEATS
        ]
    )
    image = grab(canvas)
    for seat, square in squares.items():
        tail = tag_mask(image, canvas.square_rect(square).center(), tag_radius(size), seat)
        assert jaccard(tail, rings[seat]) > 0.75, f"seat {seat}'s arrow lost its shape"
        others = [jaccard(tail, rings[other]) for other in SEATS if other != seat]
        assert jaccard(tail, rings[seat]) > max(others)


def test_each_recent_plys_badge_carries_its_sides_shape(qtbot: Any) -> None:
    board = empty_board(qtbot)
    canvas = board.canvas
    size = canvas.square_rect(0).width()
    squares = {seat: 11 + 20 * (seat - 1) for seat in SEATS}
    masks: dict[int, Mask] = {}
    for seat, square in squares.items():
        # One ply at a time: the newest badge is fully opaque, its colours exact.
        assert board.recent is not None
        board.show_recent([RecentMark(1, (square - 1, square), seat_colour(seat), seat)])
        image = grab(canvas)
        spot, radius = tag_spot(canvas.square_rect(square).center(), size)
        masks[seat] = tag_mask(image, spot, radius, seat)
    assert_shapes_differ(masks)
    board.show_recent([RecentMark(1, (squares[1],), seat_colour(1), 0)])
    image = grab(canvas)
    spot, radius = tag_spot(canvas.square_rect(squares[1]).center(), size)
    # No seat, no shape: only the badge's rim and number, nothing like the side's disc.
    assert jaccard(tag_mask(image, spot, radius, 1), masks[1]) < 0.5
