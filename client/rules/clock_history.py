"""Every clocked ply of a chain with its figures, verdict and the clocks after it.

The verdict on ply n is given by the figures ply n+1 carries (``TableState.clock`` of ply
n+1), the head's by its own ACKs once a peer or the verifier holds them all
(``Chain.judge_head``).  ``clock_history`` lines those up for whoever shows them: ``palabre
verify`` (text and ``--json``), ``palabre log show`` and the replay.  It only reads the chain:
the rules themselves are ``client.rules.clock``'s.
"""

from __future__ import annotations

from dataclasses import dataclass

from client.rules.chain import Chain
from client.rules.clock import CLOCKED_KINDS, SeatClocks, Verdict

__all__ = ["ClockedPly", "clock_history", "clocks_now", "lost_on_time", "verdict_on"]


@dataclass(frozen=True)
class ClockedPly:
    """One clocked ply as every peer judged it."""

    ply: int
    kind: str
    seat: int
    """The seat whose clock ran."""
    figures: tuple[int | None, ...]
    """Every peer's figure (ms; None: that peer did not see the clock start)."""
    verdict: Verdict
    remaining: tuple[int, ...]
    """Every seat's time left once this ply is judged (index 0 is seat 1)."""

    def to_json(self) -> dict[str, object]:
        return {
            "ply": self.ply,
            "kind": self.kind,
            "seat": self.seat,
            "figures": list(self.figures),
            "figure": self.verdict.figure,
            "threshold": self.verdict.threshold,
            "late": self.verdict.late,
            "charge": self.verdict.charge,
            "disputed": self.verdict.disputed,
            "remaining": list(self.remaining),
        }


def clock_history(chain: Chain) -> list[ClockedPly]:
    """The judged clocked plies of ``chain``, in order (empty without a clock; the head only
    once judged)."""
    spec = chain.start.clock
    if spec is None:
        return []
    states = chain.states
    history = []
    for index in range(1, len(states)):
        state = states[index]
        reading = state.clock
        if reading is None or reading.running is None or state.record.kind not in CLOCKED_KINDS:
            continue
        seat = reading.running
        if index + 1 < len(states):
            after = states[index + 1].clock
            if after is None or after.judged is None:
                continue
            verdict, figures, remaining = after.judged, after.figures, after.clocks.remaining
        elif chain.head_verdict is not None and chain.head_verdict[0] == state.ply:
            _, verdict, figures = chain.head_verdict
            remaining = reading.clocks.after(seat, verdict, spec).remaining
        else:
            continue
        history.append(ClockedPly(state.ply, state.record.kind, seat, figures, verdict, remaining))
    return history


def clocks_now(chain: Chain) -> SeatClocks | None:
    """Every seat's time left as the chain stands: the head's verdict applied once it is
    given (``Chain.judge_head``), else as before the head.  None without a clock."""
    spec, head = chain.start.clock, chain.head
    if spec is None or head.clock is None:
        return None
    judged = chain.head_verdict
    if judged is None or judged[0] != head.ply or head.clock.running is None:
        return head.clock.clocks
    return head.clock.clocks.after(head.clock.running, judged[1], spec)


def verdict_on(chain: Chain, ply: int) -> Verdict | None:
    """The verdict on clocked ply ``ply`` once given (from the ply after it, or the head's
    own); None for a ply no clock ran for, or not judged yet."""
    if chain.start.clock is None or not 1 <= ply <= chain.head.ply:
        return None
    state = chain.at(ply)
    if state.record.kind not in CLOCKED_KINDS or state.clock is None:
        return None
    if ply < chain.head.ply:
        after = chain.at(ply + 1).clock
        return None if after is None else after.judged
    judged = chain.head_verdict
    return judged[1] if judged is not None and judged[0] == ply else None


def lost_on_time(chain: Chain) -> list[tuple[int, int]]:
    """(seat, ply) of every seat that ran out of time, in order."""
    return [(ply.seat, ply.ply) for ply in clock_history(chain) if ply.verdict.late]
