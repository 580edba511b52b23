"""One link of a peer's mesh: the runtime's handle on it, and what the node keeps of it.

Invariants: a ``PeerLink``'s queue is unbounded and drained by one writer task; once the
link is ``closing`` nothing more is queued (the goodbye is the last event).  The node
(``client.node.peer_node``) reads and sets the table-side fields (``admitted``, ``spectator``,
``refused``, ``closing``...) and decides what goes on the queue; the runtime carries it out
with ``put`` and ``put_close`` (the node already checked ``closing``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import trio

from net.driver import Link
from net.errors import CloseCode
from net.events import Refuse, SendEvent


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
    """Records ``net`` refused on this link (``client.node.peer_admission``)."""
    closing: bool = False
    watching: bool = False
    """A link this spectator dialed to watch the table (it asks another when it ends)."""
    outbox: trio.MemorySendChannel[SendEvent] = field(init=False)
    inbox: trio.MemoryReceiveChannel[SendEvent] = field(init=False)

    def __post_init__(self) -> None:
        self.outbox, self.inbox = trio.open_memory_channel[SendEvent](math.inf)

    @property
    def remote(self) -> str:
        """The other end's address as ``host:port`` (for messages)."""
        return self.link.remote

    @property
    def address(self) -> str | None:
        """The other end's IP address (None: not known)."""
        return None if self.link.address is None else self.link.address[0]

    @property
    def listen_port(self) -> int:
        """The port the other end says it listens on (0: none)."""
        return int(self.link.peer.listen_port)

    def send(self, event: SendEvent) -> None:
        """Queue ``event`` (nothing happens once the link is closing)."""
        if not self.closing:
            self.put(event)

    def close(self, reason: str, code: CloseCode = CloseCode.CLOSING) -> None:
        """Say goodbye after what is queued already."""
        if not self.closing:
            self.put_close(reason, code)
            self.closing = True

    def put(self, event: SendEvent) -> None:
        """Queue ``event`` as the node decided it (``client.node.node_io.Send``)."""
        self.outbox.send_nowait(event)

    def put_close(self, reason: str, code: CloseCode) -> None:
        """Queue the goodbye as the node decided it (``client.node.node_io.Close``)."""
        self.outbox.send_nowait(Refuse(code, reason))
