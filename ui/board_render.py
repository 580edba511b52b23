"""Pictures of positions drawn by the client's own board widgets, without a display.

``BoardRenderer`` keeps one board widget of a game (``ui.boards.make_board``), never shown,
and draws positions with it as a spectator sees them — seat 1 at the bottom, nothing to
click — with the pointing marks of that position, at ``size`` × ``size`` pixels: the widget
is laid out at least at its minimum size (its labels need room), grabbed, and scaled.  An
optional caption is written in a band under the board.  ``palabre log export`` (PNG, SVG,
APNG) and the replay screen's exports all draw through it, so every picture of a game looks
like the game in the client.

``ensure_offscreen`` lets a command draw without a display: unless one exists, Qt is told
to use its offscreen platform before the application is created.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QColor, QFont, QImage, QPainter
from PySide6.QtWidgets import QApplication

from client.session_api import Pointed
from engines import AnyEngine
from ui.boards import make_board
from ui.boards.pointing import ShownMarks

__all__ = ["BoardRenderer", "caption_height", "ensure_offscreen", "rgb_bytes"]


def ensure_offscreen() -> QApplication:
    """The running QApplication, or a new one (offscreen when there is no display)."""
    if not any(os.environ.get(name) for name in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")):
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
    application = QApplication.instance()
    if isinstance(application, QApplication):
        return application
    return QApplication([])


def caption_height(size: int) -> int:
    return max(18, size // 18)


def rgb_bytes(image: QImage) -> bytes:
    """The picture as RGB rows without padding (what ``ui.apng`` takes)."""
    rgb = image.convertToFormat(QImage.Format.Format_RGB888)
    width, height, stride = rgb.width(), rgb.height(), rgb.bytesPerLine()
    data = bytes(rgb.constBits())
    if stride == width * 3:
        return data[: width * height * 3]
    return b"".join(data[y * stride : y * stride + width * 3] for y in range(height))


class BoardRenderer:
    """Draws positions of one game at one size; ``close`` when done."""

    def __init__(self, engine: AnyEngine, size: int) -> None:
        self.application = ensure_offscreen()
        self.engine, self.size = engine, size
        self.board = make_board(engine)
        self.side = size

    def show(
        self, state: Any, last_move: Sequence[int] | None, marks: Sequence[Pointed] = ()
    ) -> None:
        """Put a position on the widget (then ``grab``, or render it elsewhere)."""
        self.board.show_position(
            self.engine,
            state,
            last_move=None if last_move is None else tuple(last_move),
            my_seat=None,
            interactive=False,
        )
        self.board.show_marks([ShownMarks(point) for point in marks])
        # Drawn at least at the widget's minimum size, which its texts set (so only known
        # once the position is shown), square, and scaled to the size asked for.
        least = self.board.minimumSizeHint().expandedTo(self.board.minimumSize())
        self.side = max(self.size, least.width(), least.height())
        self.board.resize(self.side, self.side)
        layout = self.board.layout()
        if layout is not None:
            layout.activate()  # lay the hidden widget out at its size before drawing it
        self.application.processEvents()

    def grab(
        self,
        state: Any,
        last_move: Sequence[int] | None,
        marks: Sequence[Pointed] = (),
        caption: str | None = None,
    ) -> QImage:
        """The position as a ``size`` × ``size`` picture, and a caption band under it."""
        self.show(state, last_move, marks)
        picture = self.board.grab().toImage()
        if (picture.width(), picture.height()) != (self.size, self.size):
            picture = picture.scaled(
                self.size,
                self.size,
                Qt.AspectRatioMode.IgnoreAspectRatio,
                Qt.TransformationMode.SmoothTransformation,
            )
        if caption is None:
            return picture
        band = caption_height(self.size)
        framed = QImage(self.size, self.size + band, QImage.Format.Format_RGB32)
        framed.fill(QColor("#fafafa"))
        painter = QPainter(framed)
        painter.drawImage(0, 0, picture)
        painter.setPen(QColor("#222222"))
        font = QFont(painter.font())
        font.setPixelSize(max(9, band * 11 // 20))
        painter.setFont(font)
        text = painter.fontMetrics().elidedText(
            caption, Qt.TextElideMode.ElideRight, self.size - 12
        )
        painter.drawText(
            QRect(6, self.size, self.size - 12, band),
            Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft,
            text,
        )
        painter.end()
        return framed

    def close(self) -> None:
        self.board.close()
        self.board.deleteLater()
