"""Colours and small drawing helpers shared by the screens and the boards.

Seat colours are fixed per seat number so a player finds the same colour on the board, in the
players list, the move list and the chat.  A game whose pieces have colours of their own (Les
Forbans: Bleu and Vert; Discorder: Jaune and Noir) lists its seats in those colours
(``side_colour``), the ones its board paints.  The colours themselves are in
``ui.side_palette``, chosen to stay apart with every common kind of colour blindness; each is
paired with a text colour that reads on it.
"""

from __future__ import annotations

from PySide6.QtGui import QColor, QIcon, QPainter, QPixmap

from ui.side_palette import DISCORDER_SIDES, FORBANS_SIDES, SEAT_COLOURS

NEUTRAL = "#9e9e9e"
CORPSE = "#3b3b3b"
HIGHLIGHT = "#ffd54f"
TARGET = "#4caf50"
ERROR = "#b00020"


def seat_colour(seat: int) -> QColor:
    return QColor(SEAT_COLOURS[(seat - 1) % len(SEAT_COLOURS)])


def text_on(colour: QColor) -> QColor:
    """Black or white, whichever reads better on ``colour`` (integer luma, Rec. 601)."""
    luma = 299 * colour.red() + 587 * colour.green() + 114 * colour.blue()
    return QColor("#111111") if luma > 150_000 else QColor("#ffffff")


def seat_icon(seat: int, size: int = 14) -> QIcon:
    pixmap = QPixmap(size, size)
    pixmap.fill(seat_colour(seat))
    return QIcon(pixmap)


def side_colour(game: str, seat: int) -> QColor:
    """The colour of ``seat``'s pieces on the board of ``game`` (its seat colour unless the
    game's pieces have colours of their own)."""
    if game == "forbans" and seat > 0:
        return QColor(FORBANS_SIDES[2 - seat % 2])
    if game == "discorder" and seat in DISCORDER_SIDES:
        return QColor(DISCORDER_SIDES[seat])
    return seat_colour(seat)


def side_icon(game: str, seat: int, size: int = 14) -> QIcon:
    """A square of ``side_colour``, framed so that a dark or pale side still shows."""
    pixmap = QPixmap(size, size)
    colour = side_colour(game, seat)
    pixmap.fill(colour.darker(160))
    inner = QPixmap(size - 2, size - 2)
    inner.fill(colour)
    painter = QPainter(pixmap)
    painter.drawPixmap(1, 1, inner)
    painter.end()
    return QIcon(pixmap)
