"""Record kinds, their bodies, and the digests that chain them (docs/PROTOCOL.md).

A record is an envelope (``net.envelope``) signed with ``RECORD_TAG`` whose payload is the
canonical msgpack of ``[kind, table_id, seq, body]``.

Invariants:

* ``kind`` is one of ``Kind``; any other number is a protocol error.  ``table_id`` is 16
  bytes; ``seq`` counts from 1 per author and table.  ``body`` is a map whose keys and value
  types are exactly those of the kind's schema in ``BODIES`` (all fields required, none
  extra); every length and number is bounded.
* ``decode_record`` runs only on an envelope whose signature has been verified;
  ``open_record`` does the three steps in the required order.
* The chain: the record hash is BLAKE2b-256 of the exact envelope bytes; the chain digest
  after ply n is BLAKE2b-256(chain digest n-1 || record hash n || engine digest n), with
  START as ply 0 and 32 zero bytes (``GENESIS_PREV``) before it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import IntEnum
from typing import Any

from net.envelope import RECORD_TAG, Envelope, parse_envelope, seal, verify_envelope
from net.errors import DecodeError, LocalProtocolError
from net.identity import Identity, short_fingerprint
from net.wire import (
    Bool,
    Bytes,
    Int,
    ListOf,
    MapOf,
    Nullable,
    OneOf,
    Pair,
    Struct,
    Text,
    describe,
    pack,
    unpack,
)

__all__ = [
    "BODIES",
    "GENESIS_PREV",
    "MAX_PEERS",
    "MAX_SEATS",
    "PLY_KINDS",
    "TABLE_ID_SIZE",
    "Kind",
    "Record",
    "chain_digest",
    "decode_payload",
    "decode_record",
    "encode_payload",
    "open_record",
    "sign_record",
]

TABLE_ID_SIZE = 16
GENESIS_PREV = bytes(32)
MAX_PEERS = 16
MAX_SEATS = 64
MAX_SEQ = 2**63 - 1
MAX_EMBEDDED = 2048  # a vote, acceptance or consent embedded whole in a ply record


class Kind(IntEnum):
    """Record kinds.  1-6 are plies of the chain (START is ply 0), 7-8 sign a ply's digest,
    9 and up live outside the chain (16, HALT, carries the evidence of a divergence; 17,
    LEAVE, says its author left the table on purpose)."""

    START = 1
    MOVE = 2
    RESIGN = 3
    DRAW = 4
    REMOVE = 5
    TAKEBACK = 6
    ACK = 7
    END = 8
    CHAT = 9
    POINT = 10
    DRAW_OFFER = 11
    DRAW_ACCEPT = 12
    VOTE = 13
    TAKEBACK_ASK = 14
    TAKEBACK_CONSENT = 15
    HALT = 16
    LEAVE = 17


PLY_KINDS = frozenset({Kind.MOVE, Kind.RESIGN, Kind.DRAW, Kind.REMOVE, Kind.TAKEBACK})

# --- field types -------------------------------------------------------------------------
_PLY = Int(0, 2**32 - 1)
_PLY1 = Int(1, 2**32 - 1)
_DIGEST = Bytes(32)
_KEY = Bytes(32)
_SEAT = Int(1, MAX_SEATS)
_EMBEDDED = Bytes(1, MAX_EMBEDDED)
_SQUARE = Int(0, 65535)
_MS = Int(0, 2**32 - 1)
_NAME = Text(1, 40)
_WORD = Text(1, 32, r"[a-z0-9][a-z0-9_.-]*")
_OPTION_KEY = Text(1, 32, r"[a-z0-9][a-z0-9_.-]*")
_OPTION_VALUE = OneOf((int, Int(-(2**63), 2**63 - 1)), (str, Text(0, 64)))
_LEVEL = Text(1, 16, r"[a-z][a-z0-9_-]*")
"""A bot seat's level in START (``easy``, ``normal``, ``strong``; a word, for levels to come)."""
# ``level`` came later (the replacement bot's, as START names a bot's): a REMOVE without it
# stays valid.
_REPLACEMENT = Struct({"seat": _SEAT, "key": _KEY, "runner": _KEY}, optional={"level": _LEVEL})
_PLY_HEAD = {"ply": _PLY1, "prev": _DIGEST}
_CLOCK = Struct(
    {"base_ms": Int(1, 86_400_000)},
    optional={"increment_ms": _MS, "lag_ms": _MS, "ack_ms": _MS},
)
"""START's time control on a clocked table (``client.rules.clock.ClockSpec``)."""
_CARRIED_ACKS = {"acks": ListOf(_EMBEDDED, 1, MAX_PEERS)}
"""On a clocked table a clocked ply carries the ACKs of the ply before it (every peer's)."""

