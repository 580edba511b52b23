"""An in-memory network for whole peers: real links over trio's memory streams.

``MemoryNetwork`` stands in for TCP (``client.runtime.peer_network.Network``) so real peers
(``client.runtime.peer.Peer``, hosting and joining) play whole tables in one process on trio's
``MockClock``: the
handshake, the encryption, ``net.driver.serve`` (slots included) and every ``Link`` are the
product's own; only the bytes go through memory instead of sockets.  Each peer has its
own address (``at(host)``), so the address book and the mesh see distinct peers.

With a seeded scheduler (``deterministic``) and the autojump clock nothing depends on the
machine: a table plays the same way on every run, which is what golden traces need.
"""

from __future__ import annotations

import itertools
import math
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
        mine, theirs = trio.testing.memory_stream_pair()
        local = (here, next(self._ports))
        mine.socket = _Ends(local, (host, port))  # type: ignore[attr-defined]
        theirs.socket = _Ends((host, port), local)  # type: ignore[attr-defined]
        return mine if listener.offer(theirs) else None


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
