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
_SEATS = re.compile(r"\b[Ss]eats ([1-9]\d?(?:(?:, | and )[1-9]\d?)+)\b")
"""A side's seats, as an engine lists them: "Vert (seats 2, 4)"."""
_NUMBER = re.compile(r"[1-9]\d?")


def with_seat_names(text: str, name_of: Callable[[int], str | None]) -> str:
    """``text`` with each "Seat N" / "seat N" replaced by ``name_of(N)`` (N from 1; kept
    when None), and each "seats N, M" by the names of both (kept unless all are named)."""

    def named(match: re.Match[str]) -> str:
        name = name_of(int(match.group(1)))
        return name if name else match.group(0)

    def all_named(match: re.Match[str]) -> str:
        numbers = _NUMBER.findall(match.group(1))
        if not all(name_of(int(number)) for number in numbers):
            return match.group(0)
        return _NUMBER.sub(lambda number: str(name_of(int(number.group(0)))), match.group(1))

    return _SEAT.sub(named, _SEATS.sub(all_named, text))


def named_seats(text: str, start: TableStart, seats: Sequence[SeatSpec]) -> str:
    """``text`` with each "Seat N" named as ``seats`` seat it (a table's START, or its seats
    at a ply: a bot that replaced a removed player plays its seat from then on)."""
    names = {peer.key: peer.name for peer in start.peers}
    by_seat = {spec.seat: seat_name(spec, names) for spec in seats}
    return with_seat_names(text, by_seat.get)
