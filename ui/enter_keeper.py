"""A control that keeps Enter: the screen's Enter shortcut never takes it from the control.

The table screen's Enter goes to the chat; in a field that acts on Enter itself (the chat's
own field sends its line, the move box plays its move) and on a focused button (Enter
presses it, as Space does) the key must stay the control's.  ``keep_enter(widget)`` accepts
the key's ``ShortcutOverride`` there, so Qt delivers it to the control as a plain key press.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QWidget

__all__ = ["keep_enter"]


class _EnterKeeper(QObject):
    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if (
            event.type() == QEvent.Type.ShortcutOverride
            and isinstance(event, QKeyEvent)
            and event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter)
        ):
            event.accept()
        return False


def keep_enter(widget: QWidget) -> None:
    widget.installEventFilter(_EnterKeeper(widget))
