"""The verifier's ``seq`` numbers: one record per author and ``seq``, no jump, and the gaps.

An honest author numbers its records at a table 1, 2, 3 ... (PROTOCOL.md section 4), and a
live table refuses a record whose ``seq`` jumps more than ``client.rules.seq_book.SEQ_WINDOW``
past its author's highest so far (docs/SECURITY.md, "Seq bomb").  ``SeqLedger`` checks the
same in file order (the order the writer took the records in) and, at the end, lists each
author's missing numbers as ranges.

Invariants: memory follows the number of records, never the ``seq`` values (a record with
seq 2**63 - 1 costs what any other costs); a record refused for its jump is not noted, so
it leaves no gap behind it; ranges are sorted, disjoint and never empty.
"""

from __future__ import annotations

from dataclasses import dataclass

from client.rules.seq_book import seq_jump

__all__ = ["Missing", "SeqLedger", "why_missing"]


@dataclass(frozen=True)
class Missing:
    """The ``seq`` numbers of one author that a log lacks, below the highest it holds."""

    author: bytes
    ranges: tuple[tuple[int, int], ...]
    """``(first, last)`` of each run of missing numbers, both included, in order."""
    highest: int

    @property
    def count(self) -> int:
        return sum(last - first + 1 for first, last in self.ranges)

    def listed(self, most: int = 8) -> str:
        """``5, 9 to 12, 40 …``: the first ``most`` runs."""
        runs = [str(a) if a == b else f"{a} to {b}" for a, b in self.ranges[:most]]
        return ", ".join(runs) + (" …" if len(self.ranges) > most else "")


class SeqLedger:
    """Every ``(author, seq)`` of a log, with the record (its index) that took it first."""

    def __init__(self) -> None:
        self._first: dict[tuple[bytes, int], int] = {}
        self._highest: dict[bytes, int] = {}

    def jump(self, kind: str, author: bytes, seq: int) -> str | None:
        """Why this record's ``seq`` is too far past its author's so far (None: it is not)."""
        return seq_jump(kind, seq, self._highest.get(author, 0))

    def note(self, author: bytes, seq: int, index: int) -> int:
        """Note record ``index``; the index of the first record with this author and seq."""
        first = self._first.setdefault((author, seq), index)
        if seq > self._highest.get(author, 0):
            self._highest[author] = seq
        return first

    def missing(self) -> list[Missing]:
        """Each author's missing numbers from 1 up to its highest, in the order authors
        first appear."""
        by_author: dict[bytes, list[int]] = {}
        for author, seq in self._first:
            by_author.setdefault(author, []).append(seq)
        found = []
        for author, seqs in by_author.items():
            seqs.sort()
            ranges, last = [], 0
            for seq in seqs:
                if seq > last + 1:
                    ranges.append((last + 1, seq - 1))
                last = seq
            if ranges:
                found.append(Missing(author, tuple(ranges), last))
        return found


def why_missing(*, damaged: bool, cut: bool) -> str:
    """Why an author's records are missing from a log, and why its writer did not lose them.

    A palabre writes every record it takes to its game file before anything else (it sends
    nothing it has not written) and only ever appends, so an undamaged honest file lacks
    only records it never took — or, after a crash, the one record cut at its end.  A log
    cannot say which of the author's reasons it was; it can say it was not the writer's
    doing, short of someone editing the file."""
    because = (
        "their author never sent them to this log's writer (it skipped those numbers, or "
        "sent those records to others only), or they had not reached the writer when this "
        "file ends, or the writer refused them (its evidence files keep those)"
    )
    if damaged:
        return f"{because}, or they sat in the damaged bytes of this file"
    if cut:
        return f"{because}, or one of them was the record a crash cut at the end of this file"
    return (
        f"{because}; not the writer's loss: a palabre writes each record it takes before "
        "anything else, so only an edit of the file could have taken one out"
    )
