"""The table secret in the handshake: proved by the joiner, never sent, refused by name."""

from __future__ import annotations

from functools import partial
from typing import Any

import pytest
import trio

from net.driver import MAX_PENDING, connect, open_listeners, serve
from net.errors import CloseCode, LinkError
from net.events import Connected, LinkClosed, SendMessage, SendRecord
from net.framing import FrameDecoder, FrameType, encode_frame
from net.handshake import admission_proof, decode_auth
from net.identity import Identity
from net.invite import new_secret
from net.records import Kind, sign_record
from net.wire import pack, unpack
from tests.net.peers import Wire, connected_wire, spec
from tests.net.samples import TABLE

HOST, JOINER = Identity.generate(), Identity.generate()
SECRET = "tea-time-at-seven"


def _closed(events: list[Any]) -> LinkClosed:
    assert events and isinstance(events[-1], LinkClosed), events
    return events[-1]


def _joiner_auth(host_secret: str | None, joiner_secret: str | None) -> tuple[Wire, bytes]:
    """A wire after the joiner's AUTH left it (not yet read by the host), and that AUTH."""
    wire = Wire(
        spec(HOST, table_id=TABLE, secret=host_secret),
        spec(JOINER, table_id=TABLE, secret=joiner_secret),
    )
    wire.host.connection.receive_data(wire.joiner.connection.data_to_send(), 0)
    wire.host.drain()
    wire.joiner.connection.receive_data(wire.host.connection.data_to_send(), 0)
    wire.joiner.drain()
    auth = wire.joiner.connection.data_to_send()
    return wire, auth


def _frames(data: bytes) -> list[tuple[bytes, bytes]]:
    decoder = FrameDecoder()
    decoder.feed(data)
    frames = []
    while (frame := decoder.next_frame()) is not None:
        frames.append(frame)
    return frames


def test_a_joiner_with_the_secret_is_admitted_and_the_secret_never_crosses_the_wire() -> None:
    wire, auth = _joiner_auth(SECRET, SECRET)
    (_, body), *_ = _frames(auth)
    assert body[0] == FrameType.AUTH
    _, proof = decode_auth(body[1:])
    assert proof is not None and len(proof) == 32
    wire.host.connection.receive_data(auth, 0)
    wire.pump()
    assert isinstance(wire.host.events[-1], Connected)
    assert isinstance(wire.joiner.events[-1], Connected)
    assert SECRET.encode() not in auth


def test_the_host_proves_nothing_about_the_secret() -> None:
    """The host's AUTH carries no proof: an uninvited joiner gets nothing to guess against."""
    wire = Wire(spec(HOST, secret=SECRET), spec(JOINER))
    wire.host.connection.receive_data(wire.joiner.connection.data_to_send(), 0)
    wire.host.drain()
    _, auth = _frames(wire.host.connection.data_to_send())[:2]
    assert auth[1][0] == FrameType.AUTH
    assert decode_auth(auth[1][1:])[1] is None


def test_each_link_has_its_own_proof() -> None:
    proofs = {decode_auth(_frames(_joiner_auth(SECRET, SECRET)[1])[0][1][1:])[1] for _ in range(3)}
    assert len(proofs) == 3


@pytest.mark.parametrize(
    ("joiner_secret", "words"),
    [
        (None, "did not give the table secret: this table admits only players with its invite"),
        ("tea-time-at-eight", "did not prove it knows the table secret (an old invite"),
    ],
)
def test_a_joiner_without_the_secret_is_refused_with_the_reason_on_both_sides(
    joiner_secret: str | None, words: str
) -> None:
    wire, auth = _joiner_auth(SECRET, joiner_secret)
    wire.host.connection.receive_data(auth, 0)
    wire.pump()
    host, joiner = _closed(wire.host.events), _closed(wire.joiner.events)
    assert host.code is joiner.code is CloseCode.SECRET
    assert words in host.reason and JOINER.fingerprint[:9] in host.reason
    assert joiner.reason == host.reason and joiner.by_peer and not host.by_peer
    assert not any(isinstance(e, Connected) for e in wire.host.events)


