"""The plies of one peer's table: a ply record taken, applied, and what follows it.

``TablePlies`` is the part of ``client.tabletop.table.Table`` that judges a ply record (MOVE,
RESIGN, DRAW, TAKEBACK, REMOVE ...: the kinds of the chain's rules):

* a ply for head+1 is checked by ``Chain.check`` (author, ``prev``, legality), applied, then
  this peer signs ACK ``{ply, digest}`` — and END when the game is over;
* a ply for an occupied ply is judged against the state before that ply: a legal one by the
  same author is equivocation and halts the table, by another a fork; an illegal one is
  rejected; a REMOVE may replace an absent peer's unacked plies (the one step back);
* a ply beyond head+1 waits in the early buffer; while a vote freezes the head, plies the
  vote would void are held by the ballot;
* after a ply is applied, records waiting for it (the early buffer, the ballot) are released;
  on a clocked table the ACKs it carries are taken as if they came on a link (two different
  ACKs of one ply by one peer are a double claim, whichever way each came).
"""

from __future__ import annotations

from client.rules.ballot import proposal_of
from client.rules.bodies import read_int
from client.rules.chain import TableState
from client.rules.errors import Malformed, PlyRejected
from client.rules.halting import state_view
from client.rules.records import ACK, REMOVE, TAKEBACK, SignedRecord
from client.tabletop.events import PlyApplied, RecordDropped, TakebackConsented
from client.tabletop.table_claims import TableClaims
from client.tabletop.table_halt import TableHalt
from client.tabletop.table_ledger import TableLedger
from client.tabletop.table_removals import TableRemovals


