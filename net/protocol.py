"""The sans-I/O protocol core: one ``Connection`` per link; bytes and events in and out.

Rules (h11's shape, magic-wormhole's manners):

* No I/O, no clock, no trio.  The driver feeds what it reads (``receive_data``,
  ``receive_eof``, ``connection_lost``), passes the time (``now``, seconds on any monotonic
  clock), pulls events (``next_event``) and writes, in order, every chunk ``send`` and
  ``data_to_send`` return.  Both drain one queue, so frames leave in the order they were
  made (the encryption counters need it).
* ``receive_data`` only cuts frames; ``next_event`` handles them one by one, so the policy
  judging a record is the one in force after the application handled the event before it.
* States: ``AWAIT_HELLO -> AWAIT_AUTH -> OPEN -> CLOSED``.  The frames each state accepts,
  their handlers and the next state are the one table ``_TRANSITIONS``; any other frame is a
  protocol error.  ``_SENDABLE`` says what this side may send in each state.  The
  handshake's own checks and keys are ``net.handshake.Handshake``.
* A peer's fault never raises: bad bytes, a bad signature or a failed integrity check close
  the link (``LinkClosed``, a REFUSE with the reason queued for the peer).  A crypto failure
  is just such an input, moving the machine to CLOSED with ``CloseCode.CRYPTO``.
  This program's own misuse raises ``LocalProtocolError``.
* Bytes read after the stream ended or broke are dropped, not an error: a writer that
  fails on a reset reports the loss while the reader may still read what came before it.
* Records are taken in DESIGN.md's order: parse the envelope, drop a known hash silently,
  reject (link kept) an author the policy does not allow, verify the signature (else close,
  keeping the envelope as evidence), decode strictly (else close), check the table.
* Timers, all from ``LinkConfig``: the handshake must finish in time; once a frame has begun
  it must complete in time (a one-byte-a-second sender is cut off); an open link with no
  complete frame for ``idle_timeout`` is closed; this side sends a PING when it has sent
  nothing for ``heartbeat_interval``.  ``next_deadline`` says when to call ``advance_time``.
"""

from __future__ import annotations

import unicodedata
from collections import deque
from collections.abc import Callable, Mapping
from enum import Enum

from net.envelope import MAX_ENVELOPE, RECORD_TAG, parse_envelope, verify_envelope
from net.errors import CloseCode, DecodeError, FrameError, LocalProtocolError, RemoteProtocolError
from net.events import (
    Connected,
    Event,
    LinkClosed,
    MessageReceived,
    PeerInfo,
    RecordReceived,
    RecordRejected,
    Refuse,
    SendEvent,
    SendMessage,
    SendRecord,
)
from net.framing import FrameDecoder, FrameType, encode_frame
from net.handshake import FrameCipher, Handshake, Role
from net.identity import short_fingerprint
from net.invite import format_table_id
from net.linkspec import LinkSpec
from net.records import decode_record
from net.wire import describe, pack, unpack

__all__ = ["Connection", "LinkState"]

_MAX_REASON = 300


class LinkState(Enum):
    AWAIT_HELLO = "waiting for the peer's hello"
    AWAIT_AUTH = "waiting for the peer's handshake signature"
    OPEN = "open"
    CLOSED = "closed"


