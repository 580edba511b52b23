"""The terminal palabre writes to: the one place where what differs by system for consoles
is decided.

A name, a chat line or a port may hold any character, and not every console can show every
character: Windows' consoles under a legacy code page (cp437, cp850, cp1252) when output is
redirected, a pipe in the C locale on Linux or macOS.  Python's default there is to raise
``UnicodeEncodeError`` at the first such character, ending the command with a traceback.
``prepare_console`` keeps each stream's encoding (a UTF-8 terminal is unchanged) and only
makes it write ``?`` for what the encoding cannot show.  The boards themselves
(client/board_text.py) are drawn in ASCII, so they read the same everywhere.

Invariants: called once, first thing, by each entry point (``palabre``, ``python -m client``);
it never closes or replaces a stream.
"""

from __future__ import annotations

import io
import sys

__all__ = ["prepare_console"]


def prepare_console() -> None:
    """Make stdout and stderr write ``?`` for a character their encoding cannot show."""
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper):  # not a test's capture, not None (pythonw)
            stream.reconfigure(errors="replace")
