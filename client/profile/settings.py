"""What the client remembers between runs: the player's name and the recent tables.

A recent table is every table this profile sat at, hosted or joined, with every address it
knew its peers listen at (its own too), so a player whose palabre crashed can come back to
the table through any peer still there: its own old port is gone with it.

One JSON file per profile, ``<home>/<profile>/client.json``, where ``<home>`` is the keys'
own (``net.identity.palabre_home``): ``$PALABRE_HOME`` when set (tests, several installs side
by side) and the platform's user data directory otherwise (platformdirs; one folder on
Windows too, where a second default would have put settings and keys in different places).

Invariants: the file is replaced atomically (written aside, then renamed), so a crash leaves
the old or the new file, never half of one.  A missing file means defaults; an unreadable or
malformed one also gives defaults, with ``problem`` saying what was wrong, and is only
overwritten when the player changes something.  Names are 1–32 printable characters.
"""

from __future__ import annotations

import getpass
import json
import os
from dataclasses import dataclass, replace
from pathlib import Path

from net.identity import palabre_home
from net.private_files import make_private_dir
from net.safe_names import safe_file_name

__all__ = [
    "MAX_NAME_LENGTH",
    "MAX_RECENT",
    "ClientSettings",
    "RecentTable",
    "SettingsStore",
    "check_name",
    "profile_dir",
]

MAX_RECENT = 10
MAX_PEER_ADDRESSES = 32
"""Addresses kept per recent table (a table has at most a few peers)."""
MAX_NAME_LENGTH = 32
FILE_NAME = "client.json"


def profile_dir(profile: str = "default") -> Path:
    # The window takes --profile as typed: a valid profile name is kept as it is; any other
    # (``con``, ``../x``, which net.identity refuses) still names one folder in the home
    # that every system can keep, never a device or a path outside it.
    return palabre_home() / safe_file_name(profile, fallback="default")


@dataclass(frozen=True)
class RecentTable:
    address: str
    """What the player typed or pasted: ``host:port`` or an invite."""
    game: str = ""
    label: str = ""
    peers: tuple[str, ...] = ()
    """Every ``host:port`` the table's peers listen at, as this profile last knew them (its
    own first when it hosted): a rejoin tries them in turn."""
    table_id: str = ""
    """The table's id in hex (empty: not known yet); one entry per table."""
    when: str = ""
    """When this profile first sat at it, ``2026-12-03 20:15`` local time (empty: before
    this was kept): two tables of one game and players differ by it."""
    port: int = 0
    """The port this profile listened at for the table (0: not known): a rejoin listens
    there again, so the invite it gave out and the address its players typed still lead
    to the table after a crash."""

    def same_table(self, other: RecentTable) -> bool:
        if self.table_id and other.table_id:
            return self.table_id == other.table_id
        return self.address == other.address

    @property
    def addresses(self) -> tuple[str, ...]:
        """The addresses to try for a rejoin, in turn, each once (what was typed when no
        peer's address is known)."""
        return tuple(dict.fromkeys(self.peers)) or (self.address,)


@dataclass(frozen=True)
class ClientSettings:
    name: str
    recent: tuple[RecentTable, ...] = ()
    muted: bool = False
    """No sound with the table's alerts (the banner and the window alert stay)."""


def check_name(name: str) -> str:
    """The name stripped; ``ValueError`` with the reason when a player cannot use it."""
    name = name.strip()
    if not name:
        raise ValueError("Your name cannot be empty.")
    if len(name) > MAX_NAME_LENGTH:
        raise ValueError(f"Your name can have at most {MAX_NAME_LENGTH} characters.")
    if not name.isprintable():
        raise ValueError("Your name cannot contain control characters.")
    return name


def _default_name() -> str:
    try:
        return check_name(getpass.getuser().capitalize())
    except (ValueError, OSError, KeyError):
        return "Player"


def _read_recent(item: dict[str, object]) -> RecentTable:
    """One recent table of the file (older files have no ``peers``, ``table_id`` nor ``when``)."""
    peers = item.get("peers", [])
    if not isinstance(peers, list):
        raise ValueError("a recent table's peers are not a list")
    return RecentTable(
        str(item["address"]),
        str(item["game"]),
        str(item["label"]),
        tuple(str(peer) for peer in peers[:MAX_PEER_ADDRESSES]),
        str(item.get("table_id", "")),
        str(item.get("when", "")),
        _read_port(item.get("port", 0)),
    )


def _read_port(value: object) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 65535:
        raise ValueError(f"a recent table's port is not a port: {value!r}")
    return value


class SettingsStore:
    """The settings of one profile, loaded at once and saved on every change."""

    def __init__(self, profile: str = "default") -> None:
        self.path = profile_dir(profile) / FILE_NAME
        self.problem: str | None = None
        self.settings = self._load()

    def _load(self) -> ClientSettings:
        default = ClientSettings(_default_name())
        if self.path.exists() and not self.path.is_file():  # a FIFO would block the read
            self.problem = f"{self.path} is not a regular file; using defaults."
            return default
        try:
            raw = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return default
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
            self.problem = f"Could not read {self.path} ({error}); using defaults."
            return default
        try:
            name = check_name(raw["name"])
            recent = tuple(_read_recent(item) for item in raw["recent"])[:MAX_RECENT]
        except (TypeError, KeyError, ValueError, AttributeError) as error:
            self.problem = f"{self.path} is malformed ({error!r}); using defaults."
            return default
        return ClientSettings(name, recent, raw.get("muted") is True)

    def set_name(self, name: str) -> None:
        """Keep a new name (``ValueError`` with the reason when it cannot be used)."""
        self._save(replace(self.settings, name=check_name(name)))

    def remember_table(self, table: RecentTable) -> None:
        """Put ``table`` first in the recent list (once), keeping the newest ``MAX_RECENT``."""
        table = replace(table, peers=table.peers[:MAX_PEER_ADDRESSES])
        others = tuple(item for item in self.settings.recent if not item.same_table(table))
        self._save(replace(self.settings, recent=(table, *others)[:MAX_RECENT]))

    def set_muted(self, muted: bool) -> None:
        """Keep whether the table's alerts make a sound."""
        self._save(replace(self.settings, muted=muted))

    def _save(self, settings: ClientSettings) -> None:
        make_private_dir(self.path.parent)  # 0700, parents too: the home is the keys' home
        data = {
            "name": settings.name,
            "recent": [
                {
                    "address": item.address,
                    "game": item.game,
                    "label": item.label,
                    "peers": list(item.peers),
                    "table_id": item.table_id,
                    "when": item.when,
                    "port": item.port,
                }
                for item in settings.recent
            ],
            "muted": settings.muted,
        }
        aside = self.path.with_suffix(".tmp")
        aside.write_text(json.dumps(data, ensure_ascii=False, indent=2), encoding="utf-8")
        os.replace(aside, self.path)
        self.settings = settings
        self.problem = None
