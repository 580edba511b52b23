"""The trio driver when a write times out: the link ends at once, and nothing more is
written on a stream that may hold half a frame."""

from __future__ import annotations

import pytest
import trio
import trio.testing

from net.driver import Link
from net.errors import CloseCode
from net.events import SendRecord
from net.handshake import Role
from net.identity import Identity
from net.protocol import Connection
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
