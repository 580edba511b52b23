"""The table secret in the handshake: proved by the joiner, never sent, refused by name."""

from __future__ import annotations

from functools import partial
from typing import Any

import pytest
import trio

from net.driver import Link, open_listeners, serve
from net.errors import CloseCode
from net.events import Connected, LinkClosed, SendMessage, SendRecord
from net.framing import FrameDecoder, FrameType, encode_frame
from net.handshake import Role, admission_proof, decode_auth
from net.identity import Identity
from net.invite import new_secret
from net.protocol import Connection
from net.records import Kind, sign_record
from net.slots import MAX_PENDING_PER_ADDRESS, Slots
from net.wire import pack, unpack
from tests.net.peers import Wire, connected_wire, spec
from tests.net.samples import TABLE

HOST, JOINER, OUTSIDER = Identity.generate(), Identity.generate(), Identity.generate()
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
async def test_silent_connections_keep_only_their_share_of_the_waiting_slots() -> None:
    """200 connections from one address that never speak: the first 16 wait, the others
    are closed unread; an honest joiner from another address gets in while they are all
    still there.  Then 4 more addresses fill
    every slot: a newcomer still gets one (the busiest address's oldest goes)."""
    listeners = await open_listeners(0, "127.0.0.1")
    port = listeners[0].socket.getsockname()[1]
    host_spec = spec(HOST, table_id=TABLE)
    admitted: list[bytes] = []

    async def on_link(link: Any) -> None:
        admitted.append(link.peer.key)

    async def closed_by_listener(streams: list[trio.SocketStream]) -> list[int]:
        closed: list[int] = []

        async def watch(n: int, stream: trio.SocketStream) -> None:
            with trio.move_on_after(2):
                if await stream.receive_some(1) == b"":
                    closed.append(n)

        async with trio.open_nursery() as watchers:
            for n, stream in enumerate(streams):
                watchers.start_soon(watch, n, stream)
        return sorted(closed)

    async with trio.open_nursery() as nursery:
        nursery.start_soon(partial(serve, listeners, host_spec, on_link))
        silent = [await _dial_from("127.0.0.1", port) for _ in range(200)]
        assert await closed_by_listener(silent) == list(range(MAX_PENDING_PER_ADDRESS, 200))
        with trio.fail_after(5):
            link = await _connect_from("127.0.0.2", port, spec(JOINER, table_id=TABLE))
            while not admitted:
                await trio.sleep(0.01)
        await link.close()
        others = [await _dial_from(f"127.0.0.{3 + n // 16}", port) for n in range(64)]
        closed = await closed_by_listener(silent[:MAX_PENDING_PER_ADDRESS] + others)
        assert len(closed) == MAX_PENDING_PER_ADDRESS  # 16 + 64 came, 64 wait
        with trio.fail_after(5):
            link = await _connect_from("127.0.0.9", port, spec(OUTSIDER, table_id=TABLE))
            while len(admitted) < 2:
                await trio.sleep(0.01)
        await link.close()
        for stream in silent + others:
            await stream.aclose()
        nursery.cancel_scope.cancel()
    assert admitted == [JOINER.public_key, OUTSIDER.public_key]


async def _refusal(link: Link) -> LinkClosed:
    async def ignore(event: Any) -> None:
        pass

    with trio.fail_after(10):
        return await link.run(ignore)


async def _dial_from(source: str, port: int) -> trio.SocketStream:
    sock = trio.socket.socket()
    await sock.bind((source, 0))
    await sock.connect(("127.0.0.1", port))
    return trio.SocketStream(sock)


async def _connect_from(source: str, port: int, link_spec: Any) -> Link:
    """A joiner's link from ``source`` (a loopback address of its own)."""
    link = Link(
        await _dial_from(source, port),
        Connection(Role.INITIATOR, link_spec, trio.current_time()),
        "listener",
    )
    assert isinstance(await link.handshake(), Connected)
    return link


@pytest.mark.trio
async def test_links_past_the_caps_are_refused_with_the_reason() -> None:
    """Links (handshakes done) are capped per address and per listener; one more is refused
    with a reason its side reads, and the slot is free again once a link ends."""
    listeners = await open_listeners(0, "127.0.0.1")
    port = listeners[0].socket.getsockname()[1]
    held = trio.Event()

    async def on_link(link: Any) -> None:
        await held.wait()

    async with trio.open_nursery() as nursery:
        slots: Slots[trio.CancelScope] = Slots(max_links=5, max_links_per_address=3)
        nursery.start_soon(partial(serve, listeners, spec(HOST), on_link, slots=slots))
        links = [await _connect_from("127.0.0.1", port, spec(Identity.generate())) for _ in "abc"]
        closed = await _refusal(await _connect_from("127.0.0.1", port, spec(Identity.generate())))
        assert (closed.code, closed.by_peer) == (CloseCode.REFUSED, True)
        assert closed.reason == "too many connections from 127.0.0.1 already (3); try again later"
        links += [await _connect_from("127.0.0.2", port, spec(Identity.generate()))]
        links += [await _connect_from("127.0.0.3", port, spec(Identity.generate()))]
        closed = await _refusal(await _connect_from("127.0.0.4", port, spec(Identity.generate())))
        assert closed.reason == "too many connections here already (5); try again later"
        held.set()
        with trio.fail_after(10):
            while slots.links:
                await trio.sleep(0.01)
        await (await _connect_from("127.0.0.4", port, spec(Identity.generate()))).close()
        for link in links:
            await link.close()
        nursery.cancel_scope.cancel()


def test_after_the_handshake_nothing_travels_in_clear() -> None:
    """A bystander on the path reads neither the chat nor the lobby: every frame after each
    side's AUTH is sealed."""
    wire = connected_wire(HOST, JOINER, table_id=TABLE)
    chat = sign_record(JOINER, Kind.CHAT, TABLE, 1, {"text": "rendez-vous à minuit"})
    on_the_wire = wire.joiner.connection.send(SendRecord(chat.data), 0)
    on_the_wire += wire.host.connection.send(SendMessage("hello-lobby", {"name": "Joséphine"}), 0)
    assert b"minuit" not in on_the_wire and "Joséphine".encode() not in on_the_wire
    assert chat.data not in on_the_wire
