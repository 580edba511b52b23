"""Strict readers for the fields of a decoded record body.

A body comes from a peer that may lie or be broken: every field is read through one of these
functions, which check the type and bounds and raise :class:`Malformed` with a reason a
player can read.  Nothing else in the core indexes a body directly.

Invariants: ``bool`` is never accepted where an ``int`` is expected (msgpack keeps them
apart and so do we); sizes are bounded before anything is iterated.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TypeGuard

from client.rules.errors import Malformed

__all__ = [
    "DIGEST_SIZE",
    "KEY_SIZE",
    "MAX_ENVELOPE",
    "all_keys",
    "read_bytes",
    "read_digest",
    "read_int",
    "read_int_list",
    "read_list",
    "read_text",
]

DIGEST_SIZE = 32
MAX_ENVELOPE = 4096
"""The largest record a ply carries inside it (a consent, a vote, an acknowledgement)."""
KEY_SIZE = 32


def _field(body: Mapping[str, object], name: str) -> object:
    if type(body) is not dict and not isinstance(body, Mapping):  # a dict, usually: no ABC
        raise Malformed("the record body is not a map")
    if name not in body:
        raise Malformed(f"field {name!r} is missing")
    return body[name]


def read_int(body: Mapping[str, object], name: str, low: int = 0, high: int = 2**62) -> int:
    """An integer field within ``[low, high]``."""
    value = _field(body, name)
    if type(value) is not int:
        raise Malformed(f"field {name!r} is not an integer")
    if not low <= value <= high:
        raise Malformed(f"field {name!r} is {value}, outside {low}..{high}")
    return value


def read_bytes(body: Mapping[str, object], name: str, max_size: int) -> bytes:
    """A byte-string field of at most ``max_size`` bytes."""
    value = _field(body, name)
    if type(value) is not bytes:
        raise Malformed(f"field {name!r} is not a byte string")
    if len(value) > max_size:
        raise Malformed(f"field {name!r} is longer than {max_size} bytes")
    return value


def read_digest(body: Mapping[str, object], name: str) -> bytes:
    """A 32-byte digest field."""
    value = read_bytes(body, name, DIGEST_SIZE)
    if len(value) != DIGEST_SIZE:
        raise Malformed(f"field {name!r} is not a {DIGEST_SIZE}-byte digest")
    return value


def read_text(body: Mapping[str, object], name: str, max_length: int) -> str:
    """A text field of at most ``max_length`` characters."""
    value = _field(body, name)
    if type(value) is not str:
        raise Malformed(f"field {name!r} is not text")
    if len(value) > max_length:
        raise Malformed(f"field {name!r} is longer than {max_length} characters")
    return value


def read_list(body: Mapping[str, object], name: str, max_items: int) -> Sequence[object]:
    """A list field of at most ``max_items`` items (items unchecked)."""
    value = _field(body, name)
    if not isinstance(value, list | tuple):
        raise Malformed(f"field {name!r} is not a list")
    if len(value) > max_items:
        raise Malformed(f"field {name!r} has more than {max_items} items")
    return value


def read_int_list(
    body: Mapping[str, object], name: str, max_items: int, low: int = 0, high: int = 2**31
) -> tuple[int, ...]:
    """A list of integers within ``[low, high]``."""
    numbers: list[int] = []
    for item in read_list(body, name, max_items):
        if type(item) is not int or not low <= item <= high:
            raise Malformed(f"field {name!r} holds something other than integers {low}..{high}")
        numbers.append(item)
    return tuple(numbers)


def all_keys(items: Sequence[object]) -> TypeGuard[Sequence[bytes]]:
    """Whether every item is a 32-byte public key."""
    return all(type(item) is bytes and len(item) == KEY_SIZE for item in items)
