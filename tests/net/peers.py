"""Wiring sans-I/O connections together in memory, with no sockets (h11's test style)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from net.events import Event
from net.framing import FrameDecoder, FrameType
from net.handshake import Role
from net.identity import Identity
from net.linkspec import AllowedKeys, LinkConfig, LinkSpec, RecordPolicy
from net.protocol import Connection
from net.wire import Int, Schema, Struct, Text, unpack

APP = "0.1.0"
SCHEMAS: dict[str, Schema] = {
    "ready": Struct({"ready": Int(0, 1)}),
    "hello-lobby": Struct({"name": Text(1, 40)}),
}


def spec(identity: Identity, policy: RecordPolicy | None = None, **overrides: Any) -> LinkSpec:
    """A spec with the test message schemas; ``policy`` defaults to allowing nobody."""
    fields: dict[str, Any] = {
        "identity": identity,
        "app_version": APP,
        "policy": policy if policy is not None else AllowedKeys(),
        "message_schemas": SCHEMAS,
        "config": LinkConfig(),
    }
    fields.update(overrides)
    return LinkSpec(**fields)


@dataclass
class End:
    """One connection and the events it produced so far."""

    connection: Connection
    events: list[Event] = field(default_factory=list)

    def drain(self) -> None:
        while (event := self.connection.next_event()) is not None:
            self.events.append(event)


class Wire:
    """Two connections joined by an in-memory wire; ``pump`` runs them until quiet."""

    def __init__(self, host: LinkSpec, joiner: LinkSpec, now: float = 0.0) -> None:
        self.host = End(Connection(Role.RESPONDER, host, now))
        self.joiner = End(Connection(Role.INITIATOR, joiner, now))

    def pump(self, now: float = 0.0, chunk: int | None = None) -> None:
        """Deliver bytes both ways (in pieces of ``chunk`` bytes if given) until quiet."""
        while True:
            self.host.drain()
            self.joiner.drain()
            to_host = self.joiner.connection.data_to_send()
            to_joiner = self.host.connection.data_to_send()
            if not to_host and not to_joiner:
                return
            for receiver, data in ((self.host, to_host), (self.joiner, to_joiner)):
                step = chunk or max(len(data), 1)
                for start in range(0, len(data), step):
                    receiver.connection.receive_data(data[start : start + step], now)


def connected_wire(
    host_id: Identity, joiner_id: Identity, policy: RecordPolicy | None = None, **overrides: Any
) -> Wire:
    """Two ends past the handshake, each allowing both keys (or following ``policy``)."""
    if policy is None:
        policy = AllowedKeys({host_id.public_key, joiner_id.public_key})
    wire = Wire(spec(host_id, policy, **overrides), spec(joiner_id, policy, **overrides))
    wire.pump()
    return wire


def first_hello(identity: Identity) -> bytes:
    """The HELLO content a joiner with ``identity`` sends first (after the type byte)."""
    joiner = Connection(Role.INITIATOR, spec(identity), 0)
    decoder = FrameDecoder()
    decoder.feed(joiner.data_to_send())
    frame = decoder.next_frame()
    assert frame is not None and frame[1][0] == FrameType.HELLO
    return frame[1][1:]


def refusal_in(data: bytes) -> tuple[str, str]:
    """The ``(code, reason)`` of the plaintext REFUSE frame among ``data``."""
    decoder = FrameDecoder()
    decoder.feed(data)
    while (frame := decoder.next_frame()) is not None:
        if frame[1][0] == FrameType.REFUSE:
            code, reason = unpack(frame[1][1:], "refuse")
            return code, reason
    raise AssertionError(f"no REFUSE frame among {data[:200]!r}")
