"""What a table tells its user interface, and what the driver does with a table's output.

A ``Table`` call returns an :class:`Output`: the records this peer signed (to write ahead,
then send to every peer), the records it accepted in order (to append to the game file),
and events for the UI.  Events are plain frozen values; the UI re-reads the table for
anything else.

Invariants: ``log`` lists each accepted record once, in the order the table accepted it,
starting with START; every record in ``send`` is also in ``log`` of the same output.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TypeVar

from client.rules.chain import TableState
from client.rules.divergence import Evidence
from client.rules.records import SignedRecord
from engines import Outcome

__all__ = [
    "ChatReceived",
    "DrawAccepted",
    "DrawOffered",
    "EvidenceUpdated",
    "GameOver",
    "Output",
    "PeerLeft",
    "PlyApplied",
    "PlyDropped",
    "PlyFinal",
    "PointReceived",
    "PresenceChanged",
    "RecordDropped",
    "RecordIgnored",
    "TableEnded",
    "TableEvent",
    "TableHalted",
    "TableNotice",
    "TableRejected",
    "TakebackAsked",
    "TakebackConsented",
    "VoteReceived",
]


@dataclass(frozen=True)
class PlyApplied:
    """Ply ``state.ply`` was applied (optimistically: not final yet)."""

    state: TableState
    name: str
    """Who signed it, as a player reads it (the key is ``state.record.author``)."""


@dataclass(frozen=True)
class PlyFinal:
    """Every peer at the table acked this peer's chain digest for ``ply`` (0 = genesis)."""

    ply: int


@dataclass(frozen=True)
class TableRejected:
    """A signed record was refused and kept as evidence; ``reason`` is for the players."""

    record: SignedRecord
    reason: str
    evidence: Evidence | None = None


@dataclass(frozen=True)
class RecordDropped:
    """A record arrived too far ahead to buffer; it will be asked for again later."""

    record: SignedRecord
    reason: str


@dataclass(frozen=True)
class RecordIgnored:
    """A record that no longer counts: a removed peer's late ACK, chat or ply, a ply after
    the table was abandoned.  Not evidence of anything; ``reason`` says why."""

    record: SignedRecord
    reason: str


@dataclass(frozen=True)
class PlyDropped:
    """The one step back: an absent peer's ply that no remaining peer acked was dropped for
    the REMOVE (or abandoned END) that replaced it."""

    state: TableState


@dataclass(frozen=True)
class PresenceChanged:
    """A peer is shown as away (``present`` False: silent for 10 s) or back."""

    key: bytes
    name: str
    present: bool


@dataclass(frozen=True)
class VoteReceived:
    """A peer votes to remove ``removed`` (keys) at ply ``ply``; shown to everyone."""

    author: bytes
    name: str
    ply: int
    removed: tuple[bytes, ...]
    names: tuple[str, ...]


@dataclass(frozen=True)
class PeerLeft:
    """A peer signed LEAVE at ``ply``: it left the table on purpose and is removed (or the
    2-peer table abandoned) at once, without waiting out the away timeout."""

    key: bytes
    name: str
    ply: int


@dataclass(frozen=True)
class TableNotice:
    """Something this peer's player should know that is nobody's fault (a missing bot key)."""

    text: str


@dataclass(frozen=True)
class TableHalted:
    """The table stopped on a divergence; nothing more is applied or signed in the chain."""

    evidence: Evidence


@dataclass(frozen=True)
class EvidenceUpdated:
    """More claims or states arrived about the halt (the verdict may have changed)."""

    evidence: Evidence


@dataclass(frozen=True)
class GameOver:
    """The engine reports an outcome after ``ply``; ENDs are being gathered."""

    ply: int
    outcome: Outcome


@dataclass(frozen=True)
class TableEnded:
    """Every peer at the table signed the same END: the game is over for good."""

    ply: int
    outcome: Outcome


@dataclass(frozen=True)
class ChatReceived:
    author: bytes
    name: str
    text: str


@dataclass(frozen=True)
class PointReceived:
    author: bytes
    name: str
    ply: int
    arrows: tuple[tuple[int, int], ...]
    squares: tuple[int, ...]


@dataclass(frozen=True)
class DrawOffered:
    author: bytes
    name: str


@dataclass(frozen=True)
class DrawAccepted:
    author: bytes
    name: str


@dataclass(frozen=True)
class TakebackAsked:
    """A peer asks to take back ply ``ply`` (its own move, the head); consents are wanted."""

    author: bytes
    name: str
    ply: int


@dataclass(frozen=True)
class TakebackConsented:
    """A peer consents to take back ply ``ply`` (the head)."""

    author: bytes
    name: str
    ply: int


TableEvent = (
    PlyApplied
    | PlyFinal
    | TableRejected
    | RecordDropped
    | TableHalted
    | EvidenceUpdated
    | GameOver
    | TableEnded
    | ChatReceived
    | PointReceived
    | DrawOffered
    | DrawAccepted
    | RecordIgnored
    | PlyDropped
    | PresenceChanged
    | VoteReceived
    | PeerLeft
    | TableNotice
    | TakebackAsked
    | TakebackConsented
)


E = TypeVar("E")


@dataclass
class Output:
    """What one call into a table produced."""

    send: list[SignedRecord] = field(default_factory=list)
    log: list[SignedRecord] = field(default_factory=list)
    events: list[TableEvent] = field(default_factory=list)

    def extend(self, other: Output) -> None:
        self.send += other.send
        self.log += other.log
        self.events += other.events

    def of_type(self, kind: type[E]) -> list[E]:
        """The events of one type, in order (handy for drivers and tests)."""
        return [event for event in self.events if isinstance(event, kind)]
