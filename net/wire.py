"""Canonical msgpack and strict schemas: the only way bytes from a peer become values.

Invariants:

* ``pack`` is canonical: the smallest encoding of every value (what msgpack-python writes
  with ``use_bin_type=True``), map keys sorted by their UTF-8 bytes.  It packs only ``None``,
  ``bool``, ``int`` (64-bit), ``str``, ``bytes``, lists/tuples and dicts with ``str`` keys.
* ``unpack`` accepts exactly the bytes ``pack`` writes for the value it decodes: one value
  and no trailing bytes, bounded lengths and depth, no floats, no extension types, ``str``
  map keys only, no duplicate keys.  So one value has one encoding, and a signed payload
  cannot be re-encoded into a second valid form.  Arrays come back as tuples.
* Every failure is a ``DecodeError`` naming the place ("MOVE body.move[3]: ...").
* ``Schema`` objects check a decoded value's shape: exact types (``True`` is not an int),
  ranges, lengths, required keys and no others.  They recurse over the schema, not over the
  data, so a schema's depth bounds the work.
"""

from __future__ import annotations

import functools
import re
import threading
import unicodedata
from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import Any

import msgpack

from net.errors import DecodeError, LocalProtocolError

__all__ = [
    "MAX_DEPTH",
    "Bool",
    "Bytes",
    "Int",
    "ListOf",
    "MapOf",
    "Nullable",
    "OneOf",
    "Pair",
    "Schema",
    "Struct",
    "Text",
    "describe",
    "pack",
    "unpack",
]

MAX_DEPTH = 8  # deeper than any message of the protocol
INT64_MIN, UINT64_MAX = -(2**63), 2**64 - 1
_LIMITS = {
    "max_str_len": 65536,
    "max_bin_len": 65536,
    "max_array_len": 4096,
    "max_map_len": 256,
    "max_ext_len": 0,
}


def pack(value: object) -> bytes:
    """The canonical msgpack bytes of ``value`` (``LocalProtocolError`` on a value not allowed)."""
    try:
        return msgpack.packb(_sorted(value, 0), use_bin_type=True)  # type: ignore[no-any-return]
    except (TypeError, ValueError, OverflowError) as error:
        raise LocalProtocolError(f"cannot pack {describe(value)}: {error}") from error


def _sorted(value: object, depth: int) -> object:
    if depth > MAX_DEPTH:
        raise LocalProtocolError(f"value nested deeper than {MAX_DEPTH}")
    if isinstance(value, dict):
        for key in value:
            if type(key) is not str:
                raise LocalProtocolError(f"map key {key!r} is not a string")
        return {k: _sorted(value[k], depth + 1) for k in sorted(value, key=_key_order)}
    if isinstance(value, list | tuple):
        return [_sorted(item, depth + 1) for item in value]
    if value is None or type(value) in (bool, int, str, bytes):
        return value
    raise LocalProtocolError(f"cannot pack {describe(value)}")


def _key_order(key: str) -> bytes:
    return key.encode("utf-8")


def unpack(data: bytes, what: str) -> Any:
    """Decode ``data`` strictly; ``DecodeError`` mentioning ``what`` unless it is canonical."""
    # The fast way first (every record takes it): msgpack builds maps by itself, without a
    # Python call per map to look for repeated keys.  A repeated key leaves a smaller map,
    # whose canonical bytes differ from ``data``; so does anything else not canonical.  The
    # bytes it accepts are exactly those the strict way below accepts, with the same value;
    # anything else goes the strict way, which names the problem.
    try:
        value = _unpack_fast(data)
        canonical = _packer().pack(value) == data
    except Exception:
        canonical = False
    if canonical:
        _check_plain(value, what, 0)
        return value
    return _unpack_strictly(data, what)


def _unpack_strictly(data: bytes, what: str) -> Any:
    try:
        value = msgpack.unpackb(
            data,
            raw=False,
            use_list=False,
            strict_map_key=True,
            object_pairs_hook=_no_duplicates,
            **_LIMITS,
        )
    except msgpack.StackError as error:
        raise DecodeError(f"{what} is nested too deeply") from error
    except Exception as error:
        # msgpack documents that "other exceptions can be raised during unpacking"; they all
        # mean the same thing here: these bytes are not a value of the protocol.
        raise DecodeError(f"{what} is not valid msgpack ({_reason(error)})") from error
    _check_plain(value, what, 0)
    # ``_check_plain`` saw only protocol types and sorted string keys, so packing the decoded
    # value as it is gives its canonical bytes (cheaper than ``pack``, which re-sorts).
    if msgpack.packb(value, use_bin_type=True) != data:
        raise DecodeError(f"{what} is not in canonical form (sorted keys, shortest encodings)")
    return value


