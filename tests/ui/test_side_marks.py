"""Every side has a shape as well as a colour (issue 30): on its pieces, alive or dead, in the
exported pictures, and beside its players in the lists and the chat, the same shape
everywhere.  Shapes are compared as sets of pixels, so a side told only by colour fails."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import qtrio
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QColor, QIcon, QImage

from engines import find_engine
from engines.consensus_board import DEAD, KIND_LETTERS, PRESIDENT
from tests.client.gamelogs import LoggedTable
from tests.ui.windows import open_window, start_local, type_text, until
from ui.board_render import BoardRenderer
from ui.boards import make_board
from ui.boards.consensus_canvas import ConsensusCanvas
from ui.entry import main
from ui.rules import consensus_figures
from ui.side_marks import GLYPHS
from ui.theme import seat_colour, text_on

pytestmark = [pytest.mark.gui, pytest.mark.filterwarnings("error")]
qt_trio = pytest.mark.trio(run=qtrio.run)

Mask = frozenset[tuple[int, int]]


def near(first: QColor, second: QColor, tolerance: int = 25) -> bool:
    return all(
        abs(a - b) <= tolerance
        for a, b in zip(first.getRgb()[:3], second.getRgb()[:3], strict=True)
    )


def mark_mask(image: QImage, centre: QPointF, radius: float, ink: QColor) -> Mask:
    """The pixels about ``centre`` that are the mark's ``ink``, as offsets from the centre."""
    reach = int(radius * 1.2) + 1
    x0, y0 = round(centre.x()), round(centre.y())
    return frozenset(
        (dx, dy)
        for dy in range(-reach, reach + 1)
        for dx in range(-reach, reach + 1)
        if near(image.pixelColor(x0 + dx, y0 + dy), ink)
    )


def centred(mask: Mask) -> Mask:
    """``mask`` moved so that its centroid is at the origin (the shape, wherever drawn)."""
    if not mask:
        return mask
    cx = round(sum(x for x, _ in mask) / len(mask))
    cy = round(sum(y for _, y in mask) / len(mask))
    return frozenset((x - cx, y - cy) for x, y in mask)


def jaccard(first: Mask, second: Mask) -> float:
    """How much two shapes overlap, centroid on centroid give or take a pixel (1: the same
    pixels), so that where a shape falls on the pixel grid does not count."""
    first, second = centred(first), centred(second)
    best = 0.0
    for dx in (-1, 0, 1):
        for dy in (-1, 0, 1):
            moved = frozenset((x + dx, y + dy) for x, y in second)
            best = max(best, len(first & moved) / max(1, len(first | moved)))
    return best


def icon_mask(icon: QIcon) -> Mask:
    image = icon.pixmap(14, 14).toImage()
    return frozenset(
        (x, y) for y in range(14) for x in range(14) if image.pixelColor(x, y).alpha() >= 128
    )


def assert_shapes_differ(masks: dict[int, Mask], same: float = 0.75) -> None:
    for seat, mask in masks.items():
        assert len(mask) > 8, f"seat {seat}'s mark is missing"
        for other, theirs in masks.items():
            if other > seat:
                assert jaccard(mask, theirs) < same, f"seats {seat} and {other}: one shape"


SOLDIER = KIND_LETTERS.index("S")


def soldiers(board: tuple[int, ...], seat: int) -> list[int]:
    return [
        square
        for square, code in enumerate(board)
        if code and (code >> 3) & 7 == seat and code & 7 == SOLDIER
    ]


def test_the_exported_picture_shows_each_side_by_its_shape(qapp: object, tmp_path: Path) -> None:
    """``palabre log export --png``: the four sides' soldiers carry four different shapes,
    and two soldiers of one side the same one."""
    engine = find_engine("consensus")
    log = LoggedTable(tmp_path, ["A", "B", "C", "D"], engine, seed=4).close()["A"]
    out = tmp_path / "start.png"
    assert main(["log", "export", str(log), "--ply", "0", "--png", str(out), "--size", "720"]) == 0
    picture = QImage(str(out))
    state = engine.initial_state({"seats": 4})
    renderer = BoardRenderer(engine, 720)
    renderer.show(state, None)
    assert renderer.side == 720  # drawn at its size: the canvas' geometry is the picture's
    canvas = renderer.board.canvas
    masks: dict[int, Mask] = {}
    for seat in (1, 2, 3, 4):
        ink = text_on(seat_colour(seat))
        found = []
        for square in soldiers(state.board, seat)[:2]:
            centre, radius = canvas.mark_spot(square)
            where = QPointF(canvas.mapTo(renderer.board, centre.toPoint()))
            found.append(mark_mask(picture, where, radius, ink))
        assert jaccard(found[0], found[1]) > 0.8  # one side, one shape
        masks[seat] = found[0]
    renderer.close()
    assert_shapes_differ(masks)


