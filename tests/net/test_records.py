"""Envelopes and records: signing, domain tags, strict decoding, hashes and the chain digest."""

from __future__ import annotations

import contextlib
import hashlib
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from net.envelope import (
    HELLO_TAG,
    RECORD_TAG,
    envelope_hash,
    parse_envelope,
    seal,
    verify_envelope,
)
from net.errors import DecodeError, LocalProtocolError, RemoteProtocolError, SignatureError
from net.handshake import Role, auth_message
from net.identity import Identity
from net.records import (
    BODIES,
    GENESIS_PREV,
    Kind,
    chain_digest,
    decode_record,
    encode_payload,
    open_record,
    sign_record,
)
from net.wire import pack
from tests.net.samples import ALICE, BOB, SAMPLE_BODIES, TABLE


def test_every_kind_has_a_schema_and_a_sample() -> None:
    assert set(BODIES) == set(Kind) == set(SAMPLE_BODIES)


@pytest.mark.parametrize("kind", list(Kind), ids=lambda k: k.name)
def test_every_kind_round_trips(kind: Kind) -> None:
    record = sign_record(ALICE, kind, TABLE, 7, SAMPLE_BODIES[kind])
    opened = open_record(record.data, allowed={ALICE.public_key}.__contains__)
    assert opened == record
    assert (opened.kind, opened.table_id, opened.seq, opened.author) == (
        kind,
        TABLE,
        7,
        ALICE.public_key,
    )
    assert pack(dict(opened.body)) == pack(SAMPLE_BODIES[kind])


def test_envelope_layout_is_the_documented_one() -> None:
    record = sign_record(ALICE, Kind.CHAT, TABLE, 1, {"text": "hi"})
    payload = pack([9, TABLE, 1, {"text": "hi"}])
    assert record.envelope.payload == payload
    assert record.data == pack([ALICE.public_key, payload, record.envelope.signature])
    assert record.hash == hashlib.blake2b(record.data, digest_size=32).digest()
    assert envelope_hash(record.data) == record.hash


def test_a_hello_signature_is_never_a_record_signature() -> None:
    payload = encode_payload(Kind.CHAT, TABLE, 1, {"text": "hi"})
    hello_signed = parse_envelope(seal(ALICE, HELLO_TAG, payload))
    with pytest.raises(SignatureError, match="bad signature on a record said to be by"):
        verify_envelope(hello_signed, RECORD_TAG)
    verify_envelope(hello_signed, HELLO_TAG)


def test_a_record_signature_is_never_a_handshake_signature() -> None:
    th = bytes(32)
    record_signed = parse_envelope(seal(ALICE, RECORD_TAG, Role.INITIATOR.value + th))
    with pytest.raises(SignatureError):
        verify_envelope(record_signed, HELLO_TAG)
    assert auth_message(Role.INITIATOR, th) == HELLO_TAG + b"I" + th


def test_every_altered_byte_is_caught() -> None:
    data = sign_record(ALICE, Kind.MOVE, TABLE, 2, SAMPLE_BODIES[Kind.MOVE]).data
    for index in range(len(data)):
        altered = bytearray(data)
        altered[index] ^= 0x01
        with pytest.raises(RemoteProtocolError):
            record = open_record(bytes(altered))
            # An altered author key still verifies only if the signature matches: never.
            pytest.fail(f"byte {index} altered unnoticed: {record}")


def test_author_not_allowed_is_refused_before_verifying() -> None:
    data = sign_record(BOB, Kind.CHAT, TABLE, 1, {"text": "hi"}).data
    with pytest.raises(DecodeError, match="who is not allowed"):
        open_record(data, allowed={ALICE.public_key}.__contains__)


def _signed_payload(value: Any) -> bytes:
    return seal(ALICE, RECORD_TAG, pack(value))


@pytest.mark.parametrize(
    ("payload", "message"),
    [
        ([99, TABLE, 1, {}], "unknown record kind 99"),
        (["MOVE", TABLE, 1, {}], "unknown record kind 'MOVE'"),
        ([9, TABLE[:8], 1, {"text": "x"}], "CHAT table_id: expected 16 bytes"),
        ([9, TABLE, 0, {"text": "x"}], "CHAT seq: expected an integer from 1"),
        ([9, TABLE, 1, {"text": ""}], r"CHAT body\.text: expected text of 1 to 500"),
        ([9, TABLE, 1, {"text": "x" * 501}], r"CHAT body\.text: expected text"),
        ([9, TABLE, 1, {"text": "x", "more": 1}], "CHAT body: unexpected field 'more'"),
        (
            [2, TABLE, 1, {"ply": 1, "prev": bytes(32), "seat": 1, "move": "e2e4"}],
            "move: expected an array",
        ),
        (
            [2, TABLE, 1, {"ply": 1, "prev": bytes(32), "seat": 1, "move": [0] * 65}],
            "0 to 64 items",
        ),
        (
            [2, TABLE, 1, {"ply": 0, "prev": bytes(32), "seat": 1, "move": []}],
            r"body\.ply: expected an integer from 1",
        ),
        (
            [2, TABLE, 1, {"ply": 1, "prev": bytes(31), "seat": 1, "move": []}],
            r"body\.prev: expected 32 bytes",
        ),
        (
            [2, TABLE, 1, {"ply": 1, "prev": bytes(32), "seat": 65, "move": []}],
            r"body\.seat: expected an integer from 1 to 64",
        ),
        ([9, TABLE, 1], "payload is not"),
        ({"kind": 9}, "payload is not"),
    ],
)
def test_bad_payloads_are_refused_with_the_reason(payload: Any, message: str) -> None:
    envelope = parse_envelope(_signed_payload(payload))
    verify_envelope(envelope, RECORD_TAG)  # a valid signature over nonsense: still refused
    with pytest.raises(DecodeError, match=message):
        decode_record(envelope)


