"""A small tag that names a mark's author by its side's shape, not by its colour alone.

Pointing marks (``ui.boards.pointing``) and the recent plies' badges
(``ui.boards.recent_plies``) are drawn in their author's colour; beside each sits this tag: a
disc of that colour, ringed in white so it reads on any board, holding the side's mark
(``ui.side_marks``) in black or white, whichever reads on the colour, as the pieces have it.
Two authors whose colours look alike to a colour-blind player still differ by the shape.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF
from PySide6.QtGui import QBrush, QColor, QPainter, QPen

from ui.side_marks import paint_mark
from ui.theme import text_on

__all__ = ["SHAPE", "paint_author_tag"]

SHAPE = 0.68
"""The shape's radius, as a share of the tag's."""


def paint_author_tag(
    painter: QPainter,
    game: str,
    seat: int,
    centre: QPointF,
    radius: float,
    colour: QColor,
) -> None:
    """The tag of ``seat`` about ``centre``, as opaque as ``colour`` is."""
    alpha = colour.alpha()
    edge = QColor(255, 255, 255, alpha)
    fill = QColor(colour)
    ink = text_on(QColor(colour.red(), colour.green(), colour.blue()))
    ink.setAlpha(alpha)
    painter.save()
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setPen(QPen(edge, max(1.0, radius * 0.16)))
    painter.setBrush(QBrush(fill))
    painter.drawEllipse(centre, radius, radius)
    painter.restore()
    paint_mark(painter, game, seat, centre, radius * SHAPE, ink)
