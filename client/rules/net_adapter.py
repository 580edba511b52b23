"""The thin adapter between ``net``'s records and the table core's boundary
(``client.rules.records``).

``net`` verifies envelopes, decodes payloads strictly against the schemas of
docs/PROTOCOL.md and signs with write-ahead; the core wants :class:`SignedRecord` values, a
:class:`Signer` per local key and an :class:`EnvelopeOpener` for embedded records.  This
module converts, and nothing more: kinds go by name (``Kind.MOVE`` is ``"MOVE"``), bodies
are passed as ``net`` decoded them (arrays as tuples).

Invariants: ``record_from_net`` keeps the exact envelope bytes and their hash; a ``net``
decode or signature failure of an embedded record becomes ``BadEnvelope`` with ``net``'s
message; nothing here signs or verifies by itself.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Protocol

from client.rules.errors import BadEnvelope
from client.rules.records import SignedRecord
from net.envelope import Envelope
from net.errors import DecodeError, SignatureError
from net.identity import Identity
from net.records import Kind, Record, decode_payload, open_record

__all__ = ["NetSigner", "decode_envelope", "open_envelope", "record_from_net"]


_NAMES = {kind: kind.name for kind in Kind}
"""``Kind.name`` without the enum's property lookup (every record read goes through here)."""


def record_from_net(record: Record) -> SignedRecord:
    """The core's view of a record ``net`` verified and decoded."""
    envelope = record.envelope
    return SignedRecord(
        envelope.author,
        _NAMES[record.kind],
        record.table_id,
        record.seq,
        record.body,
        envelope.hash,
        envelope.data,
    )


def decode_envelope(envelope: Envelope) -> SignedRecord:
    """The core's view of a verified envelope, decoded strictly (``DecodeError`` otherwise);
    the same record as ``record_from_net(decode_record(envelope))``, one object fewer."""
    kind, table_id, seq, body = decode_payload(envelope)
    return SignedRecord(
        envelope.author, _NAMES[kind], table_id, seq, body, envelope.hash, envelope.data
    )


def open_envelope(envelope: bytes, allowed: Callable[[bytes], bool] | None = None) -> SignedRecord:
    """Verify and decode envelope bytes (an embedded consent, a HALT's records)."""
    try:
        return record_from_net(open_record(envelope, allowed))
    except (DecodeError, SignatureError) as error:
        raise BadEnvelope(str(error)) from None


class _RecordSigner(Protocol):
    """What ``net.signer.RecordSigner`` offers (and a test's in-memory signer)."""

    @property
    def identity(self) -> Identity: ...

    def sign(self, kind: Kind, body: Mapping[str, object]) -> Record: ...


class NetSigner:
    """A ``client.rules.records.Signer`` over a ``net`` record signer (write-ahead included)."""

    def __init__(self, signer: _RecordSigner) -> None:
        self._signer = signer

    @property
    def key(self) -> bytes:
        key: bytes = self._signer.identity.public_key
        return key

    def sign(self, kind: str, body: Mapping[str, object]) -> SignedRecord:
        """Sign ``kind`` (a ``net.records.Kind`` name) through ``net``."""
        return record_from_net(self._signer.sign(Kind[kind], body))