BODIES: Mapping[Kind, Struct] = {
    Kind.START: Struct(
        {
            "game": _WORD,
            "ruleset": Text(1, 64, r"[a-z0-9][a-z0-9_./-]*"),
            "engine_version": Text(1, 32, r"[A-Za-z0-9][A-Za-z0-9_.+-]*"),
            "options": MapOf(_OPTION_KEY, _OPTION_VALUE, 32),
            "timeouts": Struct({"away_ms": _MS, "idle_ms": _MS}),
            "peers": ListOf(Struct({"key": _KEY, "name": _NAME}), 1, MAX_PEERS),
            "seats": ListOf(
                # ``own_bot`` came later: a player's own seat played by its palabre's bot
                # (``--bot``), at that level; a START without it stays valid.
                Struct(
                    {"key": _KEY, "runner": _KEY}, optional={"level": _LEVEL, "own_bot": _LEVEL}
                ),
                1,
                MAX_SEATS,
            ),
        },
        optional={"clock": _CLOCK},
    ),
    Kind.MOVE: Struct(
        {**_PLY_HEAD, "seat": _SEAT, "move": ListOf(Int(-(2**31), 2**31 - 1), 0, 64)},
        optional=_CARRIED_ACKS,
    ),
    Kind.RESIGN: Struct({**_PLY_HEAD, "seat": _SEAT}, optional=_CARRIED_ACKS),
    Kind.DRAW: Struct(
        {**_PLY_HEAD, "acceptances": ListOf(_EMBEDDED, 1, MAX_PEERS)}, optional=_CARRIED_ACKS
    ),
    Kind.REMOVE: Struct(
        {
            **_PLY_HEAD,
            "removed": ListOf(_KEY, 1, MAX_PEERS - 1),
            "replacements": ListOf(_REPLACEMENT, 0, MAX_SEATS),
            "votes": ListOf(_EMBEDDED, 1, MAX_PEERS),
        },
        optional=_CARRIED_ACKS,
    ),
    Kind.TAKEBACK: Struct(
        {**_PLY_HEAD, "consents": ListOf(_EMBEDDED, 1, MAX_PEERS)}, optional=_CARRIED_ACKS
    ),
    # ``ms``: on a clocked table, the signer's measure of the ply (nil: it did not see the start)
    Kind.ACK: Struct({"ply": _PLY, "digest": _DIGEST}, optional={"ms": Nullable(_MS)}),
    Kind.END: Struct(
        {
            "ply": _PLY,
            "digest": _DIGEST,
            "result": Struct(
                {
                    "winners": ListOf(_SEAT, 0, MAX_SEATS),
                    "draw": Bool(),
                    "reason": _WORD,
                    "summary": Text(0, 200),
                    "scores": ListOf(Int(-(2**63), 2**63 - 1), 0, MAX_SEATS),
                    "absent": ListOf(_KEY, 0, MAX_PEERS),
                }
            ),
        }
    ),
    Kind.CHAT: Struct({"text": Text(1, 500)}),
    Kind.POINT: Struct(
        {
            "ply": _PLY,
            "arrows": ListOf(Pair(_SQUARE, _SQUARE), 0, 32),
            "squares": ListOf(_SQUARE, 0, 64),
        }
    ),
    Kind.DRAW_OFFER: Struct(_PLY_HEAD),
    Kind.DRAW_ACCEPT: Struct(_PLY_HEAD),
    Kind.VOTE: Struct(
        {
            **_PLY_HEAD,
            "removed": ListOf(_KEY, 1, MAX_PEERS - 1),
            "replacements": ListOf(_REPLACEMENT, 0, MAX_SEATS),
        }
    ),
    Kind.TAKEBACK_ASK: Struct(_PLY_HEAD),
    Kind.TAKEBACK_CONSENT: Struct(_PLY_HEAD),
    Kind.HALT: Struct(
        {
            "ply": _PLY,
            "digest": _DIGEST,
            "state": Bytes(0, 16384),
            "reason": Text(0, 300),
            "records": ListOf(_EMBEDDED, 0, 4),
        }
    ),
    # its author left the table on purpose, at its head: ``ply`` and the chain digest there
    Kind.LEAVE: Struct({"ply": _PLY, "digest": _DIGEST}),
}

