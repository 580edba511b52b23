"""Signed envelopes: ``[author_key, payload, signature]`` (DESIGN.md section 3).

Invariants:

* An envelope is the canonical msgpack array of three byte strings: the author's 32-byte
  Ed25519 public key, the payload bytes, and the 64-byte signature over ``tag + payload``.
* The tag names the purpose: ``RECORD_TAG`` for records, ``HELLO_TAG`` for the handshake.
  A signature made for one purpose never verifies for another, because the tag is part of
  the signed bytes.
* Receivers go in this order: ``parse_envelope`` (outer shape only), check the author is
  allowed, ``verify_envelope``, and only then decode the payload (``net.records``).
* An envelope's identity is ``envelope_hash``: BLAKE2b-256 of its exact bytes.  Logs keep
  and forward those exact bytes, never a re-encoding.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from net import ed25519
from net.errors import DecodeError, LocalProtocolError, SignatureError
from net.identity import Identity, short_fingerprint
from net.wire import Bytes, pack, unpack

__all__ = [
    "HELLO_TAG",
    "KEY_SIZE",
    "MAX_ENVELOPE",
    "MAX_PAYLOAD",
    "RECORD_TAG",
    "SIGNATURE_SIZE",
    "Envelope",
    "envelope_hash",
    "parse_envelope",
    "seal",
    "signature_is_valid",
    "verify_envelope",
]

RECORD_TAG = b"palabre/1/record\0"
HELLO_TAG = b"palabre/1/hello\0"
KEY_SIZE = 32
SIGNATURE_SIZE = 64
MAX_ENVELOPE = 65519  # a frame's 64 KiB less its type byte and the encryption tag
_KEY = Bytes(KEY_SIZE)
_SIGNATURE = Bytes(SIGNATURE_SIZE)
MAX_PAYLOAD = MAX_ENVELOPE - 104  # the envelope's array, key and signature take 104 bytes
_PAYLOAD = Bytes(1, MAX_PAYLOAD)
_HEAD = b"\x93\xc4\x20"  # array of 3, then bin 8 of 32 bytes (the author key)
_TAIL = b"\xc4\x40"  # bin 8 of 64 bytes (the signature)
_SMALLEST = 104  # the envelope of a 1-byte payload


class _once:
    """``functools.cached_property`` without its lock (3.11 takes one on every first read):
    the value is stored in the instance's ``__dict__``, which later reads find first.
    Two threads reading at once both compute it, and get the same bytes."""

    def __init__(self, function: Callable[[Any], bytes]) -> None:
        self.function = function
        self.name = function.__name__

    def __get__(self, instance: Any, owner: type | None = None) -> bytes:
        if instance is None:
            return self  # type: ignore[return-value]  # the class attribute itself
        value = instance.__dict__[self.name] = self.function(instance)
        return value


@dataclass(frozen=True)
class Envelope:
    """An envelope split into its parts; ``data`` is the exact bytes it came as."""

    data: bytes
    author: bytes
    payload: bytes
    signature: bytes

    @_once
    def hash(self) -> bytes:
        return envelope_hash(self.data)


def envelope_hash(data: bytes) -> bytes:
    """BLAKE2b-256 of an envelope's exact bytes: its identity for dedup and the chain."""
    return hashlib.blake2b(data, digest_size=32).digest()


def seal(identity: Identity, tag: bytes, payload: bytes) -> bytes:
    """The envelope bytes of ``payload`` signed by ``identity`` for the purpose ``tag``."""
    if not 1 <= len(payload) <= MAX_PAYLOAD:
        raise LocalProtocolError(f"a payload of {len(payload)} bytes is too large to send")
    signature = identity.sign(tag + payload)
    return pack([identity.public_key, payload, signature])


def parse_envelope(data: bytes, what: str = "envelope") -> Envelope:
    """Split envelope bytes into their parts, strictly; ``DecodeError`` otherwise.

    The payload is not decoded here: that waits until the signature is verified.
    """
    size = len(data)
    if size > MAX_ENVELOPE:
        raise DecodeError(f"{what}: {size} bytes, over the {MAX_ENVELOPE}-byte limit")
    # The canonical bytes of [32 bytes, payload, 64 bytes] have one layout: an array of 3,
    # bin 8 of 32, the payload as bin 8 (under 256 bytes) or bin 16 (its shortest form), bin 8
    # of 64 and nothing after.  Bytes in that layout are split by slicing (every record takes
    # this way); any others go through ``unpack``, which refuses them with the reason.
    if type(data) is bytes and size >= _SMALLEST and data[:3] == _HEAD:
        if data[35] == 0xC4:
            start, length, shortest = 37, data[36], 1
        elif data[35] == 0xC5:
            start, length, shortest = 38, int.from_bytes(data[36:38], "big"), 0x100
        else:
            start = length = shortest = 0
        end = start + length
        if shortest and length >= shortest and size == end + 66 and data[end : end + 2] == _TAIL:
            return Envelope(data, data[3:35], data[start:end], data[end + 2 :])
    return _split_strictly(data, what)


def _split_strictly(data: bytes, what: str) -> Envelope:
    """``parse_envelope`` the general way: decoding, then checking the shape."""
    value = unpack(data, what)
    if type(value) is not tuple or len(value) != 3:
        raise DecodeError(f"{what}: expected [author_key, payload, signature]")
    author, payload, signature = value
    _KEY.check(author, f"{what} author key")
    _PAYLOAD.check(payload, f"{what} payload")
    _SIGNATURE.check(signature, f"{what} signature")
    return Envelope(data, author, payload, signature)


def signature_is_valid(public_key: bytes, signature: bytes, message: bytes) -> bool:
    """Whether ``signature`` is ``public_key``'s Ed25519 signature of ``message``."""
    return ed25519.is_valid(public_key, signature, message)


def verify_envelope(envelope: Envelope, tag: bytes) -> None:
    """``SignatureError`` unless the envelope is signed by its author for ``tag``'s purpose."""
    if not signature_is_valid(envelope.author, envelope.signature, tag + envelope.payload):
        purpose = tag.rstrip(b"\0").decode("ascii", "replace")
        raise SignatureError(
            f"bad signature on a {purpose.rsplit('/', 1)[-1]} said to be by "
            f"{short_fingerprint(envelope.author)}"
        )
