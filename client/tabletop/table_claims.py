"""ACKs and ENDs: what peers claim about the chain, finality and the end of the table.

``TableClaims`` is the part of ``client.tabletop.table.Table`` that takes claims (docs/TABLE.md
"Acks and finality").  Invariants:

* a claim for a ply beyond the head waits in the early buffer (and may show this peer's
  vote can no longer be honoured: ``_lapse_on``);
* a claim by a peer no longer at the table at that ply is ignored, not evidence;
* a claim is kept in ``acks`` or ``ends`` before it is compared: two different claims of one
  author for one ply (on a clocked table, two ACKs stating other figures too), another chain
  digest, or an END with another result, halt the table;
* ply n is final when every peer at the table after ply n acked this peer's chain digest n;
  finality is a prefix and ``final_ply`` only grows (a step back apart);
* the table has ended when the last ply is final, the game is over and every peer signed an
  END with this peer's digest and result.
"""

from __future__ import annotations

from collections.abc import Hashable

from client.rules.bodies import read_digest, read_int
from client.rules.carried_acks import stated_figure
from client.rules.chain import TableState
from client.rules.ending import read_result, result_body, result_claim
from client.rules.errors import Malformed
from client.rules.finality import Claim
from client.rules.records import ACK, END, SignedRecord
from client.rules.removal import ABANDONED
from client.tabletop.events import (
    EvidenceUpdated,
    GameOver,
    PlyFinal,
    RecordDropped,
    TableEnded,
)
from client.tabletop.table_halt import TableHalt
from client.tabletop.table_ledger import TableLedger
from client.tabletop.table_removals import TableRemovals
from engines import Outcome


