"""``engines.canonical``: its fast ways (tuples of small ints, field names kept per type)
give the bytes of the encoding as documented, written here plainly as the reference."""

from __future__ import annotations

import dataclasses
import struct

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engines.canonical import encode_value


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
