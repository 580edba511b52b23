"""A screen whose content scrolls rather than squeezes when it does not fit.

With the system's text at 150 % or 200 % the start screen's forms need more height than a
window of 800 pixels has; a layout then squeezes fields and buttons below the height of
their text, which clips it.  ``scrolled(screen)`` gives the screen a scroll area filling it
and returns the widget inside, for the screen to lay its content out on: the content keeps
its size and the scroll bars appear.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFrame, QScrollArea, QVBoxLayout, QWidget

__all__ = ["scrolled"]


def scrolled(screen: QWidget) -> QWidget:
    area = QScrollArea()
    area.setWidgetResizable(True)
    area.setFrameShape(QFrame.Shape.NoFrame)
    area.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # Tab goes through the content, not the frame
    content = QWidget()
    area.setWidget(content)
    outer = QVBoxLayout(screen)
    outer.setContentsMargins(0, 0, 0, 0)
    outer.addWidget(area)
    return content
