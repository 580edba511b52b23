"""One peer's clock at a clocked table (DESIGN.md §4 *Clocks*): measuring, stating, carrying.

``TableClock`` is the part of ``client.tabletop.table.Table`` that keeps the clock when START
pins one (``client.rules.clock`` has the rules, ``client.rules.chain`` the verdicts):

* *measuring*: this peer notes when it took each ply's first record and when each ply became
  final here, on its own monotonic clock (the ``now`` every input carries; no time of day
  travels), and its ACK of a clocked ply states its figure ``ms`` (nil when it did not see
  the start: after a restart, while replaying its log);
* *carrying*: nobody signs ply n+1 before ply n is final here (a REMOVE excepted), and the ply
  it signs carries the ACKs of ply n by every peer at the table after it (a REMOVE: by those it
  leaves), so the chain alone holds every figure;
* *judging the head*: once the head is final here, the chain judges it from its ACKs
  (``Chain.judge_head``): late, the position to play on is the one where its seat resigned.

Invariants: one figure per ply, ever (an ACK is logged before it is sent, so a restart never
states a second one); times are kept in whole milliseconds.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from client.rules.carried_acks import stated_figure
from client.rules.chain import Chain, TableState
from client.rules.clock import CLOCKED_KINDS, ClockSpec, PlyTimer, Verdict, running_seat, threshold
from client.rules.clock_history import clocks_now
from client.rules.finality import ClaimBook
from client.rules.records import SignedRecord

__all__ = ["ClockDisplay", "TableClock", "ms"]


def ms(now: float) -> int:
    """The table's inputs carry seconds (a float from the runtime's monotonic clock); the
    clock's rules count whole milliseconds."""
    return round(now * 1000)


@dataclass(frozen=True)
class ClockDisplay:
    """The clocks as this peer shows them at one moment (the display rule: between verdicts
    the running clock runs from this peer's own start; a verdict snaps it to the chain's)."""

    remaining: tuple[int | None, ...]
    """Every seat's time left in ms, seat 1 first; None: this peer did not see the running
    clock start (after a restart) and shows "?" until the next verdict."""
    running: int | None
    """The seat whose clock runs now, if one does."""
    low_ms: int
    """Under this a clock shows tenths and its player is warned (10 s)."""

    def of(self, seat: int) -> int | None:
        return self.remaining[seat - 1]


LOW_MS = 10_000


