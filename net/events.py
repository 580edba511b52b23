"""What a ``Connection`` reports (``next_event``) and what it is asked to send (``send``).

Received events are facts about the link; they never carry unverified data: a
``RecordReceived`` holds a record whose author was allowed and whose signature verified.
``LinkClosed`` is always the last event of a link and says who ended it and why.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from net.errors import CloseCode
from net.identity import fingerprint
from net.records import Record

__all__ = [
    "Connected",
    "Event",
    "LinkClosed",
    "MessageReceived",
    "PeerInfo",
    "RecordReceived",
    "RecordRejected",
    "Refuse",
    "SendEvent",
    "SendMessage",
    "SendRecord",
]


@dataclass(frozen=True)
class PeerInfo:
    """The authenticated peer at the other end of a link, as its HELLO described it."""

    key: bytes
    app_version: str
    table_id: bytes | None
    listen_port: int

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.key)


# --- received ----------------------------------------------------------------------------
@dataclass(frozen=True)
class Connected:
    """The handshake is done: the peer proved it holds ``peer.key``."""

    peer: PeerInfo


@dataclass(frozen=True)
class RecordReceived:
    """A record whose author is allowed and whose signature verified, strictly decoded."""

    record: Record


@dataclass(frozen=True)
class RecordRejected:
    """A well-formed record this side does not take (author not allowed, other table).

    The link stays open: in a mesh such a record can be a race, not an attack.
    """

    reason: str
    author: bytes
    envelope: bytes


@dataclass(frozen=True)
class MessageReceived:
    """An application message (lobby traffic), checked against its topic's schema."""

    topic: str
    body: Any


@dataclass(frozen=True)
class LinkClosed:
    """The link is over.  ``by_peer``: the peer ended it (REFUSE or end of stream); otherwise
    this side did (its own choice, a timeout, or the peer's bad input).  ``evidence`` holds
    the offending bytes when a signature or a signed record was bad."""

    code: CloseCode
    reason: str
    by_peer: bool
    evidence: bytes | None = None

    def __str__(self) -> str:
        return f"{'the peer' if self.by_peer else 'this peer'} closed the link: {self.reason}"


Event = Connected | RecordReceived | RecordRejected | MessageReceived | LinkClosed


# --- to send -----------------------------------------------------------------------------
@dataclass(frozen=True)
class SendRecord:
    """Send (or forward) a record: its exact envelope bytes."""

    envelope: bytes


@dataclass(frozen=True)
class SendMessage:
    topic: str
    body: Any = None


@dataclass(frozen=True)
class Refuse:
    """Close the link, telling the peer why."""

    code: CloseCode
    reason: str


SendEvent = SendRecord | SendMessage | Refuse
