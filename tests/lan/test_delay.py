"""The test-only delaying transport (``tests.lan.delay``) on trio's autojump clock: bytes come
``delay ± jitter`` late, in order, nothing lost by closing; links run over it."""

from __future__ import annotations

import random
import statistics
from pathlib import Path

import pytest
import trio
import trio.testing

from net import driver
from net.driver import Link
from net.events import Connected, Event, RecordReceived, SendRecord
from net.handshake import Role
from net.identity import Identity
from net.linkspec import AllowedKeys
from net.protocol import Connection
from net.records import Kind, sign_record
from tests.lan.delay import DelayedStream, install, parse_delay
from tests.lan.harness import lan_table, report
from tests.net.peers import spec
from tests.net.samples import TABLE

DELAY, JITTER = 0.050, 0.010


async def _read_all(stream: trio.abc.Stream) -> list[tuple[float, bytes]]:
    """Every chunk until EOF, with when it came."""
    got = []
    while data := await stream.receive_some(1 << 16):
        got.append((trio.current_time(), data))
    return got


@pytest.mark.trio
async def test_bytes_come_late_by_the_delay_give_or_take_the_jitter_and_in_order(
    autojump_clock: trio.testing.MockClock,
) -> None:
    near, far = trio.testing.memory_stream_pair()
    delayed = DelayedStream(near, DELAY, JITTER, random.Random(1))
    sent: list[float] = []
    async with trio.open_nursery() as nursery:
        reading: list[list[tuple[float, bytes]]] = []

        async def read() -> None:
            reading.append(await _read_all(far))

        nursery.start_soon(read)
        for n in range(40):
            sent.append(trio.current_time())
            await delayed.send_all(bytes([n]))
            await trio.sleep(0.003 * (n % 4))  # some chunks share an instant, some do not
        await delayed.send_eof()
    got = reading[0]
    data = b"".join(chunk for _, chunk in got)
    assert data == bytes(range(40))  # in order, nothing lost, EOF after the data
    late = []
    offset = 0
    for at, chunk in got:
        for _ in chunk:
            late.append(at - sent[offset])
            offset += 1
    assert all(DELAY - JITTER - 1e-9 <= lag <= DELAY + JITTER + 1e-9 for lag in late), late
    assert max(late) - min(late) > JITTER  # the jitter is there


@pytest.mark.trio
async def test_closing_sends_what_is_pending_first(autojump_clock: trio.testing.MockClock) -> None:
    near, far = trio.testing.memory_stream_pair()
    delayed = DelayedStream(near, DELAY, 0.0, random.Random(1))
    await delayed.send_all(b"goodbye")
    began = trio.current_time()
    await delayed.aclose()
    assert trio.current_time() == began  # closing does not wait, like a socket's close
    got = await _read_all(far)
    assert b"".join(chunk for _, chunk in got) == b"goodbye"
    assert got[0][0] - began == pytest.approx(DELAY)
    with pytest.raises(trio.ClosedResourceError):
        await delayed.send_all(b"more")


@pytest.mark.trio
async def test_a_broken_stream_breaks_the_next_write(
    autojump_clock: trio.testing.MockClock,
) -> None:
    near, far = trio.testing.memory_stream_pair()
    delayed = DelayedStream(near, DELAY, 0.0, random.Random(1))
    await far.aclose()
    await delayed.send_all(b"lost")
    await trio.sleep(2 * DELAY)
    with pytest.raises(trio.BrokenResourceError):
        await delayed.send_all(b"after")
    await delayed.aclose()


HOST, JOINER = Identity.generate(), Identity.generate()
POLICY = AllowedKeys({HOST.public_key, JOINER.public_key})


@pytest.mark.trio
async def test_links_over_delayed_streams_take_one_delay_per_hop(
    autojump_clock: trio.testing.MockClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(driver.Link, "__init__", driver.Link.__init__)  # restored afterwards
    install(DELAY, 0.0)
    host_stream, joiner_stream = trio.testing.memory_stream_pair()
    now = trio.current_time()
    host = Link(
        host_stream, Connection(Role.RESPONDER, spec(HOST, POLICY, table_id=TABLE), now), "j"
    )
    joiner = Link(joiner_stream, Connection(Role.INITIATOR, spec(JOINER, POLICY), now), "h")
    assert isinstance(host._stream, DelayedStream)
    results: list[object] = []
    began = trio.current_time()

    async def shake(link: Link) -> None:
        results.append(await link.handshake())

    async with trio.open_nursery() as nursery:
        nursery.start_soon(shake, host)
        nursery.start_soon(shake, joiner)
    assert all(isinstance(result, Connected) for result in results)
    assert trio.current_time() - began >= 2 * DELAY  # HELLO there, HELLO back (at least)
    record = sign_record(JOINER, Kind.CHAT, TABLE, 1, {"text": "salut"})
    arrived: list[float] = []

    async def on_event(event: Event) -> None:
        if isinstance(event, RecordReceived):
            arrived.append(trio.current_time())
            await host.close()

    sent_at = trio.current_time()
    async with trio.open_nursery() as nursery:
        nursery.start_soon(host.run, on_event)
        nursery.start_soon(joiner.run, on_event)
        await joiner.send(SendRecord(record.data))
    assert arrived and arrived[0] - sent_at == pytest.approx(DELAY)


def test_the_delay_is_read_from_milliseconds() -> None:
    assert parse_delay("50") == (0.05, 0.0)
    assert parse_delay("50:10") == (0.05, 0.01)
    with pytest.raises(ValueError, match="jitter <= delay"):
        parse_delay("5:10")


@pytest.mark.netns
@pytest.mark.e2e
def test_four_hosts_50_ms_apart_play_a_correct_game(tmp_path: Path) -> None:
    """Every peer's links are delayed by 50 ± 10 ms one way; the game is the same game."""
    with lan_table(4, tmp_path) as table:
        delay = "50:10"
        table.host(1, delay=delay)
        for index in (2, 3, 4):
            table.join(index, delay=delay)
        codes = table.finish()
        assert set(codes.values()) == {0}, table.outputs()
        plies = table.all_final()
        table.check(0)
        latencies = sorted(table.latencies().values())
        assert len(latencies) == plies
        # the delay took place: a ply is final only after it went out and the ACKs came back
        assert latencies[0] >= 2 * (DELAY - JITTER)
        report(
            "delay",
            one_way_ms="50 ± 10",
            plies=plies,
            final_median_ms=round(1000 * statistics.median(latencies)),
            final_max_ms=round(1000 * latencies[-1]),
        )
