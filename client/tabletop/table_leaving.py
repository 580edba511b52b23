"""Leaving on purpose: LEAVE, a peer's own word that it left the table.

``TableLeaving`` is the part of ``client.tabletop.table.Table`` for a player who leaves (the
window's *Leave table*, Ctrl-C or Ctrl-D in a terminal): its peer signs LEAVE ``{ply,
digest}`` on its head, outside the chain, before it goes.  It counts as that peer's own vote
for its removal: the others find it removable at once (``TableLedger.removable``), so they
vote it off with a REMOVE — or a 2-peer table ends as abandoned — without waiting out the
away timeout, through the very path an away peer takes (``client.tabletop.table_removals``).

Invariants:

* a LEAVE counts only when its author is a peer still at the table (the route table
  guards) and it binds a position of this peer's chain: ``digest`` is this peer's chain
  digest at ``ply``.  One for a ply this peer has not reached waits in the early buffer; one
  with another digest is refused as evidence and changes nothing (a bad notice must never end
  a table);
* a LEAVE is final: once this peer holds its own, it is no longer seated (it signs
  nothing more at that table: a spectator if it comes back), and a leaver stays removable
  whatever it sends later;
* the first LEAVE of a peer counts; a later one is logged and changes nothing.
"""

from __future__ import annotations

from client.rules.bodies import read_digest, read_int
from client.rules.errors import IntentRefused, Malformed
from client.rules.records import LEAVE, SignedRecord
from client.tabletop.events import PeerLeft
from client.tabletop.table_ledger import TableLedger


class TableLeaving:
    """LEAVE records: signing this peer's, taking the others'."""

    def __init__(self, ledger: TableLedger) -> None:
        self._ledger = ledger
        self._chain = ledger.chain

    def leave(self) -> None:
        """Sign LEAVE on the head (``IntentRefused`` when this peer is not at the table)."""
        ledger = self._ledger
        if ledger.me is None:
            raise IntentRefused("you are watching this table: there is nothing to leave")
        if not ledger.seated:
            raise IntentRefused("you are no longer at this table")
        if ledger.ended:
            raise IntentRefused("the game is over")
        head = self._chain.head
        ledger.sign_outside(LEAVE, {"ply": head.ply, "digest": head.chain_digest})

    def on_leave(self, record: SignedRecord) -> None:
        """A peer's LEAVE: checked against this peer's chain, then the peer is removable."""
        ledger = self._ledger
        who = ledger.describe(record.author)
        try:
            ply = read_int(record.body, "ply", 0)
            digest = read_digest(record.body, "digest")
        except Malformed as error:
            ledger.reject(record, f"{who} sent a malformed LEAVE: {error}")
            return
        if ply > self._chain.head.ply:
            ledger.buffer(record, ply)  # it saw plies this peer has not applied yet
            return
        if self._chain.at(ply).chain_digest != digest:
            ledger.reject(
                record,
                f"{who} said it left at ply {ply}, but from another position than this "
                "peer's there; the notice was ignored",
            )
            return
        ledger.accept(record)
        if record.author in ledger.left:
            return
        ledger.left[record.author] = ply
        ledger.out.events.append(PeerLeft(record.author, who, ply))
