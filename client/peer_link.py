"""One link of a peer's mesh, and the record policy every link of a table shares.

Invariants: a ``PeerLink``'s queue is unbounded and drained by one writer task; once the
link is ``closing`` nothing more is queued (the goodbye is the last event).  ``TablePolicy``
takes any author before START (``keys`` None) and only START's keys and the new bot keys of
votes and REMOVEs after it; ``seen`` holds every record hash the peer holds, so a duplicate
is dropped before its signature is checked.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import trio

from net.driver import Link
from net.errors import CloseCode
from net.events import Refuse, SendEvent


class TablePolicy:
    """The table's ``net.linkspec.RecordPolicy``: the keys it takes, the records it holds.

    ``keys`` None (before START): any author, since START may come through any peer; the
    peer takes nothing but START then."""

    def __init__(self) -> None:
        self.keys: set[bytes] | None = set()
        self.seen: set[bytes] = set()

    def allows(self, author: bytes) -> bool:
        return self.keys is None or author in self.keys

    def knows(self, record_hash: bytes) -> bool:
        return record_hash in self.seen


@dataclass(eq=False)
class PeerLink:
    """A link to one peer or spectator, with the queue its writer task drains."""

    link: Link
    key: bytes
    name: str
    spectator: bool = False
    dialed_by: bytes = b""
    """The key of the side that dialed (the mesh keeps one of two links by it)."""
    admitted: bool = False
    """Taking part in the table: records are passed on to it and taken from it."""
    bytes_sent: int = 0
    refused: int = 0
    """Records ``net`` refused on this link (``PeerLinks.link_refused``)."""
    closing: bool = False
    outbox: trio.MemorySendChannel[SendEvent] = field(init=False)
    inbox: trio.MemoryReceiveChannel[SendEvent] = field(init=False)

    def __post_init__(self) -> None:
        self.outbox, self.inbox = trio.open_memory_channel[SendEvent](math.inf)

    def send(self, event: SendEvent) -> None:
        """Queue ``event`` (nothing happens once the link is closing)."""
        if not self.closing:
            self.outbox.send_nowait(event)

    def close(self, reason: str, code: CloseCode = CloseCode.CLOSING) -> None:
        """Say goodbye after what is queued already."""
        if not self.closing:
            self.outbox.send_nowait(Refuse(code, reason))
            self.closing = True
