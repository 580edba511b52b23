"""The trio driver when a write times out: the link ends at once, and nothing more is
written on a stream that may hold half a frame."""

from __future__ import annotations

from functools import partial

import pytest
import trio
import trio.testing

from net.driver import Link, open_listeners, serve
from net.errors import CloseCode
from net.events import Connected, Event, LinkClosed, RecordReceived, SendRecord
from net.handshake import Role
from net.identity import Identity
from net.linkspec import AllowedKeys
from net.protocol import Connection
from net.records import Kind, sign_record
from tests.net import outsider
from tests.net.peers import spec
from tests.net.samples import TABLE

HOST, JOINER = Identity.generate(), Identity.generate()


class _StuckStream(trio.abc.HalfCloseableStream):
    """Writes through until ``stuck``; from then on every write blocks forever (a peer that
    stopped reading in the middle of a frame).  Records every write attempted."""

    def __init__(self, inner: trio.abc.Stream) -> None:
        self.inner = inner
        self.stuck = False
        self.writes: list[bytes] = []

    async def send_all(self, data: bytes | bytearray | memoryview) -> None:
        self.writes.append(bytes(data))
        if self.stuck:
            await trio.sleep_forever()
        await self.inner.send_all(data)

    async def wait_send_all_might_not_block(self) -> None:
        await self.inner.wait_send_all_might_not_block()

    async def send_eof(self) -> None:
        pass

    async def receive_some(self, max_bytes: int | None = None) -> bytes:
        return await self.inner.receive_some(max_bytes)

    async def aclose(self) -> None:
        await self.inner.aclose()


@pytest.mark.trio
async def test_after_a_write_is_cut_off_nothing_more_is_written(
    autojump_clock: trio.testing.MockClock,
) -> None:
    """A write cut off by the send timeout may have sent half a frame: anything written after
    it would be read as the rest of that frame, so nothing more is written; and the reader,
    which waited for the write to finish, ends the link instead of waiting for bytes."""
    host_stream, joiner_stream = trio.testing.memory_stream_pair()
    stuck = _StuckStream(joiner_stream)
    now = trio.current_time()
    joiner = Link(stuck, Connection(Role.INITIATOR, spec(JOINER, table_id=TABLE), now), "host")
    host = Link(host_stream, Connection(Role.RESPONDER, spec(HOST, table_id=TABLE), now), "joiner")
    async with trio.open_nursery() as nursery:
        nursery.start_soon(host.handshake)
        await joiner.handshake()
    stuck.stuck = True
    written = len(stuck.writes)

    async def ignore(event: object) -> None:
        pass

    async def host_speaks() -> None:
        await trio.sleep(4)  # the joiner's reader wakes, and queues its heartbeat, due by now
        await host.send(SendRecord(b"y" * 100))

    async with trio.open_nursery() as nursery:
        nursery.start_soon(joiner.run, ignore)
        nursery.start_soon(host_speaks)
        await trio.sleep(1)
        assert not await joiner.send(SendRecord(b"x" * 1000))  # hangs 10 s
    closed = joiner.closed
    assert closed is not None and closed.code is CloseCode.TIMEOUT
    assert closed.reason == "the peer did not read what was sent for 10 s"
    assert len(stuck.writes) == written + 1


@pytest.mark.trio
async def test_what_came_before_a_reset_is_still_taken_after_the_write_failed() -> None:
    """Real TCP: the host's write to a joiner with a tiny window blocks; the joiner sends a
    record (unread: the host's reader waits for the write) and resets.  The write fails, the
    reader still takes the record, then the link ends as lost; nothing raises."""
    listeners = await open_listeners(0, "127.0.0.1")
    port = listeners[0].socket.getsockname()[1]
    policy = AllowedKeys({HOST.public_key, JOINER.public_key})
    events: list[Event] = []
    blob = SendRecord(b"x" * 60_000)

    async def on_link(link: Link) -> None:
        async def write() -> None:
            while await link.send_batch([blob] * 8):
                pass

        async def deliver(event: Event) -> None:
            events.append(event)

        async with trio.open_nursery() as nursery:
            nursery.start_soon(write)
            await link.run(deliver)
            nursery.cancel_scope.cancel()

    async with trio.open_nursery() as nursery:
        nursery.start_soon(partial(serve, listeners, spec(HOST, policy, table_id=TABLE), on_link))
        stream = await outsider.dial(port)
        now = trio.current_time()
        joiner = Link(stream, Connection(Role.INITIATOR, spec(JOINER, policy), now), "host")
        with trio.fail_after(20):
            assert isinstance(await joiner.handshake(), Connected)
            assert await outsider.blocked_with_bytes_unread(joiner, stream, port)
            chat = sign_record(JOINER, Kind.CHAT, TABLE, 1, {"text": "before the reset"})
            await stream.send_all(joiner.connection.send(SendRecord(chat.data), now))
            outsider.reset(stream)
            while not events or not isinstance(events[-1], LinkClosed):
                await trio.sleep(0.01)
        nursery.cancel_scope.cancel()
    assert [e.record for e in events if isinstance(e, RecordReceived)] == [chat]
    closed = events[-1]
    assert isinstance(closed, LinkClosed) and closed.code is CloseCode.LOST