_unpack_fast = functools.partial(
    msgpack.unpackb, raw=False, use_list=False, strict_map_key=True, **_LIMITS
)
_PACKERS = threading.local()


def _packer() -> msgpack.Packer:
    """This thread's packer (a ``Packer`` is not thread-safe; making one per call costs
    more than the packing)."""
    try:
        packer: msgpack.Packer = _PACKERS.packer
    except AttributeError:
        packer = _PACKERS.packer = msgpack.Packer(use_bin_type=True)
    return packer


def _no_duplicates(pairs: list[tuple[Any, Any]]) -> dict[Any, Any]:
    result = dict(pairs)
    if len(result) != len(pairs):
        raise ValueError("a map repeats a key")
    return result


def _reason(error: Exception) -> str:
    text = str(error) or type(error).__name__
    return text if len(text) <= 80 else text[:77] + "..."


_LEAVES = frozenset({bool, int, str, bytes, type(None)})


def _check_plain(value: object, what: str, depth: int) -> None:
    if depth > MAX_DEPTH:
        raise DecodeError(f"{what} is nested deeper than {MAX_DEPTH} levels")
    items: Any
    kind = type(value)
    if type(value) is tuple:
        items = value
    elif type(value) is dict:
        keys = [*value]
        for key in keys:
            if type(key) is not str:
                raise DecodeError(f"{what} has a map key that is not a string")
        # Code point order is UTF-8 byte order, the canonical order of keys.
        if keys != sorted(keys):
            raise DecodeError(f"{what} is not in canonical form (sorted keys, shortest encodings)")
        items = value.values()
    elif kind in _LEAVES:
        return
    else:
        raise DecodeError(f"{what} holds a {kind.__name__}, which the protocol never uses")
    if items and depth == MAX_DEPTH:  # its items would be one level too deep
        raise DecodeError(f"{what} is nested deeper than {MAX_DEPTH} levels")
    for item in items:
        if type(item) not in _LEAVES:  # leaves are checked here, without a call each
            _check_plain(item, what, depth + 1)


def describe(value: object) -> str:
    """A short, printable description of a value from a peer, for error messages."""
    if isinstance(value, bytes):
        return f"{len(value)} bytes"
    if isinstance(value, tuple | list):
        return f"an array of {len(value)}"
    if isinstance(value, dict):
        return f"a map of {len(value)}"
    text = repr(value)
    text = "".join(ch if ch.isprintable() else "?" for ch in text)
    return text if len(text) <= 40 else text[:37] + "..."


class Schema(ABC):
    """The shape a decoded value must have."""

    @abstractmethod
    def check(self, value: object, where: str) -> None:
        """Raise ``DecodeError`` naming ``where`` unless ``value`` fits."""


class Int(Schema):
    def __init__(self, lo: int = INT64_MIN, hi: int = UINT64_MAX) -> None:
        self.lo, self.hi = lo, hi

    def check(self, value: object, where: str) -> None:
        if type(value) is not int or not self.lo <= value <= self.hi:
            raise DecodeError(
                f"{where}: expected an integer from {self.lo} to {self.hi}, got {describe(value)}"
            )


class Bool(Schema):
    def check(self, value: object, where: str) -> None:
        if type(value) is not bool:
            raise DecodeError(f"{where}: expected true or false, got {describe(value)}")


class Bytes(Schema):
    def __init__(self, lo: int, hi: int | None = None) -> None:
        self.lo, self.hi = lo, lo if hi is None else hi

    def check(self, value: object, where: str) -> None:
        if type(value) is not bytes or not self.lo <= len(value) <= self.hi:
            size = f"{self.lo}" if self.lo == self.hi else f"{self.lo} to {self.hi}"
            raise DecodeError(f"{where}: expected {size} bytes, got {describe(value)}")


# Control characters and bidirectional overrides could rewrite a terminal or a chat line.
_UNSAFE = re.compile("[\u202a-\u202e\u2066-\u2069]")


class Text(Schema):
    """A string of ``lo``..``hi`` characters, no control characters, optionally a pattern."""

    def __init__(self, lo: int, hi: int, pattern: str | None = None) -> None:
        self.lo, self.hi = lo, hi
        self.pattern = re.compile(pattern) if pattern else None

    def check(self, value: object, where: str) -> None:
        if type(value) is not str or not self.lo <= len(value) <= self.hi:
            raise DecodeError(
                f"{where}: expected text of {self.lo} to {self.hi} characters, "
                f"got {describe(value)}"
            )
        if any(unicodedata.category(ch) == "Cc" for ch in value) or _UNSAFE.search(value):
            raise DecodeError(f"{where}: text holds control characters")
        if self.pattern is not None and not self.pattern.fullmatch(value):
            form = self.pattern.pattern
            raise DecodeError(f"{where}: {describe(value)} is not of the form {form}")


