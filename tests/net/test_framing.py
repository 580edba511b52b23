"""Frames: length prefix, the 64 KiB cap, and an incremental decoder that splitting cannot fool."""

from __future__ import annotations

import struct

import pytest
from hypothesis import given
from hypothesis import strategies as st

from net.errors import FrameError, LocalProtocolError
from net.framing import MAX_FRAME, FrameDecoder, encode_frame


def _decode_all(chunks: list[bytes]) -> tuple[list[bytes], FrameError | None, int]:
    """Frames out of ``chunks`` fed one by one; the error if any; bytes left buffered."""
    decoder = FrameDecoder()
    frames: list[bytes] = []
    try:
        for chunk in chunks:
            decoder.feed(chunk)
            while (frame := decoder.next_frame()) is not None:
                frames.append(frame[1])
    except FrameError as error:
        return frames, error, decoder.buffered
    return frames, None, decoder.buffered


def test_frames_round_trip() -> None:
    bodies = [b"\x04a", b"\x06", b"x" * MAX_FRAME]
    data = b"".join(encode_frame(body) for body in bodies)
    assert _decode_all([data]) == (bodies, None, 0)
    assert encode_frame(b"\x06") == b"\x00\x00\x00\x01\x06"


def test_split_at_every_point_gives_the_same_frames() -> None:
    bodies = [b"\x01hello", b"\x06", b"\x04" + bytes(range(256))]
    data = b"".join(encode_frame(body) for body in bodies)
    for cut in range(len(data) + 1):
        assert _decode_all([data[:cut], data[cut:]]) == (bodies, None, 0)
    assert _decode_all([bytes([b]) for b in data]) == (bodies, None, 0)


def test_an_oversize_frame_is_refused_from_its_prefix_alone() -> None:
    decoder = FrameDecoder()
    decoder.feed(struct.pack(">I", MAX_FRAME + 1))
    with pytest.raises(FrameError, match="a frame of 65537 bytes, over the 65536-byte limit"):
        decoder.next_frame()
    with pytest.raises(FrameError):  # stays broken
        decoder.next_frame()


def test_http_is_not_a_palabre_peer() -> None:
    frames, error, _ = _decode_all([b"GET / HTTP/1.1\r\n\r\n"])
    assert frames == [] and error is not None
    assert "(this is not a palabre peer)" in str(error)


def test_an_empty_frame_is_refused() -> None:
    frames, error, _ = _decode_all([encode_frame(b"\x06") + b"\x00\x00\x00\x00"])
    assert frames == [b"\x06"]
    assert error is not None and "empty frame" in str(error)


def test_a_short_frame_waits() -> None:
    assert _decode_all([struct.pack(">I", 100) + b"x" * 99]) == ([], None, 103)


@pytest.mark.parametrize("size", [0, MAX_FRAME + 1])
def test_sending_a_bad_frame_is_a_local_error(size: int) -> None:
    with pytest.raises(LocalProtocolError):
        encode_frame(b"x" * size)


@given(st.binary(max_size=200))
def test_arbitrary_bytes_whole_and_split_at_every_point_only_give_frame_errors(
    data: bytes,
) -> None:
    whole = _decode_all([data])
    for cut in range(len(data) + 1):
        split = _decode_all([data[:cut], data[cut:]])
        assert split[0] == whole[0]
        assert str(split[1]) == str(whole[1])


@given(st.binary(max_size=400), st.data())
def test_arbitrary_bytes_in_many_pieces(data: bytes, draw: st.DataObject) -> None:
    whole = _decode_all([data])
    cuts = sorted(draw.draw(st.lists(st.integers(0, len(data)), max_size=8)))
    pieces = [data[a:b] for a, b in zip([0, *cuts], [*cuts, len(data)], strict=True)]
    split = _decode_all(pieces)
    assert split[0] == whole[0]
    assert str(split[1]) == str(whole[1])


@given(st.lists(st.binary(min_size=1, max_size=50), max_size=5), st.binary(max_size=20))
def test_valid_frames_then_garbage_split_at_every_point(bodies: list[bytes], tail: bytes) -> None:
    data = b"".join(encode_frame(body) for body in bodies) + tail
    whole = _decode_all([data])
    assert whole[0][: len(bodies)] == bodies
    for cut in range(len(data) + 1):
        split = _decode_all([data[:cut], data[cut:]])
        assert split[0] == whole[0]
        assert str(split[1]) == str(whole[1])
