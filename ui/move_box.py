"""A move typed in the game's notation, as the terminal client takes it, with completion.

``MoveBox`` sits under the board.  At this player's turn its field completes among the
legal moves' notation (``engine.format_move`` of each of ``engine.legal_moves``: a
``QCompleter`` matching anywhere in a move, case aside); Enter (or *Play*) reads the text with
the engine's own ``parse_move`` — the parser the terminal player uses, nothing re-written
here — and hands the move's wire form to the session's ``move`` intent, as a board does.
Text the engine cannot read, or a move it refuses, is answered under the field in the
engine's words ("Not a move here: …"), and the text stays to be corrected.

It follows the session through its bridge on its own (like ``ui.pointing``), so the table
screen only places it.

Invariant: the box never decides what is legal: the completion lists what the engine says
is legal, and the engine reads what was typed.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QStringListModel, Qt, QTimer
from PySide6.QtWidgets import (
    QApplication,
    QCompleter,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QWidget,
)

from client.sessions.session_api import GameSession
from engines import IllegalMove, InvalidMove
from ui.bridge import SessionBridge
from ui.enter_keeper import keep_enter
from ui.theme import ERROR

__all__ = ["MAX_COMPLETIONS", "MoveBox"]

MAX_COMPLETIONS = 5000
"""The completion lists at most this many moves (a Cognes position offers thousands of flips;
any move can still be typed in full)."""


class MoveBox(QWidget):
    def __init__(self, session: GameSession, bridge: SessionBridge) -> None:
        super().__init__()
        self.session = session
        self.field = QLineEdit()
        self.field.setPlaceholderText(self.tr("Type a move…"))
        self.field.setToolTip(
            self.tr("A move in the game's notation, as the move list writes it; Enter plays it")
        )
        self.field.setMaxLength(200)
        self.field.setAccessibleName(self.tr("Move, typed in the game's notation"))
        keep_enter(self.field)  # Enter plays the move, never the table's shortcut
        self.model = QStringListModel(self)
        self.completer = QCompleter(self.model, self)
        self.completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.completer.setFilterMode(Qt.MatchFlag.MatchContains)
        self.completer.setMaxVisibleItems(12)
        self.field.setCompleter(self.completer)
        self.play_button = QPushButton(self.tr("Play"))
        self.play_button.setToolTip(self.tr("Play the move typed in the box"))
        self.message = QLabel()
        self.message.setWordWrap(True)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(QLabel(self.tr("Move")))
        row.addWidget(self.field, 1)
        row.addWidget(self.play_button)
        row.addWidget(self.message, 2)

        self._state: Any = None
        self._refused = False
        self.moves: tuple[str, ...] = ()
        """The legal moves' notation the completion offers now."""
        self.field.returnPressed.connect(self.play)
        self.play_button.clicked.connect(self.play)
        bridge.stateChanged.connect(lambda _event: self.follow())
        bridge.playersChanged.connect(self.follow)
        bridge.halted.connect(lambda _event: self.follow())
        bridge.ended.connect(lambda _outcome: self.follow())
        self.follow()

    def _my_turn(self) -> bool:
        snapshot = self.session.snapshot
        return (
            snapshot.my_turn
            and not snapshot.resign_pending
            and snapshot.halted is None
            and snapshot.outcome is None
            and not snapshot.stopped
        )

    def follow(self) -> None:
        """The legal moves of a new position, and whether a move may be typed now."""
        snapshot = self.session.snapshot
        mine = self._my_turn()
        self.play_button.setEnabled(mine)
        if snapshot.state is not self._state or not mine:
            if snapshot.state is not self._state and self._refused:
                self.say("")  # a refusal is about a position now gone (a move on the board)
            self._state = snapshot.state
            self.moves = self._legal_notation() if mine else ()
            self.model.setStringList(list(self.moves))

    def _legal_notation(self) -> tuple[str, ...]:
        snapshot = self.session.snapshot
        engine, state = snapshot.engine, snapshot.state
        legal = engine.legal_moves(state)[:MAX_COMPLETIONS]
        return tuple(engine.format_move(state, move) for move in legal)

    def say(self, text: str, *, error: bool = False) -> None:
        self._refused = error
        self.message.setStyleSheet(f"color: {ERROR};" if error else "")
        self.message.setText(text)

    def _after_enter(self) -> None:
        """A completion chosen with Enter is written into the field after the move is read:
        cleared again; and some platforms leave the keys with the hidden completion list's
        window, given back to this one."""
        self.field.clear()
        if QApplication.activeWindow() is self.completer.popup():
            self.window().activateWindow()

    def play(self) -> None:
        """Read the typed move with the engine's parser and play it, or say why not."""
        text = self.field.text().strip()
        if not text:
            return
        snapshot = self.session.snapshot
        if not self._my_turn():
            self.say(self.tr("It is not your turn yet."), error=True)
            return
        engine = snapshot.engine
        try:
            move = engine.parse_move(snapshot.state, text)
        except (InvalidMove, IllegalMove) as error:
            self.say(self.tr("Not a move here: {why}").format(why=error), error=True)
            return
        self.field.clear()
        QTimer.singleShot(0, self._after_enter)
        self.say(self.tr("Played {move}.").format(move=text))
        self.session.move(list(engine.move_to_wire(move)))
