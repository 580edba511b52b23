"""How a peer reaches the others: listeners and dials, TCP by default.

``Peer`` opens its listeners and dials through a ``Network`` it is given, so a test can run
whole tables over an in-memory network on a virtual clock (``tests/client/memnet.py``)
with every other part real: the handshake, the encryption, ``net.driver.serve``'s slots,
the links.  ``TCP`` is the real one: the three functions of ``net.driver``.

A ``Network``'s listeners are ``trio.abc.Listener``\\ s whose ``socket`` has
``getsockname`` (the port) and ``close``, and the streams they accept have a ``socket``
with ``getpeername``, as ``trio.SocketListener`` and ``trio.SocketStream`` do.
"""

from __future__ import annotations

from typing import Any, Protocol

from net import driver
from net.driver import Link
from net.invite import Invite
from net.linkspec import LinkSpec

__all__ = ["TCP", "Network"]


class Network(Protocol):
    async def open_listeners(self, port: int) -> list[Any]: ...

    async def connect(self, host: str, port: int, spec: LinkSpec, *, timeout: float) -> Link: ...

    async def connect_invite(self, invite: Invite, spec: LinkSpec) -> Link: ...


class _Tcp:
    """TCP sockets, through ``net.driver``."""

    async def open_listeners(self, port: int) -> list[Any]:
        return list(await driver.open_listeners(port))

    async def connect(self, host: str, port: int, spec: LinkSpec, *, timeout: float) -> Link:
        return await driver.connect(host, port, spec, timeout=timeout)

    async def connect_invite(self, invite: Invite, spec: LinkSpec) -> Link:
        return await driver.connect_invite(invite, spec)


TCP: Network = _Tcp()
