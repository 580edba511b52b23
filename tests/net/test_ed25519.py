"""libsodium (net/ed25519.py) against cryptography (OpenSSL): same bytes, same verdicts.

A verdict that differed between two peers would fork a table, so every kind of key and
signature is tried with both libraries: honest ones, tampered ones, malleated ones (S + L),
keys that are not points, keys not in canonical form, keys and R of small order, wrong
lengths.  The only differences are forgeries with a key of small order (the identity, also
written as 1 + p), which OpenSSL accepts and libsodium refuses: no honest signer makes them;
palabre takes libsodium's verdict everywhere (net.envelope.signature_is_valid,
client/logs/verifier.py), so every peer of this version refuses them alike.
"""

from __future__ import annotations

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from hypothesis import given, settings
from hypothesis import strategies as st

from net import ed25519
from net.envelope import signature_is_valid
from net.identity import Identity

L = 2**252 + 27742317777372353535851937790883648493  # the group order
P = 2**255 - 19

# The encodings of the eight points of small order (libsodium's list, y little-endian).
SMALL_ORDER = [
    bytes.fromhex(h)
    for h in (
        "0100000000000000000000000000000000000000000000000000000000000000",  # identity
        "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",  # order 2
        "0000000000000000000000000000000000000000000000000000000000000080",  # order 4
        "0000000000000000000000000000000000000000000000000000000000000000",  # order 4
        "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05",  # order 8
        "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc85",
        "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a",
        "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa",
    )
]


def openssl_verdict(key: bytes, signature: bytes, message: bytes) -> bool:
    try:
        Ed25519PublicKey.from_public_bytes(key).verify(signature, message)
    except (InvalidSignature, ValueError):
        return False
    return True


def raw_private(private: Ed25519PrivateKey) -> bytes:
    return private.private_bytes(
        serialization.Encoding.Raw, serialization.PrivateFormat.Raw, serialization.NoEncryption()
    )


def raw_public(private: Ed25519PrivateKey) -> bytes:
    return private.public_key().public_bytes(
        serialization.Encoding.Raw, serialization.PublicFormat.Raw
    )


def assert_same_verdict(key: bytes, signature: bytes, message: bytes) -> bool:
    ours = ed25519.is_valid(key, signature, message)
    assert ours == openssl_verdict(key, signature, message), (key.hex(), signature.hex())
    assert signature_is_valid(key, signature, message) == ours
    return ours


@settings(max_examples=200, deadline=None)
@given(seed=st.binary(min_size=32, max_size=32), message=st.binary(max_size=600))
def test_signatures_are_the_same_bytes_and_verify_in_both(seed: bytes, message: bytes) -> None:
    private = Ed25519PrivateKey.from_private_bytes(seed)
    signature = ed25519.sign(ed25519.secret_key(seed), message)
    assert signature == private.sign(message)
    assert Identity(private).sign(message) == signature
    assert assert_same_verdict(raw_public(private), signature, message)


@settings(max_examples=200, deadline=None)
@given(
    seed=st.binary(min_size=32, max_size=32),
    message=st.binary(min_size=1, max_size=300),
    where=st.integers(0, 10_000),
    bit=st.integers(0, 7),
)
def test_a_flipped_bit_anywhere_is_refused_by_both(
    seed: bytes, message: bytes, where: int, bit: int
) -> None:
    private = Ed25519PrivateKey.from_private_bytes(seed)
    key, signature = raw_public(private), private.sign(message)
    parts = [bytearray(key), bytearray(signature), bytearray(message)]
    part = parts[where % 3]
    part[(where // 3) % len(part)] ^= 1 << bit
    assert not assert_same_verdict(bytes(parts[0]), bytes(parts[1]), bytes(parts[2]))


def test_a_malleated_signature_s_plus_l_is_refused_by_both() -> None:
    private = Ed25519PrivateKey.generate()
    message = b"palabre/1/record\0 a ply"
    signature = private.sign(message)
    s = int.from_bytes(signature[32:], "little")
    for extra in (L, 2 * L, 2**253):
        if s + extra < 2**256:
            forged = signature[:32] + (s + extra).to_bytes(32, "little")
            assert not assert_same_verdict(raw_public(private), forged, message)


@settings(max_examples=300, deadline=None)
@given(key=st.binary(min_size=32, max_size=32), signature=st.binary(min_size=64, max_size=64))
def test_random_keys_and_signatures_are_refused_by_both(key: bytes, signature: bytes) -> None:
    assert not assert_same_verdict(key, signature, b"anything")


def test_wrong_lengths_are_refused_by_both() -> None:
    private = Ed25519PrivateKey.generate()
    key, message = raw_public(private), b"m"
    signature = private.sign(message)
    for bad_key, bad_signature in (
        (key[:31], signature),
        (key + b"\0", signature),
        (b"", signature),
        (key, signature[:63]),
        (key, signature + b"\0"),
        (key, b""),
    ):
        assert not ed25519.is_valid(bad_key, bad_signature, message)
        assert not openssl_verdict(bad_key, bad_signature, message)
    # A short signature is not read with the message's first byte in its place.
    assert not ed25519.is_valid(key, signature[:63], signature[63:] + message)


def test_non_canonical_key_encodings_are_refused_by_libsodium() -> None:
    """y >= p written in 255 bits: no honest key is written so."""
    private = Ed25519PrivateKey.generate()
    message = b"m"
    signature = private.sign(message)
    differ = []
    for y in range(P, 2**255):
        for sign_bit in (0, 1):
            key = (y | sign_bit << 255).to_bytes(32, "little")
            ours = ed25519.is_valid(key, signature, message)
            assert not ours
            if openssl_verdict(key, signature, message):
                differ.append(key)
    assert not differ  # with an honest signature of another key, both refuse
    # With R = identity and S = 0: OpenSSL takes y + p for y (1 + p is the identity again).
    forged = SMALL_ORDER[0] + bytes(32)
    for y in range(P, 2**255):
        key = y.to_bytes(32, "little")
        assert not ed25519.is_valid(key, forged, message)
        if openssl_verdict(key, forged, message):
            differ.append(key)
    # The identity written as 1 + p: OpenSSL accepts the forgery, libsodium refuses it.
    assert differ == [(P + 1).to_bytes(32, "little")]


def test_small_order_keys_and_r_are_refused_by_libsodium_which_palabre_follows() -> None:
    message = b"palabre/1/record\0 any message"
    differ = []
    for key in SMALL_ORDER:
        for r in SMALL_ORDER:
            signature = r + bytes(32)  # S = 0
            ours = ed25519.is_valid(key, signature, message)
            assert not ours  # libsodium refuses every one
            assert not signature_is_valid(key, signature, message)
            if openssl_verdict(key, signature, message):
                differ.append((key.hex(), r.hex()))
    # OpenSSL accepts the identity key with R = identity and S = 0 for every message: a
    # "signature" nobody made.  libsodium refuses it (STRICTER): that is the one difference.
    assert (SMALL_ORDER[0].hex(), SMALL_ORDER[0].hex()) in differ
    honest = Ed25519PrivateKey.generate()
    for r in SMALL_ORDER:  # an honest key with an R of small order: both refuse
        signature = r + honest.sign(message)[32:]
        assert not assert_same_verdict(raw_public(honest), signature, message)
