"""The table screen without a mouse: the board's cursor, the move box, a focus order, and the
keys that jump to them.

``TableKeyboard`` is made once with the screen (its shortcuts) and ``attach``-ed to each
session's board: it gives the board its cursor (``ui.boards.cursor_games``), puts a
``MoveBox`` under it, and sets the Tab order to follow the screen top to bottom, left to
right:

  the game-over summary's buttons → the board (and its own buttons) → the move box →
  the pointing buttons → players → moves → chat → resign, draw, takeback (and their
  questions) → rules, leave → sound, details, keys.

When a table opens the board has the keyboard (a seated player's first key moves the
cursor); when *Resign…* or *Leave table* asks first, its safe answer (*Cancel*, *Stay*) has
it; when the game ends, the summary's first button has it (play again, replay, copy the
moves, then Tab on to *Leave table*).  Enter on a focused button presses it, and on a ply of
the move list shows the position after it, as a click there does.

Invariant: this module only places focus and widgets; every action is the screen's own,
reached through the same buttons and intents as with the mouse.
"""

from __future__ import annotations

import itertools
from typing import Any

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QAbstractButton, QPushButton, QWidget

from client.sessions.session_api import GameSession
from ui.boards.board_cursor import BoardCursor
from ui.boards.cursor_games import attach_cursor
from ui.bridge import SessionBridge
from ui.enter_keeper import keep_enter
from ui.move_box import MoveBox

__all__ = ["TableKeyboard"]

BOARD_KEY = "Ctrl+B"
MOVE_KEY = "Ctrl+M"


class TableKeyboard:
    def __init__(self, screen: Any) -> None:
        self.screen = screen
        """The ``TableScreen`` (which imports this module: known by its parts only)."""
        self.cursor: BoardCursor | None = None
        self.move_box: MoveBox | None = None
        self._ended = False
        context = Qt.ShortcutContext.WidgetWithChildrenShortcut
        for sequence, action in (
            (BOARD_KEY, self.focus_board),
            (MOVE_KEY, self.focus_move_box),
        ):
            shortcut = QShortcut(QKeySequence(sequence), screen)
            shortcut.setContext(context)
            shortcut.activated.connect(action)
        # A question that opens under a button takes the keyboard at its safe answer, so
        # Tab is not needed to find it (and Space on it does no harm).
        _enter_presses(screen)
        # Enter on a ply of the move list shows it, as a click there does.
        keep_enter(screen.moves)
        screen.moves.itemActivated.connect(
            lambda item: screen.browser.view(screen.moves.row(item) + 1)
        )
        screen.resign_button.clicked.connect(lambda: self._answer(screen.confirm_no))
        screen.leave_button.clicked.connect(lambda: self._answer(screen.leave_no))

    def attach(self, session: GameSession, bridge: SessionBridge) -> None:
        """Give the new session's board a cursor and a move box, and the focus."""
        screen = self.screen
        assert screen.board is not None
        self.cursor = attach_cursor(screen.board)
        if self.cursor is not None:
            self.cursor.arm(True)  # the table opens with the board's keys on the cursor
        self.move_box = MoveBox(session, bridge)
        screen.board_layout.addWidget(self.move_box)
        _enter_presses(screen.board_frame)  # the board's, the move box's, pointing's buttons
        self._ended = session.snapshot.outcome is not None
        bridge.ended.connect(lambda _outcome: self._on_end())
        self.order()
        QTimer.singleShot(0, self.focus_board)

    def detach(self) -> None:
        if self.move_box is not None:
            self.move_box.setParent(None)
            self.move_box.deleteLater()
        self.cursor = self.move_box = None

    # --- focus --------------------------------------------------------------------------
    def focus_board(self) -> None:
        board = self.screen.board
        if board is not None and board.isVisible():
            board.setFocus(Qt.FocusReason.ShortcutFocusReason)
            if self.cursor is not None:
                self.cursor.arm(True)  # the board may have had the focus, from a click

    def focus_move_box(self) -> None:
        if self.move_box is not None and self.move_box.isVisible():
            self.move_box.field.setFocus(Qt.FocusReason.ShortcutFocusReason)
            self.move_box.field.selectAll()

    def _answer(self, button: QWidget) -> None:
        if button.isVisible():
            button.setFocus(Qt.FocusReason.OtherFocusReason)

    def _on_end(self) -> None:
        """At the end, the summary's first button takes the keyboard (once)."""
        if self._ended:
            return
        self._ended = True
        QTimer.singleShot(0, self._focus_summary)

    def _focus_summary(self) -> None:
        summary = self.screen.summary
        for button in (summary.again_button, summary.replay_button, summary.export_button):
            if button.isVisible() and button.isEnabled():
                button.setFocus(Qt.FocusReason.OtherFocusReason)
                return
        self.screen.leave_button.setFocus(Qt.FocusReason.OtherFocusReason)

    def order(self) -> None:
        """The Tab order: the screen top to bottom, left to right (see the module's text)."""
        screen = self.screen
        summary = screen.summary
        chain: list[QWidget] = [summary.again_button, summary.replay_button, summary.export_button]
        board = screen.board
        if board is not None:
            chain.append(board)
            chain.extend(_buttons_in(board))
        if self.move_box is not None:
            chain.extend((self.move_box.field, self.move_box.play_button))
        if screen.pointing is not None:
            chain.extend((screen.pointing.mode_button, screen.pointing.clear_button))
        chain.extend(
            (
                screen.players,
                screen.moves,
                screen.chat.lines,
                screen.chat.field,
                screen.chat.button,
                screen.resign_button,
                screen.offer_button,
                screen.accept_button,
                screen.takeback_button,
                screen.confirm_yes,
                screen.confirm_no,
                screen.takeback_yes,
                screen.takeback_no,
                screen.rules_button,
                screen.leave_button,
                screen.leave_yes,
                screen.leave_no,
                screen.sound_button,
                screen.details_button,
                screen.help_button,
            )
        )
        for before, after in itertools.pairwise(chain):
            QWidget.setTabOrder(before, after)


def _enter_presses(root: QWidget) -> None:
    """Enter on a focused button of ``root`` presses it (outside a dialog only Space does,
    and the table's Enter would open the chat instead)."""
    for button in root.findChildren(QPushButton):
        if not button.autoDefault():
            button.setAutoDefault(True)
            keep_enter(button)


def _buttons_in(board: QWidget) -> list[QWidget]:
    """The board's own buttons (Consensus' No kill, Back, Cancel; Cognes' foul question)."""
    return list(board.findChildren(QAbstractButton))
