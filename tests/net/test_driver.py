"""The trio driver over in-memory streams, on trio's autojump clock: the default timeouts
(30 s of silence, 10 s for a handshake or a frame) without waiting for them."""

from __future__ import annotations

import contextlib

import pytest
import trio
import trio.testing

from net.driver import Link
from net.errors import CloseCode
from net.events import Connected, Event, LinkClosed, RecordReceived, SendRecord
from net.handshake import Role
from net.identity import Identity
from net.linkspec import AllowedKeys, LinkConfig
from net.protocol import Connection
from net.records import Kind, sign_record
from tests.net.peers import spec
from tests.net.samples import TABLE

HOST, JOINER = Identity.generate(), Identity.generate()
POLICY = AllowedKeys({HOST.public_key, JOINER.public_key})


async def _pair(
    config: LinkConfig | None = None,
) -> tuple[Link, Link, trio.testing.MemorySendStream | trio.abc.Stream]:
    host_stream, joiner_stream = trio.testing.memory_stream_pair()
    config = config or LinkConfig()
    now = trio.current_time()
    host = Link(
        host_stream,
        Connection(Role.RESPONDER, spec(HOST, POLICY, table_id=TABLE, config=config), now),
        "joiner",
    )
    joiner = Link(
        joiner_stream, Connection(Role.INITIATOR, spec(JOINER, POLICY, config=config), now), "host"
    )
    results: list[Connected | LinkClosed] = []

    async def shake(link: Link) -> None:
        results.append(await link.handshake())

    async with trio.open_nursery() as nursery:
        nursery.start_soon(shake, host)
        nursery.start_soon(shake, joiner)
    assert all(isinstance(r, Connected) for r in results)
    return host, joiner, joiner_stream


@pytest.mark.trio
async def test_a_silent_peer_is_dropped_after_30_s(autojump_clock: trio.testing.MockClock) -> None:
    host, _joiner, _ = await _pair()
    start = trio.current_time()
    seen_at: list[float] = []

    async def note_time(event: Event) -> None:
        seen_at.append(trio.current_time() - start)

    closed = await host.run(note_time)  # the joiner never runs: no heartbeats come
    assert (closed.code, closed.reason) == (
        CloseCode.TIMEOUT,
        "nothing came from the peer for 30 s",
    )
    assert len(seen_at) == 1 and 30.0 <= seen_at[0] < 30.5


@pytest.mark.trio
async def test_heartbeats_keep_two_quiet_peers_linked(
    autojump_clock: trio.testing.MockClock,
) -> None:
    host, joiner, _ = await _pair()
    events: list[Event] = []

    async def collect(event: Event) -> None:
        events.append(event)

    async with trio.open_nursery() as nursery:
        nursery.start_soon(host.run, collect)
        nursery.start_soon(joiner.run, collect)
        await trio.sleep(600)  # ten minutes of nothing to say
        assert host.closed is None and joiner.closed is None
        chat = sign_record(JOINER, Kind.CHAT, TABLE, 1, {"text": "still here"})
        assert await joiner.send(SendRecord(chat.data))
        await trio.sleep(1)
        await joiner.close("good night")
    assert [type(e) for e in events].count(RecordReceived) == 1
    closes = [e for e in events if isinstance(e, LinkClosed)]
    assert sorted((c.by_peer, c.reason) for c in closes) == [
        (False, "good night"),
        (True, "good night"),
    ]
    assert not await joiner.send(SendRecord(chat.data))  # closed: nothing is sent


@pytest.mark.trio
async def test_a_handshake_that_never_comes_ends_after_10_s(
    autojump_clock: trio.testing.MockClock,
) -> None:
    host_stream, _silent = trio.testing.memory_stream_pair()
    host = Link(host_stream, Connection(Role.RESPONDER, spec(HOST), trio.current_time()), "mute")
    start = trio.current_time()
    closed = await host.handshake()
    assert isinstance(closed, LinkClosed)
    assert closed.reason == "the handshake did not finish within 10 s"
    assert 10.0 <= trio.current_time() - start < 13.0  # and the 2 s linger


@pytest.mark.trio
async def test_a_link_cancelled_while_it_lingers_still_closes_its_stream(
    autojump_clock: trio.testing.MockClock,
) -> None:
    """Cancelled (its table left, say) between the end of a handshake and the end of its
    linger: the socket is closed there and then, not left to the garbage collector."""
    host_stream, _silent = trio.testing.memory_stream_pair()
    closed_at: list[float] = []
    host_stream.receive_stream.close_hook = lambda: closed_at.append(trio.current_time())
    host = Link(host_stream, Connection(Role.RESPONDER, spec(HOST), trio.current_time()), "mute")
    start = trio.current_time()
    with trio.move_on_after(11.0):  # it gives up at 10 s, then lingers up to 2 s
        await host.handshake()
    assert [round(t - start) for t in closed_at] == [11]


@pytest.mark.trio
async def test_one_byte_a_second_is_cut_off_after_10_s(
    autojump_clock: trio.testing.MockClock,
) -> None:
    host, joiner, raw = await _pair()
    chat = sign_record(JOINER, Kind.CHAT, TABLE, 1, {"text": "s l o w"})
    sealed = joiner.connection.send(SendRecord(chat.data), trio.current_time())
    events: list[Event] = []

    async def collect(event: Event) -> None:
        events.append(event)

    async def trickle() -> None:
        with contextlib.suppress(trio.BrokenResourceError):  # until the host hangs up
            for byte in sealed:
                await raw.send_all(bytes([byte]))
                await trio.sleep(1)

    async with trio.open_nursery() as nursery:
        nursery.start_soon(trickle)
        closed = await host.run(collect)
        nursery.cancel_scope.cancel()
    assert closed.reason == "a frame took more than 10 s to arrive (the peer sends too slowly)"
    assert not any(isinstance(e, RecordReceived) for e in events)


@pytest.mark.trio
async def test_a_broken_stream_ends_the_run_quietly(autojump_clock: trio.testing.MockClock) -> None:
    host, _joiner, raw = await _pair()
    async with trio.open_nursery() as nursery:
        nursery.start_soon(_close_later, raw)
        closed = await host.run(_ignore)
    assert closed.code is CloseCode.LOST and closed.by_peer
    assert closed.reason == "the connection ended without a goodbye"


@pytest.mark.trio
async def test_an_error_in_deliver_propagates_and_closes_the_stream(
    autojump_clock: trio.testing.MockClock,
) -> None:
    host, joiner, _ = await _pair()

    async def broken(event: Event) -> None:
        raise RuntimeError("the table's own bug")

    chat = sign_record(JOINER, Kind.CHAT, TABLE, 1, {"text": "x"})
    await joiner.send(SendRecord(chat.data))
    with pytest.raises(RuntimeError, match="the table's own bug"):
        await host.run(broken)
    closed = await joiner.run(_ignore)
    assert closed.code is CloseCode.LOST


async def _close_later(stream: trio.abc.Stream) -> None:
    await trio.sleep(5)
    await stream.aclose()


async def _ignore(event: Event) -> None:
    pass


@pytest.mark.trio
async def test_running_a_link_whose_handshake_failed_returns_at_once(
    autojump_clock: trio.testing.MockClock,
) -> None:
    host_stream, _silent = trio.testing.memory_stream_pair()
    host = Link(host_stream, Connection(Role.RESPONDER, spec(HOST), trio.current_time()), "mute")
    failed = await host.handshake()
    assert isinstance(failed, LinkClosed)
    assert await host.run(_ignore) == failed
    assert await host.handshake() == failed
    assert not await host.send(SendRecord(b"x"))
    await host.close()  # idempotent
