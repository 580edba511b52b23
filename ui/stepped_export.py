"""An export drawn a step per event-loop turn, so the window keeps answering.

The replay screen's animations (``ui.animation.Animator``: a frame a step) and its replay
page (``ui.replay_page.PageBuilder``: a board a step) are drawn by a ``SteppedExport``: a
zero-interval timer calls ``step`` until the drawing is finished, reporting ``progressed``
after each, then ``write`` puts the file on disk and ``written`` (its size) or ``failed``
(the ``OSError``) says how it went.  ``stop`` abandons it: nothing is written.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from PySide6.QtCore import QObject, QTimer, Signal

__all__ = ["Drawing", "SteppedExport"]


class Drawing(Protocol):
    @property
    def done(self) -> int: ...

    @property
    def total(self) -> int: ...

    @property
    def finished(self) -> bool: ...

    def step(self) -> None: ...

    def close(self) -> None: ...


class SteppedExport(QObject):
    progressed = Signal(int, int)
    written = Signal(int)
    failed = Signal(object)  # OSError

    def __init__(self, drawing: Drawing, write: Callable[[], int], parent: QObject) -> None:
        super().__init__(parent)
        self.drawing, self.write = drawing, write
        self.timer = QTimer(self)
        self.timer.setInterval(0)
        self.timer.timeout.connect(self._step)

    def start(self) -> None:
        self.timer.start()

    def stop(self) -> None:
        self.timer.stop()
        self.drawing.close()

    def _step(self) -> None:
        if not self.drawing.finished:
            self.drawing.step()
            self.progressed.emit(self.drawing.done, self.drawing.total)
            return
        self.timer.stop()
        try:
            size = self.write()
        except OSError as error:
            self.failed.emit(error)
            return
        finally:
            self.drawing.close()
        self.written.emit(size)
