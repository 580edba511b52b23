"""The table clock's rules (DESIGN.md §4 *Clocks*) as pure functions of signed figures.

No machine decides a flag alone: each peer measures, on its own monotonic clock, how long the
running seat took over a ply, and states that figure (``ms``) in its ACK; the next ply carries
every ACK.  From those figures alone, every peer and the verifier derive the same **verdict**:

* ``T = R + lag_ms + R div 1000`` where ``R`` is the running seat's remaining time before the
  ply (the lag credit, plus the drift of honest clocks: a thousandth);
* ``v`` is the lower middle of the figures (the ⌈N/2⌉-th smallest, a missing figure counts 0),
  so a ply is **late** iff more than half of the peers, the mover's own included, measured
  more than ``T``;
* on time, the seat is charged ``max(0, v − lag_ms)`` and then gets the increment; late, the
  ply has no effect and the seat has resigned instead (its clock shows 0).

At two peers the lower figure decides, so neither machine can flag the other; a ply whose
two figures lie on both sides of ``T`` is *disputed* and the log says so for anyone to see.

Everything here is integers (milliseconds) and reads no clock: the table and the node pass
``now`` in, so every case is a test on a virtual clock.  ``ClockSpec`` is what START pins,
``PlyTimer`` one peer's measuring, ``judge`` the verdict, ``SeatClocks`` the remaining times.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from client.rules.bodies import read_int
from client.rules.errors import Malformed
from client.rules.records import DRAW, MOVE, RESIGN, TAKEBACK
from engines import AnyEngine, IllegalMove

__all__ = [
    "CLOCKED_KINDS",
    "DEFAULT_ACK_MS",
    "DEFAULT_LAG_MS",
    "MIN_ACK_MS",
    "ClockReading",
    "ClockSpec",
    "PlyTimer",
    "SeatClocks",
    "Verdict",
    "clock_face",
    "judge",
    "lower_middle",
    "parse_time_control",
    "resigned_instead",
    "running_seat",
    "threshold",
]

CLOCKED_KINDS = frozenset({MOVE, RESIGN, DRAW, TAKEBACK})
"""The plies a clock runs for; a REMOVE is not one (nobody chose to play it)."""

DEFAULT_LAG_MS = 300
DEFAULT_ACK_MS = 10_000
MIN_ACK_MS = 5_000
"""A stall timeout under 5 s would remove players whose machine merely hiccups."""
MAX_BASE_MS = 24 * 3_600_000
"""A day: more is not a clocked game, and it bounds every sum below."""


@dataclass(frozen=True)
class ClockSpec:
    """What START pins: every seat starts with ``base_ms``; Fischer ``increment_ms`` per ply;
    ``lag_ms`` credited per ply for the network; a peer owing an ACK for ``ack_ms`` stalls."""

    base_ms: int
    increment_ms: int = 0
    lag_ms: int = DEFAULT_LAG_MS
    ack_ms: int = DEFAULT_ACK_MS

    def __post_init__(self) -> None:
        if not 1 <= self.base_ms <= MAX_BASE_MS:
            raise ValueError("the starting time must be between a millisecond and a day")
        if not 0 <= self.increment_ms <= MAX_BASE_MS:
            raise ValueError("the increment must be between 0 and a day")
        if not 0 <= self.lag_ms <= 60_000:
            raise ValueError("the lag credit must be between 0 and 60 seconds")
        if not MIN_ACK_MS <= self.ack_ms <= 3_600_000:
            raise ValueError("the stall timeout must be between 5 seconds and an hour")

    def to_body(self) -> dict[str, int]:
        """START's ``clock`` field."""
        return {
            "base_ms": self.base_ms,
            "increment_ms": self.increment_ms,
            "lag_ms": self.lag_ms,
            "ack_ms": self.ack_ms,
        }

    @classmethod
    def from_body(cls, body: Mapping[str, object]) -> ClockSpec:
        """Read START's ``clock`` field (``Malformed`` with the reason otherwise); the fields
        other than ``base_ms`` take their defaults when absent."""
        values = {"base_ms": read_int(body, "base_ms", 1, MAX_BASE_MS)}
        for name, default in (
            ("increment_ms", 0),
            ("lag_ms", DEFAULT_LAG_MS),
            ("ack_ms", DEFAULT_ACK_MS),
        ):
            values[name] = read_int(body, name, 0, MAX_BASE_MS) if name in body else default
        try:
            return cls(**values)
        except ValueError as error:
            raise Malformed(f"the table's clock is not acceptable: {error}") from None

    def describe(self) -> str:
        """``5+3`` as lichess writes it (minutes + seconds of increment)."""
        minutes = Fraction(self.base_ms, 60_000)
        seconds = Fraction(self.increment_ms, 1000)
        return f"{_short(minutes)}+{_short(seconds)}"


