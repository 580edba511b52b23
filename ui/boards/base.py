"""What every board widget offers the table screen.

A board draws one state snapshot and, when it is this player's turn, lets the player build a
move.  It emits ``moveChosen`` with a *complete* wire move only; the table screen passes it to
the session's ``move`` intent.  A board never changes the game itself.

Game-specific notes for the players list (who rules, who still owes a turn) come from the
board module too, through ``seat_notes`` and ``status_note``, so the table screen stays
game-generic.

The plies since this player's last move are numbered on a board with that geometry too
(``show_recent``, ``ui.boards.recent_plies``); ``ply_marks`` says which marks a move touches.

Pointing (``ui.boards.pointing``): a board that supports it calls ``attach_pointing`` with
its canvas and geometry; ``pointed`` then reports the player's gestures (from, to; equal
for a highlighted square) and ``show_marks`` draws everyone's marks.  A board without it
ignores both.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from PySide6.QtCore import QPointF, Signal
from PySide6.QtWidgets import QWidget

from engines import AnyEngine
from ui.boards.pointing import PointingOverlay, ShownMarks
from ui.boards.recent_plies import RecentMark, RecentPliesOverlay


class BoardWidget(QWidget):
    moveChosen = Signal(object)
    """A complete move, as a tuple of ints (wire form)."""
    pointed = Signal(int, int)
    """A pointing gesture: an arrow from a mark to a mark (equal: one highlighted mark)."""

    pointing: PointingOverlay | None = None
    recent: RecentPliesOverlay | None = None

    def attach_pointing(
        self,
        canvas: QWidget,
        mark_at: Callable[[QPointF], int | None],
        mark_point: Callable[[int], QPointF | None],
        mark_size: Callable[[], float],
        fallback: Callable[[], bool] | None = None,
        *,
        game: str,
    ) -> None:
        """Let players point on ``canvas`` (see ``ui.boards.pointing`` for the arguments) of
        ``game`` (the authors' shapes depend on it)."""
        self.pointing = PointingOverlay(canvas, mark_at, mark_point, mark_size, fallback)
        self.pointing.game = game
        self.pointing.gesture.connect(self.pointed.emit)
        self.recent = RecentPliesOverlay(canvas, mark_point, mark_size)
        self.recent.game = game

    def show_recent(self, recent: Sequence[RecentMark]) -> None:
        """Number the plies since this player's last move on the board (``recent``)."""
        if self.recent is not None:
            self.recent.show_recent(recent)

    def ply_marks(self, wire: tuple[int, ...]) -> tuple[int, ...]:
        """The mark numbers a move touches, where it came from first, where it went last
        (most boards: the wire's first two numbers are marks)."""
        return wire[:2]

    def show_marks(self, shown: Sequence[ShownMarks]) -> None:
        if self.pointing is not None:
            self.pointing.show_marks(shown)

    def set_pointing(self, *, enabled: bool, my_seat: int | None, mode: bool = False) -> None:
        """Take gestures (``enabled``), the left button too in pointing ``mode``."""
        if self.pointing is not None:
            self.pointing.enabled, self.pointing.my_seat = enabled, my_seat
            self.pointing.mode = mode and enabled

    def show_position(
        self,
        engine: AnyEngine,
        state: Any,
        *,
        last_move: tuple[int, ...] | None,
        my_seat: int | None,
        interactive: bool,
    ) -> None:
        """Draw ``state``; ``interactive`` when this player may move now."""
        raise NotImplementedError

    def seat_notes(self, engine: AnyEngine, state: Any) -> dict[int, str]:
        """Short notes per seat for the players list (e.g. "ruler")."""
        return {}

    def status_note(
        self, engine: AnyEngine, state: Any, name_of: Callable[[int], str] | None = None
    ) -> str:
        """One sentence about the position for the status line, or ""."""
        return ""
