"""Every bad input of issue 6, against a real listener over TCP on loopback.

Each test checks the same four things: the listener ends the offending link (or, for a key
that is not allowed, ignores the record) with a clear reason; the offender is told that
reason where it can still read; nothing reached the listener's state (no record taken, the
allowed keys unchanged); and the listener still serves the next, honest joiner.  Nothing
may raise out of the driver: an exception would fail the test through the nursery.

Timeouts are scaled down (tenths of seconds) so no test waits; ``test_driver.py`` checks
the default 30 s / 10 s values on trio's autojump clock.
"""

from __future__ import annotations

import contextlib
import logging
import struct
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import pytest
import trio

from net.driver import Link, connect, connect_invite, open_listeners, serve
from net.envelope import RECORD_TAG, seal
from net.errors import CloseCode, LinkError
from net.events import Event, LinkClosed, RecordReceived, RecordRejected, SendRecord
from net.framing import FrameType, encode_frame
from net.handshake import Role
from net.identity import Identity
from net.invite import Invite
from net.linkspec import AllowedKeys, LinkConfig
from net.protocol import Connection
from net.records import Kind, sign_record
from net.wire import pack, unpack
from tests.net.peers import first_hello, refusal_in, spec
from tests.net.samples import TABLE

HOST, JOINER, OUTSIDER = Identity.generate(), Identity.generate(), Identity.generate()
QUICK = LinkConfig(
    handshake_timeout=2.0,
    idle_timeout=3.0,
    frame_timeout=0.5,
    heartbeat_interval=0.5,
    send_timeout=2.0,
    linger=0.5,
)
pytestmark = pytest.mark.trio


@dataclass
class Listener:
    """A real palabre listener on 127.0.0.1 and everything it saw."""

    port: int
    policy: AllowedKeys
    events: list[Event] = field(default_factory=list)
    links: list[Link] = field(default_factory=list)
    failures: list[tuple[str, LinkClosed]] = field(default_factory=list)
    endings: trio.MemorySendChannel[LinkClosed] | None = None
    ended: trio.MemoryReceiveChannel[LinkClosed] | None = None
    raw_streams: list[trio.SocketStream] = field(default_factory=list)

    async def dial_raw(self) -> trio.SocketStream:
        """A plain TCP stream to the listener, for writing whatever a test likes; closed
        when ``listening`` ends (left to the collector, it warned in a later test)."""
        stream = await trio.open_tcp_stream("127.0.0.1", self.port)
        self.raw_streams.append(stream)
        return stream

    @property
    def invite(self) -> Invite:
        return Invite(("127.0.0.1",), self.port, TABLE, HOST.fingerprint)

    async def next_ending(self) -> LinkClosed:
        assert self.ended is not None
        with trio.fail_after(10):
            return await self.ended.receive()

    def records(self) -> list[Any]:
        return [e.record for e in self.events if isinstance(e, RecordReceived)]


@contextlib.asynccontextmanager
async def listening(config: LinkConfig = QUICK) -> AsyncIterator[Listener]:
    listeners = await open_listeners(0, "127.0.0.1")
    policy = AllowedKeys({HOST.public_key, JOINER.public_key})
    send, receive = trio.open_memory_channel[LinkClosed](100)
    listener = Listener(listeners[0].socket.getsockname()[1], policy, endings=send, ended=receive)

    async def on_link(link: Link) -> None:
        listener.links.append(link)

        async def deliver(event: Event) -> None:
            listener.events.append(event)
            if isinstance(event, LinkClosed):
                await send.send(event)

        await link.run(deliver)

    async def on_failure(remote: str, closed: LinkClosed) -> None:
        listener.failures.append((remote, closed))
        await send.send(closed)

    spec_ = spec(HOST, policy, table_id=TABLE, config=config)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(lambda: serve(listeners, spec_, on_link, on_failure=on_failure))
        yield listener
        for stream in listener.raw_streams:
            await stream.aclose()
        nursery.cancel_scope.cancel()


