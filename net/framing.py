"""Frames on a TCP link: a 4-byte big-endian length, then that many bytes (1 to 64 KiB).

Invariants:

* ``MAX_FRAME`` (65536) bounds the bytes after the length prefix.  The decoder rejects a
  longer frame as soon as its prefix has arrived, before buffering any of it, so a peer can
  never make this side hold more than one frame and a prefix.
* A length of 0 is rejected: every frame starts with its type byte.
* ``FrameDecoder`` is incremental and sans-I/O: bytes may be fed in pieces of any size and
  the frames that come out do not depend on how the bytes were split.  After an error it
  stays broken (the link is closing anyway).
* The first byte of a frame's plaintext is its ``FrameType``; on an encrypted link (see
  ``net.handshake``) the bytes after the prefix are the sealed type byte and body.
"""

from __future__ import annotations

import struct
from enum import IntEnum

from net.errors import FrameError, LocalProtocolError

__all__ = ["MAX_FRAME", "PREFIX_SIZE", "FrameDecoder", "FrameType", "encode_frame", "frame_prefix"]

MAX_FRAME = 65536
PREFIX_SIZE = 4
_PREFIX = struct.Struct(">I")


class FrameType(IntEnum):
    HELLO = 1  # handshake, plaintext: who I am, my nonce and ephemeral key
    AUTH = 2  # handshake, plaintext: my signature over the transcript
    REFUSE = 3  # the sender closes the link, saying why
    RECORD = 4  # a signed envelope, exactly as signed
    MESSAGE = 5  # an unsigned message for the application (lobby traffic)
    PING = 6  # heartbeat; no body


def encode_frame(body: bytes) -> bytes:
    """Prefix ``body`` with its length (``LocalProtocolError`` when empty or over the cap)."""
    if not 1 <= len(body) <= MAX_FRAME:
        raise LocalProtocolError(f"a frame of {len(body)} bytes cannot be sent")
    return _PREFIX.pack(len(body)) + body


def frame_prefix(length: int) -> bytes:
    return _PREFIX.pack(length)


class FrameDecoder:
    """Turns a byte stream into frame bodies."""

    def __init__(self, max_frame: int = MAX_FRAME) -> None:
        self._max = max_frame
        self._buffer = bytearray()
        self._error: FrameError | None = None

    def feed(self, data: bytes) -> None:
        self._buffer += data

    @property
    def buffered(self) -> int:
        """Bytes received that are not part of a returned frame yet."""
        return len(self._buffer)

    def next_frame(self) -> tuple[bytes, bytes] | None:
        """The next complete frame as ``(prefix, body)``, or None; ``FrameError`` if bad."""
        if self._error is not None:
            raise self._error
        if len(self._buffer) < PREFIX_SIZE:
            return None
        (length,) = _PREFIX.unpack_from(self._buffer)
        if length == 0 or length > self._max:
            self._error = FrameError(
                "received an empty frame"
                if length == 0
                else f"received a frame of {length} bytes, over the {self._max}-byte limit"
                + (" (this is not a palabre peer)" if length > 16 * 2**20 else "")
            )
            raise self._error
        end = PREFIX_SIZE + length
        if len(self._buffer) < end:
            return None
        prefix = bytes(self._buffer[:PREFIX_SIZE])
        body = bytes(self._buffer[PREFIX_SIZE:end])
        del self._buffer[:end]
        return prefix, body
