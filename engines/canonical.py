"""The one canonical byte encoding of engine states.

Digests must be equal on every machine, in every process and under every
``PYTHONHASHSEED``, so states are encoded by walking their values, never with
``hash()``, ``pickle`` or dict order.  Only the value kinds an engine state may
hold are accepted: ``int``, ``bool``, ``None``, tuples of those, and frozen
dataclasses of those (encoded as the tuple of their fields in declaration
order).  Anything else (a float, a set, a dict, a list, a string) is a bug in
the engine and raises ``TypeError`` at once.

Encoding (each value starts with one tag byte):
  ``N``                 None
  ``T`` / ``F``         True / False
  ``I`` len:u8 bytes    int, two's complement, big-endian, minimal length
  ``L`` count:u32 ...   tuple (or dataclass fields), items in order
"""

from __future__ import annotations

import dataclasses
import struct
from typing import TypeAlias

__all__ = ["Decoded", "decode_value", "encode_value"]

Decoded: TypeAlias = "bool | int | tuple[Decoded, ...] | None"
"""What ``decode_value`` gives back: a state's values, its dataclasses as tuples."""


def _int_bytes(value: int) -> bytes:
    length = (value.bit_length() + 8) // 8
    return b"I" + bytes((length,)) + value.to_bytes(length, "big", signed=True)


# Boards are tuples of small ints: their encodings are made once (the same bytes), which
# makes digests several times faster; every ply's chain digest needs one.
_SMALL_INTS = {value: _int_bytes(value) for value in range(-256, 1024)}


_INTS_ONLY = {int}
_FIELDS: dict[type, tuple[str, ...]] = {}
"""Frozen dataclass type -> its field names, in declaration order (checked once a type)."""


def encode_value(value: object) -> bytes:
    """The canonical bytes of ``value``; ``TypeError`` on a kind states may not hold."""
    out = bytearray()
    _encode_into(value, out)
    return bytes(out)


def _encode_into(value: object, out: bytearray) -> None:
    # bool before int: bool is a subclass of int and must keep its own tag.
    if value is None:
        out += b"N"
    elif value is True:
        out += b"T"
    elif value is False:
        out += b"F"
    elif type(value) is int:
        out += _SMALL_INTS.get(value) or _int_bytes(value)
    elif type(value) is tuple:
        out += b"L" + struct.pack(">I", len(value))
        if len(value) >= 8 and _encode_bytes_into(value, out):
            return
        for item in value:
            if type(item) is int and item in _SMALL_INTS:
                out += _SMALL_INTS[item]
            else:
                _encode_into(item, out)
    elif type(value) in _FIELDS:
        names = _FIELDS[type(value)]
        out += b"L" + struct.pack(">I", len(names))
        for name in names:
            _encode_into(getattr(value, name), out)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        params = getattr(type(value), "__dataclass_params__", None)
        if params is None or not params.frozen:
            raise TypeError(f"{type(value).__name__} is not a frozen dataclass")
        _FIELDS[type(value)] = tuple(field.name for field in dataclasses.fields(value))
        _encode_into(value, out)
    else:
        raise TypeError(f"engine states may not hold {type(value).__name__}: {value!r}")


def _encode_bytes_into(items: tuple[object, ...], out: bytearray) -> bool:
    """Encode a tuple of ints 0..127 (a board, usually) without a step per item: each is
    ``I``, length 1, its one byte.  False, with nothing written, for any other tuple."""
    if {*map(type, items)} != _INTS_ONLY:  # exactly int: no bool, no other kind
        return False
    try:
        raw = bytes(items)  # type: ignore[arg-type]  # all ints, as just checked
    except ValueError:  # an int outside 0..255
        return False
    if not raw.isascii():  # 128..255 take two bytes each
        return False
    encoded = bytearray(b"I\x01\x00" * len(raw))
    encoded[2::3] = raw
    out += encoded
    return True


def decode_value(data: bytes) -> Decoded:
    """The value ``data`` encodes, dataclasses as tuples of their fields (``ValueError`` if
    malformed: the bytes may come from a stranger, in a HALT, so every length is checked)."""
    value, end = _decode(data, 0, 0)
    if end != len(data):
        raise ValueError("trailing bytes after the state")
    return value


def _decode(data: bytes, at: int, depth: int) -> tuple[Decoded, int]:
    if depth > 64 or at >= len(data):
        raise ValueError("state bytes are cut or nested too deep")
    tag = data[at : at + 1]
    if tag == b"N":
        return None, at + 1
    if tag == b"T":
        return True, at + 1
    if tag == b"F":
        return False, at + 1
    if tag == b"I":
        size = data[at + 1] if at + 1 < len(data) else 0
        raw = data[at + 2 : at + 2 + size]
        if len(raw) != size or size == 0:
            raise ValueError("state bytes hold a cut integer")
        return int.from_bytes(raw, "big", signed=True), at + 2 + size
    if tag == b"L":
        if at + 5 > len(data):
            raise ValueError("state bytes hold a cut tuple")
        (count,) = struct.unpack(">I", data[at + 1 : at + 5])
        if count > len(data):
            raise ValueError("state bytes announce more items than they hold")
        items: list[Decoded] = []
        at += 5
        for _ in range(count):
            item, at = _decode(data, at, depth + 1)
            items.append(item)
        return tuple(items), at
    raise ValueError(f"unknown tag {tag!r} in state bytes")
