"""Colours and small drawing helpers shared by the screens and the boards.

Seat colours are fixed per seat number so a player finds the same colour on the board, in the
players list, the move list and the chat.  A game whose pieces have colours of their own (Les
Forbans: Bleu and Vert; Discorder: Jaune and Noir) lists its seats in those colours
(``side_colour``), the ones its board paints.  The colours themselves are in
``ui.side_palette``, chosen to stay apart with every common kind of colour blindness; each is
paired with a text colour that reads on it.
"""

from __future__ import annotations

from PySide6.QtGui import QColor, QIcon, QPixmap

from ui.side_marks import mark_icon
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


def neutral_icon(size: int = 14) -> QIcon:
    """A grey square: what no side played (a ply without a seat)."""
    pixmap = QPixmap(size, size)
    pixmap.fill(QColor(NEUTRAL))
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
    """``seat``'s mark (``ui.side_marks``) in ``side_colour``, outlined darker so that a dark
    or pale side still shows: the shape tells the sides apart without their colours."""
    return mark_icon(game, seat, side_colour(game, seat), size)
