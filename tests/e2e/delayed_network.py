"""A one-way delay on real TCP links, for tests and benchmarks (never used by palabre).

No kernel here has netem, so a peer process run by ``tests.e2e.faulty_peer`` with
``link_delay=NAME:MS`` gets a ``DelayedNetwork`` in place of its TCP ``Network``
(``client.runtime.peer_network``): every byte it writes on its link with the peer named NAME
reaches that peer MS milliseconds later, in order and at full throughput (held and sent by a
pump, as a long cable would), while what NAME sends it comes as fast as ever.  The
listeners, dials, handshakes and links are palabre's own (``net.driver``); only the writes
of the chosen links wait.

Which link: the node says when a link is up and whose it is (``LinkUp``, with the peer's
name), so the delay starts there: the handshake and admission of that link are not
delayed, everything after is, and so is every later link with that peer (a redial).  This
lives in a test module, not behind a switch in palabre, because what differs is only how
bytes are written: the product's code path is the same as without the delay.
"""

from __future__ import annotations

import contextlib
from collections import deque
from dataclasses import replace
from typing import Any

import trio

from client.runtime.peer_network import TCP, Network
from net import driver
from net.driver import Link
from net.errors import LinkError
from net.invite import Invite
from net.linkspec import LinkSpec

__all__ = ["DelayedNetwork", "DelayedStream"]

HELD_BYTES = 16 << 20
"""At most this much waits on one delayed link; a writer past it waits as on a full socket."""


def _shown(address: tuple[str, int]) -> str:
    """``host:port`` as ``net.driver`` names a link's other end (``Link.remote``)."""
    host, port = address
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


class DelayedStream(trio.abc.HalfCloseableStream):
    """A TCP stream whose writes reach the other end ``delay`` seconds after they were made
    (0: at once).  Closing it lets what is held go out first, as the kernel would."""

    def __init__(self, inner: trio.SocketStream) -> None:
        self.inner = inner
        self.socket = inner.socket
        self.delay = 0.0
        self._held: deque[tuple[float, bytes | None]] = deque()  # None: the end of sending
        self._held_bytes = 0
        self._pumping = False
        self._closing = False
        self._failure: BaseException | None = None
        self._changed = trio.lowlevel.ParkingLot()

    async def send_all(self, data: bytes | bytearray | memoryview) -> None:
        if self._failure is not None:
            await trio.lowlevel.checkpoint()
            raise trio.BrokenResourceError("the delayed write failed") from self._failure
        if self.delay <= 0 and not self._held and not self._pumping:
            await self.inner.send_all(data)
            return
        while self._held_bytes > HELD_BYTES and self._failure is None:
            await self._changed.park()
        self._hold(bytes(data))
        await trio.lowlevel.checkpoint()

    async def wait_send_all_might_not_block(self) -> None:
        await self.inner.wait_send_all_might_not_block()

    async def send_eof(self) -> None:
        if self.delay <= 0 and not self._held and not self._pumping:
            await self.inner.send_eof()
            return
        self._hold(None)
        await trio.lowlevel.checkpoint()

    async def receive_some(self, max_bytes: int | None = None) -> bytes:
        return await self.inner.receive_some(max_bytes)

    async def aclose(self) -> None:
        if not self._held and not self._pumping:
            await self.inner.aclose()
            return
        self._closing = True  # the pump closes it once what is held went out
        await trio.lowlevel.checkpoint()

    def _hold(self, data: bytes | None) -> None:
        self._held.append((trio.current_time() + self.delay, data))
        self._held_bytes += len(data or b"")
        if not self._pumping:
            self._pumping = True
            trio.lowlevel.spawn_system_task(self._pump)

    async def _pump(self) -> None:
        try:
            while self._held:
                due, data = self._held[0]
                await trio.sleep_until(due)
                self._held.popleft()
                self._held_bytes -= len(data or b"")
                self._changed.unpark_all()
                if data is None:
                    await self.inner.send_eof()
                else:
                    await self.inner.send_all(data)
        except (trio.BrokenResourceError, trio.ClosedResourceError, OSError) as error:
            self._failure = error
            self._held.clear()
            self._changed.unpark_all()
        except trio.Cancelled:
            return  # the run is over
        finally:
            self._pumping = False
        if self._closing:
            with contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError, OSError):
                await self.inner.aclose()


class _DelayedListener(trio.abc.Listener[DelayedStream]):
    def __init__(self, inner: Any, network: DelayedNetwork) -> None:
        self.inner, self.network = inner, network
        self.socket = inner.socket  # the peer reads its port and closes it

    async def accept(self) -> DelayedStream:
        return self.network.track(await self.inner.accept())

    async def aclose(self) -> None:
        await self.inner.aclose()


class DelayedNetwork:
    """TCP with a one-way delay on the links ``delay_towards`` names (a ``Network``)."""

    def __init__(self, inner: Network = TCP) -> None:
        self.inner = inner
        self._streams: dict[str, DelayedStream] = {}
        self._delays: dict[str, float] = {}

    def track(self, stream: trio.SocketStream) -> DelayedStream:
        delayed = DelayedStream(stream)
        with contextlib.suppress(OSError):
            self._streams[_shown(stream.socket.getpeername()[:2])] = delayed
        return delayed

    def delay_towards(self, remote: str, seconds: float) -> None:
        """From now on, bytes on the link whose other end is ``remote`` (``Link.remote``,
        ``host:port``) wait ``seconds``."""
        stream = self._streams.get(remote)
        if stream is not None:
            stream.delay = seconds

    async def open_listeners(self, port: int) -> list[Any]:
        listeners = await self.inner.open_listeners(port)
        return [_DelayedListener(listener, self) for listener in listeners]

    async def connect(self, host: str, port: int, spec: LinkSpec, *, timeout: float) -> Link:
        target = _shown((host, port))
        try:
            with trio.fail_after(timeout):
                stream = await trio.open_tcp_stream(host, port)
        except (OSError, trio.TooSlowError) as error:
            raise LinkError(f"cannot reach {target}: {error or 'no answer'}") from error
        delayed = self.track(stream)
        self._streams[target] = delayed
        return await driver.initiate(delayed, spec, target, (host, port))

    async def connect_invite(self, invite: Invite, spec: LinkSpec) -> Link:
        secret = invite.secret if invite.secret is not None else spec.secret
        spec = replace(
            spec, table_id=invite.table_id, expected_fingerprint=invite.fingerprint, secret=secret
        )
        problems = []
        for host in invite.addresses:
            try:
                return await self.connect(host, invite.port, spec, timeout=10.0)
            except LinkError as error:
                if error.refused:
                    raise
                problems.append(str(error))
        raise LinkError("; ".join(problems) or "the invite has no address")
