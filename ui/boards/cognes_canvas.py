"""Drawing the Cognes table: coins to scale, the aim, the ghost of the landing; drags to vectors.

The canvas draws what it is given (centres in 0.1 mm units, y up, the middle coin at the
origin; frozen coins; the ghost the board computed) and turns a drag that starts on a coin into
``aimed(coin, dx, dy, released)`` with the drag vector in table units (integers, y up).  It
knows no rules: the board snaps the vector and asks the engine what the flip would do.

Scale: the start circle plus one coin and a margin fits the smaller side of the widget, so
coins keep their true size relative to the table at any widget size.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from PySide6.QtCore import QCoreApplication, QLocale, QPoint, QPointF, QRectF, QSize, Qt, Signal
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QFontMetricsF,
    QMouseEvent,
    QPainter,
    QPaintEvent,
    QPen,
)
from PySide6.QtWidgets import QSizePolicy, QWidget

from ui.theme import HIGHLIGHT, seat_colour

Point = tuple[int, int]
FELT = QColor("#2f6b4f")
FELT_EDGE = QColor("#24513c")
COIN = QColor("#cfd3d6")
MIDDLE = QColor("#d4a437")
FROZEN = QColor("#9ecbe8")
CHOICE = QColor("#ff8f00")
LEGAL = QColor("#7CFC9A")
FOUL = QColor("#ff5252")
MIN_DRAG = 6.0
"""Pixels a drag must go before it aims (a plain click aims nowhere)."""


def millimetres(units: int, signed: bool = False) -> str:
    """Table units (0.1 mm) as millimetres with one decimal, in the interface's language
    (a decimal comma in French)."""
    text = QLocale().toString(abs(units) / 10, "f", 1)
    if signed:
        return ("+" if units >= 0 else "-") + text
    return text if units >= 0 else "-" + text


@dataclass(frozen=True)
class Ghost:
    """Where an aimed flip would land and what it would do, as the board worked it out."""

    coin: int
    direction: int
    landing: Point
    gain: int
    """How much closer to the middle, in table units (negative: farther)."""
    allowed: bool
    """The engine offers this direction (legal or foul)."""
    touched: tuple[int, ...]
    touches_middle: bool

    @property
    def foul(self) -> bool:
        return bool(self.touched) or self.touches_middle


class CognesCanvas(QWidget):
    """Paints the table; emits ``aimed`` while a drag from a coin goes on and when it ends."""

    aimed = Signal(int, int, int, bool)  # coin, dx, dy (table units, y up), released

    def __init__(self) -> None:
        super().__init__()
        self.centres: tuple[Point, ...] = ()
        self.radius = 120
        self.start_radius = 1750
        self.min_gain = 50
        self.frozen: tuple[bool, ...] = ()
        self.movable: tuple[int, ...] = ()
        self.last_coin: int | None = None
        self.last_from: Point | None = None
        self.last_seat = 0
        self.ghost: Ghost | None = None
        self.aim: QPointF | None = None
        self._drag_coin: int | None = None
        self._press: QPointF | None = None
        self.setMinimumSize(200, 200)  # room for the prompt with the text at twice its size
        self.setSizePolicy(QSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding))

    def sizeHint(self) -> QSize:
        return QSize(620, 620)

    # --- geometry -----------------------------------------------------------------------
    def scale(self) -> float:
        reach = self.start_radius + self.radius * 2.2
        return min(self.width(), self.height()) / (2 * reach)

    def to_pixels(self, point: tuple[float, float]) -> QPointF:
        s = self.scale()
        return QPointF(self.width() / 2 + point[0] * s, self.height() / 2 - point[1] * s)

    def to_table(self, pixel: QPointF) -> tuple[float, float]:
        s = self.scale()
        return (pixel.x() - self.width() / 2) / s, (self.height() / 2 - pixel.y()) / s

    def coin_center(self, coin: int) -> QPoint:
        return self.to_pixels(self.centres[coin]).toPoint()

    def coin_at(self, pixel: QPointF) -> int | None:
        x, y = self.to_table(pixel)
        reach = self.radius + 4 / self.scale()
        for coin, (cx, cy) in enumerate(self.centres):
            if math.hypot(x - cx, y - cy) <= reach:
                return coin
        return None

    # --- input --------------------------------------------------------------------------
    def mousePressEvent(self, event: QMouseEvent) -> None:
        if event.button() != Qt.MouseButton.LeftButton:
            return
        coin = self.coin_at(event.position())
        if coin is not None and coin in self.movable:
            self._drag_coin, self._press = coin, event.position()

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        self._drag(event.position(), released=False)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.LeftButton:
            self._drag(event.position(), released=True)
            self._drag_coin = self._press = None

    def _drag(self, pixel: QPointF, released: bool) -> None:
        coin, press = self._drag_coin, self._press
        if coin is None or press is None:
            return
        if math.hypot(pixel.x() - press.x(), pixel.y() - press.y()) < MIN_DRAG:
            if released:
                self.aim = None
                self.aimed.emit(coin, 0, 0, True)
            return
        # The aim is the vector from the coin's centre to the pointer.
        x, y = self.to_table(pixel)
        cx, cy = self.centres[coin]
        self.aim = pixel
        self.aimed.emit(coin, round(x - cx), round(y - cy), released)

    # --- painting -----------------------------------------------------------------------
    def paintEvent(self, _event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        s = self.scale()
        centre = self.to_pixels((0, 0))
        table = (self.start_radius + self.radius * 2) * s
        painter.setPen(QPen(FELT_EDGE, max(2.0, s * 30)))
        painter.setBrush(QBrush(FELT))
        painter.drawEllipse(centre, table, table)
        painter.setPen(QPen(QColor(255, 255, 255, 50), 1, Qt.PenStyle.DashLine))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawEllipse(centre, self.start_radius * s, self.start_radius * s)
        ghost = self.ghost
        if ghost is not None:
            self._paint_reach(painter, ghost.coin, s)
        if self.last_from is not None and self.last_coin is not None:
            self._paint_last(painter, s)
        self._paint_coin(painter, None, (0, 0), s)
        for coin, point in enumerate(self.centres):
            self._paint_coin(painter, coin, point, s)
        if ghost is not None:
            self._paint_ghost(painter, ghost, s)
        painter.end()

    def _paint_reach(self, painter: QPainter, coin: int, s: float) -> None:
        """The circle the coin's landing centre must reach: closer by the minimum gain."""
        x, y = self.centres[coin]
        limit = max(0.0, math.hypot(x, y) - self.min_gain) * s
        painter.setPen(QPen(QColor(255, 255, 255, 120), 1.5, Qt.PenStyle.DotLine))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawEllipse(self.to_pixels((0, 0)), limit, limit)

    def _paint_last(self, painter: QPainter, s: float) -> None:
        assert self.last_from is not None and self.last_coin is not None
        start = self.to_pixels(self.last_from)
        end = self.to_pixels(self.centres[self.last_coin])
        radius = self.radius * s
        painter.setPen(QPen(QColor(HIGHLIGHT), max(1.5, s * 12), Qt.PenStyle.DashLine))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawEllipse(start, radius, radius)
        painter.setPen(QPen(QColor(HIGHLIGHT), max(2.0, s * 16)))
        painter.drawLine(start, end)

    def _paint_coin(self, painter: QPainter, coin: int | None, point: Point, s: float) -> None:
        centre = self.to_pixels(point)
        radius = self.radius * s
        frozen = coin is not None and self.frozen[coin]
        fill = MIDDLE if coin is None else FROZEN if frozen else COIN
        if coin is not None and coin == self.last_coin:
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(
                QBrush(seat_colour(self.last_seat) if self.last_seat else QColor(HIGHLIGHT))
            )
            painter.drawEllipse(centre, radius * 1.25, radius * 1.25)
        painter.setPen(QPen(fill.darker(160), max(1.0, radius * 0.1)))
        painter.setBrush(QBrush(fill))
        painter.drawEllipse(centre, radius, radius)
        painter.setPen(QPen(fill.darker(125), max(1.0, radius * 0.06)))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawEllipse(centre, radius * 0.78, radius * 0.78)
        if frozen:
            # Frost: a six-armed star across the coin, which never moves again.
            painter.setPen(QPen(QColor("#ffffff"), max(1.0, radius * 0.08)))
            for arm in range(3):
                angle = math.pi * arm / 3
                dx, dy = math.cos(angle) * radius * 0.7, math.sin(angle) * radius * 0.7
                painter.drawLine(centre + QPointF(dx, dy), centre - QPointF(dx, dy))
        if coin is not None and coin in self.movable and self.ghost is None:
            painter.setPen(QPen(CHOICE, max(1.5, radius * 0.12)))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawEllipse(centre, radius * 1.12, radius * 1.12)
        if coin is not None:
            font = QFont(painter.font())
            font.setBold(True)
            font.setPixelSize(max(7, int(radius * 0.8)))
            painter.setFont(font)
            painter.setPen(QPen(QColor("#1d3557" if frozen else "#333333")))
            box = QRectF(centre.x() - radius, centre.y() - radius, 2 * radius, 2 * radius)
            painter.drawText(box, Qt.AlignmentFlag.AlignCenter, str(coin))

    def ghost_font(self, base: QFont) -> QFont:
        """The font of the landing's words (sized by the coin as drawn)."""
        font = QFont(base)
        font.setBold(True)
        font.setPixelSize(max(10, int(self.radius * self.scale() * 0.7)))
        return font

    def ghost_words(self, ghost: Ghost) -> str:
        """What the landing says: how much closer, and why it cannot be played if not."""
        gain = QCoreApplication.translate("CognesCanvas", "{gain} mm").format(
            gain=millimetres(ghost.gain, signed=True)
        )
        if not ghost.allowed:
            return QCoreApplication.translate(
                "CognesCanvas", "{gain}: not closer by {minimum} mm"
            ).format(gain=gain, minimum=millimetres(self.min_gain))
        if ghost.foul:
            return gain + QCoreApplication.translate("CognesCanvas", " — touches: foul")
        return gain

    def coin_circles(self) -> list[tuple[QPointF, float]]:
        """Every coin drawn (the middle one first), as (centre, radius) in pixels."""
        radius = self.radius * self.scale()
        points = [(0.0, 0.0), *self.centres]
        return [(self.to_pixels(point), radius) for point in points]

    def ghost_label(self, ghost: Ghost, width: float) -> QRectF:
        """Where the landing's words go: beside the landing (right, then left, level with it,
        then a line lower or higher...), else above or below it: the first place inside the
        picture that covers no coin (the landing's included), so the words never hide a coin
        nor run off the edge; else the place inside that covers the fewest coins."""
        landing = self.to_pixels(ghost.landing)
        radius = self.radius * self.scale()
        gap = radius * 1.2
        height = radius * 2
        top = landing.y() - radius
        beside = [
            QRectF(x, top + step * height, width, height)
            for step in (0, 1, -1, 2, -2)
            for x in (landing.x() + gap, landing.x() - gap - width)
        ]
        middle = landing.x() - width / 2
        places = [
            *beside,
            QRectF(middle, landing.y() - gap - height, width, height),
            QRectF(middle, landing.y() + gap, width, height),
        ]
        circles = [*self.coin_circles(), (landing, radius)]
        bounds = QRectF(self.rect())

        def cost(box: QRectF) -> tuple[bool, int]:
            inside = bounds.contains(box)
            return not inside, sum(circle_overlaps(box, centre, r) for centre, r in circles)

        return min(places, key=cost)

    def _paint_ghost(self, painter: QPainter, ghost: Ghost, s: float) -> None:
        start = self.to_pixels(self.centres[ghost.coin])
        landing = self.to_pixels(ghost.landing)
        radius = self.radius * s
        colour = FOUL if ghost.foul or not ghost.allowed else LEGAL
        if self.aim is not None:
            painter.setPen(QPen(QColor(255, 255, 255, 110), 1, Qt.PenStyle.DashLine))
            painter.drawLine(start, self.aim)
        painter.setPen(QPen(colour, max(2.0, radius * 0.12)))
        painter.drawLine(start, landing)
        for touched in ghost.touched:
            painter.setPen(QPen(FOUL, max(2.0, radius * 0.14)))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            point = self.to_pixels(self.centres[touched])
            painter.drawEllipse(point, radius * 1.1, radius * 1.1)
        if ghost.touches_middle:
            painter.setPen(QPen(FOUL, max(2.0, radius * 0.14)))
            painter.drawEllipse(self.to_pixels((0, 0)), radius * 1.1, radius * 1.1)
        fill = QColor(colour)
        fill.setAlpha(90)
        painter.setPen(QPen(colour, max(1.5, radius * 0.1), Qt.PenStyle.DashLine))
        painter.setBrush(QBrush(fill))
        painter.drawEllipse(landing, radius, radius)
        font = self.ghost_font(painter.font())
        painter.setFont(font)
        words = self.ghost_words(ghost)
        box = self.ghost_label(ghost, QFontMetricsF(font).horizontalAdvance(words) + 4)
        align = Qt.AlignmentFlag.AlignCenter
        painter.setPen(QPen(QColor("#000000")))
        painter.drawText(box.translated(1, 1), align, words)
        painter.setPen(QPen(QColor("#ffffff")))
        painter.drawText(box, align, words)


def circle_overlaps(box: QRectF, centre: QPointF, radius: float) -> bool:
    """Whether the disc of ``radius`` around ``centre`` reaches into ``box``."""
    x = min(max(centre.x(), box.left()), box.right())
    y = min(max(centre.y(), box.top()), box.bottom())
    return math.hypot(centre.x() - x, centre.y() - y) < radius
