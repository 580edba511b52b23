"""The players list, the move list and the chat show each seat in the colour of its pieces on
the board (issue 21): Les Forbans Bleu and Vert, Discorder Jaune and Noir, Consensus and
Cognes the seat colours their boards paint."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import qtrio
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QIcon

from client.logs.verifier import verify_file
from client.sessions.replay import Replay
from engines import find_engine
from engines.forbans import side_of_seat
from tests.client.gamelogs import LoggedTable
from tests.ui.windows import open_window, start_local, type_text, until
from ui.boards import discorder_canvas, forbans_canvas
from ui.replay_page import replay_page

pytestmark = [pytest.mark.gui, pytest.mark.filterwarnings("error")]
qt_trio = pytest.mark.trio(run=qtrio.run)

BLEU, VERT = QColor("#18428b"), QColor("#40bf60")
JAUNE, NOIR = QColor("#f2c230"), QColor("#262626")
RED, BLUE = QColor("#a61c2f"), QColor("#1a58b9")  # seat colours 1 and 2 (crimson, blue)


def middle(icon: QIcon) -> QColor:
    image = icon.pixmap(14, 14).toImage()
    return image.pixelColor(image.width() // 2, image.height() // 2)


@pytest.mark.parametrize(
    ("game", "first", "second"),
    [
        ("forbans", BLEU, VERT),
        ("discorder", JAUNE, NOIR),
        ("consensus", RED, BLUE),
        ("cognes", RED, BLUE),
    ],
)
@qt_trio
async def test_every_list_shows_the_pieces_colours(
    qtbot: Any, game: str, first: QColor, second: QColor
) -> None:
    async with open_window(qtbot, name="Zoé") as window:
        session = start_local(qtbot, window, game, my_seat=2)  # a bot opens: seat 1's ply
        table = window.table
        await until(lambda: session.snapshot.my_turn and table.moves.count() >= 1)
        players = table.players
        assert middle(players.item(0).icon()) == first
        assert middle(players.item(1).icon()) == second
        first_ply = session.snapshot.plies[0]
        assert first_ply.seat == 1
        assert middle(table.moves.item(0).icon()) == first
        type_text(table.chat.field, "à moi")
        qtbot.keyClick(table.chat.field, Qt.Key.Key_Return)
        line = table.chat.lines.item(table.chat.lines.count() - 1)
        assert line.foreground().color() == second.darker(130)


def painted(widget: Any, colour: QColor) -> int:
    """How many pixels of ``widget`` as it is drawn are exactly ``colour``."""
    image = widget.grab().toImage()
    return sum(
        image.pixelColor(x, y) == colour
        for y in range(image.height())
        for x in range(image.width())
    )


@pytest.mark.parametrize("game", ["forbans", "discorder"])
@qt_trio
async def test_the_lists_take_the_palette_the_board_paints(qtbot: Any, game: str) -> None:
    """Not a copy of the colours: the board's own palette, for the seat the engine gives it,
    and a board that really paints it (seat 1's first piece, on a Discorder board)."""
    palette = {
        "forbans": {seat: forbans_canvas.SIDE_COLOURS[side_of_seat(seat)] for seat in (1, 2)},
        "discorder": {seat: discorder_canvas.TILE_COLOURS[seat] for seat in (1, 2)},
    }[game]
    async with open_window(qtbot, name="Zoé") as window:
        session = start_local(qtbot, window, game, my_seat=2)
        table = window.table
        await until(lambda: session.snapshot.my_turn and table.moves.count() >= 1)
        assert table.board is not None
        canvas = table.board.canvas
        for row, seat in enumerate((1, 2)):
            assert middle(table.players.item(row).icon()) == palette[seat]
        assert middle(table.moves.item(0).icon()) == palette[1]
        assert painted(canvas, palette[1]) > 20  # seat 1's pieces, as the board draws them
        if game == "forbans":
            assert painted(canvas, palette[2]) > 20


def test_the_replay_page_lists_the_seats_in_their_pieces_colours(tmp_path: Path) -> None:
    engine = find_engine("forbans")
    game = LoggedTable(tmp_path, ["A", "B"], engine, bots="none")
    for name in ("A", "B"):
        own = game.tables[name]
        game.act(name, own.move(engine.legal_moves(own.head.engine_state)[0], game.router.now))
    replay = Replay.build(verify_file(game.close()["A"]))
    page = replay_page(replay, 120, "2026-12-03")
    bleu, vert = (forbans_canvas.SIDE_COLOURS[side].name() for side in (1, 2))
    assert f"background:{bleu}" in page and f"background:{vert}" in page
    # And their camps' shapes, white on both (issue 30): a disc for Bleu, a triangle for Vert.
    assert 'color:#ffffff">●</span>' in page and 'color:#ffffff">▲</span>' in page
    assert "background:#a61c2f" not in page  # seat 1's colour in the games without sides
