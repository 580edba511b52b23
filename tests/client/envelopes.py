"""Real signed envelopes for the table tests, built the DESIGN.md way (section 3).

An envelope is msgpack ``[author_key, payload, signature]`` with ``payload`` the msgpack
bytes of ``[kind, table_id, seq, body]`` and the signature an Ed25519 signature over
``b"palabre/1/record\\0" + payload``.  The record hash is BLAKE2b-256 of the envelope bytes.
This stands in for ``net`` until the two are wired; the signatures are real.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any

import msgpack
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from client.records import BadEnvelope, SignedRecord

RECORD_DOMAIN = b"palabre/1/record\0"


class Identity:
    """An Ed25519 key pair, deterministic from a small seed so tests are reproducible."""

    def __init__(self, seed: int) -> None:
        self.private = Ed25519PrivateKey.from_private_bytes(
            hashlib.blake2b(seed.to_bytes(8, "big"), digest_size=32).digest()
        )
        self.key = self.private.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)


def seal(
    identity: Identity, table_id: bytes, seq: int, kind: str, body: Mapping[str, Any]
) -> bytes:
    """Envelope bytes for one record (any seq: tests forge with it)."""
    payload = msgpack.packb([kind, table_id, seq, dict(body)], use_bin_type=True)
    signature = identity.private.sign(RECORD_DOMAIN + payload)
    return bytes(msgpack.packb([identity.key, payload, signature], use_bin_type=True))


def open_envelope(envelope: bytes) -> SignedRecord:
    """Verify and decode envelope bytes (``BadEnvelope`` otherwise)."""
    try:
        author, payload, signature = msgpack.unpackb(envelope, raw=False)
        if not (type(author) is bytes and type(payload) is bytes and type(signature) is bytes):
            raise BadEnvelope("an envelope is three byte strings")
        Ed25519PublicKey.from_public_bytes(author).verify(signature, RECORD_DOMAIN + payload)
        kind, table_id, seq, body = msgpack.unpackb(payload, raw=False)
    except InvalidSignature:
        raise BadEnvelope("the signature does not verify") from None
    except (ValueError, TypeError, msgpack.UnpackException) as error:
        raise BadEnvelope(f"the envelope does not decode: {error}") from None
    if not (type(kind) is str and type(table_id) is bytes and type(seq) is int):
        raise BadEnvelope("the payload is not [kind, table_id, seq, body]")
    if not isinstance(body, dict):
        raise BadEnvelope("the body is not a map")
    record_hash = hashlib.blake2b(envelope, digest_size=32).digest()
    return SignedRecord(author, kind, table_id, seq, body, record_hash, envelope)


class TestSigner:
    """A ``client.records.Signer`` for one key at one table (counts ``seq`` from 1)."""

    __test__ = False  # not a pytest class

    def __init__(self, identity: Identity, table_id: bytes) -> None:
        self.identity = identity
        self.table_id = table_id
        self.seq = 0
        self.signed: list[SignedRecord] = []

    @property
    def key(self) -> bytes:
        return self.identity.key

    def sign(self, kind: str, body: Mapping[str, Any]) -> SignedRecord:
        self.seq += 1
        record = open_envelope(seal(self.identity, self.table_id, self.seq, kind, body))
        self.signed.append(record)
        return record
