"""An engine's English sentence with its seats named as the table seats them.

Engines know seats only by number: an outcome's summary says "Seat 4 wins by holding power
on e5.".  A player reads the table in names (a person's, a bot's), so every place that
writes a result (the window's banner and summary, the chat line, the terminal's result line)
turns "Seat N" into the seated name first.  A seat the caller cannot name keeps its number.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from client.rules.seated_names import seat_name
from client.rules.start import SeatSpec, TableStart

__all__ = ["named_seats", "with_seat_names"]

_SEAT = re.compile(r"\b[Ss]eat ([1-9]\d?)\b")


def with_seat_names(text: str, name_of: Callable[[int], str | None]) -> str:
    """``text`` with each "Seat N" / "seat N" replaced by ``name_of(N)`` (N from 1; kept
    when None)."""

    def named(match: re.Match[str]) -> str:
        name = name_of(int(match.group(1)))
        return name if name else match.group(0)

    return _SEAT.sub(named, text)


def named_seats(text: str, start: TableStart, seats: Sequence[SeatSpec]) -> str:
    """``text`` with each "Seat N" named as ``seats`` seat it (a table's START, or its seats
    at a ply: a bot that replaced a removed player plays its seat from then on)."""
    names = {peer.key: peer.name for peer in start.peers}
    by_seat = {spec.seat: seat_name(spec, names) for spec in seats}
    return with_seat_names(text, by_seat.get)
