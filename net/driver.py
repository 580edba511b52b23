"""The trio driver: sockets around the sans-I/O core (``net.protocol``).

Rules:

* Thin: a ``Link`` moves bytes between a ``trio.abc.Stream`` and a ``Connection`` and
  passes it ``trio.current_time()`` (so trio's ``MockClock`` drives every timer in tests).
  All protocol decisions are the core's.
* OS errors are translated once, here, into sentences for the user ("port 7000 is already
  in use", "cannot reach 10.0.0.9:7000: connection refused").  ``LinkError`` is the only
  exception this module raises, and only from ``open_listeners``, ``connect`` and
  ``connect_invite``: everything that happens on an established link ends as a
  ``LinkClosed`` event instead.
* One task reads (``handshake`` then ``run``); any task may ``send``.  Writes happen under a
  lock, each chunk in the order the core produced it, with ``send_timeout`` per write.
* Closing: when this side refuses a peer it sends the REFUSE, shuts its writing half, and
  reads (and drops) what still comes for up to ``linger`` seconds, so the peer reads the
  reason before the socket goes away instead of a reset.
* A link's failure ends that link only: a write that fails (a reset) marks the stream
  broken (nothing more is written); the reader still takes what the peer sent before, for
  up to ``linger`` seconds, then the link ends (``LinkClosed``, lost).
* ``serve`` bounds what strangers take (``net.slots``, docs/SECURITY.md 3.6): at most
  ``MAX_PENDING`` connections wait for their handshake, ``MAX_PENDING_PER_ADDRESS`` of them
  from one address (one more from that address is closed at once, unread; when every slot
  is taken a newcomer closes the oldest of the busiest address), and at most ``MAX_LINKS``
  links, ``MAX_LINKS_PER_ADDRESS`` from one address (one more is refused with the reason).
"""

from __future__ import annotations

import errno
import logging
import math
import socket
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace

import trio

from net.errors import CloseCode, LinkError, LocalProtocolError
from net.events import Connected, Event, LinkClosed, PeerInfo, RecordRejected, Refuse, SendEvent
from net.handshake import Role
from net.invite import Invite
from net.linkspec import LinkSpec
from net.protocol import Connection
from net.slots import MAX_PENDING, Slots

__all__ = [
    "MAX_PENDING",
    "Link",
    "Slots",
    "connect",
    "connect_invite",
    "initiate",
    "open_listeners",
    "serve",
]

log = logging.getLogger("palabre.net")
_RECEIVE_SIZE = 65536
_LINGER_BYTES = 1 << 20
_STREAM_ERRORS = (trio.BrokenResourceError, trio.ClosedResourceError, OSError)


