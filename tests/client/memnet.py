"""An in-memory network for whole peers: real links over trio's memory streams.

``MemoryNetwork`` stands in for TCP (``client.runtime.peer_network.Network``) so real peers
(``client.runtime.peer.Peer``, hosting and joining) play whole tables in one process on trio's
``MockClock``: the
handshake, the encryption, ``net.driver.serve`` (slots included) and every ``Link`` are the
product's own; only the bytes go through memory instead of sockets.  Each peer has its
own address (``at(host)``), so the address book and the mesh see distinct peers.

Faults are the network's, named by the hosts at both ends and one direction, as a cable or
a router would make them, never by reaching into a peer:

* ``cut(a, b)``: bytes from ``a`` to ``b`` stop (held, as TCP holds what it cannot deliver;
  ``heal(a, b)`` lets them through in order), while ``b`` to ``a`` still flows;
* ``delay(a, b, seconds)``: bytes from ``a`` reach ``b`` that much later (virtual time), the
  other way as fast as ever;
* ``reset(a, b)``: every connection between ``a`` and ``b`` is reset at once, as a TCP RST
  does: both ends' reads and writes fail with ``ConnectionResetError``, bytes in flight are
  lost; other connections are untouched.

With a seeded scheduler (``deterministic``) and the autojump clock nothing depends on the
machine: a table plays the same way on every run, which is what golden traces need.
"""

from __future__ import annotations

import contextlib
import itertools
import math
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

import trio
import trio.testing

from net.driver import Link, initiate
from net.errors import LinkError
from net.invite import Invite
from net.linkspec import LinkSpec

__all__ = ["MemoryNetwork", "deterministic"]


class _Ends:
    """The ``socket`` of a memory stream or listener: its two addresses."""

    def __init__(self, here: tuple[str, int], there: tuple[str, int] | None = None) -> None:
        self.here, self.there = here, there
        self.closed = False

    def getsockname(self) -> tuple[str, int]:
        return self.here

    def getpeername(self) -> tuple[str, int]:
        if self.there is None:
            raise OSError("not connected")
        return self.there

    def close(self) -> None:
        self.closed = True


class MemoryListener(trio.abc.Listener[Any]):
    def __init__(self, address: tuple[str, int]) -> None:
        self.socket = _Ends(address)
        self._in, self._out = trio.open_memory_channel[Any](math.inf)

    async def accept(self) -> Any:
        return await self._out.receive()

    async def aclose(self) -> None:
        self.socket.close()
        self._in.close()

    def offer(self, stream: Any) -> bool:
        if self.socket.closed:
            return False
        self._in.send_nowait(stream)
        return True


class MemoryNetwork:
    """Every address of one in-memory network; ``at(host)`` is a peer's way into it."""

    def __init__(self) -> None:
        self._listeners: dict[tuple[str, int], MemoryListener] = {}
        self._ports = itertools.count(40000)
        self._connections: list[tuple[_MemoryStream, _MemoryStream]] = []
        self._cut: set[tuple[str, str]] = set()
        self._delays: dict[tuple[str, str], float] = {}
        self.faults_changed = trio.lowlevel.ParkingLot()

    def at(self, host: str) -> HostOnNetwork:
        return HostOnNetwork(self, host)

    def listen(self, host: str, port: int) -> MemoryListener:
        if port == 0:
            port = next(self._ports)
        listener = self._listeners.get((host, port))
        if listener is not None and not listener.socket.closed:
            raise LinkError(f"cannot listen on port {port}: address already in use")
        listener = self._listeners[(host, port)] = MemoryListener((host, port))
        return listener

    def open_stream(self, here: str, host: str, port: int) -> Any:
        """A stream from ``here`` to the listener at ``host:port`` (None: nobody listens)."""
        listener = self._listeners.get((host, port))
        if listener is None or listener.socket.closed:
            return None
        local = (here, next(self._ports))
        outward, inward = _Wire(self, here, host), _Wire(self, host, here)
        mine = _MemoryStream(_Ends(local, (host, port)), outward, inward)
        theirs = _MemoryStream(_Ends((host, port), local), inward, outward)
        self._connections.append((mine, theirs))
        return mine if listener.offer(theirs) else None

    # --- faults -----------------------------------------------------------------------------
    def cut(self, source: str, to: str) -> None:
        """Bytes from host ``source`` to host ``to`` stop (held until ``heal``)."""
        self._cut.add((source, to))
        self._changed()

    def heal(self, source: str, to: str) -> None:
        self._cut.discard((source, to))
        self._changed()

    def delay(self, source: str, to: str, seconds: float) -> None:
        """Bytes from host ``source`` reach host ``to`` ``seconds`` later (0: at once)."""
        self._delays[(source, to)] = seconds
        self._changed()

    def reset(self, a: str, b: str) -> int:
        """Reset every open connection between hosts ``a`` and ``b``; how many there were."""
        count = 0
        for ends in self._connections:
            hosts = {end.socket.here[0] for end in ends}
            if hosts == {a, b} and not any(end.broken for end in ends):
                for end in ends:
                    end.break_off()
                count += 1
        return count

    def is_cut(self, source: str, to: str) -> bool:
        return (source, to) in self._cut

    def delay_of(self, source: str, to: str) -> float:
        return self._delays.get((source, to), 0.0)

    def _changed(self) -> None:
        self.faults_changed.unpark_all()


