"""The game file of a table at one peer, and where a profile keeps game files.

Invariants: a ``GameFile`` is a ``net.logfile.LogWriter`` whose appends are not fsynced one
by one: ``client.runtime.peer.Peer`` calls ``sync()`` before anything leaves (write-ahead) and
within ``SYNC_DELAY`` otherwise; game files and evidence files live in ``<profile>/games``.
"""

from __future__ import annotations

from pathlib import Path

from net.identity import profile_dir
from net.logfile import LogContents, LogWriter


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
