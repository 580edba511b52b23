"""A keyboard cursor over any board: the arrows move it, Enter does what a click there does.

A ``BoardCursor`` is a transparent child of the board's canvas (like the pointing overlay)
that draws a focus ring on one *spot* (a mark number, ``ui.boards.mark_geometry``: a
Consensus square, a Discorder cell or peg site, a Forbans port, a Cognes coin) while the
board has the keyboard.  What the spots are and what Enter on one does is the game's
``CursorGame`` (``ui.boards.cursor_games``): for the boards that build a move step by step it
is the very click handler (``ui.boards.step_clicks``), so a refused spot gets the same "why
not" sentence a click gets.

The cursor takes the keys once the board got the keyboard *from the keyboard*: by Tab or
Shift+Tab, by Ctrl+B, or as the table opens.  A click on the board gives the keys back to the
mouse's ways (the ring goes; the arrows browse the game and Enter opens the chat, as before),
until the keyboard brings the focus back.  Keys, while the cursor has them:

* the arrows move to the nearest spot in that direction *as drawn* (the board may be turned
  for the player's seat), so the cursor goes where the arrow points on the screen;
* Enter (or Space) presses the spot, at the player's turn;
* N / Shift+N jump to the next / previous spot the board highlights now (a piece that can
  move, a target);
* P highlights the spot for everyone at the table (again: no more), A starts an arrow
  there and A again ends it where the cursor is (a dashed line between), as a right click
  and a right drag point (``ui.boards.pointing``), when pointing is allowed;
* Esc is left to the board (a step back), unless an arrow is being drawn (dropped) or the
  game's keys take it (Cognes' aim).

The cursor claims those keys before the table screen's shortcuts (``ShortcutOverride``): the
arrows browse plies and Enter opens the chat only when the cursor does not have them.
A text field never loses a key to the cursor: the cursor only listens to the board widget.

Invariant: the cursor never decides what is legal and never builds a move of its own; it
only says which spot a key means and hands it to the game's click path.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Protocol

from PySide6.QtCore import QEvent, QObject, QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFocusEvent, QKeyEvent, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import QWidget

__all__ = ["ARROWS", "BoardCursor", "CursorGame", "step_towards"]

ARROWS: dict[Qt.Key, tuple[int, int]] = {
    Qt.Key.Key_Left: (-1, 0),
    Qt.Key.Key_Right: (1, 0),
    Qt.Key.Key_Up: (0, -1),
    Qt.Key.Key_Down: (0, 1),
}
"""Each arrow's direction on the screen (y down)."""
PRESS_KEYS = (Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Space)
POINT_KEYS = (Qt.Key.Key_P, Qt.Key.Key_A)
"""Pointing by keys: P highlights the spot, A starts and ends an arrow."""
KEYBOARD_REASONS = (
    Qt.FocusReason.TabFocusReason,
    Qt.FocusReason.BacktabFocusReason,
    Qt.FocusReason.ShortcutFocusReason,
)
"""How the board gets the keyboard from the keyboard (the table opening says Shortcut)."""
SIDEWAYS = 2.0
"""How much a spot off the arrow's line costs against one straight ahead."""


class CursorGame(Protocol):
    """What one game's board offers the cursor."""

    def spots(self) -> Sequence[int]:
        """The mark numbers the cursor may stand on."""

    def highlighted(self) -> Sequence[int]:
        """The spots the board highlights now (N jumps among them; the cursor starts there)."""

    def active(self) -> bool:
        """Whether Enter means something now (the player's turn)."""

    def press(self, spot: int) -> None:
        """Enter on ``spot``: what a click there does."""

    def takes(self, key: Qt.Key) -> bool:
        """Whether the game takes ``key`` for itself at this moment (Cognes' aim)."""

    def handle(self, key: Qt.Key, spot: int | None) -> None:
        """A key the game ``takes``, pressed with the cursor on ``spot``."""


