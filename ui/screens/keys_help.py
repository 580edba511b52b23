"""The table screen's keys, listed in an overlay (F1 or ?), closed by Esc, a click or the key
again.

The list is the table screen's own (``KEYS``): each row the keys and what they do, so the
help cannot name a key the screen does not take (the test plays every one of them).
"""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, Qt
from PySide6.QtGui import QMouseEvent
from PySide6.QtWidgets import QFrame, QLabel, QVBoxLayout, QWidget

from ui.text_size import heading

__all__ = ["KEYS", "KeysHelp"]

# QT_TRANSLATE_NOOP only marks the text for lupdate (its stub returns ``object``).
KEYS: tuple[tuple[str, object], ...] = (
    (
        "Enter",
        QT_TRANSLATE_NOOP(
            "KeysHelp", "Write in the chat (off the board); Enter again sends the line"
        ),
    ),
    ("Ctrl+Z", QT_TRANSLATE_NOOP("KeysHelp", "Ask to take back your last move")),
    (
        "← →",
        QT_TRANSLATE_NOOP("KeysHelp", "Browse the game: the ply before or after (off the board)"),
    ),
    ("Esc", QT_TRANSLATE_NOOP("KeysHelp", "Back to the live game; else one step back in a move")),
    ("Tab / Shift+Tab", QT_TRANSLATE_NOOP("KeysHelp", "Go to the next or previous control")),
    ("Ctrl+B", QT_TRANSLATE_NOOP("KeysHelp", "To the board: its cursor takes the keys below")),
    ("← → ↑ ↓", QT_TRANSLATE_NOOP("KeysHelp", "On the board: move the cursor (a white ring)")),
    (
        "Enter / Space",
        QT_TRANSLATE_NOOP("KeysHelp", "On the board, at your turn: pick or drop, as a click"),
    ),
    ("N / Shift+N", QT_TRANSLATE_NOOP("KeysHelp", "On the board: the next highlighted spot")),
    (
        "Page Up / Page Down",
        QT_TRANSLATE_NOOP("KeysHelp", "Cognes, aiming: turn ten directions (← → turn one)"),
    ),
    (
        "P / A",
        QT_TRANSLATE_NOOP(
            "KeysHelp", "On the board: highlight the spot for all; A, then A again: an arrow"
        ),
    ),
    ("Ctrl+M", QT_TRANSLATE_NOOP("KeysHelp", "Type a move; ↓ lists the legal ones, Enter plays")),
    ("F1 / ?", QT_TRANSLATE_NOOP("KeysHelp", "Show or hide this list")),
)


class KeysHelp(QFrame):
    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.setObjectName("KeysHelp")
        self.setStyleSheet(
            "#KeysHelp { background: rgba(255, 255, 255, 245); border: 2px solid #455a64;"
            " border-radius: 6px; }"
        )
        title = QLabel(self.tr("Keys at the table"))
        heading(title, 1.25)
        rows = "".join(
            f"<tr><td style='padding-right: 18px'><b>{keys}</b></td>"
            f"<td>{QCoreApplication.translate('KeysHelp', str(what))}</td></tr>"
            for keys, what in KEYS
        )
        self.table = QLabel(f"<table>{rows}</table>")
        self.table.setTextFormat(Qt.TextFormat.RichText)
        closing = QLabel(self.tr("Esc, F1 or a click closes this list."))
        closing.setStyleSheet("color: #555555;")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(18, 14, 18, 14)
        layout.addWidget(title)
        layout.addWidget(self.table)
        layout.addWidget(closing)
        self.hide()

    def toggle(self) -> None:
        if self.isVisible():
            self.hide()
            return
        self.adjustSize()
        parent = self.parentWidget()
        if parent is not None:
            self.move((parent.width() - self.width()) // 2, (parent.height() - self.height()) // 3)
        self.show()
        self.raise_()

    def mousePressEvent(self, event: QMouseEvent) -> None:
        self.hide()
