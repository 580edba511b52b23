"""What one side brings to a link: its key, versions, table, timeouts and record policy.

``LinkSpec`` is fixed for the life of a link; the ``RecordPolicy`` it holds is the table's
own object and changes as the table does (START, REMOVE), which is why records are judged
one at a time, when the application pulls them (``Connection.next_event``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Protocol

from net.identity import Identity
from net.wire import Schema

__all__ = ["AllowedKeys", "LinkConfig", "LinkSpec", "RecordPolicy"]


@dataclass(frozen=True)
class LinkConfig:
    """Timeouts in seconds (tests use small ones).  The last two are the driver's:
    how long a write may block, and how long to wait for a refused peer to hang up."""

    handshake_timeout: float = 10.0
    idle_timeout: float = 30.0
    frame_timeout: float = 10.0
    heartbeat_interval: float = 2.0
    send_timeout: float = 10.0
    linger: float = 2.0


class RecordPolicy(Protocol):
    """The table's say over records: whose it takes, and which it already holds."""

    def allows(self, author: bytes) -> bool: ...

    def knows(self, record_hash: bytes) -> bool: ...


class AllowedKeys:
    """A simple ``RecordPolicy``: a set of allowed authors (mutable), no dedup."""

    def __init__(self, keys: tuple[bytes, ...] | set[bytes] = ()) -> None:
        self.keys: set[bytes] = set(keys)

    def allows(self, author: bytes) -> bool:
        return author in self.keys

    def knows(self, record_hash: bytes) -> bool:
        return False


@dataclass(frozen=True)
class LinkSpec:
    """Everything one side brings to a link.

    ``table_id``: the table this side is at (host) or wants (joiner; None: any).
    ``expected_fingerprint``: the host key the joiner's invite names (None: not checked).
    ``secret``: the table secret (``net.invite.check_secret``).  A responder with one admits
    only initiators that prove they know it (``net.handshake``); an initiator with one proves
    it.  None: no secret asked, none proved.
    ``message_schemas``: the application message topics this side accepts and sends.
    """

    identity: Identity
    app_version: str
    policy: RecordPolicy
    table_id: bytes | None = None
    listen_port: int = 0
    expected_fingerprint: str | None = None
    secret: str | None = None
    message_schemas: Mapping[str, Schema] = field(default_factory=dict)
    config: LinkConfig = field(default_factory=LinkConfig)
