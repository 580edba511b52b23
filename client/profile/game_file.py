"""The game file of a table at one peer, and where a profile keeps game files.

Game files are named ``DATE-GAME-PLAYERS`` (``2026-12-03-consensus-Ana-Sensible2-Sensible3``,
``game_file_name``) so a player finds a game in a folder by its day, its game and who sat;
the table id stays inside the file (START).  A second game of the same day and players takes
``-2``, ``-3`` … (``create_named``): a game file is never written over.

Invariants: a ``GameFile`` is a ``net.logfile.LogWriter`` whose appends are not fsynced one
by one: ``client.runtime.peer.Peer`` calls ``sync()`` before anything leaves (write-ahead) and
within ``SYNC_DELAY`` otherwise; game files and evidence files live in ``<profile>/games``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import date
from pathlib import Path

from net.identity import profile_dir
from net.logfile import LogContents, LogWriter
from net.safe_names import safe_file_name

SUFFIX = ".palabre-log"


class GameFile(LogWriter):
    """The game file: appends are fsynced by ``sync()`` (before sending), not one by one."""

    @classmethod
    def create(cls, path: Path) -> GameFile:
        writer = super().create(path)
        assert isinstance(writer, GameFile)
        return writer

    @classmethod
    def reopen(cls, path: Path) -> tuple[GameFile, LogContents]:
        writer, contents = super().reopen(path)
        assert isinstance(writer, GameFile)
        return writer, contents

    def append(self, record: bytes, *, sync: bool = False) -> None:
        super().append(record, sync=sync)


def game_dir(profile: str, home: Path | None = None) -> Path:
    """Where a profile keeps its game files and evidence."""
    return profile_dir(profile, home) / "games"


def game_file_name(day: date, game: str, players: Sequence[str], copy: int = 1) -> str:
    """``2026-12-03-consensus-Ana-Sensible2.palabre-log`` (``-2`` … for ``copy`` 2 …): each
    name without its spaces, and the whole a name every system accepts."""
    words = [day.isoformat(), game, *(re.sub(r"\s+", "", player) for player in players)]
    if copy > 1:
        words.append(str(copy))
    return safe_file_name("-".join(word for word in words if word), suffix=SUFFIX)


def create_named(directory: Path, day: date, game: str, players: Sequence[str]) -> GameFile:
    """A new game file named by ``game_file_name`` in ``directory`` (made if missing), the
    first copy number whose name is free (``LogFileError`` if it cannot be created)."""
    copy = 1
    while (directory / game_file_name(day, game, players, copy)).exists():
        copy += 1
    return GameFile.create(directory / game_file_name(day, game, players, copy))
