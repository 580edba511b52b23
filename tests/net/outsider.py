"""An outsider's tools against real listeners on loopback (tests and ``scripts/links_stress``).

* ``dial``: a TCP connection with a tiny receive window (``SO_RCVBUF``) and a small MSS, so
  the other side's writes block after a few tens of KiB (on loopback its send buffer is
  sized from the MSS), from any loopback source address (127.0.0.2 ...);
* ``spectator``: past the handshake on such a connection, asking to watch (a JOIN with
  ``watch``): the peer dialed then sends it everything it holds;
* ``reset``: close with ``SO_LINGER`` 0, so the other side gets a RST, not a FIN;
* ``queues``: the send and receive queues of the other side's socket, read from
  ``/proc/net/tcp`` (Linux): how a test sees that a write is blocked and bytes wait unread,
  without a sleep.
"""

from __future__ import annotations

import logging
import socket
import struct
from pathlib import Path

import trio

from client.node.lobby_wire import JOIN
from client.runtime.peer import SCHEMAS
from net.driver import Link
from net.events import Connected, SendMessage
from net.framing import FrameType
from net.handshake import APP_VERSION, Role
from net.identity import Identity
from net.linkspec import AllowedKeys, LinkConfig, LinkSpec
from net.protocol import Connection

log = logging.getLogger("palabre.tests")
TINY_WINDOW = 1024
SMALL_MSS = 536


async def dial(
    port: int,
    *,
    host: str = "127.0.0.1",
    source: str | None = None,
    tiny: bool = True,
) -> trio.SocketStream:
    """A TCP connection to ``host:port`` (``tiny``: a tiny window and a small MSS)."""
    sock = trio.socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        if tiny:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, TINY_WINDOW)
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_MAXSEG, SMALL_MSS)
        if source is not None:
            await sock.bind((source, 0))
        await sock.connect((host, port))
    except BaseException:
        sock.close()
        raise
    return trio.SocketStream(sock)


def outsider_spec(table_id: bytes, secret: str | None = None) -> LinkSpec:
    return LinkSpec(
        Identity.generate(),
        APP_VERSION,
        AllowedKeys(),
        table_id=table_id,
        secret=secret,
        message_schemas=SCHEMAS,
        config=LinkConfig(idle_timeout=3600, send_timeout=3600),
    )


async def spectator(
    port: int, table_id: bytes, *, source: str | None = None, tiny: bool = True
) -> Link | None:
    """A link past the handshake that asked to watch; None if the peer refused it."""
    stream = await dial(port, source=source, tiny=tiny)
    connection = Connection(Role.INITIATOR, outsider_spec(table_id), trio.current_time())
    link = Link(stream, connection, "")
    result = await link.handshake()
    if not isinstance(result, Connected):
        log.info("the spectator got no link: %s", result.reason)
        return None
    await link.send(SendMessage(JOIN, {"name": "Eve", "seat": 0, "watch": True, "ready": True}))
    return link


async def ping(link: Link, stream: trio.SocketStream) -> None:
    """One PING frame, written straight to the stream (the link's reader never runs)."""
    await stream.send_all(link.connection.send_raw(FrameType.PING, b"", trio.current_time()))


def reset(stream: trio.SocketStream) -> None:
    """Close with a RST (``SO_LINGER`` on, 0 s), whatever the other side still sends."""
    stream.socket.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    stream.socket.close()


def local_port(stream: trio.SocketStream) -> int:
    return int(stream.socket.getsockname()[1])


def queues(local: int, remote: int) -> tuple[int, int] | None:
    """(send queue, receive queue) in bytes of the socket bound to port ``local`` and
    connected to port ``remote`` on loopback (IPv4), or None if there is none."""
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        mine, theirs = fields[1].split(":")[1], fields[2].split(":")[1]
        if int(mine, 16) == local and int(theirs, 16) == remote:
            tx, rx = fields[4].split(":")
            return int(tx, 16), int(rx, 16)
    return None


async def blocked_with_bytes_unread(link: Link, stream: trio.SocketStream, port: int) -> bool:
    """PING until the peer's socket both holds unsent bytes (its write to us is blocked)
    and holds our bytes unread (its reader waits for the write); False if that never
    happens within 20 s (say, the peer had nothing to send)."""
    mine = local_port(stream)
    with trio.move_on_after(20):
        while True:
            await ping(link, stream)
            for _ in range(20):  # a reader that is not stuck takes the ping within 0.2 s
                await trio.sleep(0.01)
                state = queues(port, mine)
                if state is None:
                    return False
                if state[1] == 0:
                    break
            else:
                if state[0] > 0:
                    return True
    return False


async def hold_idle(
    port: int, source: str, count: int, *, trickle: bool = False, redial: float = 0.0
) -> int:
    """Keep ``count`` connections from ``source`` open that never finish a handshake
    (``trickle``: each sends one byte of a frame header a second), opening a new one
    ``redial`` seconds after the listener closes one, until cancelled (it never returns)."""
    closed = 0

    async def one() -> None:
        nonlocal closed
        while True:
            try:
                stream = await dial(port, source=source, tiny=False)
            except OSError:
                await trio.sleep(0.05)
                continue
            try:
                while True:
                    with trio.move_on_after(1):
                        if await stream.receive_some(1) == b"":
                            break
                    if trickle:
                        await stream.send_all(b"\x00")
            except (trio.BrokenResourceError, OSError):
                pass
            finally:
                stream.socket.close()
            closed += 1
            await trio.sleep(redial)

    async with trio.open_nursery() as nursery:
        for n in range(count):
            nursery.start_soon(one)
            if n % 50 == 49:
                await trio.sleep(0)
    return closed


def open_fds(pid: int) -> int:
    return len(list(Path(f"/proc/{pid}/fd").iterdir()))


def resident_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0
