"""A terminal's lines, with repeats summarised: one flooding sender makes a few lines, not one
per thing it did.

Anyone who reaches a listening port can fail a handshake thousands of times a second, and
each failure, each refused record and each link closed on a fault is worth a line; printed
one by one they bury the game (43,000 lines in 75 s).  ``RepeatSummary`` is the
``logging.Handler`` the terminal front ends write through (``client.commands.headless``: the
``Printer``'s lines and the ``palabre`` loggers').  A line that may repeat carries a
``repeat`` key ``(source, what)`` (``127.0.0.1``, ``refused handshakes``); a warning from a
logger without one is keyed by its logger and message template.  The first
``REPEATS_SHOWN`` lines of a key in a ``REPEAT_WINDOW`` are printed as they come; the rest
are counted, and once the window is over one line says how many there were
(``127.0.0.1: 4,312 refused handshakes in the last 10 s (4,302 not shown)``).  Other lines
are printed at once.

Invariants: a line is printed or counted, never lost without a count; the summary of a
window comes before any line printed after the window ended (``emit``), or at ``flush_due``
(a timer), or at ``close``; memory is one small record per key with lines in the window.
It runs on the front end's one thread (trio's), so ``flush_due`` and ``close`` need no lock.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TextIO

__all__ = ["REPEATS_SHOWN", "REPEAT_WINDOW", "RepeatSummary"]

REPEAT_WINDOW = 10.0
"""Seconds over which repeats of one key are counted and then summarised in one line."""
REPEATS_SHOWN = 10
"""Lines of one key printed as they come in a window (the rest are counted)."""

Key = tuple[str, str]


@dataclass
class _Window:
    start: float
    what: str  # as the summary says it: "refused handshakes", "warnings like '…'"
    count: int = 0


class RepeatSummary(logging.Handler):
    """Writes each record's message to ``stream``, summarising repeats (module docstring)."""

    def __init__(self, stream: TextIO, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.stream = stream
        self.clock = clock
        self._windows: dict[Key, _Window] = {}

    def emit(self, record: logging.LogRecord) -> None:
        now = self.clock()
        self._summarise(lambda window: now - window.start >= REPEAT_WINDOW)
        key = _key(record)
        if key is None:
            self._write(self.format(record))
            return
        window = self._windows.get(key)
        if window is None:
            window = self._windows[key] = _Window(now, _what(key, record))
        window.count += 1
        if window.count <= REPEATS_SHOWN:
            self._write(self.format(record))

    def flush_due(self) -> None:
        """Print the summaries of the windows that are over (a timer calls it)."""
        now = self.clock()
        self._summarise(lambda window: now - window.start >= REPEAT_WINDOW)

    def close(self) -> None:
        """Print every summary still pending (the front end is ending)."""
        self._summarise(lambda window: True)
        super().close()

    def _summarise(self, over: Callable[[_Window], bool]) -> None:
        now = self.clock()
        for key, window in list(self._windows.items()):
            if not over(window):
                continue
            del self._windows[key]
            hidden = window.count - REPEATS_SHOWN
            if hidden > 0:
                source = key[0]
                seconds = min(max(round(now - window.start), 1), round(REPEAT_WINDOW))
                self._write(
                    f"{source}: {window.count:,} {window.what} in the last {seconds} s "
                    f"({hidden:,} not shown)"
                )

    def _write(self, line: str) -> None:
        try:
            self.stream.write(line + "\n")
            self.stream.flush()
        except (OSError, ValueError):  # a closed or broken terminal: nothing to tell it
            pass


def _key(record: logging.LogRecord) -> Key | None:
    repeat = getattr(record, "repeat", None)
    if repeat is not None:
        source, what = repeat
        return str(source), str(what)
    if str(record.name).startswith("palabre") and record.levelno >= logging.WARNING:
        return record.name, str(record.msg)  # one key per message template
    return None


def _what(key: Key, record: logging.LogRecord) -> str:
    """What the summary calls the lines of ``key``: a logger's warnings by their first one
    (its template, ``'link with %s closed: %s'``, is no sentence for a player)."""
    if getattr(record, "repeat", None) is not None:
        return key[1]
    return f"warnings like {record.getMessage()!r}"
