"""Colours and small drawing helpers shared by the screens and the boards.

Seat colours are fixed per seat number so a player finds the same colour on the board, in the
players list, the move list and the chat.  They are chosen to stay apart for the common kinds
of colour blindness as far as eight colours allow, and each is paired with a text colour that
reads on it.
"""

from __future__ import annotations

from PySide6.QtGui import QColor, QIcon, QPixmap

SEAT_COLOURS = (
    "#d1495b",  # 1 red
    "#2e86de",  # 2 blue
    "#3aa655",  # 3 green
    "#f2a93b",  # 4 amber
    "#8e5cc2",  # 5 purple
    "#1fb5b5",  # 6 teal
    "#8d6e63",  # 7 brown
    "#e377c2",  # 8 pink
)
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
