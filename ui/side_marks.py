"""A shape per side, so that no side is told from another by its colour alone.

Each side of a game has a mark — a disc, a triangle, a square, a diamond, a star, a cross —
drawn as a shape (not a font's glyph, which a font may lack) in the ring of its pieces, on
its dead pieces, and beside its players' names in every list; the same character stands for
it wherever only text goes (the replay page, a board's line of words).  Les Forbans' camps
have the marks of their camps, Bleu and Vert, like their colours.
"""

from __future__ import annotations

import math

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import (
    QBrush,
    QColor,
    QIcon,
    QPainter,
    QPainterPath,
    QPen,
    QPixmap,
    QPolygonF,
)

GLYPHS = ("●", "▲", "■", "◆", "★", "✚")
"""The character of each mark, in side order (first side: a disc)."""


def side_number(game: str, seat: int) -> int:
    """Which side (from 1) ``seat`` plays: its camp in Les Forbans, its seat elsewhere."""
    if game == "forbans" and seat > 0:
        return 2 - seat % 2
    return seat


def mark_index(game: str, seat: int) -> int:
    return (side_number(game, seat) - 1) % len(GLYPHS)


def side_glyph(game: str, seat: int) -> str:
    """The character of ``seat``'s mark (for text: a page, a line of words, a name)."""
    return GLYPHS[mark_index(game, seat)]


def mark_path(index: int, centre: QPointF, radius: float) -> QPainterPath:
    """Mark ``index`` as a closed shape about ``centre``, fitting a circle of ``radius``."""
    path = QPainterPath()
    x, y, r = centre.x(), centre.y(), radius
    shape = GLYPHS[index % len(GLYPHS)]
    if shape == "●":
        path.addEllipse(centre, r * 0.72, r * 0.72)
    elif shape == "■":
        side = r * 0.78
        path.addRect(QRectF(x - side, y - side, 2 * side, 2 * side))
    elif shape == "✚":
        arm = r * 0.34
        path.addRect(QRectF(x - arm, y - r, 2 * arm, 2 * r))
        path.addRect(QRectF(x - r, y - arm, 2 * r, 2 * arm))
        path = path.simplified()
    elif shape == "◆":
        # Taller than wide: a diamond, not a square on its corner, nor a disc at small sizes.
        wide = r * 0.68
        points = [QPointF(x, y - r), QPointF(x + wide, y), QPointF(x, y + r), QPointF(x - wide, y)]
        path.addPolygon(QPolygonF(points))
        path.closeSubpath()
    else:
        corners = {"▲": (3, r, 0.0), "★": (10, r, r * 0.45)}[shape]
        count, outer, inner = corners
        points = []
        for k in range(count):
            far = outer if not inner or k % 2 == 0 else inner
            angle = -math.pi / 2 + 2 * math.pi * k / count
            points.append(QPointF(x + far * math.cos(angle), y + far * math.sin(angle)))
        if shape == "▲":
            # Its centroid on the centre reads as centred; a little lower fills the circle.
            points = [point + QPointF(0, r * 0.15) for point in points]
        path.moveTo(points[0])
        for point in points[1:]:
            path.lineTo(point)
        path.closeSubpath()
    return path


def paint_mark(
    painter: QPainter,
    game: str,
    seat: int,
    centre: QPointF,
    radius: float,
    fill: QColor,
    edge: QColor | None = None,
) -> None:
    """Draw ``seat``'s mark filled with ``fill`` (outlined with ``edge``, if given)."""
    painter.save()
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    if edge is None:
        painter.setPen(Qt.PenStyle.NoPen)
    else:
        painter.setPen(QPen(edge, max(1.0, radius * 0.18)))
    painter.setBrush(QBrush(fill))
    painter.drawPath(mark_path(mark_index(game, seat), centre, radius))
    painter.restore()


def mark_icon(game: str, seat: int, colour: QColor, size: int = 14) -> QIcon:
    """``seat``'s mark in ``colour``, outlined darker so a dark or pale side still shows."""
    pixmap = QPixmap(size, size)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    paint_mark(
        painter, game, seat, QPointF(size / 2, size / 2), size / 2 - 1, colour, colour.darker(170)
    )
    painter.end()
    return QIcon(pixmap)
