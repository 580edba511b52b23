"""Session events as Qt signals.

The session calls its listeners on the trio thread, which in guest mode is the Qt thread, so
the signals are emitted directly; views connect to them and re-read ``session.snapshot``
(napari's model/view habit).  ``detach`` stops the flow when a screen lets go of a session.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal

from client.sessions.session_api import (
    ChatLine,
    GameEnded,
    GameSession,
    Halted,
    NextTable,
    PlayersChanged,
    Pointed,
    SessionError,
    SessionEvent,
    StateChanged,
)
from ui.window_words import window_words


class SessionBridge(QObject):
    stateChanged = Signal(object)  # StateChanged
    chatLine = Signal(object)  # ChatEntry
    playersChanged = Signal()
    ended = Signal(object)  # Outcome
    error = Signal(str)
    halted = Signal(object)  # Halted
    pointed = Signal(object)  # Pointed

    def __init__(self, session: GameSession) -> None:
        super().__init__()
        self.session = session
        self._unsubscribe = session.subscribe(self._on_event)

    def detach(self) -> None:
        self._unsubscribe()

    def _on_event(self, event: SessionEvent) -> None:
        match event:
            case StateChanged():
                self.stateChanged.emit(event)
            case ChatLine(entry=entry):
                self.chatLine.emit(entry)
            case PlayersChanged():
                self.playersChanged.emit()
            case GameEnded(outcome=outcome):
                self.ended.emit(outcome)
            case SessionError(message=message):
                self.error.emit(window_words(message))  # no command-line option to use
            case Halted():
                self.halted.emit(event)
            case Pointed():
                self.pointed.emit(event)
            case NextTable():
                pass  # the window opens the next table (ui.app subscribes for it)
