"""Pictures of positions drawn by the client's own board widgets, without a display.

``BoardRenderer`` keeps one board widget of a game (``ui.boards.make_board``), never shown,
and draws positions with it as a spectator sees them — seat 1 at the bottom, nothing to
click — with the pointing marks of that position (arrows and rings in their authors' seat
colours), at ``size`` × ``size`` pixels: the widget is laid out at least at its minimum size
(its labels need room), grabbed, and scaled; or rendered into an SVG document.  ``palabre
log export`` (PNG, SVG, animations, the replay page) and the replay screen's exports all draw
through it, so every picture of a game looks like the game in the client.

``ensure_offscreen`` lets a command draw without a display: unless one exists, Qt is told
to use its offscreen platform before the application is created.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication, QLabel

from client.sessions.session_api import Pointed
from engines import AnyEngine
from ui.boards import make_board
from ui.boards.pointing import ShownMarks
from ui.game_names import game_name

__all__ = ["BoardRenderer", "ensure_offscreen", "png_bytes", "rgb_bytes"]


def ensure_offscreen() -> QApplication:
    """The running QApplication, or a new one (offscreen when there is no display)."""
    if not any(os.environ.get(name) for name in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")):
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
    application = QApplication.instance()
    if isinstance(application, QApplication):
        return application
    return QApplication([])


def rgb_bytes(image: QImage) -> bytes:
    """The picture as RGB rows without padding (what Pillow's ``frombytes`` takes)."""
    rgb = image.convertToFormat(QImage.Format.Format_RGB888)
    width, height, stride = rgb.width(), rgb.height(), rgb.bytesPerLine()
    data = bytes(rgb.constBits())
    if stride == width * 3:
        return data[: width * height * 3]
    return b"".join(data[y * stride : y * stride + width * 3] for y in range(height))


def png_bytes(image: QImage) -> bytes:
    """The picture as a PNG file's bytes (written by the caller, who can say why it failed)."""
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice

    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")  # type: ignore[call-overload]
    buffer.close()
    return bytes(data.data())


class BoardRenderer:
    """Draws positions of one game at one size; ``close`` when done."""

    def __init__(self, engine: AnyEngine, size: int) -> None:
        self.application = ensure_offscreen()
        self.engine, self.size = engine, size
        self.board = make_board(engine, game_name(engine.name))
        score = getattr(self.board, "score", None)
        if isinstance(score, QLabel):  # Discorder's: one line in a picture, the grid in place
            score.setWordWrap(False)
        self.side = size
        self.closed = False

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
        self, state: Any, last_move: Sequence[int] | None, marks: Sequence[Pointed] = ()
    ) -> QImage:
        """The position as a ``size`` × ``size`` picture."""
        self.show(state, last_move, marks)
        picture = self.board.grab().toImage()
        if (picture.width(), picture.height()) != (self.size, self.size):
            picture = picture.scaled(
                self.size,
                self.size,
                Qt.AspectRatioMode.IgnoreAspectRatio,
                Qt.TransformationMode.SmoothTransformation,
            )
        return picture

    def svg(
        self,
        state: Any,
        last_move: Sequence[int] | None,
        marks: Sequence[Pointed] = (),
        title: str = "",
    ) -> bytes:
        """The position as an SVG document, ``size`` CSS pixels wide, drawn by the same
        widget into a ``QSvgGenerator``."""
        from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QRect, QSize
        from PySide6.QtSvg import QSvgGenerator

        self.show(state, last_move, marks)
        data = QByteArray()
        buffer = QBuffer(data)
        buffer.open(QIODevice.OpenModeFlag.WriteOnly)
        generator = QSvgGenerator()
        generator.setOutputDevice(buffer)
        generator.setSize(QSize(self.size, self.size))
        generator.setResolution(96)  # CSS pixels: a browser shows it at ``size`` pixels
        generator.setViewBox(QRect(0, 0, self.side, self.side))
        generator.setTitle(title)
        self.board.render(generator)
        del generator  # finishes the document
        buffer.close()
        return bytes(data.data())

    def close(self) -> None:
        """Done drawing: the widget goes (once; closing again does nothing)."""
        if self.closed:
            return
        self.closed = True
        self.board.close()
        self.board.deleteLater()
