"""Looking back at an earlier ply while the game goes on: the "viewing ply 12 — back to
live" bar of the table screen.

``viewing`` is the ply whose position the board shows (0: the start), or None for the live
position.  A new ply at the table only moves ``plies`` on: the view stays where the player
put it until they go back to live (the button, Esc, or stepping past the last ply).
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton

__all__ = ["PlyBrowser"]


class PlyBrowser(QFrame):
    changed = Signal()
    """The ply viewed changed (or went back to live)."""

    def __init__(self) -> None:
        super().__init__()
        self.viewing: int | None = None
        self.plies = 0
        self.setStyleSheet(
            "PlyBrowser { background: #e3f2fd; border: 1px solid #64b5f6; border-radius: 3px; }"
        )
        self.label = QLabel()
        self.label.setWordWrap(True)
        self.previous_button = QPushButton("◀")
        self.previous_button.setToolTip(self.tr("Previous ply (←)"))
        self.next_button = QPushButton("▶")
        self.next_button.setToolTip(self.tr("Next ply (→)"))
        self.live_button = QPushButton(self.tr("Back to live"))
        self.live_button.setToolTip(self.tr("Show the game as it is now (Esc)"))
        row = QHBoxLayout(self)
        row.setContentsMargins(6, 3, 6, 3)
        row.addWidget(self.label, 1)
        for button in (self.previous_button, self.next_button, self.live_button):
            row.addWidget(button)
        self.previous_button.clicked.connect(lambda: self.step(-1))
        self.next_button.clicked.connect(lambda: self.step(1))
        self.live_button.clicked.connect(lambda: self.view(None))
        self.hide()

    def set_plies(self, plies: int) -> None:
        """The table now has ``plies`` plies; the view stays put."""
        self.plies = plies
        self._show()

    def view(self, ply: int | None) -> None:
        """Show the position after ``ply`` (None, or the last ply: live)."""
        if ply is not None:
            ply = max(0, ply)
            if ply >= self.plies:
                ply = None
        if ply != self.viewing:
            self.viewing = ply
            self._show()
            self.changed.emit()

    def step(self, delta: int) -> None:
        """One ply back (-1) or on (+1) from the one viewed, or from live."""
        self.view((self.plies if self.viewing is None else self.viewing) + delta)

    def _show(self) -> None:
        if self.viewing is None:
            self.hide()
            return
        if self.viewing == 0:
            text = self.tr("Viewing the start: the game goes on meanwhile ({plies} plies).")
        else:
            text = self.tr("Viewing ply {ply} of {plies}: the game goes on meanwhile.")
        self.label.setText("<b>" + text.format(ply=self.viewing, plies=self.plies) + "</b>")
        self.previous_button.setEnabled(self.viewing > 0)
        self.show()
