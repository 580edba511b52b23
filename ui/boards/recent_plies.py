"""The plies played since this player's last move, drawn over any board: numbered by order,
faded by age.

A board with pointing geometry (``BoardWidget.attach_pointing``) gets one of these overlays
on its canvas too.  Each recent ply is drawn as a thin line from where its piece came from
(when the ply names two marks) and a badge with its number on where it went, in the colour
of the seat whose pieces moved, tagged with that side's shape (``ui.boards.author_tag``) so
that two sides whose colours look alike still differ; the oldest is the palest, the newest
fully opaque, so the order reads at a glance even where the numbers are small.

Invariant: the overlay only draws; it never takes a mouse event.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from PySide6.QtCore import QEvent, QObject, QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import QWidget

from ui.boards.author_tag import paint_author_tag

__all__ = ["RecentMark", "RecentPliesOverlay", "age_alpha", "badge_spot", "tag_spot"]


@dataclass(frozen=True)
class RecentMark:
    number: int
    """The ply's place among the recent ones, 1 the oldest."""
    marks: tuple[int, ...]
    """Where it went (the last), and where it came from (the first) when it names two."""
    colour: QColor
    seat: int = 0
    """The seat whose pieces moved (0: none, and no shape)."""


def age_alpha(number: int, count: int) -> int:
    """How opaque (0-255) the badge of ply ``number`` of ``count`` is: the newest 255."""
    return 255 if count <= 1 else 150 + 105 * (number - 1) // (count - 1)


def badge_spot(end: QPointF, size: float) -> tuple[QPointF, float]:
    """The centre and radius of the badge of a ply that went to ``end`` (squares ``size``
    across): at the top left of the square, clear of the piece's middle and of the top
    right, where Consensus marks who controls a piece."""
    return QPointF(end.x() - size * 0.3, end.y() - size * 0.3), max(7.0, size * 0.2)


def tag_spot(end: QPointF, size: float) -> tuple[QPointF, float]:
    """The centre and radius of the side's tag: on the badge's lower right rim, clear of
    most of its number."""
    centre, radius = badge_spot(end, size)
    return centre + QPointF(radius, radius) * 0.8, max(5.0, radius * 0.6)


class RecentPliesOverlay(QWidget):
    def __init__(
        self,
        canvas: QWidget,
        mark_point: Callable[[int], QPointF | None],
        mark_size: Callable[[], float],
    ) -> None:
        super().__init__(canvas)
        self.canvas = canvas
        self.mark_point, self.mark_size = mark_point, mark_size
        self.recent: tuple[RecentMark, ...] = ()
        self.game = ""
        """The game on the board: which shape a seat's tag has (Les Forbans: its camp's)."""
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.setAttribute(Qt.WidgetAttribute.WA_NoSystemBackground)
        self.setGeometry(canvas.rect())
        canvas.installEventFilter(self)
        self.raise_()

    def show_recent(self, recent: Sequence[RecentMark]) -> None:
        self.recent = tuple(recent)
        self.update()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Resize:
            self.setGeometry(self.canvas.rect())
        return False

    def paintEvent(self, event: QPaintEvent) -> None:
        if not self.recent:
            return
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        size = max(8.0, self.mark_size())
        _centre, radius = badge_spot(QPointF(), size)
        font = QFont(painter.font())
        font.setBold(True)
        font.setPixelSize(max(8, round(radius * 1.25)))
        painter.setFont(font)
        count = len(self.recent)
        for recent in self.recent:
            points = [self.mark_point(mark) for mark in recent.marks]
            if not points or points[-1] is None:
                continue
            colour = QColor(recent.colour)
            colour.setAlpha(age_alpha(recent.number, count))
            end = points[-1]
            start = points[0]
            if len(points) > 1 and start is not None and start != end:
                pen = QPen(colour, max(2.0, size * 0.06), Qt.PenStyle.DashLine)
                painter.setPen(pen)
                painter.drawLine(start, end)
            centre, radius = badge_spot(end, size)
            box = QRectF(centre.x() - radius, centre.y() - radius, 2 * radius, 2 * radius)
            painter.setPen(QPen(QColor(255, 255, 255, colour.alpha()), max(1.0, radius * 0.18)))
            painter.setBrush(QBrush(colour))
            painter.drawEllipse(box)
            ink = QColor("#111111") if colour.lightness() > 150 else QColor("#ffffff")
            ink.setAlpha(colour.alpha())
            painter.setPen(ink)
            painter.drawText(box, Qt.AlignmentFlag.AlignCenter, str(recent.number))
            if recent.seat:
                spot, tag = tag_spot(end, size)
                paint_author_tag(painter, self.game, recent.seat, spot, tag, colour)
        painter.end()
