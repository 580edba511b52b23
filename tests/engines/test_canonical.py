"""``engines.canonical``: its fast ways (tuples of small ints, field names kept per type)
give the bytes of the encoding as documented, written here plainly as the reference; the
decoder gives back what was encoded and refuses anything else with ``ValueError``."""

from __future__ import annotations

import contextlib
import dataclasses
import struct

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engines.canonical import Decoded, decode_value, encode_value


def reference(value: object) -> bytes:
    """The module docstring's encoding, one value at a time."""
    if value is None:
        return b"N"
    if value is True or value is False:
        return b"T" if value else b"F"
    if type(value) is int:
        length = (value.bit_length() + 8) // 8
        return b"I" + bytes((length,)) + value.to_bytes(length, "big", signed=True)
    if type(value) is tuple:
        return b"L" + struct.pack(">I", len(value)) + b"".join(map(reference, value))
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        items = tuple(getattr(value, field.name) for field in dataclasses.fields(value))
        return reference(items)
    raise TypeError(type(value).__name__)


@dataclasses.dataclass(frozen=True)
class Inner:
    flag: bool
    cells: tuple[int, ...]


@dataclasses.dataclass(frozen=True)
class Outer:
    board: tuple[int, ...]
    inner: Inner
    count: int
    nothing: None = None


@dataclasses.dataclass
class Unfrozen:
    x: int


leaves = (
    st.none()
    | st.booleans()
    | st.integers(-300, 300)
    | st.integers(0, 127)
    | st.integers(-(2**70), 2**70)
)
values = st.recursive(
    leaves,
    lambda inner: (
        st.lists(inner, max_size=12).map(tuple)
        | st.builds(Inner, st.booleans(), st.lists(st.integers(-5, 200), max_size=20).map(tuple))
    ),
    max_leaves=40,
)


@given(values)
def test_any_value_encodes_as_the_reference(value: object) -> None:
    assert encode_value(value) == reference(value)


@pytest.mark.parametrize(
    "board",
    [
        tuple(range(81)),
        (0,) * 81,
        tuple(range(120, 128)) * 3,  # the largest one-byte ints
        tuple(range(120, 136)),  # 128 and up take two bytes
        (0, 1, 2, 3, 4, 5, 6, True),  # a bool keeps its own tag
        (0, 1, 2, 3, 4, 5, 6, False),
        (0, 1, 2, 3, 4, 5, 6, -1),
        (0, 1, 2, 3, 4, 5, 6, 256),
        (0, 1, 2, 3, 4, 5, 6, None),
        (0, 1, 2, 3, 4, 5, 6, (7,)),
        (1, 2, 3, 4, 5, 6, 7),  # too short for the fast way
    ],
)
def test_boards_encode_as_the_reference(board: tuple[object, ...]) -> None:
    assert encode_value(board) == reference(board)
    state = Outer(board, Inner(True, board), 3)  # twice: the second uses the kept fields
    assert encode_value(state) == encode_value(state) == reference(state)


@pytest.mark.parametrize(
    "value", [1.5, "text", [1, 2], {1: 2}, {1}, Unfrozen(1), (0,) * 8 + (1.5,), Inner]
)
def test_what_states_may_not_hold_is_refused(value: object) -> None:
    with pytest.raises(TypeError):
        encode_value(value)


def as_tuples(value: object) -> Decoded:
    """``value`` as the decoder gives it back: dataclasses as tuples of their fields."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        value = tuple(getattr(value, field.name) for field in dataclasses.fields(value))
    if isinstance(value, tuple):
        return tuple(as_tuples(item) for item in value)
    assert value is None or isinstance(value, int)
    return value


@given(values)
def test_decoding_gives_back_what_was_encoded(value: object) -> None:
    decoded = decode_value(encode_value(value))
    assert decoded == as_tuples(value)
    assert repr(decoded) == repr(as_tuples(value))  # True stays True, not 1


def test_decoding_a_state() -> None:
    state = Outer((1, 1, 3), Inner(False, (0, -5)), 2)
    assert decode_value(encode_value(state)) == ((1, 1, 3), (False, (0, -5)), 2, None)
    assert decode_value(encode_value(None)) is None


@pytest.mark.parametrize("bad", [b"", b"X", b"I\x02\x01", b"I\x00", b"L\x00\x00\x00\x02N", b"NN"])
def test_malformed_bytes_are_refused(bad: bytes) -> None:
    with pytest.raises(ValueError):
        decode_value(bad)


def test_nesting_past_the_bound_is_refused() -> None:
    deep = b"L\x00\x00\x00\x01" * 70 + b"N"
    with pytest.raises(ValueError, match="nested too deep"):
        decode_value(deep)


@given(st.binary(max_size=64))
def test_decoding_arbitrary_bytes_never_crashes(data: bytes) -> None:
    with contextlib.suppress(ValueError):
        decode_value(data)
