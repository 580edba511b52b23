"""This peer's part in removals: the votes it holds, its own vote, and the freeze it implies.

How a removal happens (DESIGN.md section 4, REMOVE and "Acks and finality"):

1. When this peer finds peers removable (``client.tabletop.presence``) and it is their **appender**
   (the remaining peer with the lowest seat, ``client.rules.removal.appender_of``), it proposes:
   it signs a VOTE binding its head (``ply`` = head + 1, ``prev`` = head chain digest), the
   removed peers and new bot keys for their seats.
2. Another peer that finds every peer of that proposal removable too signs a VOTE with the
   very same fields.
3. When the appender holds the votes of every remaining peer for its current proposal, it
   appends the REMOVE carrying them.

**The freeze.** Once this peer has voted on head n (``prev`` = chain digest n) it applies
no ply n+1 record and signs none (nor do its bots), except a REMOVE that carries its
current vote; other records for n+1 are *held*.  It may replace its vote by one naming more
peers (same position), following the appender of that larger set.  The freeze ends when a
REMOVE carrying its vote is applied, or — [palabre] — when the REMOVE can no longer be
made: a peer whose vote it needs acked a record for ply n+1 that this peer holds.  An
honest peer never votes on a position it has moved past, so that vote will never come;
this peer then applies the record that peer acked, first, and the rest of what it held.
Without this, a vote racing the absent player's late move would stop the table for good.

[palabre] Two more ways out, for when the peers voted on come back before the REMOVE is
made (a peer that was cut off too only votes a whole away timeout after its return,
``client.tabletop.presence``, so the last vote may never come):

* **The appender withdraws** its vote when none of the peers it proposed is removable any
  more: it drops its vote and applies what it held.  Nobody else can append a REMOVE
  carrying that vote (the appender of a REMOVE is fixed by the peers it removes, and the
  vote names it as the runner of the new bots), and it will not either once it has
  applied or signed another ply n+1.  It may propose the same again while it has not.
* **A peer to move does not follow** (itself or through a bot it runs): it moves, and
  votes on the next position.  The table waits for its move anyway; frozen, it could not
  make it, and the voters' freeze would end only through its own move.  So the peer to
  move is never frozen except as the appender, which can withdraw: when the absent come
  back, whoever is to move moves, a needed voter acks it, and every vote lapses.

Invariants: this peer's votes all bind its head at the time; a replacement names a strict
superset of the peers of the vote it replaces; held records are only ply records for the
ply of its current vote; what is stored per position is bounded.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass

from client.rules.chain import TableState
from client.rules.errors import Malformed
from client.rules.records import REMOVE, SignedRecord
from client.rules.removal import (
    Proposal,
    appender_of,
    check_proposal,
    leaves_majority,
    read_proposal,
)
from client.rules.start import TableStart

__all__ = ["Append", "Ballot", "Follow", "Propose", "Withdraw"]

MAX_POSITIONS = 8
MAX_VOTES_PER_AUTHOR = 16
MAX_HELD = 64


@dataclass(frozen=True)
class Propose:
    """This peer appends for ``removed``: make new bot keys and vote for them."""

    removed: tuple[bytes, ...]


@dataclass(frozen=True)
class Follow:
    """Vote for the appender's ``proposal``."""

    proposal: Proposal


@dataclass(frozen=True)
class Append:
    """Every remaining peer voted for this peer's proposal: sign the REMOVE."""

    proposal: Proposal
    votes: tuple[bytes, ...]
    """The VOTE envelopes, in the order of the remaining peers."""


@dataclass(frozen=True)
class Withdraw:
    """This peer, the appender, dropped its vote (its peers are back): apply ``released``."""

    released: tuple[SignedRecord, ...]


Decision = Propose | Follow | Append | Withdraw