async def _still_serves(listener: Listener) -> None:
    """No state changed, and an honest joiner gets through and is heard."""
    assert listener.records() == []
    assert listener.policy.keys == {HOST.public_key, JOINER.public_key}
    with trio.fail_after(10):
        link = await connect_invite(listener.invite, spec(JOINER, config=QUICK))
        assert link.address == ("127.0.0.1", listener.port)
        chat = sign_record(JOINER, Kind.CHAT, TABLE, 1, {"text": "an honest joiner"})
        assert await link.send(SendRecord(chat.data))
        while listener.records() != [chat]:
            await trio.sleep(0.01)
        seen = listener.links[-1].address
        assert seen is not None and seen[0] == "127.0.0.1" and seen[1] != listener.port
        assert listener.links[-1].peer.key == JOINER.public_key
        await link.close()


async def _plain_refusal(stream: trio.SocketStream) -> tuple[str, str]:
    """Read until the listener hangs up; the REFUSE it sent in plaintext."""
    data = b""
    with trio.fail_after(10):
        while chunk := await stream.receive_some(65536):
            data += chunk
    return refusal_in(data)


async def _joined(listener: Listener, who: Identity = JOINER) -> tuple[Link, trio.SocketStream]:
    """A joiner past the handshake, and its raw stream for writing whatever it likes."""
    stream = await listener.dial_raw()
    connection = Connection(Role.INITIATOR, spec(who, config=LinkConfig()), trio.current_time())
    link = Link(stream, connection, "listener")
    with trio.fail_after(10):
        assert not isinstance(await link.handshake(), LinkClosed)
    return link, stream


async def _sealed_refusal(link: Link) -> LinkClosed:
    """What the listener told this (past-the-handshake) joiner when it closed the link."""
    with trio.fail_after(10):
        return await link.run(_ignore)


async def _ignore(event: Event) -> None:
    pass


# --- before the handshake: garbage, sizes, lies, types, depth ---------------------------------
@pytest.mark.parametrize(
    ("sent", "code", "reason"),
    [
        (
            b"GET / HTTP/1.1\r\nHost: palabre\r\n\r\n",
            "protocol",
            "over the 65536-byte limit (this is not a palabre peer)",
        ),
        (b"\x00\x00\x00\x03abc", "protocol", "received a frame of unknown type 97"),
        (
            struct.pack(">I", 65537),
            "protocol",
            "received a frame of 65537 bytes, over the 65536-byte limit",
        ),
        (struct.pack(">I", 0), "protocol", "received an empty frame"),
        (
            encode_frame(b"\x01" + pack({"proto": 1, "port": "7000"})),
            "protocol",
            "hello: missing field 'app'",
        ),
        (
            encode_frame(b"\x01\x91" * 1 + b"\x91" * 60_000 + b"\xc0"),
            "protocol",
            "hello is nested too deeply",
        ),
        (
            encode_frame(b"\x01\xdd\xff\xff\xff\xff"),
            "protocol",
            "hello is not valid msgpack (4294967295 exceeds max_array_len",
        ),
        (encode_frame(b"\x01" + b"\xcb" + bytes(8)), "protocol", "hello holds a float"),
        (
            encode_frame(b"\x02" + pack({"sig": bytes(64)})),
            "protocol",
            "unexpected AUTH frame while waiting for the peer's hello",
        ),
    ],
    ids=[
        "http",
        "unknown-type",
        "over-cap",
        "empty",
        "wrong-fields",
        "deep",
        "huge",
        "float",
        "out-of-order",
    ],
)
async def test_bad_bytes_before_the_handshake(sent: bytes, code: str, reason: str) -> None:
    async with listening() as listener:
        stream = await listener.dial_raw()
        await stream.send_all(sent)
        closed = await listener.next_ending()
        assert closed.code == code and not closed.by_peer
        assert reason in closed.reason
        assert await _plain_refusal(stream) == (code, closed.reason)
        await _still_serves(listener)