class Link:
    """One established (or establishing) link over a trio stream."""

    def __init__(
        self,
        stream: trio.abc.Stream,
        connection: Connection,
        remote: str,
        address: tuple[str, int] | None = None,
    ) -> None:
        self.connection = connection
        self.remote = remote  # "10.0.0.9:7000", for messages
        self.address = address  # the peer's (host, port) as this side sees it, when known
        self._stream = stream
        self._send_lock = trio.Lock()
        self._reader: trio.CancelScope | None = None
        self._reading = False
        self._stream_closed = False
        self._stream_broken = False  # a write failed or was cut off midway: write no more
        self._write_failure: tuple[str, float] | None = None  # why, and when

    @property
    def peer(self) -> PeerInfo:
        if self.connection.peer is None:
            raise LocalProtocolError("the handshake is not done")
        return self.connection.peer

    @property
    def closed(self) -> LinkClosed | None:
        return self.connection.closed

    def __repr__(self) -> str:
        who = self.connection.peer.fingerprint if self.connection.peer else "?"
        return f"Link({self.remote}, {who}, {self.connection.state.name})"

    # --- reading ---------------------------------------------------------------------------
    async def handshake(self) -> Connected | LinkClosed:
        """Run the handshake; on failure the stream is closed and ``LinkClosed`` returned."""
        self._reading = True
        try:
            await self._flush()  # the initiator's HELLO
            while True:
                event = self.connection.next_event()
                if event is None and self.connection.closed is not None:
                    event = self.connection.closed  # its event was taken before
                if isinstance(event, Connected | LinkClosed):
                    break
                await self._read_once()
            if isinstance(event, Connected):
                await self._flush()  # the joiner's AUTH: the host is not connected without it
        except BaseException:
            await self._abort()  # cancelled: nobody will run this link, so close it now
            raise
        finally:
            self._reading = False
        if isinstance(event, LinkClosed):
            await self._shutdown()
        return event

    async def run(self, deliver: Callable[[Event], Awaitable[object]]) -> LinkClosed:
        """Hand every event to ``deliver`` until the link closes; return how it closed.

        Never raises for anything the peer or the network does (only ``deliver``'s own
        exceptions, and cancellation, propagate; the stream is closed either way).
        """
        self._reading = True
        try:
            while True:
                event = self.connection.next_event()
                if event is None and self.connection.closed is not None:
                    event = self.connection.closed  # its event was taken before (handshake)
                    break
                if event is None:
                    await self._read_once()
                    continue
                if isinstance(event, RecordRejected):
                    log.info("%s: %s", self._who(), event.reason)
                await deliver(event)
                if isinstance(event, LinkClosed):
                    break
        except BaseException:
            await self._abort()
            raise
        finally:
            self._reading = False
        await self._shutdown()
        return event

    async def _read_once(self) -> None:
        """Write pending replies, wait for bytes or the core's next deadline, feed them."""
        await self._flush()
        if self.connection.closed is not None:
            return  # closed meanwhile (a write timed out): the caller takes its LinkClosed
        deadline = self.connection.next_deadline()
        deadline = math.inf if deadline is None else deadline
        failure = self._write_failure
        if failure is not None:  # what came before the break is still read, briefly
            deadline = min(deadline, failure[1] + self.connection.spec.config.linger)
        data: bytes | None = None
        with trio.CancelScope(deadline=deadline) as scope:
            self._reader = scope
            try:
                data = await self._stream.receive_some(_RECEIVE_SIZE)
            except _STREAM_ERRORS as error:
                why = failure[0] if failure is not None else _lost(error)
                self.connection.connection_lost(why, trio.current_time())
        self._reader = None
        now = trio.current_time()
        if data is not None:
            if data:
                self.connection.receive_data(data, now)
            else:
                self.connection.receive_eof(now)
        elif failure is not None and now >= deadline and self.connection.closed is None:
            self.connection.connection_lost(failure[0], now)
        self.connection.advance_time(now)

    # --- writing ---------------------------------------------------------------------------
    async def send(self, event: SendEvent) -> bool:
        """Send a record, a message or a refusal; False if the link is (now) closed."""
        async with self._send_lock:
            if self.connection.closed is not None:
                return False
            written = await self._write(self.connection.send(event, trio.current_time()))
        if (not written or self.connection.closed is not None) and self._reader is not None:
            self._reader.cancel()  # the reader delivers LinkClosed and shuts down
        return written and self.connection.closed is None

    async def send_batch(self, events: Sequence[SendEvent]) -> bool:
        """Send several events with one write (in order); False if the link is (now) closed.

        A relay forwarding a record and adding its own ACK to the same peer saves a system
        call and a wake-up of the peer per event this way."""
        async with self._send_lock:
            if self.connection.closed is not None:
                return False
            now = trio.current_time()
            chunks = []
            for event in events:
                chunks.append(self.connection.send(event, now))
                if self.connection.closed is not None:
                    break  # a Refuse closes the link: nothing after it
            written = await self._write(b"".join(chunks))
        if (not written or self.connection.closed is not None) and self._reader is not None:
            self._reader.cancel()
        return written and self.connection.closed is None

    async def close(self, reason: str = "goodbye", code: CloseCode = CloseCode.CLOSING) -> None:
        """Close the link, telling the peer why (idempotent)."""
        if self.connection.closed is None:
            await self.send(Refuse(code, reason))
        if not self._reading:
            await self._shutdown()

    async def _flush(self) -> None:
        async with self._send_lock:
            await self._write(self.connection.data_to_send())

    async def _write(self, data: bytes) -> bool:
        """Write under the send lock; False if the stream broke or got stuck (link closing)."""
        if not data:
            return True
        if self._stream_closed or self._stream_broken:
            return False
        timeout = self.connection.spec.config.send_timeout
        with trio.move_on_after(timeout) as scope:
            try:
                await self._stream.send_all(data)
            except _STREAM_ERRORS as error:
                # reset or closed: nothing more is written, but what the peer sent before
                # (its last acks, its goodbye) is still read; the reader ends the link
                self._stream_broken = True
                self._write_failure = (_lost(error), trio.current_time())
                return False
        if scope.cancelled_caught:
            # Part of ``data`` may have gone: anything written after it would be read as the
            # rest of that frame (and fail its integrity check), so nothing more is written.
            self._stream_broken = True
            reason = f"the peer did not read what was sent for {timeout:g} s"
            self.connection.abort(CloseCode.TIMEOUT, reason, trio.current_time())
            return False
        return True

    async def _shutdown(self) -> None:
        """Flush the last frames, linger after a refusal, close the stream (once)."""
        if self._stream_closed:
            return
        try:
            await self._flush()
            self._stream_closed = True
            closed = self.connection.closed
            if closed is not None and not closed.by_peer and closed.code is not CloseCode.LOST:
                await self._linger()
        finally:  # cancelled while flushing or lingering: the socket is closed all the same
            self._stream_closed = True
            await trio.aclose_forcefully(self._stream)
        if closed is not None:
            fault = closed.code in _FAULTS and not closed.by_peer
            level = logging.WARNING if fault else logging.INFO
            log.log(level, "link with %s closed: %s", self._who(), closed)

    async def _abort(self) -> None:
        """Close the stream at once (cancellation or an exception from ``deliver``)."""
        if not self._stream_closed:
            self._stream_closed = True
            await trio.aclose_forcefully(self._stream)

    async def _linger(self) -> None:
        with trio.move_on_after(self.connection.spec.config.linger):
            try:
                if isinstance(self._stream, trio.abc.HalfCloseableStream):
                    await self._stream.send_eof()
                drained = 0
                while drained < _LINGER_BYTES:
                    data = await self._stream.receive_some(_RECEIVE_SIZE)
                    if not data:
                        break
                    drained += len(data)
            except (*_STREAM_ERRORS, trio.BusyResourceError):
                pass

    def _who(self) -> str:
        peer = self.connection.peer
        return f"{peer.fingerprint} at {self.remote}" if peer else self.remote


