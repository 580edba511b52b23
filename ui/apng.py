"""Animated PNG (APNG), written and read with the standard library only (zlib, struct).

Qt writes PNG but no animation format, and palabre adds no image library for one feature, so
``palabre log export --apng`` and the replay screen write APNG themselves.  APNG is PNG with
three more chunk types (the APNG specification, https://wiki.mozilla.org/APNG_Specification):
``acTL`` (frame and loop counts), ``fcTL`` (each frame's region, delay and how it is
composed) and ``fdAT`` (the pixel data of frames after the first).  A viewer that knows no
APNG shows the first frame as a plain PNG.

Writing (``ApngWriter``): frames are given as 8-bit RGB rows, all of one size, and stored
as RGBA.  The first frame is whole and opaque (it is the PNG's own ``IDAT``).  Each later
frame stores only the rectangle that differs from the frame before, and inside it, on each
row, only the span from the first to the last changed pixel is opaque; the rest is fully
transparent and drawn over the previous frame (``dispose_op`` NONE, ``blend_op`` OVER), so
it compresses to almost nothing.  A ply that moves one piece and changes a caption costs a
few kilobytes.  Rows use PNG filter 0 (none): the other filters need byte arithmetic that is
slow in pure Python, and zlib already squeezes a board's flat colours and the empty runs.

Reading (``read_apng``): the inverse, for tests and checks: every chunk's CRC is verified,
sequence numbers must run 0, 1, 2 …, and each frame is composed onto the canvas exactly as
a viewer would, so a test can compare every decoded frame with the picture it came from.
It reads what ``ApngWriter`` writes (8-bit RGBA with alpha 0 or 255, filter 0, no
interlace), nothing more.

Invariants: the file is only written by ``close``, whole, so an interrupted export leaves
no half-written file; the frame count in ``acTL`` is the number of frames added.
"""

from __future__ import annotations

import struct
import zlib
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["ApngError", "ApngFrame", "ApngImage", "ApngWriter", "read_apng"]

SIGNATURE = b"\x89PNG\r\n\x1a\n"
RGBA = 6  # PNG colour type: truecolour with alpha
DEPTH = 8
PIXEL = 3  # bytes per pixel of the frames given and returned (RGB)
STORED = 4  # bytes per pixel in the file (RGBA)
DELAY_DEN = 1000  # delays are written in milliseconds


class ApngError(ValueError):
    """The data is not an APNG this module can read, or a frame does not fit."""


@dataclass(frozen=True)
class ApngFrame:
    """One frame as stored: its region of the canvas and how long it is shown."""

    x: int
    y: int
    width: int
    height: int
    delay_ms: int
    pixels: bytes
    """The whole canvas after this frame is composed, RGB rows without padding."""
    blend: int = 0
    """0: the region replaces the canvas; 1: drawn over it (transparent pixels keep it)."""


@dataclass
class ApngImage:
    width: int
    height: int
    plays: int
    """0: loops forever."""
    frames: list[ApngFrame] = field(default_factory=list)


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def _first_difference(a: bytes, b: bytes) -> int:
    """The index of the first byte where ``a`` and ``b`` (same length, different) differ."""
    low, high = 0, len(a)  # a[:low] == b[:low]; a[:high] != b[:high]
    while high - low > 1:
        middle = (low + high) // 2
        if a[low:middle] == b[low:middle]:
            low = middle
        else:
            high = middle
    return low


def _last_difference(a: bytes, b: bytes) -> int:
    """The index of the last byte where ``a`` and ``b`` (same length, different) differ."""
    low, high = 0, len(a)  # a[high:] == b[high:]; a[low:] != b[low:]
    while high - low > 1:
        middle = (low + high) // 2
        if a[middle:high] == b[middle:high]:
            high = middle
        else:
            low = middle
    return low


def _opaque(rgb: bytes) -> bytes:
    """RGB bytes as RGBA, every pixel opaque."""
    count = len(rgb) // PIXEL
    rgba = bytearray(b"\xff" * (count * STORED))
    for channel in range(PIXEL):
        rgba[channel::STORED] = rgb[channel::PIXEL]
    return bytes(rgba)