async def test_wrong_types_in_a_hello() -> None:
    async with listening() as listener:
        hello = unpack(first_hello(JOINER), "hello")
        stream = await listener.dial_raw()
        await stream.send_all(encode_frame(b"\x01" + pack({**hello, "port": "7000"})))
        closed = await listener.next_ending()
        assert closed.reason == "hello.port: expected an integer from 0 to 65535, got '7000'"
        assert await _plain_refusal(stream) == ("protocol", closed.reason)
        await _still_serves(listener)


async def test_a_length_prefix_that_lies_short() -> None:
    """The prefix says 5 bytes; the hello is longer: its first bytes are read as a frame."""
    async with listening() as listener:
        hello = first_hello(JOINER)
        stream = await listener.dial_raw()
        await stream.send_all(struct.pack(">I", 5) + b"\x01" + hello)
        closed = await listener.next_ending()
        assert closed.reason.startswith("hello is not valid msgpack")
        assert await _plain_refusal(stream) == ("protocol", closed.reason)
        await _still_serves(listener)


async def test_a_length_prefix_that_lies_long_then_silence() -> None:
    async with listening() as listener:
        link, stream = await _joined(listener)
        await stream.send_all(struct.pack(">I", 1000) + b"x" * 10)  # 990 bytes never come
        closed = await listener.next_ending()
        assert (closed.code, closed.reason) == (
            CloseCode.TIMEOUT,
            "a frame took more than 0.5 s to arrive (the peer sends too slowly)",
        )
        told = await _sealed_refusal(link)
        assert told.by_peer and told.reason == closed.reason
        await _still_serves(listener)


async def test_a_length_prefix_that_lies_long_then_hangs_up() -> None:
    async with listening() as listener:
        _link, stream = await _joined(listener)
        await stream.send_all(struct.pack(">I", 1000) + b"x" * 10)
        await stream.aclose()
        closed = await listener.next_ending()
        assert (closed.code, closed.by_peer) == (CloseCode.LOST, True)
        assert closed.reason == "the connection ended in the middle of a frame"
        await _still_serves(listener)


# --- after the handshake: frames, records, signatures, keys ------------------------------------
async def test_garbage_on_an_encrypted_link() -> None:
    async with listening() as listener:
        link, stream = await _joined(listener)
        await stream.send_all(encode_frame(bytes(range(100))))
        closed = await listener.next_ending()
        assert closed.code is CloseCode.CRYPTO
        assert "failed the link's integrity check" in closed.reason
        assert (await _sealed_refusal(link)).reason == closed.reason
        await _still_serves(listener)


async def test_a_frame_over_the_cap_on_an_encrypted_link() -> None:
    async with listening() as listener:
        link, stream = await _joined(listener)
        await stream.send_all(struct.pack(">I", 70_000))
        closed = await listener.next_ending()
        assert closed.reason == "received a frame of 70000 bytes, over the 65536-byte limit"
        assert (await _sealed_refusal(link)).reason == closed.reason
        await _still_serves(listener)


@pytest.mark.parametrize(
    ("payload", "reason"),
    [
        ([99, TABLE, 1, {"text": "x"}], "unknown record kind 99"),
        ([9, TABLE, 1, {"text": b"bytes, not text"}], "CHAT body.text: expected text"),
        (
            [2, TABLE, 1, {"ply": "1", "prev": bytes(32), "seat": 1, "move": []}],
            "MOVE body.ply: expected an integer",
        ),
        (
            [2, TABLE, 1, {"ply": 1, "prev": bytes(32), "seat": 1, "move": [0] * 65}],
            "MOVE body.move: expected an array of 0 to 64 items",
        ),
        ([9, TABLE, 1, {"text": [[[["deep"]]]]}], "CHAT body.text: expected text"),
    ],
    ids=["unknown-kind", "wrong-type", "wrong-int", "huge-list", "nested"],
)
async def test_a_signed_record_that_breaks_the_schema(payload: Any, reason: str) -> None:
    async with listening() as listener:
        link, _ = await _joined(listener)
        bad = seal(JOINER, RECORD_TAG, pack(payload))
        await link.send(SendRecord(bad))
        closed = await listener.next_ending()
        assert closed.code is CloseCode.PROTOCOL and reason in closed.reason
        assert closed.evidence == bad
        assert (await _sealed_refusal(link)).reason == closed.reason
        await _still_serves(listener)


