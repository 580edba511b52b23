"""Ed25519 signing and verifying of records, by libsodium (PyNaCl).

libsodium verifies about twice as fast as ``cryptography`` (OpenSSL) here (docs/BENCHMARKS.md,
"Signatures"), and verifying is most of what checking a record or a log costs.  Keys are still
generated, stored and loaded with ``cryptography`` (net/identity.py); only the two hot
operations go through libsodium.

Invariants:

* Signing is deterministic (RFC 8032): libsodium gives byte for byte the signature
  ``cryptography`` gives for the same key and message (tests/net/test_ed25519.py).
* ``is_valid`` is libsodium's verdict, which is stricter than OpenSSL's on keys and
  signatures no honest signer makes: a public key or an R of small order, a public key not
  in its canonical encoding.  Every signature ``cryptography`` or libsodium makes is accepted
  by both; the cases where they differ are listed in the test, and palabre refuses them.
* A key or signature of the wrong length is refused here, before libsodium (which reads a
  fixed number of bytes and would read past a short key).
"""

from __future__ import annotations

import nacl.bindings
import nacl.exceptions

__all__ = ["PUBLIC_KEY_SIZE", "SIGNATURE_SIZE", "is_valid", "secret_key", "sign"]

PUBLIC_KEY_SIZE = 32
SIGNATURE_SIZE = 64
SEED_SIZE = 32

_open = nacl.bindings.crypto_sign_open
_sign = nacl.bindings.crypto_sign
_BadSignature = nacl.exceptions.BadSignatureError


def is_valid(public_key: bytes, signature: bytes, message: bytes) -> bool:
    """Whether ``signature`` is ``public_key``'s Ed25519 signature of ``message``."""
    if len(public_key) != PUBLIC_KEY_SIZE or len(signature) != SIGNATURE_SIZE:
        return False
    try:
        _open(signature + message, public_key)
    except _BadSignature:
        return False
    return True


def secret_key(seed: bytes) -> bytes:
    """libsodium's 64-byte secret key (seed and public key) for a 32-byte private seed."""
    if len(seed) != SEED_SIZE:
        raise ValueError(f"an Ed25519 private seed is {SEED_SIZE} bytes")
    return nacl.bindings.crypto_sign_seed_keypair(seed)[1]


def sign(secret: bytes, message: bytes) -> bytes:
    """The 64-byte signature of ``message`` with ``secret`` (from ``secret_key``)."""
    return _sign(message, secret)[:SIGNATURE_SIZE]
