"""What a ``client.peer.Peer`` tells its front end, besides the table's own events.

Invariants: every event is a frozen dataclass, plain data a UI or a terminal shows as it
is (``reason``, ``text`` are sentences for the player); a ``key`` names the peer concerned
when there is one, None when the link never got as far as a key.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from client.records import SignedRecord
from client.start import TableStart


@dataclass(frozen=True)
class TableStarted:
    start: TableStart
    my_seats: tuple[int, ...]
    path: Path


@dataclass(frozen=True)
class LinkLost:
    """A link ended; ``fatal`` when the game cannot go on without it; ``key``: the peer's
    (None when the link never got as far as a key)."""

    name: str
    reason: str
    fatal: bool
    key: bytes | None = None


@dataclass(frozen=True)
class LinkRefused:
    """``net`` refused a record that came on a link: signed for another table, or by a key
    that is not at this one.  ``reason`` names the link's peer, for the players."""

    reason: str
    sender: bytes
    remote: str = ""
    """Where the link's other end is (``10.0.0.9:7000``), for summing up repeats."""


@dataclass(frozen=True)
class NameWarning:
    """A name this profile knows came with a key it never saw under that name (or the
    known-peers file cannot be used: ``key`` is None).  ``text`` is for the player."""

    text: str
    key: bytes | None = None


@dataclass(frozen=True)
class TableFlooded:
    """``name`` sent chat (``kind`` CHAT), pointing (POINT) or other records outside the
    chain faster or more than the table takes (``client.flood_guard``): ``dropped`` of its
    records were dropped in one burst."""

    key: bytes
    name: str
    kind: str
    dropped: int

    @property
    def notice_key(self) -> str:
        """The table's notice for it (``client.notices``)."""
        return {"CHAT": "flood-chat", "POINT": "flood-point"}.get(self.kind, "flood-other")


@dataclass(frozen=True)
class EvidenceWritten:
    path: Path
    halted: bool
    reason: str
    verdict: str


@dataclass(frozen=True)
class RecordsSent:
    """Records this peer signed and sent (made durable first)."""

    records: tuple[SignedRecord, ...]