async def test_a_message_nested_too_deeply() -> None:
    async with listening() as listener:
        link, stream = await _joined(listener)
        body = b"\x92\xa5ready" + b"\x91" * 20 + b"\xc0"
        await stream.send_all(
            link.connection.send_raw(FrameType.MESSAGE, body, trio.current_time())
        )
        closed = await listener.next_ending()
        assert closed.reason == "message is nested deeper than 8 levels"
        await _still_serves(listener)


async def test_a_bad_signature(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="palabre.net")
    async with listening() as listener:
        link, _ = await _joined(listener)
        chat = sign_record(JOINER, Kind.CHAT, TABLE, 1, {"text": "mine"})
        forged = bytearray(chat.data)
        forged[-1] ^= 0x40  # the last byte of the signature
        await link.send(SendRecord(bytes(forged)))
        closed = await listener.next_ending()
        assert closed.code is CloseCode.CRYPTO
        assert closed.reason == f"bad signature on a record said to be by {JOINER.fingerprint[:9]}…"
        assert closed.evidence == bytes(forged)
        assert (await _sealed_refusal(link)).reason == closed.reason
        await _still_serves(listener)
    logged = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert any(
        r.getMessage().startswith(f"link with {JOINER.fingerprint} at 127.0.0.1:")
        and r.getMessage().endswith(f"closed: this peer closed the link: {closed.reason}")
        for r in logged
    ), [r.getMessage() for r in caplog.records]


async def test_a_record_from_a_key_not_allowed() -> None:
    async with listening() as listener:
        link, _ = await _joined(listener)
        stranger = sign_record(OUTSIDER, Kind.CHAT, TABLE, 1, {"text": "let me in"})
        await link.send(SendRecord(stranger.data))
        chat = sign_record(JOINER, Kind.CHAT, TABLE, 1, {"text": "still linked"})
        await link.send(SendRecord(chat.data))
        with trio.fail_after(10):
            while listener.records() != [chat]:
                await trio.sleep(0.01)
        rejected = [e for e in listener.events if isinstance(e, RecordRejected)]
        assert [r.envelope for r in rejected] == [stranger.data]
        assert rejected[0].reason == (
            f"a record signed by {OUTSIDER.fingerprint[:9]}…, a key not allowed at this table, "
            "was ignored"
        )
        assert listener.policy.keys == {HOST.public_key, JOINER.public_key}
        await link.close("done")
        assert (await listener.next_ending()).reason == "done"


# --- silence and slowness ------------------------------------------------------------------------
async def test_a_connection_that_sends_nothing() -> None:
    async with listening(LinkConfig(handshake_timeout=0.3, linger=0.2)) as listener:
        stream = await listener.dial_raw()
        closed = await listener.next_ending()
        assert (closed.code, closed.reason) == (
            CloseCode.TIMEOUT,
            "the handshake did not finish within 0.3 s",
        )
        assert await _plain_refusal(stream) == ("timeout", closed.reason)
        assert listener.failures[0][0].startswith("127.0.0.1:")
        await _still_serves(listener)


async def test_a_joiner_that_falls_silent_after_the_handshake() -> None:
    config = LinkConfig(idle_timeout=0.3, heartbeat_interval=0.1, linger=0.2)
    async with listening(config) as listener:
        link, _ = await _joined(listener)  # and never runs: no heartbeats
        closed = await listener.next_ending()
        assert closed.reason == "nothing came from the peer for 0.3 s"
        assert (await _sealed_refusal(link)).reason == closed.reason
        await _still_serves(listener)


async def test_one_byte_at_a_time() -> None:
    """One byte every 0.1 s (a second in the issue; scaled down like the frame timeout)."""
    async with listening() as listener:
        link, stream = await _joined(listener)
        chat = sign_record(JOINER, Kind.CHAT, TABLE, 1, {"text": "s l o w l y"})
        sealed = link.connection.send(SendRecord(chat.data), trio.current_time())
        closed = await _trickled(listener, stream, sealed)
        assert closed.reason == "a frame took more than 0.5 s to arrive (the peer sends too slowly)"
        await _still_serves(listener)