_FAULTS = frozenset({CloseCode.PROTOCOL, CloseCode.CRYPTO, CloseCode.TIMEOUT})


def _lost(error: BaseException) -> str:
    cause = error.__cause__ if isinstance(error, trio.BrokenResourceError) else error
    if isinstance(cause, ConnectionResetError):
        return "the peer reset the connection"
    if isinstance(cause, OSError) and cause.strerror:
        return f"the connection broke ({cause.strerror.lower()})"
    if isinstance(error, trio.ClosedResourceError):
        return "the connection was closed"
    return "the connection broke"


# --- listening -------------------------------------------------------------------------------
async def open_listeners(port: int, host: str | None = None) -> list[trio.SocketListener]:
    """TCP listeners on ``port`` (0: any free port); ``LinkError`` saying why not."""
    try:
        return list(await trio.open_tcp_listeners(port, host=host))
    except OSError as error:
        problem = LISTEN_PROBLEMS.get(error.errno or 0, "")
        raise LinkError(_listen_problem(error, port, host), problem=problem) from error


LISTEN_PROBLEMS = {errno.EADDRINUSE: "port-in-use", errno.EACCES: "port-needs-rights"}
"""The failures to listen a window explains in its own words (``LinkError.problem``)."""


def _listen_problem(error: OSError, port: int, host: str | None) -> str:
    if error.errno == errno.EADDRINUSE:
        return (
            f"port {port} is already in use (another palabre or another program listens "
            "there); choose another port with --port"
        )
    if error.errno == errno.EACCES:
        return f"port {port} needs administrator rights; choose a port above 1023 with --port"
    if error.errno == errno.EADDRNOTAVAIL:
        return f"{host} is not an address of this machine"
    if isinstance(error, socket.gaierror):
        return f"cannot listen on {host}: no such address"
    return f"cannot listen on port {port}: {(error.strerror or str(error)).lower()}"


async def serve(
    listeners: list[trio.SocketListener],
    spec: LinkSpec | Callable[[], LinkSpec],
    on_link: Callable[[Link], Awaitable[object]],
    *,
    on_failure: Callable[[str, LinkClosed], Awaitable[object]] | None = None,
    slots: Slots[trio.CancelScope] | None = None,
) -> None:
    """Accept links forever: handshake each (as responder), then ``on_link(link)``.

    The listeners come from ``open_listeners`` (so the port is known before this starts).
    ``spec`` may be a function giving the spec for each new link (a peer's table id, say,
    is known only once its game has started).

    A failed handshake goes to ``on_failure(remote, closed)`` (and the log); it never stops
    the loop.  The link is closed when ``on_link`` returns.  ``slots`` (``net.slots``, one
    for every listener given) bounds the connections waiting for their handshake (one more
    from an address holding its share is closed unread; when all are taken, a newcomer
    closes the oldest of the busiest address) and the links held (one more is refused with
    the reason, while it still holds its waiting slot, so refused links cannot pile up).
    """
    room: Slots[trio.CancelScope] = Slots() if slots is None else slots

    async def handle(stream: trio.SocketStream) -> None:
        address = _address_of(stream)
        remote = _show(*address) if address else "an unknown address"
        host = address[0] if address else remote
        slot = trio.CancelScope()
        evicted = room.wait(host, slot)
        if evicted is None:  # its address holds its share of the slots already
            await trio.aclose_forcefully(stream)
            return
        for other in evicted:
            other.cancel()  # its handshake ends, its stream is closed (Link.handshake)
        current = spec if isinstance(spec, LinkSpec) else spec()
        connection = Connection(Role.RESPONDER, current, trio.current_time())
        link = Link(stream, connection, remote, address)
        result: Connected | LinkClosed | None = None
        refused = None
        with slot:
            try:
                result = await link.handshake()
                if isinstance(result, Connected):
                    refused = room.refusal(host, host)
                    if refused is not None:
                        log.info("%s: %s", remote, refused)
                        await link.close(refused, CloseCode.REFUSED)
            finally:
                room.done_waiting(host, slot)
        if result is None:  # closed to make room (Link.handshake closed the stream)
            log.debug("%s: closed during its handshake, to make room", remote)
            return
        if isinstance(result, LinkClosed):
            if on_failure is not None:
                await on_failure(remote, result)
            return
        if refused is not None:
            return
        try:
            await on_link(link)
        finally:
            room.unlink(host)
            with trio.CancelScope(shield=True):
                await link.close()

    await trio.serve_listeners(handle, listeners)


