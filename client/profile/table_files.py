"""Which game file holds a networked table, now that game files are named by day, game and
players (``client.profile.game_file``) rather than by the table id.

A rejoin knows only the table id, so the games folder keeps a small index, ``tables.json``:
table id → file name, written when a table's game file is created.  A table whose id is not
in the index is looked for under its old name, ``<table id>.palabre-log`` (files from before).

Invariants: the index is replaced atomically (written aside, then renamed), holds at most
``MAX_TABLES`` tables (the oldest are forgotten; their files stay) and is read only up to
``MAX_INDEX_BYTES``: a torn, foreign or oversized index reads as empty, never raises.  A name
read from it is used only when it is a plain safe file name with the game file suffix, so the
index never points outside the games folder.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from datetime import date
from pathlib import Path

from client.profile.game_file import SUFFIX, GameFile, create_named
from net.invite import format_table_id
from net.safe_names import is_safe_file_name

__all__ = ["INDEX_NAME", "MAX_TABLES", "TableFiles"]

INDEX_NAME = "tables.json"
MAX_TABLES = 500
MAX_INDEX_BYTES = 256 * 1024


class TableFiles:
    """The game files of networked tables in one games folder."""

    def __init__(self, games: Path) -> None:
        self.games = games

    @property
    def index_path(self) -> Path:
        return self.games / INDEX_NAME

    def create(self, table_id: bytes, day: date, game: str, players: Sequence[str]) -> GameFile:
        """A new game file ``DATE-GAME-PLAYERS`` for the table, noted in the index
        (``LogFileError`` if it cannot be created)."""
        file = create_named(self.games, day, game, players)
        index = self._read()
        index.pop(format_table_id(table_id), None)
        index[format_table_id(table_id)] = file.path.name
        self._write(dict(list(index.items())[-MAX_TABLES:]))
        return file

    def path(self, table_id: bytes) -> Path:
        """Where the table's game file is: the index's name, else the old name by id (which
        may not exist)."""
        name = self._read().get(format_table_id(table_id))
        if name is not None and (self.games / name).exists():
            return self.games / name
        return self.games / f"{format_table_id(table_id)}{SUFFIX}"

    def _read(self) -> dict[str, str]:
        try:
            with self.index_path.open("rb") as stream:
                raw = stream.read(MAX_INDEX_BYTES + 1)
        except OSError:
            return {}
        if len(raw) > MAX_INDEX_BYTES:
            return {}
        try:
            data = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            return {}
        if not isinstance(data, dict):
            return {}
        return {
            key: name
            for key, name in data.items()
            if isinstance(key, str)
            and isinstance(name, str)
            and name.endswith(SUFFIX)
            and is_safe_file_name(name)
        }

    def _write(self, index: dict[str, str]) -> None:
        """Written aside and renamed over: a crash leaves the old index or the new one.  An
        index that cannot be written costs only the rejoin's finding the file, not the game."""
        aside = self.index_path.with_suffix(".tmp")
        try:
            with aside.open("w", encoding="utf-8") as stream:
                json.dump(index, stream, ensure_ascii=False, indent=0)
                stream.flush()
                os.fsync(stream.fileno())
            os.replace(aside, self.index_path)
        except OSError:
            return
