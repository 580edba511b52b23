"""The line under the board that says the plies since this player's move (issue 21).

It keeps the same room whatever it says (``LINES`` lines, even empty): a board above it
that grew and shrank with the line moved every square under the player's pointer as the
other players' plies came in.  When the plies do not fit, the oldest go first (an ellipsis
says some did) and the whole line is in the tooltip.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QLabel

__all__ = ["RecentLine"]

LINES = 3
"""Lines of room under the board: three plies of a four-seat game fit in a normal window."""

SEPARATOR = " · "


class RecentLine(QLabel):
    def __init__(self) -> None:
        super().__init__()
        self.setWordWrap(True)
        self.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self.setFixedHeight(LINES * self.fontMetrics().lineSpacing() + 2)
        self.heading = ""
        self.parts: tuple[str, ...] = ()

    def tell(self, heading: str, parts: Sequence[str]) -> None:
        """Say ``heading`` then ``parts`` (oldest first); nothing when there are none."""
        self.heading, self.parts = heading, tuple(parts)
        self.setToolTip(self._line(self.parts) if self.parts else "")
        self._fit()

    def _line(self, parts: Sequence[str], *, cut: bool = False) -> str:
        return f"{self.heading} {'… · ' if cut else ''}{SEPARATOR.join(parts)}"

    def _fit(self) -> None:
        if not self.parts:
            self.setText("")
            return
        room = QRect(0, 0, max(1, self.width()), self.height())
        metrics = self.fontMetrics()
        for first in range(len(self.parts)):
            text = self._line(self.parts[first:], cut=first > 0)
            used = metrics.boundingRect(room, int(Qt.TextFlag.TextWordWrap), text)
            if used.height() <= room.height() or self.width() <= 1:
                break
        self.setText(text)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit()