def _address_of(stream: trio.SocketStream) -> tuple[str, int] | None:
    try:
        address = stream.socket.getpeername()
    except OSError:
        return None
    return str(address[0]), int(address[1])


def _show(host: str, port: int) -> str:
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


# --- connecting ------------------------------------------------------------------------------
async def connect(host: str, port: int, spec: LinkSpec, *, timeout: float = 10.0) -> Link:
    """Dial ``host:port`` and complete the handshake; ``LinkError`` saying why not."""
    target = _show(host, port)
    stream: trio.SocketStream | None = None
    with trio.move_on_after(timeout):
        try:
            stream = await trio.open_tcp_stream(host, port)
        except OSError as error:
            raise LinkError(f"cannot reach {target}: {_connect_problem(error)}") from error
    if stream is None:
        raise LinkError(f"cannot reach {target}: no answer within {timeout:g} s")
    return await initiate(stream, spec, target, _address_of(stream))


async def initiate(
    stream: trio.abc.Stream, spec: LinkSpec, target: str, address: tuple[str, int] | None
) -> Link:
    """The handshake of a stream this side opened to ``target``; ``LinkError`` saying why
    not (``connect`` once its TCP stream is open; an in-memory network's dial in tests)."""
    connection = Connection(Role.INITIATOR, spec, trio.current_time())
    link = Link(stream, connection, target, address)
    result = await link.handshake()
    if isinstance(result, LinkClosed):
        if result.code in (CloseCode.LOST, CloseCode.TIMEOUT):
            raise LinkError(f"no link with {target}: {result.reason}", code=result.code)
        who = f"the host at {target} refused the link" if result.by_peer else "refused the host"
        raise LinkError(f"{who}: {result.reason}", refused=True, code=result.code)
    return link


async def connect_invite(invite: Invite, spec: LinkSpec, *, timeout: float = 10.0) -> Link:
    """Try the invite's addresses in order; refuse a host without the invite's key; prove
    the invite's table secret (if it has none, the spec's, if any)."""
    secret = invite.secret if invite.secret is not None else spec.secret
    spec = replace(
        spec, table_id=invite.table_id, expected_fingerprint=invite.fingerprint, secret=secret
    )
    problems: list[str] = []
    for host in invite.addresses:
        try:
            return await connect(host, invite.port, spec, timeout=timeout)
        except LinkError as error:
            if error.refused:
                raise
            problems.append(str(error))
    raise LinkError("; ".join(problems))


def _connect_problem(error: OSError) -> str:
    causes: list[BaseException] = [error]
    if isinstance(error.__cause__, BaseExceptionGroup):
        causes = list(error.__cause__.exceptions) or causes
    first = causes[0]
    if isinstance(first, socket.gaierror):
        return "no such host name"
    code = first.errno if isinstance(first, OSError) else None
    words = {
        errno.ECONNREFUSED: "connection refused (is palabre listening on that port?)",
        errno.ETIMEDOUT: "no answer (timed out)",
        errno.EHOSTUNREACH: "no route to that machine",
        errno.ENETUNREACH: "that network is unreachable from here",
        errno.ECONNRESET: "the connection was reset",
        errno.EADDRNOTAVAIL: "that address cannot be used",
    }
    if code in words:
        return words[code]
    text = first.strerror if isinstance(first, OSError) and first.strerror else str(first)
    return text.lower()