class _Wire:
    """One direction of one connection: bytes from host ``source`` to host ``to``.

    trio's own memory streams carry them (``memory_stream_pump``, as ``memory_stream_pair``
    does, so a table with no fault runs exactly as it did on that pair).  While the
    direction is cut or delayed, or something written before is still held, a chunk is held
    with the time it was written and a pump task hands it on, in order, once the network lets
    it (not cut, its delay gone by)."""

    def __init__(self, network: MemoryNetwork, source: str, to: str) -> None:
        self.network, self.source, self.to = network, source, to
        self.send = trio.testing.MemorySendStream(self._sent, close_hook=self._closed)
        self.receive = trio.testing.MemoryReceiveStream()
        self.held: deque[tuple[float, bytes]] = deque()  # b"": the sender's EOF
        self.broken = False
        self._pumping = False

    def _faulty(self) -> bool:
        return bool(self.held) or (
            self.network.is_cut(self.source, self.to)
            or self.network.delay_of(self.source, self.to) > 0
        )

    async def _sent(self) -> None:
        if not self._faulty():
            trio.testing.memory_stream_pump(self.send, self.receive)
            return
        self._hold(self.send.get_data_nowait())

    def _closed(self) -> None:
        if not self._faulty():
            trio.testing.memory_stream_pump(self.send, self.receive)
        else:
            self._hold(b"")

    def _hold(self, data: bytes) -> None:
        if self.broken:
            return
        self.held.append((trio.current_time(), data))
        if not self._pumping:
            self._pumping = True
            trio.lowlevel.spawn_system_task(self._pump)

    async def _pump(self) -> None:
        network = self.network
        try:
            while self.held and not self.broken:
                sent, data = self.held[0]
                due = sent + network.delay_of(self.source, self.to)
                if network.is_cut(self.source, self.to) or due > trio.current_time():
                    with trio.move_on_at(math.inf if network.is_cut(self.source, self.to) else due):
                        await network.faults_changed.park()  # a fault changed: look again
                    continue
                self.held.popleft()
                with contextlib.suppress(trio.ClosedResourceError):  # the reader went away
                    if data:
                        self.receive.put_data(data)
                    else:
                        self.receive.put_eof()
        except trio.Cancelled:
            pass  # the run is over
        finally:
            self._pumping = False

    def break_off(self) -> None:
        """A reset: what is in flight is lost, and the reader wakes to find the link gone."""
        self.broken = True
        self.held.clear()
        with contextlib.suppress(trio.ClosedResourceError):
            self.receive.put_eof()


def _reset_error() -> trio.BrokenResourceError:
    error = trio.BrokenResourceError("connection reset")
    error.__cause__ = ConnectionResetError(104, "Connection reset by peer")
    return error


class _MemoryStream(trio.abc.HalfCloseableStream):
    """One end of a connection: writes go on ``out``, reads come from ``into``; after a
    reset both fail as a reset TCP socket's do."""

    def __init__(self, ends: _Ends, out: _Wire, into: _Wire) -> None:
        self.socket = ends
        self.out, self.into = out, into
        self._stream = trio.StapledStream(out.send, into.receive)

    @property
    def broken(self) -> bool:
        return self.out.broken

    def break_off(self) -> None:
        self.out.break_off()
        self.into.break_off()

    async def send_all(self, data: bytes | bytearray | memoryview) -> None:
        if self.out.broken:
            await trio.lowlevel.checkpoint()
            raise _reset_error()
        await self._stream.send_all(data)

    async def wait_send_all_might_not_block(self) -> None:
        await self._stream.wait_send_all_might_not_block()

    async def send_eof(self) -> None:
        if self.out.broken:
            await trio.lowlevel.checkpoint()
            raise _reset_error()
        await self._stream.send_eof()

    async def receive_some(self, max_bytes: int | None = None) -> bytes:
        if self.into.broken:
            await trio.lowlevel.checkpoint()
            raise _reset_error()
        data = await self._stream.receive_some(max_bytes)
        if self.into.broken:
            raise _reset_error()
        return data

    async def aclose(self) -> None:
        self.socket.close()
        await self._stream.aclose()


class HostOnNetwork:
    """One peer's ``client.runtime.peer_network.Network`` on a ``MemoryNetwork``."""

    def __init__(self, network: MemoryNetwork, host: str) -> None:
        self.network, self.host = network, host

    async def open_listeners(self, port: int) -> list[Any]:
        return [self.network.listen(self.host, port)]

    async def connect(self, host: str, port: int, spec: LinkSpec, *, timeout: float) -> Link:
        """As ``net.driver.connect`` does, with a memory stream for the TCP one."""
        target = f"{host}:{port}"
        stream = self.network.open_stream(self.host, host, port)
        if stream is None:
            raise LinkError(f"cannot reach {target}: connection refused")
        return await initiate(stream, spec, target, (host, port))

    async def connect_invite(self, invite: Invite, spec: LinkSpec) -> Link:
        secret = invite.secret if invite.secret is not None else spec.secret
        spec = replace(
            spec, table_id=invite.table_id, expected_fingerprint=invite.fingerprint, secret=secret
        )
        return await self.connect(invite.addresses[0], invite.port, spec, timeout=10.0)


@contextmanager
def deterministic(seed: int = 0) -> Iterator[None]:
    """Trio's scheduler in a seeded order (as under Hypothesis), for the ``with`` block."""
    from trio._core import _run

    allowed = _run._ALLOW_DETERMINISTIC_SCHEDULING
    state = _run._r.getstate()
    _run._ALLOW_DETERMINISTIC_SCHEDULING = True  # type: ignore[misc]
    _run._r.seed(seed)
    try:
        yield
    finally:
        _run._ALLOW_DETERMINISTIC_SCHEDULING = allowed  # type: ignore[misc]
        _run._r.setstate(state)
