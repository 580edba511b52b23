"""The APNG writer and reader (``ui.apng``): every frame comes back exactly as it was added."""

from __future__ import annotations

import random
import struct
import zlib
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ui.apng import ApngError, ApngWriter, changed_region, read_apng


def picture(width: int, height: int, seed: int) -> bytes:
    rng = random.Random(seed)
    return bytes(rng.randrange(256) for _ in range(width * height * 3))


def paint(pixels: bytes, width: int, x: int, y: int, w: int, h: int, colour: bytes) -> bytes:
    canvas = bytearray(pixels)
    for row in range(y, y + h):
        start = (row * width + x) * 3
        canvas[start : start + w * 3] = colour * w
    return bytes(canvas)


def test_frames_round_trip_with_only_the_changed_rectangle_stored() -> None:
    width, height = 40, 30
    first = picture(width, height, 1)
    second = paint(first, width, 5, 7, 10, 4, b"\x01\x02\x03")
    third = paint(second, width, 39, 29, 1, 1, b"\xff\x00\xff")
    writer = ApngWriter(width, height)
    for index, frame in enumerate((first, second, second, third)):
        writer.add(frame, 100 * (index + 1))
    image = read_apng(writer.to_bytes())
    assert (image.width, image.height, image.plays) == (width, height, 0)
    assert [f.pixels for f in image.frames] == [first, second, second, third]
    assert [f.delay_ms for f in image.frames] == [100, 200, 300, 400]
    regions = [(f.x, f.y, f.width, f.height, f.blend) for f in image.frames]
    assert regions == [(0, 0, 40, 30, 0), (5, 7, 10, 4, 1), (0, 0, 1, 1, 1), (39, 29, 1, 1, 1)]


def test_only_the_changed_span_of_each_row_is_opaque() -> None:
    width, height = 30, 10
    first = bytes(width * height * 3)
    # Two changes far apart on different rows: the rectangle spans both, but each row
    # stores only its own changed span; the rest is transparent and compresses away.
    second = paint(
        paint(first, width, 1, 1, 1, 1, b"\x07\x07\x07"), width, 28, 8, 1, 1, b"\x09\x08\x07"
    )
    writer = ApngWriter(width, height)
    writer.add(first, 10)
    writer.add(second, 10)
    data = writer.to_bytes()
    fdat = data[data.index(b"fdAT") + 8 : data.index(b"IEND") - 8]
    rows = zlib.decompress(fdat)
    line = 1 + 28 * 4
    assert len(rows) == 8 * line
    alphas = [rows[r * line + 1 + c * 4 + 3] for r in range(8) for c in range(28)]
    assert alphas.count(255) == 2
    assert read_apng(data).frames[1].pixels == second


@given(
    st.integers(1, 12),
    st.integers(1, 12),
    st.lists(
        st.tuples(st.integers(0, 11), st.integers(0, 11), st.binary(min_size=3, max_size=3)),
        max_size=6,
    ),
)
def test_any_sequence_of_edits_decodes_to_the_same_frames(
    width: int, height: int, edits: list[tuple[int, int, bytes]]
) -> None:
    frames = [picture(width, height, width * 13 + height)]
    for x, y, colour in edits:
        frames.append(paint(frames[-1], width, x % width, y % height, 1, 1, colour))
    writer = ApngWriter(width, height, plays=2)
    for frame in frames:
        writer.add(frame, 50)
    image = read_apng(writer.to_bytes())
    assert [f.pixels for f in image.frames] == frames
    assert image.plays == 2


def test_changed_region_is_the_bounding_box_of_the_changes() -> None:
    before = bytes(10 * 10 * 3)
    after = paint(paint(before, 10, 2, 8, 1, 1, b"\x09\x09\x09"), 10, 7, 3, 2, 1, b"\x05\x00\x00")
    assert changed_region(before, after, 10, 10) == (2, 3, 7, 6)
    assert changed_region(before, before, 10, 10) is None


def test_the_file_is_a_png_whose_first_frame_qt_reads(qapp: object, tmp_path: Path) -> None:
    from PySide6.QtGui import QColor, QImage

    width, height = 8, 6
    first = paint(bytes(width * height * 3), width, 0, 0, 8, 6, b"\x10\x80\xf0")
    writer = ApngWriter(width, height)
    writer.add(first, 500)
    writer.add(paint(first, width, 1, 1, 2, 2, b"\x00\x00\x00"), 500)
    out = tmp_path / "a.png"
    writer.close(out)
    assert not (tmp_path / "a.png.part").exists()
    image = QImage(str(out))
    assert (image.width(), image.height()) == (8, 6)
    assert QColor(image.pixel(3, 3)) == QColor(0x10, 0x80, 0xF0)


def test_damage_and_misuse_are_named() -> None:
    writer = ApngWriter(4, 4)
    with pytest.raises(ApngError, match="at least one frame"):
        writer.to_bytes()
    with pytest.raises(ApngError, match="does not fit"):
        writer.add(b"\x00" * 5, 10)
    writer.add(bytes(48), 10)
    data = bytearray(writer.to_bytes())
    data[40] ^= 0xFF
    with pytest.raises(ApngError, match="CRC"):
        read_apng(bytes(data))
    with pytest.raises(ApngError, match="not a PNG"):
        read_apng(b"GIF89a")
    plain = b"\x89PNG\r\n\x1a\n" + b"".join(
        struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
        for kind, body in (
            (b"IHDR", struct.pack(">IIBBBBB", 1, 1, 8, 6, 0, 0, 0)),
            (b"IDAT", zlib.compress(b"\x00\x00\x00\x00\xff")),
            (b"IEND", b""),
        )
    )
    with pytest.raises(ApngError, match="no acTL"):
        read_apng(plain)
