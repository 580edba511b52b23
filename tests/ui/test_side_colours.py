"""The players list, the move list and the chat show each seat in the colour of its pieces on
the board (issue 21): Les Forbans Bleu and Vert, Discorder Jaune and Noir, Consensus and
Cognes the seat colours their boards paint."""

from __future__ import annotations

from typing import Any

import pytest
import qtrio
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QIcon

from tests.ui.windows import open_window, start_local, type_text, until

pytestmark = [pytest.mark.gui, pytest.mark.filterwarnings("error")]
qt_trio = pytest.mark.trio(run=qtrio.run)

BLEU, VERT = QColor("#1f5fbf"), QColor("#2e8b3e")
JAUNE, NOIR = QColor("#f2c230"), QColor("#262626")
RED, BLUE = QColor("#d1495b"), QColor("#2e86de")  # seat colours 1 and 2


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