def _short(value: Fraction) -> str:
    """``0.1`` for a tenth, to the thousandth, in integers (no floating point anywhere)."""
    thousandths = round(value * 1000)
    whole, part = divmod(thousandths, 1000)
    return str(whole) if part == 0 else f"{whole}.{part:03d}".rstrip("0")


def parse_time_control(
    text: str, *, lag_ms: int = DEFAULT_LAG_MS, ack_ms: int = DEFAULT_ACK_MS
) -> ClockSpec:
    """``5+3`` → 5 minutes and 3 s per ply; the minutes may be a fraction (``0.1+0`` is 6 s).

    Read exactly (decimal text, no floating point), rounded to the millisecond.
    ``ValueError`` with a sentence a player can read otherwise."""
    minutes_text, plus, seconds_text = text.strip().partition("+")
    if not plus:
        raise ValueError(f"write a time control as minutes+seconds, like 5+3, not {text!r}")
    try:
        minutes = Fraction(minutes_text.strip())
        seconds = Fraction(seconds_text.strip())
    except (ValueError, ZeroDivisionError):
        raise ValueError(f"{text!r} is not minutes+seconds, like 5+3") from None
    if minutes <= 0 or seconds < 0:
        raise ValueError("the minutes must be more than 0 and the seconds at least 0")
    base_ms = round(minutes * 60_000)
    increment_ms = round(seconds * 1000)
    return ClockSpec(base_ms, increment_ms, lag_ms, ack_ms)


def threshold(remaining_ms: int, spec: ClockSpec) -> int:
    """``T``: the longest a seat with ``remaining_ms`` left may take over a ply."""
    return remaining_ms + spec.lag_ms + remaining_ms // 1000