def step_towards(points: dict[int, QPointF], origin: int, direction: tuple[int, int]) -> int | None:
    """The spot an arrow leads to from ``origin``: ahead of it along ``direction``, the one
    with the least distance ahead plus ``SIDEWAYS`` times the distance off the line."""
    start = points.get(origin)
    if start is None:
        return None
    dx, dy = direction
    best, best_cost = None, math.inf
    for spot, point in points.items():
        vx, vy = point.x() - start.x(), point.y() - start.y()
        ahead = vx * dx + vy * dy
        if ahead <= 0.5 or spot == origin:
            continue
        cost = ahead + SIDEWAYS * abs(vx * dy - vy * dx)
        if cost < best_cost:
            best, best_cost = spot, cost
    return best


class BoardCursor(QWidget):
    def __init__(
        self,
        board: QWidget,
        canvas: QWidget,
        mark_point: Callable[[int], QPointF | None],
        mark_size: Callable[[], float],
        game: CursorGame,
        point: Callable[[int, int], bool] | None = None,
    ) -> None:
        super().__init__(canvas)
        self.board, self.canvas, self.game = board, canvas, game
        self.point = point
        """Point for everyone (``ui.boards.pointing``'s gesture: from, to), if allowed now."""
        self.arrow_from: int | None = None
        """Where an arrow being drawn by keys starts (A pressed once)."""
        self.mark_point, self.mark_size = mark_point, mark_size
        self.spot: int | None = None
        """Where the cursor stands (None until the board first has the focus)."""
        self.armed = False
        """The cursor has the keys: the board got the keyboard from the keyboard (Tab, a
        shortcut, the table opening); a click on the board gives them back to the mouse's
        ways (the arrows browse the game, Enter goes to the chat)."""
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.setAttribute(Qt.WidgetAttribute.WA_NoSystemBackground)
        self.setGeometry(canvas.rect())
        # The board takes the keyboard by Tab or a click (a click on the canvas gives it).
        board.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        if canvas.focusProxy() is None:
            canvas.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
            canvas.setFocusProxy(board)
        board.installEventFilter(self)
        canvas.installEventFilter(self)
        self.raise_()

    # --- where it stands ----------------------------------------------------------------
    def _points(self) -> dict[int, QPointF]:
        points = {}
        for spot in self.game.spots():
            point = self.mark_point(spot)
            if point is not None:
                points[spot] = point
        return points

    def arm(self, armed: bool) -> None:
        self.armed = armed
        if armed:
            self.settle()
        self.update()

    def place(self, spot: int | None) -> None:
        self.spot = spot
        self.raise_()
        self.update()

    def settle(self) -> None:
        """Keep the cursor on a spot of this position; the first time, put it on the
        highlighted spot nearest the middle of the board (else the spot nearest it)."""
        points = self._points()
        if self.spot in points:
            return
        middle = QPointF(self.canvas.width() / 2, self.canvas.height() / 2)
        lit = [spot for spot in self.game.highlighted() if spot in points] or list(points)
        if not lit:
            self.place(None)
            return
        self.place(min(lit, key=lambda spot: _distance(points[spot], middle)))

    def jump(self, forward: bool) -> None:
        """To the next highlighted spot, in reading order on the screen."""
        points = self._points()
        lit = sorted(
            (spot for spot in self.game.highlighted() if spot in points),
            key=lambda spot: (round(points[spot].y()), points[spot].x()),
        )
        if not lit:
            return
        if self.spot not in lit:
            self.place(lit[0] if forward else lit[-1])
            return
        index = lit.index(self.spot) + (1 if forward else -1)
        self.place(lit[index % len(lit)])

    # --- keys ---------------------------------------------------------------------------
    def _claims(self, event: QKeyEvent) -> bool:
        key = event.key()
        if not self.armed:
            return False
        if key in ARROWS or key == Qt.Key.Key_N:
            return event.modifiers() & ~Qt.KeyboardModifier.ShiftModifier == Qt.KeyboardModifier(0)
        if key in POINT_KEYS:
            return self.point is not None and event.modifiers() == Qt.KeyboardModifier(0)
        if key == Qt.Key.Key_Escape:
            return self.arrow_from is not None
        if key in PRESS_KEYS:
            return self.game.active()
        return False

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if "game" not in vars(self):
            return False  # torn down with its window while the board still gets events
        kind = event.type()
        if watched is self.canvas:
            if kind == QEvent.Type.Resize:
                self.setGeometry(self.canvas.rect())
            elif kind == QEvent.Type.MouseButtonPress:
                self.arm(False)
            return False
        if kind in (QEvent.Type.FocusIn, QEvent.Type.FocusOut):
            if isinstance(event, QFocusEvent) and kind == QEvent.Type.FocusIn:
                reason = event.reason()
                if reason in KEYBOARD_REASONS:
                    self.arm(True)
                elif reason == Qt.FocusReason.MouseFocusReason:
                    self.arm(False)
            self.update()
            return False
        if not isinstance(event, QKeyEvent):
            return False
        if kind == QEvent.Type.ShortcutOverride:
            if self._claims(event) or (self.armed and self.game.takes(Qt.Key(event.key()))):
                event.accept()
            return False
        if kind != QEvent.Type.KeyPress:
            return False
        return self.key_press(event)

    def key_press(self, event: QKeyEvent) -> bool:
        key = Qt.Key(event.key())
        self.settle()
        if self.armed and self.game.takes(key):
            self.game.handle(key, self.spot)
            self.update()
            return True
        if not self._claims(event):
            return False
        if key in ARROWS:
            if self.spot is not None:
                target = step_towards(self._points(), self.spot, ARROWS[key])
                if target is not None:
                    self.place(target)
        elif key == Qt.Key.Key_N:
            self.jump(forward=not event.modifiers() & Qt.KeyboardModifier.ShiftModifier)
        elif key == Qt.Key.Key_Escape:
            self.arrow_from = None
        elif key in POINT_KEYS:
            self.point_key(key)
        elif self.spot is not None:
            self.game.press(self.spot)
            self.update()
        return True

    def point_key(self, key: Qt.Key) -> None:
        """P: highlight the spot (again: no more); A: an arrow from it, A again: to here."""
        spot, point = self.spot, self.point
        if spot is None or point is None:
            return
        if key == Qt.Key.Key_P:
            point(spot, spot)
        elif self.arrow_from is None:
            self.arrow_from = spot
        else:
            start, self.arrow_from = self.arrow_from, None
            if start != spot:
                point(start, spot)
        self.update()

    # --- painting -----------------------------------------------------------------------
    def paintEvent(self, _event: QPaintEvent) -> None:
        if not (self.armed and self.board.hasFocus()):
            return
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        # The board has the keys: a thin frame round it says so.
        painter.setPen(QPen(QColor("#1565c0"), 2, Qt.PenStyle.DashLine))
        painter.drawRect(QRectF(self.rect()).adjusted(1, 1, -1, -1))
        centre = None if self.spot is None else self.mark_point(self.spot)
        origin = None if self.arrow_from is None else self.mark_point(self.arrow_from)
        if origin is not None and centre is not None:
            painter.setPen(QPen(QColor("#1565c0"), 3, Qt.PenStyle.DashLine))
            painter.drawLine(origin, centre)
        if centre is not None:
            # A white ring inside a black one: it reads on any square, tile or colour.
            half = max(6.0, self.mark_size() * 0.5)
            ring = QRectF(centre.x() - half, centre.y() - half, 2 * half, 2 * half)
            width = max(2.0, half * 0.12)
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.setPen(QPen(QColor("#000000"), width * 2.2))
            painter.drawRoundedRect(ring, half * 0.3, half * 0.3)
            painter.setPen(QPen(QColor("#ffffff"), width))
            painter.drawRoundedRect(ring, half * 0.3, half * 0.3)
        painter.end()


def _distance(a: QPointF, b: QPointF) -> float:
    return math.hypot(a.x() - b.x(), a.y() - b.y())
