"""Canonical msgpack and schemas: one encoding per value, everything else refused."""

from __future__ import annotations

import contextlib

import msgpack
import pytest
from hypothesis import given
from hypothesis import strategies as st

from net.errors import DecodeError, LocalProtocolError
from net.wire import (
    MAX_DEPTH,
    Bool,
    Bytes,
    Int,
    ListOf,
    MapOf,
    Nullable,
    OneOf,
    Pair,
    Struct,
    Text,
    pack,
    unpack,
)

values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**63), 2**64 - 1)
    | st.text(max_size=20)
    | st.binary(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4)
    ),
    max_leaves=20,
)


def _as_decoded(value: object) -> object:
    if isinstance(value, list):
        return tuple(_as_decoded(v) for v in value)
    if isinstance(value, dict):
        return {k: _as_decoded(v) for k, v in value.items()}
    return value


@given(values)
def test_pack_unpack_round_trip(value: object) -> None:
    data = pack(value)
    assert unpack(data, "value") == _as_decoded(value)
    assert pack(unpack(data, "value")) == data


def test_map_keys_are_sorted_by_utf8_bytes() -> None:
    assert pack({"b": 1, "a": 2, "é": 3, "Z": 4}) == msgpack.packb({"Z": 4, "a": 2, "b": 1, "é": 3})


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (b"\x82\xa1b\x01\xa1a\x02", "canonical"),  # keys out of order
        (b"\xcc\x01", "canonical"),  # 1 as uint8 instead of a fixint
        (b"\xd9\x01a", "canonical"),  # "a" as str8 instead of fixstr
        (b"\xdc\x00\x01\xc0", "canonical"),  # array16 of one item
        (b"\xcb\x3f\xf0\x00\x00\x00\x00\x00\x00", "float"),
        (b"\xd6\xff\x00\x00\x00\x01", "msgpack"),  # a timestamp (extension type -1)
        (b"\xd4\x05\x00", "msgpack"),  # an extension type
        (b"\x82\xa1a\x01\xa1a\x02", "msgpack"),  # a repeated key
        (b"\x81\x01\x02", "msgpack"),  # an integer map key
        (b"\x81\xc4\x01k\x01", "not a string"),  # a byte-string map key
        (b"\xc0\xc0", "msgpack"),  # trailing data
        (b"\xa1\xff", "msgpack"),  # invalid UTF-8
        (b"\xc1", "msgpack"),  # the one byte msgpack never uses
        (b"\x92\x01", "msgpack"),  # cut short
        (b"", "msgpack"),
        (b"\xdd\xff\xff\xff\xff", "msgpack"),  # an array claiming 4 billion items
        (b"\xdf\xff\xff\xff\xff", "msgpack"),  # a map claiming 4 billion entries
        (b"\xc6\xff\xff\xff\xff", "msgpack"),  # a bin claiming 4 GiB
        (b"\x91" * (MAX_DEPTH + 1) + b"\xc0", "nested deeper"),
        (b"\x91" * 60_000 + b"\xc0", "nested too deeply"),
    ],
)
def test_unpack_refuses(data: bytes, reason: str) -> None:
    with pytest.raises(DecodeError, match=reason):
        unpack(data, "test value")


def test_unpack_accepts_the_deepest_allowed() -> None:
    data = b"\x91" * MAX_DEPTH + b"\xc0"
    assert unpack(data, "v") is not None


@pytest.mark.parametrize("value", [1.5, {1: 2}, {"a": {1}}, object(), 2**64, [[[[[[[[[[]]]]]]]]]]])
def test_pack_refuses_what_the_protocol_cannot_carry(value: object) -> None:
    with pytest.raises(LocalProtocolError):
        pack(value)


@given(st.binary(max_size=200))
def test_unpack_of_arbitrary_bytes_only_raises_decode_errors(data: bytes) -> None:
    with contextlib.suppress(DecodeError):
        unpack(data, "fuzz")


SCHEMA = Struct(
    {
        "n": Int(1, 10),
        "flag": Bool(),
        "key": Bytes(4),
        "blob": Bytes(0, 3),
        "name": Text(1, 5, r"[a-z]+"),
        "maybe": Nullable(Int(0, 1)),
        "either": OneOf((int, Int(0, 9)), (str, Text(0, 3))),
        "items": ListOf(Int(0, 9), 1, 2),
        "pair": Pair(Int(0, 1), Text(0, 2)),
        "map": MapOf(Text(1, 3), Int(0, 9), 2),
    }
)
GOOD = {
    "n": 5,
    "flag": True,
    "key": b"1234",
    "blob": b"",
    "name": "abc",
    "maybe": None,
    "either": "xy",
    "items": (1,),
    "pair": (0, "ok"),
    "map": {"a": 1},
}


def test_schema_accepts_a_good_value() -> None:
    SCHEMA.check(GOOD, "v")


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("n", True, r"v\.n: expected an integer from 1 to 10, got True"),
        ("n", 11, r"v\.n: expected an integer"),
        ("n", "5", r"v\.n: expected an integer .* got '5'"),
        ("flag", 1, r"v\.flag: expected true or false"),
        ("key", b"123", r"v\.key: expected 4 bytes, got 3 bytes"),
        ("blob", b"1234", r"v\.blob: expected 0 to 3 bytes"),
        ("name", "ABC", r"v\.name: 'ABC' is not of the form"),
        ("name", "a\x1bb", r"v\.name: text holds control characters"),
        ("name", "a\u202eb", r"v\.name: text holds control characters"),
        ("name", "", r"v\.name: expected text of 1 to 5"),
        ("maybe", 2, r"v\.maybe: expected an integer"),
        ("either", b"x", r"v\.either: expected int or str"),
        ("either", "long", r"v\.either: expected text"),
        ("items", (), r"v\.items: expected an array of 1 to 2 items"),
        ("items", (1, "x"), r"v\.items\[1\]: expected an integer"),
        ("items", [1], r"v\.items: expected an array"),  # lists never come out of unpack
        ("pair", (0,), r"v\.pair: expected an array of 2 items"),
        ("map", {"a": 1, "b": 2, "c": 3}, r"v\.map: expected a map of at most 2"),
        ("map", {"": 1}, r"v\.map key: expected text"),
    ],
)
def test_schema_refuses_with_the_place_named(field: str, value: object, message: str) -> None:
    with pytest.raises(DecodeError, match=message):
        SCHEMA.check({**GOOD, field: value}, "v")


def test_struct_wants_exactly_its_fields() -> None:
    with pytest.raises(DecodeError, match="missing field 'n'"):
        SCHEMA.check({k: v for k, v in GOOD.items() if k != "n"}, "v")
    with pytest.raises(DecodeError, match="unexpected field 'zz'"):
        SCHEMA.check({**GOOD, "zz": 1}, "v")
    with pytest.raises(DecodeError, match="expected a map"):
        SCHEMA.check((1, 2), "v")