def changed_region(
    before: bytes, after: bytes, width: int, height: int
) -> tuple[int, int, int, int] | None:
    """(x, y, width, height) of the smallest rectangle holding every changed pixel, or None."""
    stride = width * PIXEL
    rows = [
        y
        for y in range(height)
        if before[y * stride : (y + 1) * stride] != after[y * stride : (y + 1) * stride]
    ]
    if not rows:
        return None
    left, right = width, -1
    for y in rows:
        a, b = before[y * stride : (y + 1) * stride], after[y * stride : (y + 1) * stride]
        left = min(left, _first_difference(a, b) // PIXEL)
        right = max(right, _last_difference(a, b) // PIXEL)
    return left, rows[0], right - left + 1, rows[-1] - rows[0] + 1


class ApngWriter:
    """Collects RGB frames of one size and writes them as one APNG file on ``close``."""

    def __init__(self, width: int, height: int, *, plays: int = 0, level: int = 9) -> None:
        if not (0 < width < 1 << 31 and 0 < height < 1 << 31):
            raise ApngError(f"a picture of {width}x{height} pixels cannot be written")
        self.width, self.height, self.plays, self.level = width, height, plays, level
        self._chunks: list[bytes] = []
        self._previous: bytes | None = None
        self._sequence = 0
        self.frames = 0

    def add(self, pixels: bytes, delay_ms: int) -> None:
        """Add a frame (``width * height * 3`` bytes, RGB rows) shown for ``delay_ms``."""
        if len(pixels) != self.width * self.height * PIXEL:
            raise ApngError(
                f"a frame of {len(pixels)} bytes does not fit {self.width}x{self.height} RGB"
            )
        delay = max(0, min(delay_ms, 0xFFFF))
        if self._previous is None:
            region = (0, 0, self.width, self.height)
        else:
            # An unchanged frame still needs a region: one pixel, rewritten as it was.
            region = changed_region(self._previous, pixels, self.width, self.height) or (
                0,
                0,
                1,
                1,
            )
        x, y, width, height = region
        first = self._previous is None
        blend = 0 if first else 1
        control = struct.pack(
            ">IIIIIHHBB", self._sequence, width, height, x, y, delay, DELAY_DEN, 0, blend
        )
        self._chunks.append(_chunk(b"fcTL", control))
        self._sequence += 1
        data = zlib.compress(self._rows(pixels, region), self.level)
        if first:
            self._chunks.append(_chunk(b"IDAT", data))
        else:
            self._chunks.append(_chunk(b"fdAT", struct.pack(">I", self._sequence) + data))
            self._sequence += 1
        self._previous = pixels
        self.frames += 1

    def _rows(self, pixels: bytes, region: tuple[int, int, int, int]) -> bytes:
        """The region's rows, filter 0; after the first frame, unchanged pixels at either
        end of each row are left transparent."""
        x, y, width, height = region
        stride = self.width * PIXEL
        previous = self._previous
        parts = []
        for row in range(y, y + height):
            start = row * stride + x * PIXEL
            new = pixels[start : start + width * PIXEL]
            if previous is None:
                parts.append(b"\x00" + _opaque(new))
                continue
            old = previous[start : start + width * PIXEL]
            if new == old:
                parts.append(bytes(1 + width * STORED))
                continue
            left = _first_difference(old, new) // PIXEL
            right = _last_difference(old, new) // PIXEL + 1
            span = _opaque(new[left * PIXEL : right * PIXEL])
            parts.append(bytes(1 + left * STORED) + span + bytes((width - right) * STORED))
        return b"".join(parts)

    def to_bytes(self) -> bytes:
        if not self.frames:
            raise ApngError("an animation needs at least one frame")
        header = struct.pack(">IIBBBBB", self.width, self.height, DEPTH, RGBA, 0, 0, 0)
        animation = struct.pack(">II", self.frames, self.plays)
        return b"".join(
            [
                SIGNATURE,
                _chunk(b"IHDR", header),
                _chunk(b"acTL", animation),
                *self._chunks,
                _chunk(b"IEND", b""),
            ]
        )

    def close(self, path: Path) -> None:
        """Write the file whole (``OSError`` if it cannot be)."""
        data = self.to_bytes()
        partial = path.with_name(path.name + ".part")
        partial.write_bytes(data)
        partial.replace(path)


# --- reading ----------------------------------------------------------------------------
def _chunks(data: bytes) -> list[tuple[bytes, bytes]]:
    if not data.startswith(SIGNATURE):
        raise ApngError("not a PNG file")
    chunks, offset = [], len(SIGNATURE)
    while offset < len(data):
        if offset + 8 > len(data):
            raise ApngError(f"a chunk is cut at byte {offset}")
        (length,) = struct.unpack_from(">I", data, offset)
        kind = data[offset + 4 : offset + 8]
        body = data[offset + 8 : offset + 8 + length]
        if len(body) != length or offset + 12 + length > len(data):
            raise ApngError(f"chunk {kind!r} is cut")
        (crc,) = struct.unpack_from(">I", data, offset + 8 + length)
        if crc != zlib.crc32(kind + body):
            raise ApngError(f"chunk {kind!r} at byte {offset} has a wrong CRC")
        chunks.append((kind, body))
        offset += 12 + length
    if not chunks or chunks[-1][0] != b"IEND":
        raise ApngError("the PNG does not end with IEND")
    return chunks


def read_apng(data: bytes) -> ApngImage:
    """Decode ``data`` (as written by ``ApngWriter``), composing every frame."""
    chunks = _chunks(data)
    if chunks[0][0] != b"IHDR":
        raise ApngError("the PNG does not start with IHDR")
    width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", chunks[0][1])
    if (depth, colour, interlace) != (DEPTH, RGBA, 0):
        raise ApngError("only 8-bit RGBA pictures without interlace are read here")
    actl = [body for kind, body in chunks if kind == b"acTL"]
    if len(actl) != 1:
        raise ApngError("not an animated PNG: no acTL chunk")
    count, plays = struct.unpack(">II", actl[0])
    image = ApngImage(width, height, plays)
    canvas = bytearray(width * height * PIXEL)
    expected = 0
    control: tuple[int, int, int, int, int, int] | None = None
    pending: list[bytes] = []

    def finish() -> None:
        if control is None:
            return
        x, y, w, h, delay, blend = control
        rows = zlib.decompress(b"".join(pending))
        line = 1 + w * STORED
        if len(rows) != line * h:
            raise ApngError(f"frame {len(image.frames)} holds {len(rows)} bytes, not {line * h}")
        for row in range(h):
            if rows[row * line] != 0:
                raise ApngError("only filter 0 is read here")
            for column in range(w):
                at = row * line + 1 + column * STORED
                alpha = rows[at + 3]
                if alpha not in (0, 255):
                    raise ApngError("only alpha 0 or 255 is read here")
                if alpha or not blend:
                    target = ((y + row) * width + x + column) * PIXEL
                    canvas[target : target + PIXEL] = rows[at : at + PIXEL]
        image.frames.append(ApngFrame(x, y, w, h, delay, bytes(canvas), blend))

    for kind, body in chunks[1:]:
        if kind in (b"fcTL", b"fdAT"):
            (sequence,) = struct.unpack_from(">I", body)
            if sequence != expected:
                raise ApngError(f"sequence number {sequence} where {expected} was due")
            expected += 1
        if kind == b"fcTL":
            finish()
            _, w, h, x, y, num, den, dispose, blend = struct.unpack(">IIIIIHHBB", body)
            if x + w > width or y + h > height or not (w and h):
                raise ApngError(f"frame {len(image.frames)} lies outside the picture")
            if dispose != 0 or blend not in (0, 1):
                raise ApngError("only dispose NONE, blend SOURCE or OVER are read here")
            control = (x, y, w, h, num * 1000 // (den or 100), blend)
            pending = []
        elif kind == b"IDAT":
            if control is None:
                raise ApngError("the default image is not a frame: not written here")
            pending.append(body)
        elif kind == b"fdAT":
            pending.append(body[4:])
    finish()
    if len(image.frames) != count:
        raise ApngError(f"acTL announces {count} frames, the file holds {len(image.frames)}")
    return image
