"""What a screen reader says without the player moving the focus: an announcer.

The table tells each new ply, chat line and ending through ``LiveAnnouncer.announce``.  Qt 6.8
and later carry the sentence to the screen reader as an announcement
(``QAccessibleAnnouncementEvent``, a polite one: it waits for the reader to finish what it
says).  Every Qt also gets it as a live region: the announcer is a widget without height
whose accessible name is the last sentence, and changing the name raises Qt's NameChanged
event, which screen readers read out on a live widget.  ``said`` keeps the last sentences
(a bounded history) for whoever wants them again.
"""

from __future__ import annotations

import re
from collections import deque

from PySide6.QtCore import Signal
from PySide6.QtGui import QAccessible
from PySide6.QtWidgets import QWidget

try:
    from PySide6.QtGui import QAccessibleAnnouncementEvent
except ImportError:  # a Qt before 6.8: the live region alone
    QAccessibleAnnouncementEvent = None  # type: ignore[assignment,misc]

__all__ = ["HAS_ANNOUNCEMENTS", "HISTORY", "LiveAnnouncer"]

HAS_ANNOUNCEMENTS = QAccessibleAnnouncementEvent is not None
HISTORY = 50
"""Sentences kept in ``said``."""
_LINE_BREAKS = re.compile(r"[ \t\r\n]+")


class LiveAnnouncer(QWidget):
    announced = Signal(str)
    """Each sentence, as it is announced."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("announcer")
        self.setFixedHeight(0)  # heard, never seen: the table shows the same in its lines
        self.setAccessibleDescription(self.tr("What just happened at the table"))
        self.said: deque[str] = deque(maxlen=HISTORY)

    def announce(self, text: str) -> None:
        text = _LINE_BREAKS.sub(" ", text).strip()  # keeps French non-breaking spaces
        if not text:
            return
        self.said.append(text)
        self.setAccessibleName(text)  # the live region: Qt raises NameChanged
        if QAccessibleAnnouncementEvent is not None:
            QAccessible.updateAccessibility(QAccessibleAnnouncementEvent(self, text))
        self.announced.emit(text)
