"""The chain of plies: one signed record per ply, each bound to the chain digest before it.

``TableState`` is everything the chain decides at one ply: the engine state, who signs each
seat, which peers are still at the table, and the chain digest.  ``Chain`` holds the list of
them from the genesis (ply 0, derived from START) to the head, and checks a ply record
against the state before it through a table of rules, one per ply kind (``client.rules.plies``
has MOVE, RESIGN and DRAW; REMOVE and TAKEBACK are added to that table by later issues).

Invariants:

* ``states[i].ply == i``; ``states[0]`` is the genesis, its ``record`` the START record.
* chain digest n = BLAKE2b-256(chain digest n−1 ‖ record hash n ‖ engine digest n), with
  32 zero bytes before the genesis (START plays the part of record 0).  Two peers that
  applied different records, or reached different engine states, never share a digest.
* A record is checked completely (kind, ``ply``, ``prev``, author, legality) before
  anything changes; ``check`` has no side effect and ``append`` takes only a state that
  ``check`` produced for the head.  No half-applied ply ever exists.
* Nothing is ever removed except by ``drop_head``, the one step back DESIGN.md allows
  (an absent peer's unacked record replaced by a REMOVE); the genesis is never dropped.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

from client.rules.bodies import read_digest, read_int, read_list
from client.rules.carried_acks import carried_figures
from client.rules.clock import (
    CLOCKED_KINDS,
    ClockReading,
    SeatClocks,
    Verdict,
    judge,
    resigned_instead,
    running_seat,
)
from client.rules.errors import Malformed, PlyRejected
from client.rules.records import REMOVE, EnvelopeOpener, SignedRecord
from client.rules.start import SeatSpec, TableStart
from engines import AnyEngine, Outcome

__all__ = [
    "ZERO_DIGEST",
    "Chain",
    "PlyContext",
    "PlyEffect",
    "PlyRule",
    "TableState",
    "chain_digest",
    "describe_key",
]

ZERO_DIGEST = bytes(32)


def chain_digest(previous: bytes, record_hash: bytes, engine_digest: bytes) -> bytes:
    """BLAKE2b-256 of the previous chain digest, the record hash and the engine digest."""
    return hashlib.blake2b(previous + record_hash + engine_digest, digest_size=32).digest()


@dataclass(frozen=True)
class TableState:
    """The table after ``ply`` plies (0 = genesis)."""

    ply: int
    chain_digest: bytes
    engine_state: object
    engine_digest: bytes
    seats: tuple[SeatSpec, ...]
    """Who signs each seat now (index 0 = seat 1); REMOVE hands seats to bots."""
    peers: tuple[bytes, ...]
    """Peers still at the table: they ack, consent and sign END."""
    record: SignedRecord
    """The ply record (the START record for the genesis)."""
    seat: int | None = None
    """The seat whose slot the ply was played on (None for the genesis)."""
    label: str = ""
    """The ply as a player reads it (notation, ``resigns``, ``draw agreed``)."""
    clock: ClockReading | None = None
    """On a clocked table, the clocks before this ply's own verdict (``client.rules.clock``)."""

    def seat_key(self, seat: int) -> bytes:
        return self.seats[seat - 1].key

    def seats_of(self, key: bytes) -> tuple[int, ...]:
        """The seats ``key`` signs for."""
        return tuple(spec.seat for spec in self.seats if spec.key == key)


@dataclass(frozen=True)
class PlyEffect:
    """What a ply rule decided: the next engine state, and roster changes if any."""

    engine_state: object
    label: str
    seat: int | None
    seats: tuple[SeatSpec, ...] | None = None
    peers: tuple[bytes, ...] | None = None


@dataclass(frozen=True)
class PlyContext:
    """What a rule may look at: the table, the state before the ply and the history."""

    start: TableStart
    engine: AnyEngine
    opener: EnvelopeOpener
    before: TableState
    history: Sequence[TableState]
    """``history[i]`` is the state after ply i; only ``i <= before.ply`` is the past of this
    ply (when an occupied ply is judged, later states exist too).  TAKEBACK looks back here."""

    def describe(self, key: bytes) -> str:
        """``peer K3QF-7XZA… (Ann)`` or ``the bot of seat 3 run by peer ...``."""
        return describe_key(self.start, self.before.seats, key)


