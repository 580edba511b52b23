"""The one event stream from a peer to its front ends: ``PeerEvent``.

A ``client.runtime.peer.Peer`` tells its observers (the window's ``NetSession``, the terminal's
``Printer`` and ``TerminalPlayer``, the mDNS announcer, the rematch) what happened as one
typed union: the table's own events (``client.tabletop.events.TableEvent``), the events of the
links and the game file defined here, the join's (``HostReached``, ``Rejoined``,
``JoinFailed``, ``HostNotice``), the lobby's (``LobbyChanged``), the rematch's
(``RematchChanged``, ``RematchReady``) and the announcer's (``MdnsNote``).  Consumers
``match`` on the classes; one name per concept in the whole project
(tests/client/test_class_names.py).

Invariants: every event is a frozen dataclass, plain data a UI or a terminal shows as it
is (``reason``, ``text`` are sentences for the player); a ``key`` names the peer concerned
when there is one, None when the link never got as far as a key.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from client.node.lobby_wire import LobbyChanged
from client.node.rematch import RematchChanged, RematchReady
from client.rules.records import SignedRecord
from client.rules.start import TableStart
from client.tabletop.events import TableEvent
from net.logfile import TornTail


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
    chain faster or more than the table takes (``client.tabletop.flood_guard``): ``dropped`` of its
    records were dropped in one burst."""

    key: bytes
    name: str
    kind: str
    dropped: int

    @property
    def notice_key(self) -> str:
        """The table's notice for it (``client.sessions.notices``)."""
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


@dataclass(frozen=True)
class HostReached:
    """The link with the host is up; ``fingerprint`` is the host's (compare it!)."""

    remote: str
    fingerprint: str


@dataclass(frozen=True)
class Rejoined:
    """This peer took its table up again from its game file; ``cut`` is the incomplete
    record a crash left at its end, cut off before going on (None when there was none)."""

    path: Path
    cut: TornTail | None = None


@dataclass(frozen=True)
class JoinFailed:
    """The join did not happen; ``refused`` when a side refused it (exit code 4).

    ``kind`` is one of ``JOIN_FAILURE_KINDS`` (for a front end to explain); ``reason`` is
    the sentence of whoever ended the join."""

    reason: str
    refused: bool
    kind: str = "refused"


@dataclass(frozen=True)
class HostNotice:
    """The host did not do what this peer asked, and says why."""

    text: str


@dataclass(frozen=True)
class MdnsNote:
    """What the announcer wants the player to know (announced, withdrawn, cannot)."""

    text: str
    problem: bool = False


PeerEvent = (
    TableEvent
    | TableStarted
    | LinkLost
    | LinkRefused
    | NameWarning
    | TableFlooded
    | EvidenceWritten
    | RecordsSent
    | HostReached
    | Rejoined
    | JoinFailed
    | HostNotice
    | LobbyChanged
    | RematchChanged
    | RematchReady
    | MdnsNote
)
"""Everything a peer tells its front ends, in the order it happened."""

Observer = Callable[[PeerEvent], None]
"""A front end's ear: called with each event, on the peer's loop."""