def test_a_dead_piece_keeps_its_sides_shape(qtbot: Any) -> None:
    canvas = ConsensusCanvas()
    qtbot.addWidget(canvas)
    squares = {seat: 10 * seat for seat in (1, 2, 3, 4)}
    board = [0] * 81
    for seat, square in squares.items():
        board[square] = SOLDIER | seat << 3 | DEAD
    board[70] = PRESIDENT | 1 << 3 | DEAD
    canvas.board = tuple(board)
    canvas.resize(720, 720)
    image = canvas.grab().toImage()
    masks = {
        seat: mark_mask(image, *canvas.mark_spot(square), seat_colour(seat))
        for seat, square in squares.items()
    }
    assert_shapes_differ(masks)
    president = mark_mask(image, *canvas.mark_spot(70), seat_colour(1))
    assert jaccard(president, masks[1]) > 0.5  # a larger tile, the same disc


@pytest.mark.parametrize(("game", "sides"), [("consensus", 4), ("forbans", 2)])
@qt_trio
async def test_the_lists_and_the_chat_show_each_side_by_its_shape(
    qtbot: Any, game: str, sides: int
) -> None:
    """The players list, the move list and the chat: one shape per side (Les Forbans: per
    camp, Bleu for the odd seats and Vert for the even ones)."""
    async with open_window(qtbot, name="Zoé") as window:
        session = start_local(qtbot, window, game, my_seat=2)
        table = window.table
        await until(lambda: session.snapshot.my_turn and table.moves.count() >= 1)
        players = {row + 1: icon_mask(table.players.item(row).icon()) for row in range(sides)}
        assert_shapes_differ(players, same=0.8)
        assert session.snapshot.plies[0].seat == 1
        assert icon_mask(table.moves.item(0).icon()) == players[1]
        type_text(table.chat.field, "à moi")
        qtbot.keyClick(table.chat.field, Qt.Key.Key_Return)
        line = table.chat.lines.item(table.chat.lines.count() - 1)
        assert icon_mask(line.icon()) == players[2]


def test_a_mark_is_where_the_canvas_says(qtbot: Any) -> None:
    """The spot the tests read is where the shape is painted (not an empty corner)."""
    canvas = ConsensusCanvas()
    qtbot.addWidget(canvas)
    board = [0] * 81
    board[40 - 9] = SOLDIER | 2 << 3
    canvas.board = tuple(board)
    canvas.resize(540, 540)
    image = canvas.grab().toImage()
    centre, _radius = canvas.mark_spot(31)
    assert image.pixelColor(QPoint(round(centre.x()), round(centre.y()))) == QColor("#ffffff")


def test_the_rules_figures_draw_the_same_shapes(qtbot: Any) -> None:
    """A rules figure is the table's canvas on a window of the board: same colours, same
    shapes, for live pieces and corpses."""
    board = consensus_figures.board_of("S1c3 S2d3 S3e3 S4c4 s1d4 s2e4")
    figure = consensus_figures.ConsensusFigure(board, "c3:e4")
    qtbot.addWidget(figure)
    # Drawn three times as fine as on screen: the shapes are a few pixels across there.
    image = QImage(figure.width() * 3, figure.height() * 3, QImage.Format.Format_RGB32)
    image.setDevicePixelRatio(3)
    figure.render(image)

    def mask(where: int, ink: QColor) -> Mask:
        centre, radius = figure.mark_spot(where)
        return mark_mask(image, centre * 3, radius * 3, ink)

    live = {seat: consensus_figures.square(f"{'cde'[seat - 1]}3") for seat in (1, 2, 3)}
    masks = {seat: mask(where, text_on(seat_colour(seat))) for seat, where in live.items()}
    assert_shapes_differ(masks)
    dead = mask(consensus_figures.square("e4"), seat_colour(2))
    assert jaccard(dead, masks[2]) > max(jaccard(dead, masks[1]), jaccard(dead, masks[3]))


def test_the_cognes_players_line_writes_each_seats_shape(qtbot: Any) -> None:
    engine = find_engine("cognes")
    board = make_board(engine, "Cognes")
    qtbot.addWidget(board)
    state = engine.initial_state({"seats": 6})
    board.show_position(engine, state, last_move=None, my_seat=None, interactive=False)
    text = board.players.text()
    for seat in range(1, 7):
        colour = seat_colour(seat).name()
        assert f'<span style="color:{colour}">{GLYPHS[seat - 1]}</span>' in text
