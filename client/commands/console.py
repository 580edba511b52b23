"""The terminal palabre writes to: the one place where what differs by system for consoles
is decided.

A name, a chat line or a port may hold any character, and not every console can show every
character: Windows' consoles under a legacy code page (cp437, cp850, cp1252) when output is
redirected, a pipe in the C locale on Linux or macOS.  Python's default there is to raise
``UnicodeEncodeError`` at the first such character, ending the command with a traceback.
``prepare_console`` keeps each stream's encoding (a UTF-8 terminal is unchanged) and only
changes what it writes for a character the encoding cannot show: the letter without its
accent when there is one ("Président" reads "President", "Zoë" "Zoe"), else ``?``.  The
boards themselves (client/logs/board_text.py) are drawn in ASCII and the pieces' names.

Invariants: called once, first thing, by each entry point (``palabre``, ``python -m client``);
it never closes or replaces a stream.
"""

from __future__ import annotations

import codecs
import io
import sys
import unicodedata

__all__ = ["UNSHOWABLE", "prepare_console"]

UNSHOWABLE = "palabre-unaccented"
"""The codec error handler ``prepare_console`` gives stdout and stderr."""


def _unaccented(error: UnicodeError) -> tuple[str, int]:
    if not isinstance(error, UnicodeEncodeError):
        raise error
    encoding = error.encoding
    shown = []
    for char in error.object[error.start : error.end]:
        base = "".join(
            c for c in unicodedata.normalize("NFKD", char) if not unicodedata.combining(c)
        )
        try:
            base.encode(encoding)
        except UnicodeEncodeError:
            base = ""
        shown.append(base or "?")
    return "".join(shown), error.end


codecs.register_error(UNSHOWABLE, _unaccented)


def prepare_console() -> None:
    """Make stdout and stderr write a character their encoding cannot show without its
    accent, else as ``?``."""
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper):  # not a test's capture, not None (pythonw)
            stream.reconfigure(errors=UNSHOWABLE)