class TableClock:
    """The clock of one clocked table at this peer.  See the module docstring."""

    def __init__(self, spec: ClockSpec, chain: Chain, acks: ClaimBook) -> None:
        self.spec = spec
        self._chain = chain
        self._acks = acks
        self._timer = PlyTimer(spec)
        self._judged: set[int] = set()
        self._waiting_ends: list[SignedRecord] = []
        self.verdicts: dict[int, Verdict] = {}
        """The verdict on each ply judged here, by ply (from the ACKs the next ply carries,
        or for the head, from its own ACKs once it is final)."""

    # --- measuring ------------------------------------------------------------------------
    def took(self, state: TableState, now: float, *, replaying: bool) -> None:
        """This peer took (or signed) ``state``'s record at ``now``."""
        if not replaying:
            self._timer.took(state.ply, ms(now))
        if state.clock is not None and state.clock.judged is not None:
            self.verdicts[state.ply - 1] = state.clock.judged
        self._timer.forget_before(state.ply)

    def dropped_after(self, ply: int) -> None:
        """The plies after ``ply`` were dropped (``TableRemovals.drop_after``)."""
        self._timer.forget_after(ply)
        self._judged = {n for n in self._judged if n <= ply}
        for dropped in [n for n in self.verdicts if n > ply]:
            del self.verdicts[dropped]

    def became_final(self, ply: int, now: float, *, replaying: bool) -> None:
        if not replaying:
            self._timer.became_final(ply, ms(now))

    def figure(self, state: TableState, now: float, *, replaying: bool) -> int | None:
        """The figure this peer states in its ACK of ``state`` (None: no clock ran for it, or
        this peer did not see the start)."""
        if replaying or state.record.kind not in CLOCKED_KINDS:
            return None
        return self._timer.figure(state.ply, ms(now))

    def running_for(self, now: float) -> int | None:
        """How long the running clock has run here for the next ply (the display, the
        stall and the stop-oneself rules), None before it starts or after a restart."""
        return self._timer.running_for(self._chain.head.ply + 1, ms(now))

    def running(self) -> tuple[int, int] | None:
        """The seat whose clock runs for the next ply and its limit ``T`` (ms), once the
        head is judged here (before that, whose clock runs is not known yet)."""
        head = self._chain.head
        if not self.judged(head.ply):
            return None
        seat = running_seat(self._chain.engine, head.engine_state)
        clocks = clocks_now(self._chain)
        if seat is None or clocks is None:
            return None
        return seat, threshold(clocks.of(seat), self.spec)

    def overdue(self, now: float) -> tuple[int, int] | None:
        """(seat, ms past its limit) when the running clock, as measured here, has run past
        ``T`` at ``now``; None otherwise (or when this peer did not see it start)."""
        running, ran = self.running(), self.running_for(now)
        if running is None or ran is None or ran <= running[1]:
            return None
        return running[0], ran - running[1]

    def limit_at(self, now: float) -> float | None:
        """When (in the table's seconds) the running clock passes ``T`` here, if it runs."""
        running, ran = self.running(), self.running_for(now)
        if running is None or ran is None or ran > running[1]:
            return None
        return now + (running[1] - ran + 1) / 1000

    def display(self, now: float) -> ClockDisplay:
        """The clocks to show at ``now``: the running seat's charged as the verdict would
        charge it so far (its run less the lag credit)."""
        clocks = clocks_now(self._chain)
        assert clocks is not None  # a TableClock exists only on a clocked table
        remaining: list[int | None] = list(clocks.remaining)
        running = self.running()
        seat = None if running is None else running[0]
        shown, ply = seat, self._chain.head.ply + 1
        head = self._chain.head
        if seat is None and not self.judged(head.ply) and head.clock is not None:
            # The head waits for its verdict: its seat shows this peer's own figure for it
            # (stopped), "?" if it did not see that clock start, until the verdict snaps it.
            shown, ply = head.clock.running, head.ply
        if shown is not None:
            ran = self._timer.running_for(ply, ms(now))
            left = clocks.of(shown)
            remaining[shown - 1] = (
                None if ran is None else max(0, left - max(0, ran - self.spec.lag_ms))
            )
        return ClockDisplay(tuple(remaining), seat, LOW_MS)

    # --- carrying -------------------------------------------------------------------------
    def may_sign_after(self, final_ply: int) -> bool:
        """Whether this peer may sign the next ply (a REMOVE apart): the head is final here."""
        return final_ply >= self._chain.head.ply

    def carried(self, required: Sequence[bytes]) -> list[bytes]:
        """The envelopes of the head's ACKs by ``required``, for the ply this peer signs."""
        head = self._chain.head
        envelopes = []
        for key in required:
            claim = self._acks.get(head.ply, key)
            if claim is not None:
                envelopes.append(claim.record.envelope)
        return envelopes

    # --- judging the head -----------------------------------------------------------------
    def judge_head(self) -> Verdict | None:
        """Judge the head from its ACKs by every peer at the table after it (call once it is
        final here); the verdict, also kept in ``verdicts``."""
        head = self._chain.head
        if head.ply in self.verdicts:
            return self.verdicts[head.ply]
        figures = []
        for key in head.peers:
            claim = self._acks.get(head.ply, key)
            if claim is None:
                return None
            figures.append(stated_figure(claim.record.body))
        verdict = self._chain.judge_head(figures)
        self._judged.add(head.ply)
        if verdict is not None:
            self.verdicts[head.ply] = verdict
        return verdict

    def judged(self, ply: int) -> bool:
        """Whether ply ``ply``'s position is the one its verdict gives, here: a ply before
        the head was judged when the next one was checked; the head, once final here (START
        has no verdict)."""
        return ply == 0 or ply < self._chain.head.ply or ply in self._judged

    def wait_for_verdict(self, end: SignedRecord) -> bool:
        """Keep an END for the head until the head is judged here (its result may be the
        verdict's: "on time"); False when too many wait (a peer floods: drop it)."""
        if len(self._waiting_ends) >= 2 * len(self._chain.head.peers):
            return False
        self._waiting_ends.append(end)
        return True

    def judged_ends(self) -> list[SignedRecord]:
        """The ENDs that waited for the head's verdict, once it is given."""
        if not self.judged(self._chain.head.ply):
            return []
        ends, self._waiting_ends = self._waiting_ends, []
        return ends
