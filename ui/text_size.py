"""Text sizes that follow the system's font: a heading is so many times the body text.

A style sheet's ``font-size: 16px`` stays 16 pixels when the player asks the system for
bigger text, and a title then ends smaller than the lines under it.  ``heading`` sizes a
label from the application's font instead (which Qt takes from the system), when the
screen is built; the window is built again for another language, never mid-game.
"""

from __future__ import annotations

from PySide6.QtGui import QFont
from PySide6.QtWidgets import QApplication, QWidget

__all__ = ["heading"]


def heading(widget: QWidget, scale: float) -> None:
    """Make ``widget``'s text bold, ``scale`` times the application's font."""
    font = QFont(QApplication.font())
    if font.pointSizeF() > 0:
        font.setPointSizeF(font.pointSizeF() * scale)
    else:  # a font sized in pixels
        font.setPixelSize(round(font.pixelSize() * scale))
    font.setBold(True)
    widget.setFont(font)
