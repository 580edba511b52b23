"""Absent peers at the table: votes, REMOVE, the step back, and a 2-peer table abandoned.

``TableRemovals`` is the part of ``client.tabletop.table.Table`` that acts on a peer away past the
away timeout or idle past the idle timeout (``client.tabletop.presence``), as
``client.rules.ballot`` decides: propose or follow a VOTE, append the REMOVE as the appender, or —
at a table of two peers — sign an END ending it as abandoned (``client.rules.removal``).
Invariants:

* removals happen only while ``_open_for_removals()``: seated, not halted, not ended, not
  replaying, no outcome;
* this peer proposes a REMOVE only with a ``bot_factory`` (the new bot keys of the seats it
  takes over); the same ``(seat, ply)`` always gives the same key, so a proposal and the
  REMOVE it leads to name the keys this peer will sign with;
* the one step back DESIGN.md allows: plies after ``ply`` are dropped only when each is an
  absent peer's and no remaining peer acked it, and never below ``final_ply``;
* an abandoned END is signed at most once per ply (``_own_ends``) and ends the table for
  good: later plies are ignored.
"""

from __future__ import annotations

from collections.abc import Sequence

from client.bots import Bot
from client.rules.ballot import Append, Follow, Propose, Withdraw
from client.rules.chain import TableState
from client.rules.ending import result_body, result_claim
from client.rules.errors import Malformed
from client.rules.finality import Claim
from client.rules.records import END, REMOVE, VOTE, SignedRecord, Signer
from client.rules.removal import Proposal, abandoned_outcome, seats_played_by
from client.rules.start import SeatSpec
from client.tabletop.events import PlyDropped, TableEnded, TableNotice, VoteReceived
from client.tabletop.table_ledger import BotFactory, TableLedger
from engines import Outcome


