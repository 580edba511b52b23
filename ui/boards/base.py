"""What every board widget offers the table screen.

A board draws one state snapshot and, when it is this player's turn, lets the player build a
move.  It emits ``moveChosen`` with a *complete* wire move only; the table screen passes it to
the session's ``move`` intent.  A board never changes the game itself.

Game-specific notes for the players list (who rules, who still owes a turn) come from the
board module too, through ``seat_notes`` and ``status_note``, so the table screen stays
game-generic.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QWidget

from engines import AnyEngine


class BoardWidget(QWidget):
    moveChosen = Signal(object)
    """A complete move, as a tuple of ints (wire form)."""

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

    def status_note(self, engine: AnyEngine, state: Any) -> str:
        """One sentence about the position for the status line, or ""."""
        return ""
