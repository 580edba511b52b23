"""Trust on first use: the keys of the names this profile has played with.

A name is only what a player typed; the key is who they are.  Each profile keeps, in
``profiles/NAME/known-peers.json``, the keys it met at a started table under each name.
When a name it knows comes with a key it never saw under that name, the player is warned
(``NameConflict``): it may be someone else using a friend's name.  Nothing is refused: the
players compare fingerprints and decide.  A key seen at a started table is remembered (the
player went on playing, after the warning if there was one), so each surprise is shown once.

The file::

    {"format": "palabre-known-peers/1",
     "peers": [{"name": "Bob", "key": "<64 hex>", "first_seen": "2025-01-31", "last_seen": "..."}]}

Names are compared case-insensitively after Unicode NFKC normalisation and trimming ("Bob",
"BOB" and "Ｂｏｂ" are one name).  Invariants: the file is rewritten whole through a
temporary file (never half written); a file that cannot be read is reported once
(``problem``) and never overwritten, so a player's history is not silently lost; a file
that cannot be written is reported the same way, never raised.
"""

from __future__ import annotations

import datetime
import json
import os
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from net.identity import short_fingerprint

__all__ = ["FORMAT", "KnownPeers", "NameConflict", "name_key"]

FORMAT = "palabre-known-peers/1"
MAX_PEERS = 10_000
"""Entries kept (the oldest are forgotten first): a bound, not a limit anyone meets."""


def name_key(name: str) -> str:
    """The form names are compared in."""
    return unicodedata.normalize("NFKC", name).strip().casefold()


@dataclass(frozen=True)
class NameConflict:
    """A known name came with a key this profile never saw under it."""

    name: str
    key: bytes
    known: tuple[bytes, ...]

    def __str__(self) -> str:
        known = ", ".join(short_fingerprint(key) for key in self.known)
        return (
            f"{self.name} ({short_fingerprint(self.key)}) is not the {self.name} you played "
            f"with before (key {known}): it may be someone else using that name; compare "
            "fingerprints before you play"
        )


@dataclass
class _KnownKey:
    name: str
    key: bytes
    first_seen: str
    last_seen: str


class KnownPeers:
    """The known-peers file of one profile."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.problem: str | None = None
        """Why the file could not be read (it is then left alone), or None."""
        self._entries: list[_KnownKey] = []
        self._load()

    def _load(self) -> None:
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return
        except (OSError, UnicodeDecodeError) as error:
            self._unreadable(str(error))
            return
        try:
            data = json.loads(text)
            if not isinstance(data, dict) or data.get("format") != FORMAT:
                raise ValueError(f"not a {FORMAT} file")
            for item in data["peers"]:
                key = bytes.fromhex(item["key"])
                name = item["name"]
                if len(key) != 32 or not isinstance(name, str):
                    raise ValueError("an entry has no 32-byte key or no name")
                self._entries.append(
                    _KnownKey(name, key, str(item["first_seen"]), str(item["last_seen"]))
                )
        except (ValueError, KeyError, TypeError) as error:
            self._entries = []
            self._unreadable(str(error))

    def _unreadable(self, why: str) -> None:
        self.problem = (
            f"the known-peers file {self.path} cannot be read ({why}); names are not checked "
            "against the players you met before, and the file is left as it is"
        )

    def keys_of(self, name: str) -> tuple[bytes, ...]:
        """The keys seen under ``name``, oldest first."""
        wanted = name_key(name)
        return tuple(e.key for e in self._entries if name_key(e.name) == wanted)

    def check(self, name: str, key: bytes) -> NameConflict | None:
        """A conflict if ``name`` is known with other keys and never with ``key``."""
        known = self.keys_of(name)
        if known and key not in known:
            return NameConflict(name, key, known)
        return None

    def remember(self, peers: Iterable[tuple[bytes, str]], today: str | None = None) -> None:
        """Note each ``(key, name)`` as met today, and save (unless the file is unreadable)."""
        if self.problem is not None:
            return
        today = today or datetime.date.today().isoformat()
        for key, name in peers:
            wanted = name_key(name)
            entry = next(
                (e for e in self._entries if e.key == key and name_key(e.name) == wanted), None
            )
            if entry is None:
                self._entries.append(_KnownKey(name, key, today, today))
            else:
                entry.name, entry.last_seen = name, today
        del self._entries[:-MAX_PEERS]
        self._save()

    def _save(self) -> None:
        data = {
            "format": FORMAT,
            "peers": [
                {
                    "name": e.name,
                    "key": e.key.hex(),
                    "first_seen": e.first_seen,
                    "last_seen": e.last_seen,
                }
                for e in self._entries
            ],
        }
        aside = self.path.with_name(self.path.name + ".tmp")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            aside.write_text(json.dumps(data, indent=1, ensure_ascii=False), encoding="utf-8")
            os.replace(aside, self.path)
        except OSError as error:
            self.problem = (
                f"the known-peers file {self.path} cannot be written "
                f"({(error.strerror or str(error)).lower()}); the players of this game are "
                "not remembered"
            )
