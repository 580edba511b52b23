"""Records outside the chain: chat, pointing, draw offers and acceptances.

They never change the game state.  Each is signed by a peer still at the table (spectators
sign nothing that enters a log), checked for shape, and kept in arrival order — so two peers
may hold them in different orders, which is fine: only the chain must be the same
everywhere.

Draw offers and acceptances bind ``ply`` and ``prev``: the ply a DRAW would be and the chain
digest it would follow.  Acceptances count toward a DRAW ply only at that exact position
(``consents_for``), so a move made meanwhile lapses them.  A player who offers also signs
its acceptance (``Table.offer_draw``): only DRAW_ACCEPT records go into a DRAW.

Invariants: ``entries`` only grows, in arrival order; per position at most one consent per
author is kept (the first); sizes are bounded before anything is stored.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from client.rules.bodies import read_digest, read_int, read_int_list, read_list, read_text
from client.rules.errors import Malformed
from client.rules.records import CHAT, DRAW_ACCEPT, DRAW_OFFER, POINT, SignedRecord

__all__ = ["MAX_ARROWS", "MAX_CHAT", "MAX_SQUARE", "MAX_SQUARES", "OutsideEntry", "OutsideLog"]

MAX_CHAT = 500
MAX_ARROWS = 32
MAX_SQUARES = 64
MAX_SQUARE = 65535
MAX_KEPT_POSITIONS = 8


@dataclass(frozen=True)
class OutsideEntry:
    """One accepted record outside the chain, with its readable content."""

    record: SignedRecord
    text: str = ""
    """The chat text (empty for other kinds)."""
    arrows: tuple[tuple[int, int], ...] = ()
    """Pointing: arrows from a square to a square (the engine's square numbers)."""
    squares: tuple[int, ...] = ()
    """Pointing: squares to highlight.  No arrows and no squares clears the author's marks."""
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
            consents = self._consents.setdefault(entry.prev, {})
            # An offer is kept (``offered``) but only an acceptance goes into a DRAW.
            key = record.author if record.kind == DRAW_ACCEPT else b"offer:" + record.author
            consents.setdefault(key, record)
        self.entries.append(entry)
        return entry

    def consents_for(self, prev: bytes) -> Mapping[bytes, SignedRecord]:
        """Draw acceptances given on position ``prev``, by author."""
        held = self._consents.get(prev, {})
        return {r.author: r for r in held.values() if r.kind == DRAW_ACCEPT}

    def offered(self, prev: bytes, by: bytes | None = None) -> bool:
        """Whether someone (or ``by``) offered a draw on position ``prev``."""
        return any(
            r.kind == DRAW_OFFER and by in (None, r.author)
            for r in self._consents.get(prev, {}).values()
        )


def _read(record: SignedRecord) -> OutsideEntry:
    body = record.body
    if record.kind == CHAT:
        text = read_text(body, "text", MAX_CHAT)
        if not text:
            raise Malformed("field 'text' is empty")
        return OutsideEntry(record, text=text)
    if record.kind == POINT:
        read_int(body, "ply", 0)
        arrows = tuple(_read_arrow(a) for a in read_list(body, "arrows", MAX_ARROWS))
        squares = read_int_list(body, "squares", MAX_SQUARES, 0, MAX_SQUARE)
        return OutsideEntry(record, arrows=arrows, squares=squares)
    if record.kind in (DRAW_OFFER, DRAW_ACCEPT):
        read_int(body, "ply", 1)
        return OutsideEntry(record, prev=read_digest(body, "prev"))
    raise Malformed(f"{record.kind} is not a record kept outside the chain")


def _read_arrow(arrow: object) -> tuple[int, int]:
    if not isinstance(arrow, list | tuple) or len(arrow) != 2:
        raise Malformed("an arrow is not a pair of squares")
    start, end = arrow
    if not all(type(item) is int and 0 <= item <= MAX_SQUARE for item in (start, end)):
        raise Malformed("an arrow is not a pair of squares")
    return start, end