class TablePlies:
    """Ply records: checked, applied, acked; equivocation and forks halt the table."""

    def __init__(
        self, ledger: TableLedger, halt: TableHalt, removals: TableRemovals, claims: TableClaims
    ) -> None:
        self._ledger = ledger
        self._chain = ledger.chain
        self._halt = halt
        self._removals = removals
        self._claims = claims

    def on_ply(self, record: SignedRecord) -> None:
        head = self._chain.head
        try:
            ply = read_int(record.body, "ply", 1)
        except Malformed as error:
            self._ledger.reject(
                record,
                f"{self._ledger.describe(record.author)} sent a malformed {record.kind}: {error}",
            )
            return
        if ply > head.ply + 1:
            self._ledger.buffer(record, ply - 1)
            return
        if self._ledger.abandoned is not None:
            self._ledger.ignore(
                record, f"the table was abandoned at ply {self._ledger.abandoned[0]}"
            )
            return
        runner = self._ledger.runner_of(record.author)
        if runner in self._ledger.start.peer_keys and runner not in self._chain.at(ply - 1).peers:
            self._ledger.ignore(
                record, f"{self._ledger.describe(record.author)} was removed from the table"
            )
        elif runner in self._ledger.left and ply > self._ledger.left[runner]:
            who = self._ledger.describe(record.author)
            self._ledger.reject(
                record,
                f"{who} left the table at ply {self._ledger.left[runner]}, and a LEAVE is "
                f"final; its {record.kind} for ply {ply} was ignored",
                head,
            )
        elif ply <= head.ply:
            self.on_occupied(record, ply)
        elif not self._ledger.may_apply(ply):
            return
        elif not self._ledger.ballot.admits(record, head):
            if not self._ledger.ballot.hold(record):  # a flood of them: forget it, a copy may come
                self._ledger.inbox.forget(record)
                self._ledger.out.events.append(
                    RecordDropped(record, "too many records held by a vote")
                )
            for early in self._ledger.inbox.held_for(ply):  # an ACK of it may have come first
                self._claims.lapse_on(early)
        else:
            try:
                state = self._chain.check(record)
            except PlyRejected as error:
                self._ledger.reject(record, str(error), head)
                return
            self.apply(state)

    def apply(self, state: TableState) -> None:
        if self._ledger.finality.final_ply == self._chain.head.ply:
            self._ledger.progress_at = self._ledger.now  # waiting for acks starts now
        before = self._chain.head
        self._chain.append(state)
        self._ledger.accept(state.record)
        if self._ledger.clock is not None:
            self._ledger.clock.took(state, self._ledger.now, replaying=self._ledger.replaying)
        if state.record.kind == TAKEBACK:
            self._tell_carried_consents(state.record, before)
        if self._ledger.clock is not None:
            self._take_carried_acks(state.record)
        self._ledger.out.events.append(
            PlyApplied(state, self._ledger.describe(state.record.author))
        )
        self.after_apply(state)

    def _take_carried_acks(self, record: SignedRecord) -> None:
        """The ACKs a clocked ply carries are claims like any (checked by the chain): one
        that differs from the ACK its author sent this peer is a double claim, which halts
        the table naming that author; one not seen yet counts towards finality.  They come
        after the ply, through the inbox (a copy already taken is a duplicate)."""
        for envelope in record.body.get("acks", ()):
            self._ledger.inbox.arrived.append(self._ledger.opener(envelope))

    def _tell_carried_consents(self, record: SignedRecord, before: TableState) -> None:
        """The consents a TAKEBACK carries that this peer had not been told of: the player
        to move may append it before a consent sent to everyone reaches this peer, which then
        finds that consent void (its position is no longer the head) and says nothing of it."""
        told = self._ledger.takebacks.consents_on(before.chain_digest)
        ask = self._ledger.takebacks.ask_on(before.chain_digest)
        for envelope in record.body["consents"]:  # checked by the chain's takeback rule
            consent = self._ledger.opener(envelope)
            if consent.author in told or (ask is not None and consent.author == ask.author):
                continue
            who = self._ledger.describe(consent.author)
            self._ledger.out.events.append(TakebackConsented(consent.author, who, before.ply))

    def on_occupied(self, record: SignedRecord, ply: int) -> None:
        existing = self._chain.at(ply)
        try:
            other = self._chain.check(record, ply)
        except PlyRejected as error:
            self._ledger.reject(record, str(error), self._chain.at(ply - 1))
            return
        proposal = proposal_of(record) if record.kind == REMOVE else None
        if proposal and self._removals.can_drop_after(ply - 1, set(proposal.removed), other.peers):
            self._removals.drop_after(ply - 1)
            self.apply(self._chain.check(record))
            return
        occupant = proposal_of(existing.record) if existing.record.kind == REMOVE else None
        if occupant and self._ledger.runner_of(record.author) in occupant.removed:
            self._ledger.ignore(
                record, f"{self._ledger.describe(record.author)} was removed at ply {ply}"
            )
            return
        same = self._ledger.runner_of(record.author) == self._ledger.runner_of(
            existing.record.author
        )
        kind = "equivocation" if same else "fork"
        who = self._ledger.describe(record.author)
        reason = (
            f"{who} signed two different records for ply {ply}"
            if same
            else f"two different legal records for ply {ply}, by "
            f"{self._ledger.describe(existing.record.author)} and {who}"
        )
        views = (
            state_view(f"after {existing.label}", self._ledger.engine, existing),
            state_view(f"after {other.label}", self._ledger.engine, other),
        )
        runner = self._ledger.runner_of(record.author)
        accused = {runner: f"signed two different records for ply {ply}"} if same and runner else {}
        self._halt.halt(kind, ply, reason, (existing.record, record), views, accused)

    def after_apply(self, state: TableState) -> None:
        self._ledger.debts.applied(state.ply, self._ledger.now)
        if state.record.kind == REMOVE and (proposal := proposal_of(state.record)) is not None:
            self._ledger.presence.forget(proposal.removed)
            self._removals.adopt_bots(state, proposal)
        speaks = self._ledger.me in state.peers and self._ledger.may_apply(state.ply)
        if speaks and self._ledger.own_acks.should_sign(state.ply, state.chain_digest):
            body: dict[str, object] = {"ply": state.ply, "digest": state.chain_digest}
            if (clock := self._ledger.clock) is not None:
                body["ms"] = clock.figure(state, self._ledger.now, replaying=self._ledger.replaying)
            self._ledger.sign(self._ledger.local.peer_signer(), ACK, body)
        if self._ledger.clock is None:  # a clocked table's end waits for the last verdict
            self._claims.end_if_over(state, speaks)
        self._ledger.inbox.released.extend(self._ledger.ballot.settle(state))
        self._ledger.inbox.release(state.ply, self._ledger.now)