class Connection:
    """One end of one link, as a state machine over bytes and events."""

    def __init__(self, role: Role, spec: LinkSpec, now: float) -> None:
        self.role = role
        self.spec = spec
        self.state = LinkState.AWAIT_HELLO
        self.peer: PeerInfo | None = None
        self.closed: LinkClosed | None = None
        self.table_id = spec.table_id
        self._now = now
        self._decoder = FrameDecoder()
        self._frame_error = False
        self._pending: deque[tuple[bytes, bytes] | RemoteProtocolError | str] = deque()
        self._events: deque[Event] = deque()
        self._out = bytearray()
        self._eof = False
        self._send_cipher: FrameCipher | None = None
        self._recv_cipher: FrameCipher | None = None
        self._handshake = Handshake(role, spec)
        self._handshake_deadline = now + spec.config.handshake_timeout
        self._last_received = now
        self._last_sent = now
        self._frame_started: float | None = None
        if role is Role.INITIATOR:
            self._queue(FrameType.HELLO, self._handshake.hello)

    # --- input -----------------------------------------------------------------------------
    def receive_data(self, data: bytes, now: float) -> None:
        """Take bytes read from the peer; ``next_event`` then handles the frames they hold."""
        self._now = now
        if self.closed is not None or not data or self._frame_error or self._eof:
            return  # after the end: the driver's reader may read what came before a reset
        had_partial = self._decoder.buffered > 0
        self._decoder.feed(data)
        completed = False
        try:
            while (frame := self._decoder.next_frame()) is not None:
                completed = True
                self._pending.append(frame)
        except FrameError as error:
            self._frame_error = True
            self._pending.append(error)
        if completed:
            self._last_received = now
        if self._decoder.buffered == 0 or self._frame_error:
            self._frame_started = None
        elif completed or not had_partial:
            self._frame_started = now

    def receive_eof(self, now: float) -> None:
        """The peer closed its side of the stream (after the frames already received)."""
        if self._decoder.buffered and not self._frame_error:
            reason = "the connection ended in the middle of a frame"
        elif self.state is LinkState.OPEN:
            reason = "the connection ended without a goodbye"
        else:
            reason = "the connection ended during the handshake"
        self.connection_lost(reason, now)

    def connection_lost(self, reason: str, now: float) -> None:
        """The stream ended or broke (the driver words why), after what was received."""
        self._now = now
        self._eof = True
        self._frame_started = None
        if self.closed is None:
            self._pending.append(reason)

    def abort(self, code: CloseCode, reason: str, now: float) -> None:
        """Drop the link at once without telling the peer (the stream is unusable)."""
        self._now = now
        self._eof = True
        if self.closed is None:
            self._close(code, reason, by_peer=False, tell_peer=False)

    def advance_time(self, now: float) -> None:
        """Fire the timers that are due: timeouts close the link, heartbeats queue a PING."""
        self._now = now
        if self.state is LinkState.CLOSED:
            return
        config = self.spec.config
        if self.state is not LinkState.OPEN and now >= self._handshake_deadline:
            self._timeout(f"the handshake did not finish within {config.handshake_timeout:g} s")
        elif self._frame_started is not None and now >= self._frame_started + config.frame_timeout:
            self._timeout(
                f"a frame took more than {config.frame_timeout:g} s to arrive "
                "(the peer sends too slowly)"
            )
        elif self.state is LinkState.OPEN and now >= self._last_received + config.idle_timeout:
            self._timeout(f"nothing came from the peer for {config.idle_timeout:g} s")
        elif self.state is LinkState.OPEN and now >= self._last_sent + config.heartbeat_interval:
            self._queue(FrameType.PING, b"")

    def next_deadline(self) -> float | None:
        """When ``advance_time`` next has something to do (None once closed)."""
        if self.state is LinkState.CLOSED:
            return None
        config = self.spec.config
        times = []
        if self.state is not LinkState.OPEN:
            times.append(self._handshake_deadline)
        if self._frame_started is not None:
            times.append(self._frame_started + config.frame_timeout)
        if self.state is LinkState.OPEN:
            times.append(self._last_received + config.idle_timeout)
            times.append(self._last_sent + config.heartbeat_interval)
        return min(times)

    def next_event(self) -> Event | None:
        """The next event, or None until more data (or time) arrives.

        Frames are handled here, one at a time and only when no event is waiting, so the
        application acts on each event (say, allows a new key) before the next frame is
        judged.  Replies go to ``data_to_send``.
        """
        while not self._events and self._pending and self.closed is None:
            item = self._pending.popleft()
            try:
                if isinstance(item, tuple):
                    self._handle_frame(*item)
                elif isinstance(item, RemoteProtocolError):
                    raise item
                else:
                    self._close(CloseCode.LOST, item, by_peer=True, tell_peer=False)
            except RemoteProtocolError as error:
                self._fail(error)
        return self._events.popleft() if self._events else None

    # --- output ----------------------------------------------------------------------------
    def send(self, event: SendEvent, now: float) -> bytes:
        """Queue ``event`` and return every byte waiting to be written, in order."""
        self._now = now
        if not isinstance(event, Refuse) and self.state not in _SENDABLE:
            closed = f" ({self.closed.reason})" if self.closed else ""
            raise LocalProtocolError(f"cannot send on a link that is {self.state.value}{closed}")
        if isinstance(event, SendRecord):
            if not 1 <= len(event.envelope) <= MAX_ENVELOPE:
                raise LocalProtocolError(f"a record of {len(event.envelope)} bytes cannot be sent")
            self._queue(FrameType.RECORD, event.envelope)
        elif isinstance(event, SendMessage):
            self._queue(FrameType.MESSAGE, self._encode_message(event))
        elif self.state is not LinkState.CLOSED:
            self._close(event.code, event.reason, by_peer=False, tell_peer=True)
        return self.data_to_send()

    def data_to_send(self) -> bytes:
        """Bytes this side produced on its own (handshake, REFUSE, PING), to write now."""
        data = bytes(self._out)
        self._out.clear()
        return data

    def send_raw(self, frame_type: int, body: bytes, now: float) -> bytes:
        """A frame exactly as given, unchecked (sealed once the link is encrypted).

        For tests and tools that probe a peer with bad input; peers use ``send``.
        """
        self._now = now
        self._queue(frame_type, body)
        return self.data_to_send()

    # --- frames ----------------------------------------------------------------------------
    def _queue(self, frame_type: int, body: bytes) -> None:
        plaintext = bytes((frame_type,)) + body
        cipher = self._send_cipher
        self._out += cipher.seal(plaintext) if cipher else encode_frame(plaintext)
        self._last_sent = self._now

    def _handle_frame(self, prefix: bytes, body: bytes) -> None:
        plaintext = self._recv_cipher.open(prefix, body) if self._recv_cipher else body
        if not plaintext:
            raise FrameError("received an empty frame")
        try:
            frame_type = FrameType(plaintext[0])
        except ValueError:
            raise DecodeError(f"received a frame of unknown type {plaintext[0]}") from None
        entry = _TRANSITIONS.get((self.state, frame_type))
        if entry is None:
            raise DecodeError(
                f"received an unexpected {frame_type.name} frame while {self.state.value} "
                "(frames out of order)"
            )
        handler, next_state = entry
        handler(self, plaintext[1:])
        if self.state is not LinkState.CLOSED:
            self.state = next_state

    # --- handlers (see _TRANSITIONS) --------------------------------------------------------
    def _on_hello(self, body: bytes) -> None:
        handshake = self._handshake
        handshake.take_hello(body)
        self.table_id = handshake.table_id
        if self.role is Role.RESPONDER:
            self._queue(FrameType.HELLO, handshake.hello)
            self._queue(FrameType.AUTH, handshake.auth())
            self._send_cipher = handshake.send_cipher  # everything after our AUTH is sealed

    def _on_auth(self, body: bytes) -> None:
        handshake = self._handshake
        self.peer = handshake.take_auth(body)
        self._recv_cipher = handshake.receive_cipher
        if self.role is Role.INITIATOR:
            self._queue(FrameType.AUTH, handshake.auth())
            self._send_cipher = handshake.send_cipher
        self._events.append(Connected(self.peer))

    def _on_record(self, body: bytes) -> None:
        envelope = parse_envelope(body, "record")
        policy = self.spec.policy
        if policy.knows(envelope.hash):
            return  # a duplicate: ordinary traffic in a mesh
        who = short_fingerprint(envelope.author)
        if not policy.allows(envelope.author):
            reason = f"a record signed by {who}, a key not allowed at this table, was ignored"
            self._events.append(RecordRejected(reason, envelope.author, body))
            return
        try:
            verify_envelope(envelope, RECORD_TAG)
            record = decode_record(envelope)
        except RemoteProtocolError as error:
            self._fail(error, evidence=body)
            return
        if self.table_id is not None and record.table_id != self.table_id:
            reason = f"{record} is for table {format_table_id(record.table_id)}, not this one"
            self._events.append(RecordRejected(reason, envelope.author, body))
            return
        self._events.append(RecordReceived(record))

    def _on_message(self, body: bytes) -> None:
        value = unpack(body, "message")
        if type(value) is not tuple or len(value) != 2 or type(value[0]) is not str:
            raise DecodeError("message: expected [topic, body]")
        topic, content = value
        schema = self.spec.message_schemas.get(topic)
        if schema is None:
            raise DecodeError(f"received a message of unknown topic {describe(topic)}")
        schema.check(content, f"message {topic!r}")
        self._events.append(MessageReceived(topic, content))

    def _on_ping(self, body: bytes) -> None:
        if body:
            raise DecodeError("a PING frame carries no body")

    def _on_refuse(self, body: bytes) -> None:
        code, reason = CloseCode.REFUSED, "the peer closed the link without a readable reason"
        try:
            value = unpack(body, "refuse")
        except DecodeError:
            value = None
        if type(value) is tuple and len(value) == 2 and all(type(v) is str for v in value):
            code = _close_code(value[0])
            reason = _printable(value[1]) or reason
        self._close(code, reason, by_peer=True, tell_peer=False)

    # --- helpers ---------------------------------------------------------------------------
    def _encode_message(self, event: SendMessage) -> bytes:
        schema = self.spec.message_schemas.get(event.topic)
        if schema is None:
            raise LocalProtocolError(f"message topic {event.topic!r} has no schema")
        body = pack([event.topic, event.body])
        try:
            schema.check(unpack(body, "message")[1], f"message {event.topic!r}")
        except DecodeError as error:
            raise LocalProtocolError(f"this peer built a bad message: {error}") from error
        return body

    def _timeout(self, reason: str) -> None:
        self._close(CloseCode.TIMEOUT, reason, by_peer=False, tell_peer=True)

    def _fail(self, error: RemoteProtocolError, evidence: bytes | None = None) -> None:
        self._close(error.code, str(error), by_peer=False, tell_peer=True, evidence=evidence)

    def _close(
        self,
        code: CloseCode,
        reason: str,
        *,
        by_peer: bool,
        tell_peer: bool,
        evidence: bytes | None = None,
    ) -> None:
        reason = _printable(reason)
        self._pending.clear()
        if tell_peer and not self._eof:
            self._queue(FrameType.REFUSE, pack([code.value, reason]))
        self.state = LinkState.CLOSED
        self.closed = LinkClosed(code, reason, by_peer, evidence)
        self._events.append(self.closed)


