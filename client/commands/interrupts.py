"""Ctrl-C and, on Windows, Ctrl-Break: the one place where what differs by system for
interrupting palabre from its console is decided.

palabre relies on no other signal: it never handles SIGTERM or SIGHUP, and reads nothing under
``/proc``.  Ctrl-C is SIGINT everywhere; Python turns it into ``KeyboardInterrupt`` (or trio
does, at a safe point, while ``trio.run`` runs), which is how ``palabre host`` and ``join``
leave their table with the leave notice.  On Windows, Ctrl-Break is SIGBREAK instead, whose
default action ends the process at once: no leave notice, a game file fsynced only up to the
last send.  ``break_like_ctrl_c`` makes it do whatever Ctrl-C does at that moment, by calling
the SIGINT handler then installed (Python's, or trio's while it runs); on Linux and macOS it
does nothing, as they have no SIGBREAK.

Invariants: called from the main thread (where signal handlers are set); it changes nothing
on a system without the break signal.
"""

from __future__ import annotations

import signal
from types import FrameType

__all__ = ["break_like_ctrl_c"]

BREAK_SIGNAL: int | None = getattr(signal, "SIGBREAK", None)
"""Windows' Ctrl-Break (``signal.SIGBREAK``); None where the system has none."""


def break_like_ctrl_c(break_signal: int | None = BREAK_SIGNAL) -> None:
    """From now on, ``break_signal`` (Ctrl-Break on Windows) does what Ctrl-C does."""
    if break_signal is None:
        return
    signal.signal(break_signal, _as_ctrl_c)


def _as_ctrl_c(signum: int, frame: FrameType | None) -> None:
    # Looked up at each signal, not at install: trio puts its own SIGINT handler in place for
    # the length of trio.run, and that one raises KeyboardInterrupt where it is safe.
    handler = signal.getsignal(signal.SIGINT)
    if callable(handler):
        handler(signal.SIGINT, frame)
    elif handler == signal.SIG_DFL:
        raise KeyboardInterrupt
    # SIG_IGN: Ctrl-C is ignored here, so is Ctrl-Break.
