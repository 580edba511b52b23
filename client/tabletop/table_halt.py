"""The table's halt: a divergence found here or shown by a peer's HALT, and its evidence.

``TableHalt`` is the part of ``client.tabletop.table.Table`` that stops the table (DESIGN.md,
docs/TABLE.md "Divergence").  Invariants:

* once halted, the table stays halted; ``divergence`` only ever moves to an *earlier* ply
  (acks arrive in any order), keeping the accusations, records and states gathered so far;
* ``TableHalted`` is emitted once, then ``EvidenceUpdated`` for every addition;
* this peer signs a HALT when it halts, when the evidence moves and when it accuses someone
  new — never when nothing changed — and only about a ply it has applied (its state there
  goes in the HALT); a spectator signs nothing;
* a HALT received is opened and its embedded records re-checked here, as if they came on a
  link, before the sender's state is added to the evidence; the sender's records are passed
  on (kept in the evidence) so a finding reaches every peer whatever the topology;
* a HALT's reason is its sender's claim, never this peer's finding: it is shown quoted and
  attributed (``halt_claim``), and this peer's own HALT about it says only who halted, so
  a liar's accusation is never signed again by an honest peer.  What this peer proves
  itself (records it re-checked, the digests peers signed) is the verdict.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from client.rules.divergence import Divergence, StateView
from client.rules.errors import Malformed
from client.rules.halting import HaltClaim, halt_body, halt_claim, read_halt, state_view
from client.rules.records import HALT, SignedRecord
from client.rules.seq_book import SeqClash
from client.tabletop.events import EvidenceUpdated, TableHalted
from client.tabletop.table_ledger import TableLedger


class TableHalt:
    """Halting on a divergence, and the evidence of it."""

    def __init__(self, ledger: TableLedger) -> None:
        self._ledger = ledger
        self._chain = ledger.chain

    def on_seq_clash(self, record: SignedRecord, clash: SeqClash) -> None:
        """A reused ``seq``: a halt when either record is in the chain, else the later one
        is rejected with both as evidence (``client.rules.seq_book``)."""
        if clash.halts:
            reason = clash.reason(self._ledger.describe)
            self.halt(
                "equivocation",
                self._chain.head.ply,
                reason,
                clash.records,
                (),
                clash.accused,
            )
        else:
            self._ledger.reject(record, clash.reason(self._ledger.describe), also=clash.first)

    def halt(
        self,
        kind: str,
        ply: int,
        reason: str,
        records: Sequence[SignedRecord],
        views: Sequence[StateView],
        accused: Mapping[bytes, str],
        claims: Mapping[bytes, bytes] | None = None,
        says: str | None = None,
    ) -> None:
        """Stop the table, or add to the evidence if it is stopped already.

        The evidence is about the earliest ply known to diverge: a disagreement found later
        about an earlier ply (acks arrive in any order) moves it there, keeping what was
        gathered.  This peer signs a HALT when it halts, when the evidence moves, and when it
        finds someone to accuse, embedding the records of that finding so that every peer can
        check it for itself.  ``says`` is the reason that HALT gives (default ``reason``).
        """
        earlier = self._ledger.divergence
        if earlier is None or ply < earlier.ply:
            self._ledger.divergence = self._open_divergence(kind, ply, reason, earlier)
        divergence = self._ledger.divergence
        assert divergence is not None
        accusing = any(key not in divergence.accused for key in accused)
        for key, deed in accused.items():
            divergence.accused.setdefault(key, deed)
        for record in records:
            divergence.add_record(record)
        for view in views:
            divergence.add_state(view)
        if divergence.ply == ply:
            for author, digest in (claims or {}).items():
                divergence.add_claim(author, digest)
            if kind == "equivocation":  # the precise explanation of a digest split
                divergence.kind, divergence.reason = kind, reason
        event = TableHalted if earlier is None else EvidenceUpdated
        self._ledger.out.events.append(event(divergence.evidence()))
        speak = divergence is not earlier or accusing
        if speak and self._ledger.me is not None and divergence.ply <= self._chain.head.ply:
            state = self._chain.at(divergence.ply)
            body = halt_body(self._ledger.engine, state, reason if says is None else says, records)
            self._ledger.sign(self._ledger.local.peer_signer(), HALT, body)

    def _open_divergence(
        self, kind: str, ply: int, reason: str, earlier: Divergence | None
    ) -> Divergence:
        at = self._chain.at(min(ply, self._chain.head.ply))
        divergence = Divergence(kind, ply, reason, at.peers, self._ledger.describe, self._ledger.me)
        for claim in self._ledger.acks.claims(ply):
            divergence.add_claim(claim.author, claim.value)
        if ply <= self._chain.head.ply:
            divergence.add_state(state_view("this peer", self._ledger.engine, at))
        if earlier is not None:
            divergence.accused.update(earlier.accused)
            for record in earlier.records:
                divergence.add_record(record)
            for view in earlier.states:
                divergence.add_state(view)
        return divergence

    def open_halt(self, record: SignedRecord) -> HaltClaim | None:
        """A peer's HALT, read and accepted; None (rejected) if malformed.  The records it
        carries are then handled as if they came on a link (``Table`` does it), before
        ``halt_shown``."""
        try:
            halt = read_halt(record, self._ledger.opener, self._ledger.start.table_id)
        except Malformed as error:
            self._ledger.reject(
                record, f"{self._ledger.describe(record.author)} sent a malformed HALT: {error}"
            )
            return None
        self._ledger.accept(record)
        return halt

    def halt_shown(self, record: SignedRecord, halt: HaltClaim) -> None:
        """A peer halted: halt too, with its state as evidence."""
        who = self._ledger.describe(record.author)
        view = halt.view(who, self._ledger.engine, self._chain)
        claims = {record.author: halt.chain}
        shown = (record, *halt.records)  # passed on, so the finding spreads in any topology
        said = f"{who} halted the table"  # all this peer knows for itself; the rest is a claim
        self.halt("halt", halt.ply, halt_claim(who, halt.reason), shown, (view,), {}, claims, said)
