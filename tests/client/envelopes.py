"""Signed records for the table tests, made by ``net`` itself (real Ed25519, real schemas).

``signed`` and ``TestSigner`` go through ``net.records.sign_record`` and the adapter, as a
running peer does (minus the journal).  ``raw_record`` bypasses ``net``'s schemas — as a
broken or hostile decoder would — so the core's own strict readers can be tested too.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any

import msgpack
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from client.rules.net_adapter import record_from_net
from client.rules.records import SignedRecord
from net.envelope import RECORD_TAG
from net.identity import Identity as NetIdentity
from net.records import Kind, sign_record


class Identity:
    """An Ed25519 key pair, deterministic from a small seed so tests are reproducible."""

    def __init__(self, seed: int) -> None:
        secret = hashlib.blake2b(seed.to_bytes(8, "big"), digest_size=32).digest()
        self.net = NetIdentity(Ed25519PrivateKey.from_private_bytes(secret))
        self.key = self.net.public_key


def signed(
    identity: Identity, table_id: bytes, seq: int, kind: str, body: Mapping[str, Any]
) -> SignedRecord:
    """A record signed and decoded by ``net`` (any seq: tests forge with it)."""
    return record_from_net(sign_record(identity.net, Kind[kind], table_id, seq, body))


def raw_record(
    identity: Identity, table_id: bytes, seq: int, kind: str, body: Mapping[str, Any]
) -> SignedRecord:
    """A really signed record whose body ``net``'s schemas would refuse."""
    payload = msgpack.packb([kind, table_id, seq, dict(body)], use_bin_type=True)
    envelope = msgpack.packb([identity.key, payload, identity.net.sign(RECORD_TAG + payload)])
    decoded = msgpack.unpackb(payload, raw=False)[3]
    record_hash = hashlib.blake2b(envelope, digest_size=32).digest()
    return SignedRecord(identity.key, kind, table_id, seq, decoded, record_hash, envelope)


class TestSigner:
    """A ``client.rules.records.Signer`` for one key at one table (counts ``seq`` from 1)."""

    __test__ = False  # not a pytest class

    def __init__(self, identity: Identity, table_id: bytes, last: int = 0) -> None:
        self.identity = identity
        self.table_id = table_id
        self.seq = last

    @property
    def key(self) -> bytes:
        return self.identity.key

    def sign(self, kind: str, body: Mapping[str, Any]) -> SignedRecord:
        self.seq += 1
        return signed(self.identity, self.table_id, self.seq, kind, body)