class TableClaims:
    """ACKs and ENDs, finality and the end of the table."""

    def __init__(self, ledger: TableLedger, halt: TableHalt, removals: TableRemovals) -> None:
        self._ledger = ledger
        self._chain = ledger.chain
        self._halt = halt
        self._removals = removals

    def on_claim(self, record: SignedRecord) -> None:
        """An ACK or END: compare it with this peer's chain (buffer it if ahead)."""
        who = self._ledger.describe(record.author)
        try:
            ply = read_int(record.body, "ply", 0)
            digest = read_digest(record.body, "digest")
            result = read_result(record.body.get("result")) if record.kind == END else None
        except Malformed as error:
            self._ledger.reject(record, f"{who} sent a malformed {record.kind}: {error}")
            return
        head = self._chain.head
        if ply > head.ply:
            self._ledger.buffer(record, ply)
            self.lapse_on(record)
            return
        state = self._chain.at(ply)
        if record.author not in state.peers:
            self._ledger.ignore(record, f"{who} was no longer at the table at ply {ply}")
            return
        abandons = result is not None and result[0].reason == ABANDONED and bool(result[1])
        if result is not None and abandons and digest == state.chain_digest:
            self._removals.on_abandoned(record, state, result[0], result[1])
            return
        clock = self._ledger.clock
        if result is not None and clock is not None and not clock.judged(ply):
            if not clock.wait_for_verdict(record):
                self._ledger.out.events.append(RecordDropped(record, "too many ENDs waiting"))
            return
        value: Hashable = digest if result is None else (digest, result_claim(*result))
        book = self._ledger.acks if record.kind == ACK else self._ledger.ends
        earlier = book.add(Claim(record.author, ply, value, record))
        if earlier is None and record.kind == ACK and clock is not None:
            earlier = _other_figure(book.get(ply, record.author), record)
        self._ledger.accept(record)
        claims = {record.author: digest}
        if earlier is not None:
            reason = f"{who} signed two different {record.kind}s for ply {ply}"
            deed = f"signed two different {record.kind}s for ply {ply}"
            self._halt.halt(
                "digest", ply, reason, (earlier.record, record), (), {record.author: deed}, claims
            )
        elif digest != state.chain_digest:
            reason = f"{who} signed another chain digest for ply {ply} than this peer"
            self._halt.halt("digest", ply, reason, (state.record, record), (), {}, claims)
        elif result is not None and _disagree(
            self._ledger.engine.outcome(state.engine_state), result
        ):
            reason = f"{who} signed another result for ply {ply} than this peer"
            deed = f"signed another result for ply {ply} than the engine gives"
            self._halt.halt(
                "result", ply, reason, (state.record, record), (), {record.author: deed}, claims
            )
        elif self._ledger.divergence is not None and self._ledger.divergence.ply == ply:
            self._ledger.divergence.add_claim(record.author, digest)
            self._ledger.divergence.add_record(record)
            self._ledger.out.events.append(EvidenceUpdated(self._ledger.divergence.evidence()))
        elif record.kind == ACK:
            self._ledger.debts.acked(record.author, ply)
        self.check_progress()

    def lapse_on(self, record: SignedRecord) -> None:
        """An early ACK for head+1 may show this peer's vote can no longer be honoured."""
        head = self._chain.head
        if record.kind != ACK or record.body.get("ply") != head.ply + 1:
            return
        digest = record.body.get("digest")
        if type(digest) is bytes:
            released = self._ledger.ballot.lapse(
                record.author, head.ply + 1, digest, head, self._ledger.digest_of
            )
            self._ledger.inbox.released.extendleft(reversed(released))

    def check_progress(self) -> None:
        clock = self._ledger.clock
        for ply in self._ledger.finality.advance(self._ledger.acks, self._chain.states):
            self._ledger.progress_at = self._ledger.now
            self._ledger.out.events.append(PlyFinal(ply))
            if clock is not None:
                clock.became_final(ply, self._ledger.now, replaying=self._ledger.replaying)
        head = self._chain.head
        if clock is not None and self._ledger.finality.final_ply == head.ply and head.ply:
            judged = head.ply in clock.verdicts
            clock.judge_head()
            head = self._chain.head  # late: the position where its seat resigned instead
            if not judged:
                speaks = self._ledger.me in head.peers and self._ledger.may_apply(head.ply)
                self.end_if_over(head, speaks)
                self._ledger.inbox.released.extend(clock.judged_ends())
        outcome = self._ledger.engine.outcome(head.engine_state)
        if (
            outcome is None
            or self._ledger.ended
            or self._ledger.halted
            or self._ledger.finality.final_ply < head.ply
        ):
            return
        if self._ledger.ends.all_agree(
            head.ply, (head.chain_digest, result_claim(outcome)), head.peers
        ):
            self._ledger.ended = True
            self._ledger.out.events.append(TableEnded(head.ply, outcome))

    def end_if_over(self, state: TableState, speaks: bool) -> None:
        """Game over at ``state``: say so, and sign END when this peer is at the table.  On a
        clocked table, once the last ply is final here and judged (``check_progress``)."""
        outcome = self._ledger.engine.outcome(state.engine_state)
        if outcome is not None:
            self._ledger.out.events.append(GameOver(state.ply, outcome))
            claim = (state.chain_digest, result_claim(outcome))
            if speaks and self._ledger.own_ends.should_sign(state.ply, claim):
                body = {
                    "ply": state.ply,
                    "digest": state.chain_digest,
                    "result": result_body(outcome),
                }
                self._ledger.sign(self._ledger.local.peer_signer(), END, body)


def _other_figure(held: Claim | None, record: SignedRecord) -> Claim | None:
    """On a clocked table an ACK also states a figure: another ACK of the same digest by the
    same peer with another figure is a double claim too (the verdict could differ with it)."""
    if held is None or held.record.record_hash == record.record_hash:
        return None
    return None if stated_figure(held.record.body) == stated_figure(record.body) else held


def _disagree(ours: Outcome | None, theirs: tuple[Outcome, tuple[bytes, ...]]) -> bool:
    return ours is None or result_claim(ours) != result_claim(*theirs)
