"""A one-line progress bar on stderr for commands that may take a while.

Choice (docs/LOG_FORMAT.md): the bar is drawn only when the stream is a terminal, and only
once the work has taken more than a second, so short runs, pipes, logs and scripts never see
it.  It is a single line redrawn with ``\\r`` at most ten times a second, and erased when
the work is done, so what follows on stderr starts on a clean line.  The clock and the
stream are injected so the behaviour can be tested without a terminal or waiting.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TextIO

__all__ = ["ProgressBar"]

WIDTH = 30


class ProgressBar:
    """Call it with ``(done, total)``; call ``close()`` at the end."""

    def __init__(
        self,
        stream: TextIO,
        what: str,
        *,
        delay: float = 1.0,
        interval: float = 0.1,
        clock: Callable[[], float] = time.monotonic,
        force: bool = False,
    ) -> None:
        self.stream = stream
        self.what = what
        self.delay = delay
        self.interval = interval
        self.clock = clock
        self.enabled = force or _is_terminal(stream)
        self.started = clock()
        self.drawn_at: float | None = None
        self.width = 0

    def __call__(self, done: int, total: int) -> None:
        if not self.enabled:
            return
        now = self.clock()
        if now - self.started < self.delay:
            return
        if self.drawn_at is not None and now - self.drawn_at < self.interval and done < total:
            return
        self.drawn_at = now
        filled = WIDTH * done // total if total else WIDTH
        percent = 100 * done // total if total else 100
        line = f"{self.what} [{'#' * filled}{'.' * (WIDTH - filled)}] {percent:3d}% {done}/{total}"
        self.width = max(self.width, len(line))
        self.stream.write("\r" + line)
        self.stream.flush()

    def close(self) -> None:
        """Erase the bar if it was drawn."""
        if self.drawn_at is not None:
            self.stream.write("\r" + " " * self.width + "\r")
            self.stream.flush()
            self.drawn_at = None


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
