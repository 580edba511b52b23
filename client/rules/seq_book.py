"""One record per author and ``seq``: the live table catches a reused ``seq``.

An honest peer never signs two different records with one ``seq`` at a table: it writes
each record ahead before sending it and goes on after the highest ``seq`` its log holds
(PROTOCOL.md section 4).  Two different records with one author and ``seq`` are therefore
misconduct, proof that their author rewrote what it had already signed, and ``palabre
verify`` refuses a log that holds both.  ``SeqBook`` remembers the first record taken for
each ``(author, seq)`` and says what a second, different one is (docs/SECURITY.md 3.4):

* **outside the chain, both** (chat, pointing, draw offers and acceptances, votes, takeback
  asks and consents, HALTs): the later one is rejected — never taken, kept as evidence with
  the first, shown to everyone — and the game goes on.  Outside records never change the
  state and are kept in arrival order anyway (DESIGN.md section 4), so two peers keeping
  different ones of the pair agree on everything that matters;
* **either of them in the chain** (START, a ply record, an ACK or an END): the table halts,
  as for equivocation, naming the author, with both records as evidence.  Refusing the
  later one would let the liar split the honest peers, since which one comes later depends
  on the link it came on: one peer would apply a ply (or count an ACK) that another refused
  and never gets past;
* **one slot twice** (two ply records for one ply, two ACKs or two ENDs of one ply): the
  chain's own rules judge them as they would two records with different ``seq``s —
  equivocation or a double claim halts, an illegal ply is rejected — whichever comes first.

A record whose ``seq`` jumps more than ``SEQ_WINDOW`` past the highest ``seq`` its author used
so far (``SeqBook.jump``) is refused before it is noted: an honest author counts its records
one by one, so such a number is a lie, and a file holding it would make a reader's work grow
with the number instead of with the records (docs/SECURITY.md, "Seq bomb").

Only records of this table by keys that may sign at it are noted; a key of no one at the
table is the table's business (it rejects the record).  A peer no longer at the table (a
REMOVE took it off) never halts it: its clash is rejected.  Invariants: the first record of
an ``(author, seq)`` is the one kept; a copy of a record (same hash) is never a clash.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass

from client.rules.records import ACK, CHAIN_KINDS, END, START, SignedRecord

__all__ = ["SEQ_WINDOW", "SeqBook", "SeqClash", "seq_jump"]

SEQ_WINDOW = 1 << 20
"""How far past its author's highest ``seq`` so far a record's ``seq`` may be (1,048,576).
A peer that missed records of an author (cut off, joined late, pulling) sees its next
record at most that many records further on; an honest author signs a few records a ply
(its plies, its ACKs, its chat), so a real table stays orders of magnitude below this."""


@dataclass(frozen=True)
class SeqClash:
    """A second, different record by ``second.author`` with the ``seq`` of ``first``."""

    first: SignedRecord
    second: SignedRecord
    runner: bytes
    """The peer that speaks for the author (itself, or the runner of a bot key)."""
    halts: bool

    @property
    def records(self) -> tuple[SignedRecord, SignedRecord]:
        return self.first, self.second

    @property
    def deed(self) -> str:
        return f"signed two different records with seq {self.second.seq}"

    @property
    def accused(self) -> dict[bytes, str]:
        return {self.runner: self.deed}

    def reason(self, describe: Callable[[bytes], str]) -> str:
        """The sentence every player sees, naming the author and both records."""
        pair = f"{_what(self.first)}, then {_what(self.second)}"
        text = f"{describe(self.second.author)} {self.deed} ({pair})"
        return text if self.halts else f"{text}; the second was ignored"


class SeqBook:
    """The first record taken for each ``(author, seq)`` of one table."""

    def __init__(self, start: SignedRecord) -> None:
        self._table_id = start.table_id
        self._first: dict[tuple[bytes, int], SignedRecord] = {(start.author, start.seq): start}
        self._highest: dict[bytes, int] = {start.author: start.seq}

    def jump(self, record: SignedRecord, runner: bytes | None) -> str | None:
        """Why ``record`` must be refused for its ``seq`` (None: it may be noted): a ``seq``
        more than ``SEQ_WINDOW`` past the highest its author used so far at this table."""
        if record.table_id != self._table_id or runner is None:
            return None
        return seq_jump(record.kind, record.seq, self._highest.get(record.author, 0))

    def clash(
        self, record: SignedRecord, runner: bytes | None, peers: Collection[bytes]
    ) -> SeqClash | None:
        """Note ``record``; the clash it makes with an earlier record, if any (None: the
        table judges it as usual).  ``runner`` speaks for its author (None: no one at the
        table), ``peers`` are the peers at the table now."""
        if record.table_id != self._table_id or runner is None:
            return None
        first = self._first.setdefault((record.author, record.seq), record)
        if record.seq > self._highest.get(record.author, 0):
            self._highest[record.author] = record.seq
        if first.record_hash == record.record_hash or _same_slot(first, record):
            return None
        halts = runner in peers and (_in_chain(first) or _in_chain(record))
        return SeqClash(first, record, runner, halts)


def seq_jump(kind: str, seq: int, highest: int) -> str | None:
    """Why a ``kind`` record numbered ``seq`` by an author whose highest ``seq`` so far is
    ``highest`` is refused (None: it is not too far): the live table's rule, and the
    verifier's, in the words both print after the author's name."""
    if seq <= highest + SEQ_WINDOW:
        return None
    return (
        f"signed a {kind} with seq {seq}, {seq - highest:,} past its last one ({highest}): "
        f"an author numbers its records one by one, and no table takes a jump of more than "
        f"{SEQ_WINDOW:,}"
    )


def _in_chain(record: SignedRecord) -> bool:
    return record.kind in CHAIN_KINDS or record.kind in (START, ACK, END)


def _ply(record: SignedRecord) -> int | None:
    ply = record.body.get("ply")
    return ply if type(ply) is int else None


def _same_slot(a: SignedRecord, b: SignedRecord) -> bool:
    """Two ply records for one ply, or two ACKs (ENDs) of one ply: the chain judges them."""
    if _ply(a) is None or _ply(a) != _ply(b):
        return False
    both_plies = a.kind in CHAIN_KINDS and b.kind in CHAIN_KINDS
    return both_plies or (a.kind == b.kind and a.kind in (ACK, END))


def _what(record: SignedRecord) -> str:
    """``a CHAT``, ``a MOVE for ply 7``, ``an ACK of ply 6``."""
    kind = record.kind
    article = "an" if kind in (ACK, END) else "a"
    ply = _ply(record)
    if ply is None:
        return f"{article} {kind}"
    if kind in CHAIN_KINDS:
        return f"a {kind} for ply {ply}"
    if kind in (ACK, END):
        return f"{article} {kind} of ply {ply}"
    return f"a {kind} about ply {ply}"