class Ballot:
    """Votes seen by position, this peer's current vote, and the records its vote holds."""

    def __init__(self, me: bytes | None) -> None:
        self.me = me
        self.mine: Proposal | None = None
        self.mine_record: SignedRecord | None = None
        self.held: list[SignedRecord] = []
        self._votes: dict[bytes, dict[bytes, list[tuple[Proposal, SignedRecord]]]] = {}

    # --- votes --------------------------------------------------------------------------
    def add_vote(self, record: SignedRecord) -> Proposal:
        """Keep a VOTE (``Malformed`` if its fields are bad)."""
        proposal = read_proposal(record.body)
        if proposal.prev not in self._votes and len(self._votes) >= MAX_POSITIONS:
            del self._votes[next(iter(self._votes))]  # the oldest position is long gone
        by_author = self._votes.setdefault(proposal.prev, {})
        kept = by_author.setdefault(record.author, [])
        if len(kept) < MAX_VOTES_PER_AUTHOR:
            kept.append((proposal, record))
        if record.author == self.me:
            self.mine, self.mine_record = proposal, record
        return proposal

    def proposals(self) -> list[Proposal]:
        """Every proposal kept (their new bot keys may sign soon)."""
        return [p for kept in self._votes.values() for votes in kept.values() for p, _ in votes]

    def _matching(self, proposal: Proposal) -> dict[bytes, SignedRecord]:
        found = {}
        for author, kept in self._votes.get(proposal.prev, {}).items():
            for theirs, record in kept:
                if theirs == proposal:
                    found[author] = record
        return found

    # --- the freeze ---------------------------------------------------------------------
    def frozen(self, head: TableState) -> bool:
        """Whether this peer's vote binds ``head``: it then applies and signs no other ply."""
        return self.mine is not None and self.mine.prev == head.chain_digest

    def admits(self, record: SignedRecord, head: TableState) -> bool:
        """Whether a record for ply head+1 may be applied now: anything when this peer's
        vote does not bind ``head``; else only a REMOVE carrying that vote, or one that
        removes this peer (it has no say left)."""
        if not self.frozen(head) or self.mine_record is None:
            return True
        if record.kind != REMOVE:
            return False
        votes = record.body.get("votes")
        carries = isinstance(votes, list | tuple) and self.mine_record.envelope in votes
        proposal = proposal_of(record)
        return carries or (proposal is not None and self.me in proposal.removed)

    def hold(self, record: SignedRecord) -> bool:
        """Keep a record the freeze stops; False when too many are held (drop it)."""
        if len(self.held) >= MAX_HELD:
            return False
        self.held.append(record)
        return True

    def settle(self, head: TableState) -> list[SignedRecord]:
        """After the head moved: a vote for a ply reached is over; return what it held."""
        if self.mine is None or head.ply < self.mine.ply:
            return []
        self.mine = self.mine_record = None
        released, self.held = self.held, []
        return released

    def lapse(
        self,
        author: bytes,
        ply: int,
        digest: bytes,
        head: TableState,
        digest_of: Callable[[SignedRecord], bytes | None],
    ) -> list[SignedRecord]:
        """An ACK by ``author`` for ``ply``: if it is a needed voter acking a held record,
        this peer's vote can never be honoured: drop it and release the held records, the
        acked one first.  Returns them (empty when nothing changes)."""
        mine = self.mine
        if mine is None or not self.frozen(head) or ply != mine.ply or author == self.me:
            return []
        if author not in head.peers or author in mine.removed:
            return []
        for record in self.held:
            if digest_of(record) == digest:
                rest = [r for r in self.held if r is not record]
                self.mine = self.mine_record = None
                self.held = []
                return [record, *rest]
        return []

    # --- deciding -----------------------------------------------------------------------
    def decide(
        self,
        start: TableStart,
        head: TableState,
        history: Sequence[TableState],
        removable: Collection[bytes],
        mover: bytes | None = None,
    ) -> Decision | None:
        """What this peer signs (or drops) now about removals, if anything (module
        docstring); ``mover`` is the peer to move at ``head``."""
        me = self.me
        if me is None or me not in head.peers:
            return None
        mine = self.mine if self.frozen(head) else None
        if mine is not None and appender_of(head, mine.removed) == me:
            votes = self._matching(mine)
            remaining = [p for p in head.peers if p not in set(mine.removed)]
            if all(peer in votes for peer in remaining):
                return Append(mine, tuple(votes[peer].envelope for peer in remaining))
            if not set(mine.removed) & set(removable):
                released, self.held = tuple(self.held), []
                self.mine = self.mine_record = None
                return Withdraw(released)
        absent = tuple(p for p in head.peers if p != me and p in removable)
        best: Decision | None = None
        size = 0 if mine is None else len(mine.removed)
        grows = mine is None or set(absent) > set(mine.removed)
        if absent and grows and leaves_majority(head.peers, absent):
            best = Propose(absent) if appender_of(head, absent) == me else None
            size = len(absent) if best else size
        if mover == me:
            return best  # to move, it moves before it follows anyone
        for author, kept in self._votes.get(head.chain_digest, {}).items():
            if author == me or author not in head.peers:
                continue
            for proposal, _record in kept:
                if len(proposal.removed) <= size or not set(proposal.removed) <= set(absent):
                    continue
                if mine is not None and not set(proposal.removed) > set(mine.removed):
                    continue
                if check_proposal(start, head, history, proposal, author) is None:
                    best, size = Follow(proposal), len(proposal.removed)
        return best


def proposal_of(record: SignedRecord) -> Proposal | None:
    """The proposal a VOTE or REMOVE binds, None if malformed."""
    try:
        return read_proposal(record.body)
    except Malformed:
        return None