@pytest.mark.parametrize(
    "value",
    [
        [],
        [b"k" * 32, b"p"],
        [b"k" * 31, b"p", b"s" * 64],
        [b"k" * 32, b"", b"s" * 64],
        [b"k" * 32, b"p", b"s" * 63],
        ["k" * 32, b"p", b"s" * 64],
        {"author": b"k" * 32},
    ],
)
def test_bad_envelopes_are_refused(value: Any) -> None:
    with pytest.raises(DecodeError, match="envelope"):
        parse_envelope(pack(value))


def test_own_bad_records_are_local_errors() -> None:
    with pytest.raises(LocalProtocolError, match="this peer built a bad CHAT record"):
        encode_payload(Kind.CHAT, TABLE, 1, {"text": ""})
    with pytest.raises(LocalProtocolError, match="too large"):
        seal(ALICE, RECORD_TAG, b"x" * 70_000)


def test_chain_digest_rule() -> None:
    start = sign_record(ALICE, Kind.START, TABLE, 1, SAMPLE_BODIES[Kind.START])
    engine0, engine1 = hashlib.blake2b(b"s0", digest_size=32).digest(), bytes(range(32))
    genesis = chain_digest(GENESIS_PREV, start.hash, engine0)
    assert genesis == hashlib.blake2b(bytes(32) + start.hash + engine0, digest_size=32).digest()
    move = sign_record(
        ALICE, Kind.MOVE, TABLE, 2, {"ply": 1, "prev": genesis, "seat": 1, "move": []}
    )
    after = chain_digest(genesis, move.hash, engine1)
    assert after == hashlib.blake2b(genesis + move.hash + engine1, digest_size=32).digest()
    assert after != chain_digest(genesis, move.hash, engine0)
    with pytest.raises(LocalProtocolError):
        chain_digest(genesis, move.hash[:31], engine1)


@given(st.binary(max_size=300))
def test_arbitrary_bytes_only_give_protocol_errors(data: bytes) -> None:
    with contextlib.suppress(RemoteProtocolError):
        open_record(data)


@given(st.data())
def test_mutated_envelopes_only_give_protocol_errors(data: st.DataObject) -> None:
    kind = data.draw(st.sampled_from(list(Kind)))
    original = sign_record(ALICE, kind, TABLE, 3, SAMPLE_BODIES[kind]).data
    start = data.draw(st.integers(0, len(original)))
    end = data.draw(st.integers(start, min(len(original), start + 8)))
    insert = data.draw(st.binary(max_size=8))
    mutated = original[:start] + insert + original[end:]
    try:
        record = open_record(mutated)
    except RemoteProtocolError:
        return
    assert mutated == original  # only the untouched envelope opens
    assert record.data == original


def test_identity_signs_distinctly() -> None:
    other = Identity.generate()
    a = sign_record(ALICE, Kind.CHAT, TABLE, 1, {"text": "x"})
    b = sign_record(other, Kind.CHAT, TABLE, 1, {"text": "x"})
    assert a.hash != b.hash and a.envelope.payload == b.envelope.payload


def test_documented_vectors() -> None:
    """The test vectors of docs/PROTOCOL.md section 12, for anyone writing another peer."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    identity = Identity(Ed25519PrivateKey.from_private_bytes(bytes(range(32))))
    assert identity.public_key.hex() == (
        "03a107bff3ce10be1d70dd18e74bc09967e4d6309ba50d5f1ddc8664125531b8"
    )
    assert identity.fingerprint == "DXU5-N2BZ-2ZJA-ANHQ-YYJ7-EQM6"
    record = sign_record(identity, Kind.CHAT, bytes(range(16)), 1, {"text": "bonjour"})
    assert record.envelope.payload.hex() == (
        "9409c410000102030405060708090a0b0c0d0e0f0181a474657874a7626f6e6a6f7572"
    )
    assert record.data.hex() == (
        "93c42003a107bff3ce10be1d70dd18e74bc09967e4d6309ba50d5f1ddc8664125531b8c4239409c410000102"
        "030405060708090a0b0c0d0e0f0181a474657874a7626f6e6a6f7572c440c7674da1fe2cbaa7f80e8a65bd74"
        "689163b18144337262e49da0ecc6d2261690abbd54407f4a24612a48c4528206175441b0411db16bd76851b8"
        "6e5e786a420d"
    )
    assert record.hash.hex() == "6f5b3d947e9de1c58db6c6af1cc1678c2862aa57c824ea1a1512a55b353e4858"
    assert chain_digest(GENESIS_PREV, record.hash, b"\xaa" * 32).hex() == (
        "c569473aeb180d162d126c02975d6e5155483d20a73b43641684923cc4ecd2ee"
    )
