"""What has come in to one peer's table and waits to be handled: arrival order, the record
hashes seen, the seqs of each author, and the records that came early.

``TableInbox`` is part of the shared state of ``client.tabletop.table.Table`` (beside
``client.tabletop.table_ledger.TableLedger``, which holds it).  Invariants:

* ``arrived`` keeps arrival order (records received, and this peer's own as it signs them);
  ``released`` (buffered records whose predecessor came, seen already) is handled first;
* a record hash is ``seen`` once; one forgotten (``forget``) is taken again from a copy;
* the early buffer holds at most ``BUFFER_LIMIT`` records, none more than ``BUFFER_WINDOW``
  plies ahead of the head; ``early_since`` is when it last became non-empty (or was last
  emptied of a ply's records).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence

from client.rules.records import SignedRecord
from client.rules.seq_book import SeqBook

__all__ = ["BUFFER_LIMIT", "BUFFER_WINDOW", "TableInbox"]

BUFFER_LIMIT = 1024
"""Records held while waiting for their predecessor (all kinds together)."""
BUFFER_WINDOW = 256
"""How many plies ahead of the head a record may be and still be buffered."""


class TableInbox:
    """Arrival order, seen hashes, seqs (``client.rules.seq_book``) and the early buffer."""

    def __init__(self, start: SignedRecord) -> None:
        self.arrived: deque[SignedRecord] = deque()
        self.released: deque[SignedRecord] = deque()
        """Buffered records whose predecessor arrived: seen already, handled first."""
        self.seen: set[bytes] = set()
        self.seqs = SeqBook(start)  # a reused seq: client.rules.seq_book
        self._early: dict[int, list[SignedRecord]] = {}
        self._early_count = 0
        self.early_since = 0.0

    @property
    def waiting(self) -> bool:
        """Whether records wait in the early buffer."""
        return self._early_count > 0

    def forget(self, record: SignedRecord) -> None:
        """Take ``record`` again when a copy comes."""
        self.seen.discard(record.record_hash)

    def hold(self, record: SignedRecord, ready_at: int, head_ply: int, now: float) -> bool:
        """Keep ``record`` until the head reaches ply ``ready_at``; False (forgotten, so a
        later copy is taken) when it is too far ahead or the buffer is full."""
        if ready_at > head_ply + BUFFER_WINDOW or self._early_count >= BUFFER_LIMIT:
            self.forget(record)
            return False
        if not self._early_count:
            self.early_since = now
        self._early.setdefault(ready_at, []).append(record)
        self._early_count += 1
        return True

    def held_for(self, ply: int) -> Sequence[SignedRecord]:
        """The records waiting for ply ``ply`` (still held)."""
        return self._early.get(ply, ())

    def release(self, ply: int, now: float) -> None:
        """Ply ``ply`` was applied: what waited for it is handled next."""
        ready = self._early.pop(ply, [])
        self._early_count -= len(ready)
        self.released.extend(ready)
        if ready:
            self.early_since = now