class Nullable(Schema):
    def __init__(self, inner: Schema) -> None:
        self.inner = inner

    def check(self, value: object, where: str) -> None:
        if value is not None:
            self.inner.check(value, where)


class OneOf(Schema):
    """The first alternative whose type matches decides (alternatives have distinct types)."""

    def __init__(self, *alternatives: tuple[type, Schema]) -> None:
        self.alternatives = alternatives

    def check(self, value: object, where: str) -> None:
        for kind, schema in self.alternatives:
            if type(value) is kind:
                schema.check(value, where)
                return
        names = " or ".join(kind.__name__ for kind, _ in self.alternatives)
        raise DecodeError(f"{where}: expected {names}, got {describe(value)}")


class ListOf(Schema):
    def __init__(self, item: Schema, lo: int, hi: int) -> None:
        self.item, self.lo, self.hi = item, lo, hi

    def check(self, value: object, where: str) -> None:
        if type(value) is not tuple or not self.lo <= len(value) <= self.hi:
            raise DecodeError(
                f"{where}: expected an array of {self.lo} to {self.hi} items, got {describe(value)}"
            )
        try:  # ``where`` is made precise only for a failure (see ``Struct.check``)
            for item in value:
                self.item.check(item, where)
        except DecodeError:
            for index, item in enumerate(value):
                self.item.check(item, f"{where}[{index}]")
            raise


class Pair(Schema):
    """An array of exactly two items."""

    def __init__(self, first: Schema, second: Schema) -> None:
        self.first, self.second = first, second

    def check(self, value: object, where: str) -> None:
        if type(value) is not tuple or len(value) != 2:
            raise DecodeError(f"{where}: expected an array of 2 items, got {describe(value)}")
        try:  # ``where`` is made precise only for a failure (see ``Struct.check``)
            self.first.check(value[0], where)
            self.second.check(value[1], where)
        except DecodeError:
            self.first.check(value[0], f"{where}[0]")
            self.second.check(value[1], f"{where}[1]")
            raise


class Struct(Schema):
    """A map with exactly these string keys (all required, no others), and any of the
    ``optional`` ones (a field added later: older records without it stay valid)."""

    def __init__(
        self, fields: Mapping[str, Schema], optional: Mapping[str, Schema] | None = None
    ) -> None:
        self.fields = dict(fields)
        self.optional = dict(optional or {})

    def check(self, value: object, where: str) -> None:
        if type(value) is not dict:
            raise DecodeError(f"{where}: expected a map, got {describe(value)}")
        if value.keys() != self.fields.keys():  # the usual case is checked without sets
            missing = sorted(set(self.fields) - set(value))
            extra = sorted(set(value) - set(self.fields) - set(self.optional))
            if missing:
                raise DecodeError(f"{where}: missing field {missing[0]!r}")
            if extra:
                raise DecodeError(f"{where}: unexpected field {describe(extra[0])}")
            for name in value.keys() - self.fields.keys():
                self.optional[name].check(value[name], f"{where}.{name}")
        # Fields are checked with ``where`` as it is and, only if one fails, again with
        # its name appended: checks are pure, so the second pass fails at the same field
        # with the message naming it, and a value that fits costs no string building.
        fields = self.fields.items()
        try:
            for name, schema in fields:
                schema.check(value[name], where)
        except DecodeError:
            for name, schema in fields:
                schema.check(value[name], f"{where}.{name}")
            raise


class MapOf(Schema):
    """A map of at most ``hi`` entries, keys and values each checked."""

    def __init__(self, key: Text, value: Schema, hi: int) -> None:
        self.key, self.value, self.hi = key, value, hi

    def check(self, value: object, where: str) -> None:
        if type(value) is not dict or len(value) > self.hi:
            raise DecodeError(
                f"{where}: expected a map of at most {self.hi}, got {describe(value)}"
            )
        try:  # ``where`` is made precise only for a failure (see ``Struct.check``)
            for key, item in value.items():
                self.key.check(key, where)
                self.value.check(item, where)
        except DecodeError:
            for key, item in value.items():
                self.key.check(key, f"{where} key")
                self.value.check(item, f"{where}[{key!r}]")
            raise