def test_a_proof_for_another_link_is_refused() -> None:
    """A proof seen on one link (the joiner's AUTH is not encrypted) is worthless on another."""
    _, seen = _joiner_auth(SECRET, SECRET)
    replayed = decode_auth(_frames(seen)[0][1][1:])[1]
    wire, auth = _joiner_auth(SECRET, None)
    (_, body), *_ = _frames(auth)
    value = unpack(body[1:], "auth")
    forged = pack({"sig": value["sig"], "proof": replayed})
    wire.host.connection.receive_data(encode_frame(bytes([FrameType.AUTH]) + forged), 0)
    wire.pump()
    assert _closed(wire.host.events).code is CloseCode.SECRET


def test_a_host_without_a_secret_admits_a_joiner_that_brings_one() -> None:
    wire = Wire(spec(HOST), spec(JOINER, secret=new_secret()))
    wire.pump()
    assert isinstance(wire.host.events[-1], Connected)


def test_the_proof_depends_on_every_input() -> None:
    base = admission_proof(b"s" * 32, b"t" * 32, SECRET)
    assert base == admission_proof(b"s" * 32, b"t" * 32, SECRET)
    assert base != admission_proof(b"x" * 32, b"t" * 32, SECRET)
    assert base != admission_proof(b"s" * 32, b"x" * 32, SECRET)
    assert base != admission_proof(b"s" * 32, b"t" * 32, SECRET + "!")


@pytest.mark.trio
async def test_at_most_64_connections_wait_for_their_handshake() -> None:
    """200 connections that never speak: 64 wait, the others are closed unread; once the
    silent ones go, an honest joiner gets in."""
    listeners = await open_listeners(0, "127.0.0.1")
    port = listeners[0].socket.getsockname()[1]
    host_spec = spec(HOST, table_id=TABLE)
    admitted: list[bytes] = []

    async def on_link(link: Any) -> None:
        admitted.append(link.peer.key)

    async with trio.open_nursery() as nursery:
        nursery.start_soon(partial(serve, listeners, host_spec, on_link))
        silent = [await trio.open_tcp_stream("127.0.0.1", port) for _ in range(200)]
        closed: list[trio.SocketStream] = []

        async def watch(stream: trio.SocketStream) -> None:
            with trio.move_on_after(2):
                if await stream.receive_some(1) == b"":
                    closed.append(stream)

        async with trio.open_nursery() as watchers:
            for stream in silent:
                watchers.start_soon(watch, stream)
        assert len(closed) == 200 - MAX_PENDING == 136
        for stream in silent:
            await stream.aclose()
        with trio.fail_after(10):
            while True:  # the host notices the silent ones left, then takes a joiner
                try:
                    link = await connect("127.0.0.1", port, spec(JOINER, table_id=TABLE))
                    break
                except LinkError:
                    await trio.sleep(0.05)
            while not admitted:
                await trio.sleep(0.01)
        await link.close()
        nursery.cancel_scope.cancel()
    assert admitted == [JOINER.public_key]


def test_after_the_handshake_nothing_travels_in_clear() -> None:
    """A bystander on the path reads neither the chat nor the lobby: every frame after each
    side's AUTH is sealed."""
    wire = connected_wire(HOST, JOINER, table_id=TABLE)
    chat = sign_record(JOINER, Kind.CHAT, TABLE, 1, {"text": "rendez-vous à minuit"})
    on_the_wire = wire.joiner.connection.send(SendRecord(chat.data), 0)
    on_the_wire += wire.host.connection.send(SendMessage("hello-lobby", {"name": "Joséphine"}), 0)
    assert b"minuit" not in on_the_wire and "Joséphine".encode() not in on_the_wire
    assert chat.data not in on_the_wire
