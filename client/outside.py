"""Records outside the chain: chat, pointing, draw offers and acceptances.

They never change the game state.  Each is signed by a peer still at the table (spectators
sign nothing that enters a log), checked for shape, and kept in arrival order — so two peers
may hold them in different orders, which is fine: only the chain must be the same
everywhere.

Draw offers and acceptances bind ``prev``, the chain digest they were given on; they count
toward a DRAW ply only at that exact position (``consents_for``), so a move made meanwhile
lapses them.  An offer counts as its author's acceptance.

Invariants: ``entries`` only grows, in arrival order; per position at most one consent per
author is kept (the first); sizes are bounded before anything is stored.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from client.bodies import Malformed, read_digest, read_int, read_list, read_text
from client.records import CHAT, DRAW_ACCEPT, DRAW_OFFER, POINT, SignedRecord

__all__ = ["MAX_CHAT", "MAX_MARKS", "OutsideEntry", "OutsideLog"]

MAX_CHAT = 1000
MAX_MARKS = 64
MAX_KEPT_POSITIONS = 8


@dataclass(frozen=True)
class OutsideEntry:
    """One accepted record outside the chain, with its readable content."""

    record: SignedRecord
    text: str = ""
    """The chat text (empty for other kinds)."""
    marks: tuple[tuple[int, ...], ...] = ()
    """Pointing: each mark a short list of ints the game's board understands."""
    prev: bytes = b""
    """For draw offers and acceptances: the position they were given on."""


class OutsideLog:
    """Accepted outside records in arrival order, and draw consents by position."""

    def __init__(self) -> None:
        self.entries: list[OutsideEntry] = []
        self._consents: dict[bytes, dict[bytes, SignedRecord]] = {}

    def add(self, record: SignedRecord) -> OutsideEntry:
        """Check and keep ``record`` (``Malformed`` with the reason otherwise)."""
        entry = _read(record)
        if record.kind in (DRAW_OFFER, DRAW_ACCEPT):
            if entry.prev not in self._consents and len(self._consents) >= MAX_KEPT_POSITIONS:
                # Old positions can never be drawn on again: forget the oldest.
                del self._consents[next(iter(self._consents))]
            self._consents.setdefault(entry.prev, {}).setdefault(record.author, record)
        self.entries.append(entry)
        return entry

    def consents_for(self, prev: bytes) -> Mapping[bytes, SignedRecord]:
        """Draw offers/acceptances given on position ``prev``, by author."""
        return self._consents.get(prev, {})

    def offered(self, prev: bytes) -> bool:
        """Whether someone offered a draw on position ``prev``."""
        return any(record.kind == DRAW_OFFER for record in self.consents_for(prev).values())


def _read(record: SignedRecord) -> OutsideEntry:
    body = record.body
    if record.kind == CHAT:
        return OutsideEntry(record, text=read_text(body, "text", MAX_CHAT))
    if record.kind == POINT:
        read_int(body, "ply", 0)
        marks = read_list(body, "marks", MAX_MARKS)
        return OutsideEntry(record, marks=tuple(_read_mark(mark) for mark in marks))
    if record.kind in (DRAW_OFFER, DRAW_ACCEPT):
        return OutsideEntry(record, prev=read_digest(body, "prev"))
    raise Malformed(f"{record.kind} is not a record kept outside the chain")


def _read_mark(mark: object) -> tuple[int, ...]:
    if not isinstance(mark, Sequence) or isinstance(mark, str | bytes) or len(mark) > 8:
        raise Malformed("a mark is not a short list of integers")
    if not all(type(item) is int and 0 <= item < 2**16 for item in mark):
        raise Malformed("a mark is not a short list of integers")
    return tuple(mark)