def describe_key(start: TableStart, seats: Sequence[SeatSpec], key: bytes) -> str:
    """A key as players read it, given who signs each seat now (bots may be new)."""
    for spec in seats:
        if spec.key == key and spec.runner is not None:
            return f"the {spec.bot_word} of seat {spec.seat} run by {start.name_of(spec.runner)}"
    return start.name_of(key)


PlyRule = Callable[[PlyContext, SignedRecord], PlyEffect]
"""Checks one ply record against ``ctx.before`` and returns its effect, or raises
``PlyRejected``.  ``ply`` and ``prev`` are already checked when a rule runs."""


class Chain:
    """The plies applied so far, from the genesis to the head."""

    def __init__(
        self,
        start: TableStart,
        engine: AnyEngine,
        opener: EnvelopeOpener,
        rules: Mapping[str, PlyRule],
    ) -> None:
        self.start = start
        self.engine = engine
        self._opener = opener
        self._rules = rules
        initial = engine.initial_state(start.params)
        engine_digest = engine.digest(initial)
        genesis = TableState(
            ply=0,
            chain_digest=chain_digest(ZERO_DIGEST, start.record.record_hash, engine_digest),
            engine_state=initial,
            engine_digest=engine_digest,
            seats=start.seats,
            peers=start.peer_keys,
            record=start.record,
            clock=None
            if start.clock is None
            else ClockReading(SeatClocks.starting(start.clock, len(start.seats)), None),
        )
        self._states: list[TableState] = [genesis]
        self.head_verdict: tuple[int, Verdict, tuple[int | None, ...]] | None = None
        """On a clocked table, the head's own verdict once ``judge_head`` gave it: (ply,
        verdict, figures); every earlier ply's is in the reading of the ply after it."""

    # --- reading -----------------------------------------------------------------------
    @property
    def head(self) -> TableState:
        return self._states[-1]

    def at(self, ply: int) -> TableState:
        """The state after ``ply`` (``IndexError`` beyond the head)."""
        if not 0 <= ply < len(self._states):
            raise IndexError(f"ply {ply} is not in the chain (head is {self.head.ply})")
        return self._states[ply]

    @property
    def states(self) -> Sequence[TableState]:
        """Every state from the genesis to the head (a live view: do not keep it)."""
        return self._states

    def outcome(self) -> Outcome | None:
        """The engine's outcome at the head, None while the game goes on."""
        return self.engine.outcome(self.head.engine_state)

    def is_ply_kind(self, kind: str) -> bool:
        return kind in self._rules

    # --- checking and appending -----------------------------------------------------------
    def check(self, record: SignedRecord, ply: int | None = None) -> TableState:
        """The state ``record`` leads to from the state after ``ply - 1`` (default: head).

        Raises ``PlyRejected`` with a readable reason; changes nothing either way.  Checking
        against an earlier ply is how a second record for an occupied ply is judged
        (equivocation or a rejected record).
        """
        before = self.head if ply is None else self.at(ply - 1)
        rule = self._rules.get(record.kind)
        if rule is None:
            raise PlyRejected(f"a {record.kind} record cannot occupy a ply", code="not-a-ply")
        ctx = PlyContext(self.start, self.engine, self._opener, before, self._states)

        def who() -> str:  # named only in a refusal: most records are fine
            return ctx.describe(record.author)

        try:
            number = read_int(record.body, "ply", 1)
            prev = read_digest(record.body, "prev")
        except Malformed as error:
            raise PlyRejected(
                f"{who()} sent a malformed {record.kind}: {error}; it was ignored", code="malformed"
            ) from None
        if number != before.ply + 1:
            raise PlyRejected(
                f"{who()} sent a {record.kind} for ply {number} where ply {before.ply + 1} "
                "was expected; it was ignored",
                code="wrong-ply",
            )
        if prev != before.chain_digest:
            raise PlyRejected(
                f"{who()} sent a {record.kind} for ply {number} built on another position "
                f"(its prev is not the chain digest after ply {before.ply}); it was ignored",
                code="wrong-prev",
            )
        try:
            before, reading = self._clock_before(ctx, record)
            if before is not ctx.before:
                ctx = PlyContext(self.start, self.engine, self._opener, before, self._states)
            if self.engine.outcome(before.engine_state) is not None:
                raise PlyRejected(
                    f"{who()} sent a {record.kind} after the game ended; it was ignored",
                    code="after-end",
                )
            effect = rule(ctx, record)
        except Malformed as error:
            raise PlyRejected(
                f"{who()} sent a malformed {record.kind}: {error}; it was ignored", code="malformed"
            ) from None
        engine_digest = self.engine.digest(effect.engine_state)
        return TableState(
            ply=number,
            chain_digest=chain_digest(before.chain_digest, record.record_hash, engine_digest),
            engine_state=effect.engine_state,
            engine_digest=engine_digest,
            seats=before.seats if effect.seats is None else effect.seats,
            peers=before.peers if effect.peers is None else effect.peers,
            record=record,
            seat=effect.seat,
            label=effect.label,
            clock=reading,
        )

    def _clock_before(
        self, ctx: PlyContext, record: SignedRecord
    ) -> tuple[TableState, ClockReading | None]:
        """The state ``record`` is checked on and its clock reading (DESIGN.md §4 *Clocks*).

        On a clocked table the ply before is judged here, from the figures of the ACKs
        ``record`` carries: late, ``record`` is checked on the position where that ply's seat
        resigned instead.  An unclocked table's plies carry no ACKs."""
        before, spec = ctx.before, self.start.clock
        if spec is None or before.clock is None:
            if "acks" in record.body:
                raise PlyRejected(
                    f"{ctx.describe(record.author)} sent a {record.kind} carrying "
                    "acknowledgements at a table without a clock; it was ignored",
                    code="bad-acks",
                )
            return before, None
        required = before.peers
        if record.kind == REMOVE:  # the removed are absent: the REMOVE carries the others'
            removed = set(read_list(record.body, "removed", len(before.peers)))
            required = tuple(key for key in before.peers if key not in removed)
        figures = carried_figures(
            record,
            opener=self._opener,
            ply=before.ply,
            digest=before.chain_digest,
            required=required,
            describe=ctx.describe,
        )
        clocks, verdict, position = before.clock.clocks, None, before.engine_state
        seat = before.clock.running
        if before.ply >= 1 and before.record.kind in CLOCKED_KINDS and seat is not None:
            verdict = judge(clocks.of(seat), figures, spec)
            clocks = clocks.after(seat, verdict, spec)
            if verdict.late:
                position = resigned_instead(
                    self.engine, self._states[before.ply - 1].engine_state, seat
                )
        running = running_seat(self.engine, position) if record.kind in CLOCKED_KINDS else None
        reading = ClockReading(clocks, running, verdict, figures)
        if position is before.engine_state:
            return before, reading
        return replace(before, engine_state=position), reading

    def judge_head(self, figures: Sequence[int | None]) -> Verdict | None:
        """On a clocked table, judge the head ply from the figures of its ACKs by every peer
        at the table after it, once this peer holds them all (it is final here): late, the
        head's position becomes the one where its seat resigned instead, the position the next
        ply is played on and the game's end is judged on.  The chain digest stays the one
        every peer acked.  None for a ply no clock ran for (START, a REMOVE) or no clock."""
        head, spec = self.head, self.start.clock
        if spec is None or head.clock is None or head.clock.running is None or head.ply == 0:
            return None
        if head.record.kind not in CLOCKED_KINDS:
            return None
        seat = head.clock.running
        verdict = judge(head.clock.clocks.of(seat), figures, spec)
        if verdict.late:
            position = resigned_instead(self.engine, self._states[-2].engine_state, seat)
            self._states[-1] = replace(head, engine_state=position)
        self.head_verdict = (head.ply, verdict, tuple(figures))
        return verdict

    def append(self, state: TableState) -> None:
        """Make ``state`` (from ``check`` against the head) the new head."""
        if (
            state.ply != self.head.ply + 1
            or state.record.body.get("prev") != self.head.chain_digest
        ):
            raise ValueError(f"ply {state.ply} was not checked against the head ({self.head.ply})")
        self._states.append(state)

    def drop_head(self) -> TableState:
        """Remove and return the head ply: only for a REMOVE replacing an unacked record."""
        if len(self._states) == 1:
            raise ValueError("the genesis is never dropped")
        return self._states.pop()
