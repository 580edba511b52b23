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
several authors on one square nested so each stays visible.  Marks received live carry the
time they arrived and fade out after ``FADE_AFTER`` seconds over ``FADE_FOR``; marks given
with ``since`` 0 (replay, exports) never fade.

Invariant: the overlay never changes the game or the board's move building; it only draws
and reports gestures.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from PySide6.QtCore import QEvent, QLineF, QObject, QPointF, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QMouseEvent, QPainter, QPaintEvent, QPen, QPolygonF
from PySide6.QtWidgets import QWidget

from client.sessions.session_api import Pointed
from ui.theme import NEUTRAL, seat_colour

__all__ = ["FADE_AFTER", "FADE_FOR", "PointingOverlay", "ShownMarks", "fade"]

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
                self._paint_ring(painter, square, colour, strength, size, nested)
            for start, end in item.marks.arrows:
                self._paint_arrow(painter, start, end, colour, strength, size)
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
        width = max(2.0, size * 0.09)
        radius = max(size * 0.46 - nested * width * 1.2, width)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.setPen(QPen(_halo(strength), width * 1.7))
        painter.drawEllipse(centre, radius, radius)
        painter.setPen(QPen(pen_colour, width))
        painter.drawEllipse(centre, radius, radius)

    def _paint_arrow(
        self,
        painter: QPainter,
        start: int,
        end: int,
        colour: QColor,
        strength: float,
        size: float,
    ) -> None:
        origin, target = self.mark_point(start), self.mark_point(end)
        if origin is None or target is None:
            return
        if start == end:
            self._paint_ring(painter, start, colour, strength, size, 0)
            return
        self._paint_line(painter, origin, target, colour, strength, size)

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
