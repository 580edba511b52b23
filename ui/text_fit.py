"""Text that fits its box: wrapped at word boundaries, and smaller until it fits whole.

Captions and cards of exported animations have a fixed size (every frame of an animation
has the same), and a result such as "Seat 2 wins by holding the centre …" or a long chat
line must never be cut: ``draw_fitted`` wraps the text and lowers the font size until the
wrapped text fits ``rect``; only below ``MIN_PIXELS`` does it elide the last line.
"""

from __future__ import annotations

from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QFont, QFontMetrics, QPainter

__all__ = ["MIN_PIXELS", "draw_fitted", "fitted_font"]

MIN_PIXELS = 8
"""Below this a font is unreadable: text that does not fit then is elided."""

WRAP = Qt.TextFlag.TextWordWrap


def fitted_font(base: QFont, rect: QRect, text: str, largest: int) -> QFont:
    """``base`` at the largest pixel size (at most ``largest``) at which ``text``, wrapped
    to ``rect``'s width, fits its height."""
    font = QFont(base)
    for pixels in range(max(largest, MIN_PIXELS), MIN_PIXELS - 1, -1):
        font.setPixelSize(pixels)
        bounds = QFontMetrics(font).boundingRect(rect, int(WRAP), text)
        if bounds.width() <= rect.width() and bounds.height() <= rect.height():
            return font
    return font


def draw_fitted(
    painter: QPainter,
    rect: QRect,
    text: str,
    largest: int,
    align: Qt.AlignmentFlag = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
    bold: bool = False,
) -> QFont:
    """Draw ``text`` wrapped into ``rect`` at the largest size that fits; the font used."""
    base = QFont(painter.font())
    base.setBold(bold)
    font = fitted_font(base, rect, text, largest)
    painter.setFont(font)
    metrics = QFontMetrics(font)
    if metrics.boundingRect(rect, int(WRAP), text).height() > rect.height():
        # Even the smallest size is too big: as many lines as fit, the last one elided.
        lines = max(1, rect.height() // max(1, metrics.lineSpacing()))
        text = metrics.elidedText(text, Qt.TextElideMode.ElideRight, rect.width() * lines)
    painter.drawText(rect, int(align | WRAP), text)
    return font
