"""Session events as Qt signals.

The session calls its listeners on the trio thread, which in guest mode is the Qt thread, so
the signals are emitted directly; views connect to them and re-read ``session.snapshot``
(napari's model/view habit).  ``detach`` stops the flow when a screen lets go of a session.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal

from client.session_api import (
    ChatLine,
    GameEnded,
    GameSession,
    Halted,
    PlayersChanged,
    Pointed,
    SessionError,
    SessionEvent,
    StateChanged,
)


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
        if isinstance(event, StateChanged):
            self.stateChanged.emit(event)
        elif isinstance(event, ChatLine):
            self.chatLine.emit(event.entry)
        elif isinstance(event, PlayersChanged):
            self.playersChanged.emit()
        elif isinstance(event, GameEnded):
            self.ended.emit(event.outcome)
        elif isinstance(event, SessionError):
            self.error.emit(event.message)
        elif isinstance(event, Halted):
            self.halted.emit(event)
        elif isinstance(event, Pointed):
            self.pointed.emit(event)