class TableRemovals:
    """Votes, REMOVE and abandoned tables (the absent peers' part of the table)."""

    def __init__(
        self, ledger: TableLedger, bot_factory: BotFactory | None, bot_level: str | None = None
    ) -> None:
        self._ledger = ledger
        self._chain = ledger.chain
        self._bot_factory = bot_factory
        self._bot_level = bot_level
        """The level of the bots ``bot_factory`` makes: a REMOVE names it, so a log says what
        played the seats it hands over."""
        self._new_bots: dict[tuple[int, int], tuple[Signer, Bot | None]] = {}

    def act_on_absence(self) -> bool:
        """Vote, append a REMOVE, or end a 2-peer table as abandoned; True if it signed."""
        head = self._chain.head
        removable = {
            p
            for p in head.peers
            if p != self._ledger.me and self._ledger.removable(p, self._ledger.now)
        }
        if len(head.peers) == 2 and removable:
            absent = tuple(removable)
            left = all(key in self._ledger.left for key in absent)
            outcome = abandoned_outcome(self._ledger.start, absent, left)
            claim = (head.chain_digest, result_claim(outcome, absent))
            if not self._ledger.own_ends.should_sign(head.ply, claim):
                return False
            body = {"ply": head.ply, "digest": head.chain_digest}
            self._ledger.sign(
                self._ledger.local.peer_signer(),
                END,
                {**body, "result": result_body(outcome, absent)},
            )
            return True
        mover = self._ledger.mover()
        clock = self._ledger.clock
        if clock is not None and not clock.may_sign_after(self._ledger.finality.final_ply):
            mover = None  # it cannot move before the head is final: it votes like any other
        decision = self._ledger.ballot.decide(
            self._ledger.start, head, self._chain.states, removable, mover
        )
        if isinstance(decision, Propose):
            proposal = self.propose(decision.removed)
            if proposal is None:
                return False
            self._ledger.sign_outside(VOTE, proposal.body())
        elif isinstance(decision, Follow):
            self._ledger.sign_outside(VOTE, decision.proposal.body())
        elif isinstance(decision, Append):
            body = {**decision.proposal.body(), "votes": list(decision.votes)}
            del body["ply"], body["prev"]  # _sign_ply binds the head itself
            self._ledger.sign_ply(self._ledger.local.peer_signer(), REMOVE, body)
        elif isinstance(decision, Withdraw):
            self._ledger.inbox.released.extend(decision.released)
        else:
            return False
        return True

    def propose(self, removed: tuple[bytes, ...]) -> Proposal | None:
        """This peer's proposal to remove ``removed``, with new bot keys for their seats."""
        if self._bot_factory is None:
            return None
        head = self._chain.head
        replacements = []
        for seat in seats_played_by(head, removed):
            made = self._new_bots.get((head.ply + 1, seat))
            if made is None:
                made = self._new_bots[(head.ply + 1, seat)] = self._bot_factory(seat, head.ply + 1)
            replacements.append(SeatSpec(seat, made[0].key, self._ledger.me, self._bot_level))
        return Proposal(head.ply + 1, head.chain_digest, removed, tuple(replacements))

    def adopt_bots(self, state: TableState, proposal: Proposal) -> None:
        """A REMOVE handed seats to this peer: sign (and play) them with their new keys."""
        for spec in proposal.replacements:
            self._ledger.runners[spec.key] = spec.runner or spec.key
            if spec.runner != self._ledger.me or self._ledger.me is None:
                continue
            made = self._new_bots.pop((state.ply, spec.seat), None)
            if made is None and self._bot_factory is not None:
                made = self._bot_factory(spec.seat, state.ply)
            if made is None or made[0].key != spec.key:
                self._ledger.out.events.append(
                    TableNotice(
                        f"this peer cannot find the key of the bot it should run for seat "
                        f"{spec.seat}; that seat cannot move"
                    )
                )
                continue
            self._ledger.local.adopt(spec.key, made[0], made[1])

    def on_vote(self, record: SignedRecord) -> None:
        """A VOTE: kept by position, shown to everyone; ``Ballot`` decides what it leads to."""
        who = self._ledger.describe(record.author)
        try:
            proposal = self._ledger.ballot.add_vote(record)
        except Malformed as error:
            self._ledger.reject(record, f"{who} sent a malformed VOTE: {error}")
            return
        self._ledger.accept(record)
        names = tuple(self._ledger.describe(key) for key in proposal.removed)
        self._ledger.out.events.append(
            VoteReceived(record.author, who, proposal.ply, proposal.removed, names)
        )

    def on_abandoned(
        self, record: SignedRecord, state: TableState, outcome: Outcome, absent: Sequence[bytes]
    ) -> None:
        """An END ending a 2-peer table as abandoned at ``state``'s ply, naming the other."""
        who = self._ledger.describe(record.author)
        others = set(state.peers) - {record.author}
        problem = None
        if len(state.peers) != 2 or set(absent) != others or len(absent) != 1:
            problem = "only a table of two peers ends so, naming the other peer"
        elif self._ledger.engine.outcome(state.engine_state) is not None:
            problem = f"the game was over at ply {state.ply}"
        elif self._ledger.abandoned is None and not self.can_drop_after(
            state.ply, others, (record.author,)
        ):
            problem = f"a later ply was acked by {who}"
        if problem is not None:
            self._ledger.reject(record, f"{who} ended the table as abandoned, but {problem}")
            return
        self._ledger.ends.add(Claim(record.author, state.ply, (record.record_hash,), record))
        self._ledger.accept(record)
        if self._ledger.abandoned is not None:
            return  # both peers found the other away: the table is abandoned either way
        self.drop_after(state.ply)
        self._ledger.abandoned, self._ledger.ended = (state.ply, tuple(absent)), True
        self._ledger.out.events.append(TableEnded(state.ply, outcome))

    def can_drop_after(self, ply: int, absent: set[bytes], remaining: Sequence[bytes]) -> bool:
        """Whether every ply after ``ply`` is an absent peer's that no remaining peer acked:
        the one step back DESIGN.md allows (for a REMOVE, or an abandoned END)."""
        if self._ledger.finality.final_ply > ply:
            return False
        for later in self._chain.states[ply + 1 :]:
            if self._ledger.runner_of(later.record.author) not in absent:
                return False
            for claim in self._ledger.acks.claims(later.ply):
                if claim.author in remaining and claim.value == later.chain_digest:
                    return False
        return True

    def drop_after(self, ply: int) -> None:
        while self._chain.head.ply > ply:
            self._ledger.out.events.append(PlyDropped(self._chain.drop_head()))
        self._ledger.finality.step_back(ply)
        self._ledger.debts.truncate(ply)
        if self._ledger.clock is not None:  # the dropped plies' times go with them
            self._ledger.clock.dropped_after(ply)
