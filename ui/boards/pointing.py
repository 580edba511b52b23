"""Pointing on a board: arrows and highlighted squares drawn over any of the four boards.

A board hands its canvas to a ``PointingOverlay`` with three functions of its geometry:
``mark_at`` (the mark number under a widget point, or None), ``mark_point`` (the widget
point of a mark number) and ``mark_size`` (a square's size in pixels).  A *mark number* is
what the POINT record carries (docs/PROTOCOL.md: "squares"): Consensus squares, Discorder
cells and peg sites (their wire numbers), Forbans ports, Cognes coins and points of its table
(``ui.boards.cognes`` says how).

Input, as an event filter on the canvas, so the canvas's own clicks are untouched:

* a right-button drag from one mark to another emits ``gesture(from, to)`` (an arrow);
* a right click on a mark emits ``gesture(mark, mark)`` (a highlight) — unless the board's
  ``fallback`` takes it (a board building a move steps back on a right click, as before);
* in *pointing mode* (for a touchpad) the left button does the same and the board gets no
  left clicks; a right click outside every mark is left to the board.

What the gestures mean (toggling the player's own marks and sending them) is the table
screen's business (``ui.pointing``).  Drawing: the overlay is a transparent child widget
covering the canvas, painted after it; each author's marks in its seat colour, rings of
several authors on one square nested so each stays visible, and each ring and each arrow's
tail tagged with its author's side shape (``ui.boards.author_tag``), so that authors whose
colours look alike still differ.  Marks received live carry the
time they arrived and fade out after ``FADE_AFTER`` seconds over ``FADE_FOR``; marks given
with ``since`` 0 (replay, exports) never fade.

Invariant: the overlay never changes the game or the board's move building; it only draws
and reports gestures.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from PySide6.QtCore import QEvent, QLineF, QObject, QPointF, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QMouseEvent, QPainter, QPaintEvent, QPen, QPolygonF
from PySide6.QtWidgets import QWidget

from client.sessions.session_api import Pointed
from ui.boards.author_tag import paint_author_tag
from ui.theme import NEUTRAL, seat_colour

__all__ = [
    "FADE_AFTER",
    "FADE_FOR",
    "PointingOverlay",
    "ShownMarks",
    "fade",
    "ring_tag_spot",
    "tag_radius",
]

FADE_AFTER = 15.0
"""Seconds a live mark stays fully visible."""
FADE_FOR = 3.0
"""Seconds over which it then fades out."""
TICK_MS = 100


def fade(since: float, now: float) -> float:
    """How visible (0 to 1) a mark received at ``since`` is at ``now``; ``since`` 0: fully."""
    if since <= 0:
        return 1.0
    age = now - since
    if age <= FADE_AFTER:
        return 1.0
    return max(0.0, 1.0 - (age - FADE_AFTER) / FADE_FOR)


def ring_width(size: float) -> float:
    return max(2.0, size * 0.09)


def ring_radius(size: float, nested: int) -> float:
    """The radius of the ``nested``-th ring (0: the outermost) on a square of ``size``."""
    width = ring_width(size)
    return max(size * 0.46 - nested * width * 1.2, width)


def tag_radius(size: float) -> float:
    """The radius of an author's tag on a board whose squares are ``size`` across."""
    return max(5.0, size * 0.13)


def ring_tag_spot(centre: QPointF, size: float, nested: int) -> tuple[QPointF, float]:
    """Where the tag of the ``nested``-th ring about ``centre`` sits, and its radius: on the
    ring, at the bottom left for the outermost, turned a little further for each inner one so
    that the tags of several authors on one square do not cover each other."""
    angle = math.pi * 0.75 + nested * math.pi / 3
    radius = ring_radius(size, nested)
    spot = centre + QPointF(math.cos(angle), math.sin(angle)) * radius
    return spot, tag_radius(size)


@dataclass(frozen=True)
class ShownMarks:
    """One author's marks as drawn: the POINT it sent and when it arrived (0: never fades)."""

    marks: Pointed
    since: float = 0.0