def lower_middle(figures: Sequence[int | None]) -> int:
    """The ⌈N/2⌉-th smallest figure, a missing one (``None``) counting 0."""
    if not figures:
        raise ValueError("a verdict needs at least one figure")
    ordered = sorted(0 if figure is None else figure for figure in figures)
    return ordered[(len(ordered) + 1) // 2 - 1]


@dataclass(frozen=True)
class Verdict:
    """What the figures of one clocked ply decide."""

    late: bool
    figure: int
    """``v``, the lower middle of the figures."""
    threshold: int
    charge: int
    """What the seat's clock loses (before the increment); all it had when late."""
    disputed: bool
    """Two peers whose figures lie on both sides of ``threshold``: neither could decide."""


def judge(remaining_ms: int, figures: Sequence[int | None], spec: ClockSpec) -> Verdict:
    """The verdict on a clocked ply made with ``remaining_ms`` left, from every peer's
    figure (the ACKs the next ply carries)."""
    limit = threshold(remaining_ms, spec)
    figure = lower_middle(figures)
    late = figure > limit
    measured = [0 if item is None else item for item in figures]
    disputed = len(measured) == 2 and min(measured) <= limit < max(measured)
    charge = remaining_ms if late else max(0, figure - spec.lag_ms)
    return Verdict(late, figure, limit, charge, disputed)


@dataclass(frozen=True)
class SeatClocks:
    """Every seat's remaining time (index 0 is seat 1); a seat's clock never changes hands,
    whoever signs for the seat."""

    remaining: tuple[int, ...]

    @classmethod
    def starting(cls, spec: ClockSpec, seat_count: int) -> SeatClocks:
        return cls((spec.base_ms,) * seat_count)

    def of(self, seat: int) -> int:
        return self.remaining[seat - 1]

    def after(self, seat: int, verdict: Verdict, spec: ClockSpec) -> SeatClocks:
        """The clocks once ``seat``'s ply is judged: charged and incremented when on time,
        at 0 when late (the seat resigned on time)."""
        left = 0 if verdict.late else self.of(seat) - verdict.charge + spec.increment_ms
        clocks = list(self.remaining)
        clocks[seat - 1] = max(0, left)
        return replace(self, remaining=tuple(clocks))


class PlyTimer:
    """One peer's measuring of the running clock, fed the moments it sees (``now`` in ms on
    its own monotonic clock; no time of day travels).

    For ply n+1 the clock starts when ply n became final here, or ``ack_ms`` after this peer
    took ply n's record, whichever comes first (START counts as ply 0, taken and final when
    this peer accepted it).  The figure for ply n+1 is the moment this peer takes its first
    record minus that start; ``None`` when this peer did not see the start (it restarted, or
    was cut off in between)."""

    def __init__(self, spec: ClockSpec) -> None:
        self._spec = spec
        self._taken: dict[int, int] = {}
        self._final: dict[int, int] = {}
        self._figures: dict[int, int | None] = {}

    def took(self, ply: int, now: int) -> None:
        """This peer took (or signed) the first record of ``ply``."""
        self._taken.setdefault(ply, now)

    def became_final(self, ply: int, now: int) -> None:
        self._final.setdefault(ply, now)

    def started(self, ply: int) -> int | None:
        """When the clock for ``ply`` started here, if it has (``None`` if not seen yet)."""
        taken = self._taken.get(ply - 1)
        if taken is None:
            return None
        deadline = taken + self._spec.ack_ms
        final = self._final.get(ply - 1)
        return deadline if final is None else min(final, deadline)

    def figure(self, ply: int, now: int) -> int | None:
        """This peer's figure for ``ply`` once it takes ply's first record at ``now``: the
        same answer ever after (one ACK per ply: a second figure would be a double claim)."""
        if ply not in self._figures:
            start = self.started(ply)
            self._figures[ply] = None if start is None else max(0, now - start)
        return self._figures[ply]

    def running_for(self, ply: int, now: int) -> int | None:
        """How long the clock for ``ply`` has run here at ``now`` (the display, the stall and
        the stop-oneself rules), ``None`` before it starts."""
        start = self.started(ply)
        if start is None:
            return None
        if ply in self._figures:
            return self._figures[ply]
        return max(0, now - start)

    def forget_after(self, ply: int) -> None:
        """The plies after ``ply`` were dropped (the one step back of a REMOVE): what was
        noted of their records goes, so the REMOVE's own record starts the next clock."""
        for book in (self._taken, self._final, self._figures):
            for dropped in [n for n in book if n > ply]:
                del book[dropped]

    def forget_before(self, ply: int) -> None:
        """Drop what no later figure needs (bounded memory over a long game)."""
        for book in (self._taken, self._final, self._figures):
            for old in [n for n in book if n < ply - 1]:
                del book[old]


@dataclass(frozen=True)
class ClockReading:
    """What the clock says at one ply of a clocked table (``TableState.clock``)."""

    clocks: SeatClocks
    """Every seat's remaining time once every ply before this one is judged."""
    running: int | None
    """The seat whose clock this ply ran on (None for START and a REMOVE: nobody chose them)."""
    judged: Verdict | None = None
    """The verdict on the previous ply, from the figures this ply carries."""
    figures: tuple[int | None, ...] = ()
    """Those figures, in the order of the peers that acknowledged the previous ply."""


def clock_face(ms: int, tenths_below: int = 0) -> str:
    """A clock as a player reads it: ``4:07`` (``1:02:07`` past an hour), tenths under
    ``tenths_below`` ms (``9.8``), ``0.0`` when out; integers only."""
    ms = max(0, ms)
    if ms < tenths_below or ms == 0:
        tenths = ms // 100
        return f"{tenths // 10}.{tenths % 10}"
    seconds = ms // 1000
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{seconds:02d}" if hours else f"{minutes}:{seconds:02d}"


def running_seat(engine: AnyEngine, position: object) -> int | None:
    """The seat whose clock runs at ``position``: the controller of the seat to move (a
    ruler's extra move runs the ruler's clock, a captured side's slot its captor's)."""
    to_move = engine.to_move(position)
    return None if to_move is None else engine.controller(position, to_move)


def resigned_instead(engine: AnyEngine, position: object, seat: int) -> object:
    """The position where ``seat``, whose clock ran at ``position``, resigned instead of
    playing its late ply (each game's resignation rule)."""
    try:
        return engine.resign(position, seat)
    except IllegalMove:
        # Every engine lets the seat whose clock runs resign; were one not to, the late ply
        # is void rather than the table stuck.
        return position
