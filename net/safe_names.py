"""File names that Linux, Windows and macOS all accept, made from any text.

Game files, exports and evidence may be named from players' and games' names, and a file
made on one system is copied to the others, so ``safe_file_name`` applies the union of the
three systems' rules, the same way everywhere (nothing here asks which system it runs on):

- the characters Windows refuses, ``<>:"/\\|?*``, and control characters become ``_``
  (``/`` is also Linux's and macOS's separator; lone surrogates cannot be written in UTF-8);
- leading and trailing dots and spaces are removed: Windows drops trailing ones silently
  (so ``a.`` and ``a`` would be one file), a leading dot hides a file on Linux and macOS,
  and ``.`` and ``..`` are not names at all;
- Windows' reserved device names (``CON``, ``PRN``, ``AUX``, ``NUL``, ``COM1``-``COM9``,
  ``LPT1``-``LPT9``, ``CONIN$``, ``CONOUT$``; in any case and with any extension, so ``nul.txt``
  too) get a ``_`` in front;
- the name is NFC, and both its NFC and NFD forms take at most ``MAX_NAME_BYTES`` in UTF-8
  (Linux counts bytes; macOS's HFS+ keeps names in NFD; Windows counts UTF-16 units, never
  more than UTF-8 bytes), cut on a character boundary, its suffix kept;
- it is never empty: ``fallback`` stands in for a name with nothing left.

Invariants: ``is_safe_file_name(safe_file_name(text, suffix=s))`` for every text, and
``safe_file_name`` of a safe name returns it unchanged.  Windows and macOS also ignore case, so
two names that differ only in case are one file there: callers create files exclusively.
"""

from __future__ import annotations

import unicodedata

__all__ = ["MAX_NAME_BYTES", "RESERVED_NAMES", "is_safe_file_name", "safe_file_name"]

MAX_NAME_BYTES = 255
"""The longest name, in UTF-8 bytes, that ext4, APFS, HFS+ and NTFS all accept."""

FORBIDDEN = frozenset('<>:"/\\|?*')
"""Characters Windows refuses in a name (``/`` and NUL are the only ones POSIX refuses)."""

RESERVED_NAMES = frozenset(
    {"CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$"}
    | {f"{device}{digit}" for device in ("COM", "LPT") for digit in "123456789\u00b9\u00b2\u00b3"}
)
"""Windows' device names: a file so named, whatever its extension, opens the device."""

_TRIMMED = ". "
"""Removed from both ends of a name (see the module docstring)."""


def safe_file_name(text: str, *, suffix: str = "", fallback: str = "game") -> str:
    """A name made of ``text`` then ``suffix`` (e.g. ``".palabre-log"``, kept whole) that
    every system accepts; ``fallback`` (itself made safe) when nothing of ``text`` is left."""
    tail = "".join(_replaced(char) for char in suffix).rstrip(_TRIMMED)
    for stem in (text, fallback):
        name = _compose(_clean(stem), tail)
        if name:
            return name
    return "game"  # a suffix too long for any stem


def is_safe_file_name(name: str) -> bool:
    """Whether ``name`` keeps every rule of the module docstring."""
    return (
        bool(name)
        and name == unicodedata.normalize("NFC", name)
        and not any(_is_bad(char) for char in name)
        and name == name.strip(_TRIMMED)
        and not _is_reserved(name)
        and _fits(name)
    )


def _is_bad(char: str) -> bool:
    return char in FORBIDDEN or unicodedata.category(char) in ("Cc", "Cs")


def _replaced(char: str) -> str:
    return "_" if _is_bad(char) else char


def _clean(text: str) -> str:
    """NFC, bad characters replaced, no dots or spaces at either end, no longer than a name
    can be (each character takes a byte at least)."""
    text = unicodedata.normalize("NFC", text)
    return "".join(_replaced(char) for char in text).strip(_TRIMMED)[:MAX_NAME_BYTES]


def _compose(stem: str, tail: str) -> str:
    """``stem`` + ``tail``, the stem cut until the name fits; empty if none does."""
    if stem and _is_reserved(stem + tail):
        stem = "_" + stem
    name = unicodedata.normalize("NFC", stem + tail)
    while stem and not is_safe_file_name(name):
        stem = stem[:-1].rstrip(_TRIMMED)
        name = unicodedata.normalize("NFC", stem + tail)
    return name if stem else ""


def _is_reserved(name: str) -> bool:
    # As Windows reads it: the part before the first dot, spaces at its end ignored.
    return name.partition(".")[0].rstrip(" ").upper() in RESERVED_NAMES


def _fits(name: str) -> bool:
    return all(
        len(unicodedata.normalize(form, name).encode("utf-8")) <= MAX_NAME_BYTES
        for form in ("NFC", "NFD")
    )