class PointingOverlay(QWidget):
    gesture = Signal(int, int)
    """From, to (equal: a highlighted square)."""

    def __init__(
        self,
        canvas: QWidget,
        mark_at: Callable[[QPointF], int | None],
        mark_point: Callable[[int], QPointF | None],
        mark_size: Callable[[], float],
        fallback: Callable[[], bool] | None = None,
    ) -> None:
        super().__init__(canvas)
        self.canvas = canvas
        self.mark_at, self.mark_point, self.mark_size = mark_at, mark_point, mark_size
        self.fallback = fallback
        self.clock: Callable[[], float] = time.monotonic
        self.shown: tuple[ShownMarks, ...] = ()
        self.enabled = False
        """Gestures are taken (a seated player at a live table)."""
        self.mode = False
        """Pointing mode: the left button points too."""
        self.my_seat: int | None = None
        self.game = ""
        """The game on the board: which shape a seat's tag has (Les Forbans: its camp's)."""
        self._drag: tuple[int, Qt.MouseButton] | None = None
        self._drag_to: QPointF | None = None
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.setAttribute(Qt.WidgetAttribute.WA_NoSystemBackground)
        self.setGeometry(canvas.rect())
        self.timer = QTimer(self)
        self.timer.setInterval(TICK_MS)
        self.timer.timeout.connect(self._tick)
        canvas.installEventFilter(self)
        self.raise_()

    # --- what is shown ------------------------------------------------------------------
    def show_marks(self, shown: Sequence[ShownMarks]) -> None:
        self.shown = tuple(shown)
        if any(item.since > 0 for item in self.shown):
            self.timer.start()
        self.update()

    def _tick(self) -> None:
        now = self.clock()
        visible = tuple(item for item in self.shown if fade(item.since, now) > 0)
        if visible != self.shown:
            self.shown = visible
        if not any(item.since > 0 for item in self.shown):
            self.timer.stop()
        self.update()

    # --- input --------------------------------------------------------------------------
    def _points_with(self, button: Qt.MouseButton) -> bool:
        return button == Qt.MouseButton.RightButton or (
            self.mode and button == Qt.MouseButton.LeftButton
        )

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if kind == QEvent.Type.Resize:
            self.setGeometry(self.canvas.rect())
            return False
        if not self.enabled or not isinstance(event, QMouseEvent):
            return False
        if kind == QEvent.Type.MouseButtonPress and self._points_with(event.button()):
            mark = self.mark_at(event.position())
            if mark is None:
                # Outside every mark: a right click stays the board's (back), left is eaten.
                return event.button() == Qt.MouseButton.LeftButton
            self._drag, self._drag_to = (mark, event.button()), None
            return True
        if kind == QEvent.Type.MouseMove and self._drag is not None:
            self._drag_to = event.position()
            self.update()
            return False
        if kind == QEvent.Type.MouseButtonRelease and self._drag is not None:
            start, button = self._drag
            if event.button() != button:
                return True
            self._drag = self._drag_to = None
            self.update()
            end = self.mark_at(event.position())
            if end is None:
                return True
            plain_right_click = (
                end == start and button == Qt.MouseButton.RightButton and not self.mode
            )
            if not (plain_right_click and self.fallback is not None and self.fallback()):
                self.gesture.emit(start, end)
            return True
        # A double click of the pointing button is two clicks, not the canvas's business.
        return kind == QEvent.Type.MouseButtonDblClick and self._points_with(event.button())

    # --- painting -----------------------------------------------------------------------
    def paintEvent(self, _event: QPaintEvent) -> None:
        if not self.shown and self._drag is None:
            return
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        size = max(4.0, self.mark_size())
        now = self.clock()
        rings: dict[int, int] = {}
        for item in self.shown:
            strength = fade(item.since, now)
            if strength <= 0:
                continue
            colour = self._colour(item.marks.seat)
            for square in item.marks.squares:
                nested = rings.get(square, 0)
                rings[square] = nested + 1
                seat = item.marks.seat
                self._paint_ring(painter, square, seat, colour, strength, size, nested)
            for start, end in item.marks.arrows:
                self._paint_arrow(painter, start, end, item.marks.seat, colour, strength, size)
        if self._drag is not None and self._drag_to is not None:
            origin = self.mark_point(self._drag[0])
            if origin is not None:
                colour = self._colour(self.my_seat)
                self._paint_line(painter, origin, self._drag_to, colour, 0.6, size)
        painter.end()

    @staticmethod
    def _colour(seat: int | None) -> QColor:
        return seat_colour(seat) if seat else QColor(NEUTRAL)

    def _paint_ring(
        self,
        painter: QPainter,
        square: int,
        seat: int | None,
        colour: QColor,
        strength: float,
        size: float,
        nested: int,
    ) -> None:
        centre = self.mark_point(square)
        if centre is None:
            return
        pen_colour = QColor(colour)
        pen_colour.setAlphaF(0.85 * strength)
        width = ring_width(size)
        radius = ring_radius(size, nested)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.setPen(QPen(_halo(strength), width * 1.7))
        painter.drawEllipse(centre, radius, radius)
        painter.setPen(QPen(pen_colour, width))
        painter.drawEllipse(centre, radius, radius)
        spot, _tag = ring_tag_spot(centre, size, nested)
        self._paint_tag(painter, seat, spot, colour, strength, size)

    def _paint_tag(
        self,
        painter: QPainter,
        seat: int | None,
        spot: QPointF,
        colour: QColor,
        strength: float,
        size: float,
    ) -> None:
        if not seat:
            return  # a watcher has no side, hence no shape: its grey says enough
        fill = QColor(colour)
        fill.setAlphaF(strength)
        paint_author_tag(painter, self.game, seat, spot, tag_radius(size), fill)

    def _paint_arrow(
        self,
        painter: QPainter,
        start: int,
        end: int,
        seat: int | None,
        colour: QColor,
        strength: float,
        size: float,
    ) -> None:
        """The arrow, its author's tag on its tail (an arrow from a mark to itself: a ring)."""
        origin, target = self.mark_point(start), self.mark_point(end)
        if origin is None or target is None:
            return
        if start == end:
            self._paint_ring(painter, start, seat, colour, strength, size, 0)
            return
        self._paint_line(painter, origin, target, colour, strength, size)
        if QLineF(origin, target).length() >= 1:
            self._paint_tag(painter, seat, origin, colour, strength, size)

    def _paint_line(
        self,
        painter: QPainter,
        origin: QPointF,
        target: QPointF,
        colour: QColor,
        strength: float,
        size: float,
    ) -> None:
        line = QLineF(origin, target)
        length = line.length()
        if length < 1:
            return
        fill = QColor(colour)
        fill.setAlphaF(0.72 * strength)
        width = max(3.0, size * 0.16)
        head = min(width * 2.6, length * 0.6)
        # The shaft stops where the head begins, so the two never overlap (no darker seam).
        unit = QPointF((target.x() - origin.x()) / length, (target.y() - origin.y()) / length)
        tip = target - unit * (size * 0.12)
        base = tip - unit * head
        normal = QPointF(-unit.y(), unit.x()) * (head * 0.55)
        arrow_head = QPolygonF([tip, base + normal, base - normal])
        # A light halo first, so a mark reads on any board (Cognes's green table too).
        halo = _halo(strength)
        round_cap = Qt.PenCapStyle.RoundCap
        painter.setPen(QPen(halo, width * 1.6, Qt.PenStyle.SolidLine, round_cap))
        painter.drawLine(QLineF(origin, base))
        painter.setPen(QPen(halo, width * 0.6, Qt.PenStyle.SolidLine, round_cap))
        painter.setBrush(halo)
        painter.drawPolygon(arrow_head)
        painter.setPen(QPen(fill, width, Qt.PenStyle.SolidLine, round_cap))
        painter.drawLine(QLineF(origin, base))
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(fill)
        painter.drawPolygon(arrow_head)


def _halo(strength: float) -> QColor:
    colour = QColor("#ffffff")
    colour.setAlphaF(0.45 * strength)
    return colour
