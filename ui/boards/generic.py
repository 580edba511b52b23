"""The board for games that have no drawn board yet: the legal moves as a list.

Any engine can be played with it: it lists ``legal_moves`` in notation, filtered by what the
player types; double-clicking a move (or Play) sends its wire form.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QLabel,
    QLineEdit,
    QListView,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
)

from engines import AnyEngine
from ui.boards.base import BoardWidget


class GenericBoard(BoardWidget):
    def __init__(self, name: str) -> None:
        """``name``: the game's, as the player reads it (``ui.game_names.game_name``), given
        by the screen so that the boards need not know the rules texts, whose figures are
        drawn with the boards (no import circle)."""
        super().__init__()
        self.name = name
        self.caption = QLabel()
        self.caption.setWordWrap(True)
        self.filter = QLineEdit(placeholderText=self.tr("filter moves"))
        self.moves = QListWidget()
        # Moves flow in columns like words on a page, so a long list fits on one screen.
        self.moves.setFlow(QListView.Flow.LeftToRight)
        self.moves.setWrapping(True)
        self.moves.setResizeMode(QListView.ResizeMode.Adjust)
        self.moves.setSpacing(4)
        self.play = QPushButton(self.tr("Play"))
        layout = QVBoxLayout(self)
        layout.addWidget(self.caption)
        layout.addWidget(self.filter)
        layout.addWidget(self.moves, 1)
        layout.addWidget(self.play)
        self.filter.textChanged.connect(self._apply_filter)
        self.moves.itemDoubleClicked.connect(self._send)
        self.play.clicked.connect(lambda: self._send(self.moves.currentItem()))

    def show_position(
        self,
        engine: AnyEngine,
        state: Any,
        *,
        last_move: tuple[int, ...] | None,
        my_seat: int | None,
        interactive: bool,
    ) -> None:
        self.moves.clear()
        seat = engine.to_move(state)
        plain = self.tr("{game} has no drawn board yet.").format(game=self.name)
        if interactive:
            self.caption.setText(plain + " " + self.tr("Your move: double-click it in the list."))
            for move in engine.legal_moves(state):
                item = QListWidgetItem(engine.format_move(state, move))
                item.setData(Qt.ItemDataRole.UserRole, tuple(engine.move_to_wire(move)))
                self.moves.addItem(item)
        else:
            waiting = (
                self.tr("The game is over.")
                if seat is None
                else self.tr("Seat {seat} to move.").format(seat=seat)
            )
            self.caption.setText(f"{plain} {waiting}")
        self.play.setEnabled(interactive)
        self._apply_filter(self.filter.text())

    def _apply_filter(self, text: str) -> None:
        for row in range(self.moves.count()):
            item = self.moves.item(row)
            item.setHidden(text.strip().lower() not in item.text().lower())

    def _send(self, item: QListWidgetItem | None) -> None:
        if item is not None and not item.isHidden():
            self.moveChosen.emit(item.data(Qt.ItemDataRole.UserRole))