def _close_code(text: str) -> CloseCode:
    try:
        return CloseCode(text)
    except ValueError:
        return CloseCode.REFUSED  # a code from a later release: still a refusal


def _printable(text: str) -> str:
    """Text from anywhere, made safe to print: no control or format characters, bounded."""
    cleaned = "".join(ch for ch in text if unicodedata.category(ch)[0] != "C")
    return cleaned if len(cleaned) <= _MAX_REASON else cleaned[: _MAX_REASON - 1] + "…"


_Handler = Callable[[Connection, bytes], None]
_TRANSITIONS: Mapping[tuple[LinkState, FrameType], tuple[_Handler, LinkState]] = {
    (LinkState.AWAIT_HELLO, FrameType.HELLO): (Connection._on_hello, LinkState.AWAIT_AUTH),
    (LinkState.AWAIT_HELLO, FrameType.REFUSE): (Connection._on_refuse, LinkState.CLOSED),
    (LinkState.AWAIT_AUTH, FrameType.AUTH): (Connection._on_auth, LinkState.OPEN),
    (LinkState.AWAIT_AUTH, FrameType.REFUSE): (Connection._on_refuse, LinkState.CLOSED),
    (LinkState.OPEN, FrameType.RECORD): (Connection._on_record, LinkState.OPEN),
    (LinkState.OPEN, FrameType.MESSAGE): (Connection._on_message, LinkState.OPEN),
    (LinkState.OPEN, FrameType.PING): (Connection._on_ping, LinkState.OPEN),
    (LinkState.OPEN, FrameType.REFUSE): (Connection._on_refuse, LinkState.CLOSED),
}
_SENDABLE = frozenset({LinkState.OPEN})  # records and messages; REFUSE goes in any state