_TABLE_ID = Bytes(TABLE_ID_SIZE)
_SEQ = Int(1, MAX_SEQ)


@dataclass(frozen=True)
class Record:
    """A verified, decoded record.  ``body`` holds tuples for arrays; do not mutate it."""

    envelope: Envelope
    kind: Kind
    table_id: bytes
    seq: int
    body: Mapping[str, Any]

    @property
    def author(self) -> bytes:
        return self.envelope.author

    @property
    def data(self) -> bytes:
        """The exact envelope bytes, as signed, logged and forwarded."""
        return self.envelope.data

    @property
    def hash(self) -> bytes:
        return self.envelope.hash

    def __str__(self) -> str:
        return f"{self.kind.name} #{self.seq} by {short_fingerprint(self.author)}"


def encode_payload(kind: Kind, table_id: bytes, seq: int, body: Mapping[str, Any]) -> bytes:
    """The payload bytes of a record; ``LocalProtocolError`` if this program built it wrong."""
    payload = pack([int(kind), table_id, seq, dict(body)])
    try:
        # Our own records pass the same checks as a peer's: a bug shows here, not there.
        _check_payload(unpack(payload, "own record"), "own record")
    except DecodeError as error:
        raise LocalProtocolError(f"this peer built a bad {kind.name} record: {error}") from error
    return payload


def sign_record(
    identity: Identity, kind: Kind, table_id: bytes, seq: int, body: Mapping[str, Any]
) -> Record:
    """Sign a record in memory (no write-ahead: ``net.signer.RecordSigner`` does that)."""
    data = seal(identity, RECORD_TAG, encode_payload(kind, table_id, seq, body))
    return decode_record(parse_envelope(data))


def decode_record(envelope: Envelope) -> Record:
    """Decode a verified envelope's payload strictly; ``DecodeError`` naming the problem."""
    return Record(envelope, *decode_payload(envelope))


def decode_payload(envelope: Envelope) -> tuple[Kind, bytes, int, dict[str, Any]]:
    """``decode_record``'s work, as ``(kind, table_id, seq, body)``, for a caller that
    builds its own view of the record (``client.rules.net_adapter``)."""
    try:
        # Places are named only when something fails: the checks are pure, so the second
        # pass fails at the same place, with a message naming the author.
        return _check_payload(unpack(envelope.payload, "record"), None)
    except DecodeError:
        who = short_fingerprint(envelope.author)
        value = unpack(envelope.payload, f"record payload from {who}")
        return _check_payload(value, f"record from {who}")


_KINDS = {int(kind): kind for kind in Kind}


def _check_payload(value: Any, what: str | None) -> tuple[Kind, bytes, int, dict[str, Any]]:
    """``what`` None: a first pass whose messages name no place (see ``decode_record``)."""
    if type(value) is not tuple or len(value) != 4:
        raise DecodeError(f"{what}: payload is not [kind, table_id, seq, body]")
    number, table_id, seq, body = value
    kind = _KINDS.get(number) if type(number) is int else None
    if kind is None:
        raise DecodeError(f"{what}: unknown record kind {describe(number)}")
    if what is None:
        _TABLE_ID.check(table_id, "record")
        _SEQ.check(seq, "record")
        BODIES[kind].check(body, "record")
    else:
        _TABLE_ID.check(table_id, f"{what} {kind.name} table_id")
        _SEQ.check(seq, f"{what} {kind.name} seq")
        BODIES[kind].check(body, f"{what} {kind.name} body")
    return kind, table_id, seq, body


def open_record(data: bytes, allowed: Callable[[bytes], bool] | None = None) -> Record:
    """Parse, check the author (when ``allowed`` is given), verify, then decode.

    Raises ``DecodeError`` (also for an author not allowed) or ``SignatureError``.  Use it for
    records embedded in others (votes, acceptances, consents) and for records read from logs.
    """
    envelope = parse_envelope(data)
    if allowed is not None and not allowed(envelope.author):
        raise DecodeError(f"a record by {short_fingerprint(envelope.author)}, who is not allowed")
    verify_envelope(envelope, RECORD_TAG)
    return decode_record(envelope)


def chain_digest(prev: bytes, record_hash: bytes, engine_digest: bytes) -> bytes:
    """Chain digest after a ply: BLAKE2b-256(prev || record hash || engine digest)."""
    if not len(prev) == len(record_hash) == len(engine_digest) == 32:
        raise LocalProtocolError("chain digests are built from three 32-byte digests")
    return hashlib.blake2b(prev + record_hash + engine_digest, digest_size=32).digest()