async def test_one_byte_at_a_time_before_the_handshake() -> None:
    async with listening(LinkConfig(handshake_timeout=0.5, linger=0.2)) as listener:
        stream = await listener.dial_raw()
        closed = await _trickled(listener, stream, encode_frame(b"\x01" + first_hello(JOINER)))
        assert closed.reason == "the handshake did not finish within 0.5 s"
        await _still_serves(listener)


async def _trickled(listener: Listener, stream: trio.SocketStream, data: bytes) -> LinkClosed:
    """Send ``data`` one byte every 0.1 s until the listener ends the link."""
    async with trio.open_nursery() as nursery:

        async def trickle() -> None:
            with contextlib.suppress(trio.BrokenResourceError):
                for byte in data:
                    await stream.send_all(bytes([byte]))
                    await trio.sleep(0.1)

        nursery.start_soon(trickle)
        closed = await listener.next_ending()
        nursery.cancel_scope.cancel()
    return closed


# --- the edges: ports and addresses ---------------------------------------------------------------
async def test_a_port_in_use() -> None:
    async with listening() as listener:
        with pytest.raises(LinkError) as caught:
            await open_listeners(listener.port, "127.0.0.1")
        assert str(caught.value) == (
            f"port {listener.port} is already in use (another palabre or another program "
            "listens there); choose another port with --port"
        )
        await _still_serves(listener)


async def test_an_unreachable_address() -> None:
    listeners = await open_listeners(0, "127.0.0.1")
    port = listeners[0].socket.getsockname()[1]
    await listeners[0].aclose()  # nothing listens there any more
    with pytest.raises(LinkError) as caught:
        await connect("127.0.0.1", port, spec(JOINER, config=QUICK))
    assert str(caught.value) == (
        f"cannot reach 127.0.0.1:{port}: connection refused (is palabre listening on that port?)"
    )
    assert not caught.value.refused


async def test_an_address_where_nobody_speaks_palabre() -> None:
    listeners = await open_listeners(0, "127.0.0.1")
    port = listeners[0].socket.getsockname()[1]
    async with trio.open_nursery() as nursery:

        async def mute(stream: trio.SocketStream) -> None:
            await trio.sleep_forever()

        nursery.start_soon(trio.serve_listeners, mute, listeners)
        with pytest.raises(LinkError) as caught:
            await connect(
                "127.0.0.1",
                port,
                spec(JOINER, config=LinkConfig(handshake_timeout=0.3, linger=0.1)),
            )
        nursery.cancel_scope.cancel()
    assert str(caught.value) == (
        f"no link with 127.0.0.1:{port}: the handshake did not finish within 0.3 s"
    )


async def test_an_invite_whose_fingerprint_is_another_key() -> None:
    async with listening() as listener:
        wrong = Invite(("127.0.0.1",), listener.port, TABLE, OUTSIDER.fingerprint)
        with pytest.raises(LinkError) as caught:
            await connect_invite(wrong, spec(JOINER, config=QUICK))
        assert caught.value.refused
        assert str(caught.value).startswith(
            f"refused the host: the host's key {HOST.fingerprint} is not the one the invite "
            f"names ({OUTSIDER.fingerprint})"
        )
        closed = await listener.next_ending()
        assert closed.by_peer and closed.code is CloseCode.FINGERPRINT
        await _still_serves(listener)


async def test_a_host_refusal_reaches_the_joiner_as_a_refused_link_error() -> None:
    async with listening() as listener:
        other_table = Invite(("127.0.0.1",), listener.port, bytes(16), HOST.fingerprint)
        with pytest.raises(LinkError) as caught:
            await connect_invite(other_table, spec(JOINER, config=QUICK))
        assert caught.value.refused
        assert str(caught.value).startswith(
            f"the host at 127.0.0.1:{listener.port} refused the link: the joiner asked for table"
        )
        await listener.next_ending()
        await _still_serves(listener)
