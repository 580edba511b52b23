"""How much evidence a peer writes to disk, and what it only counts.

Evidence is a file next to the game file that lets a player judge a lie later: the signed
records of a seated key that the table refused or halted on.  What anyone can send without
holding a seat's key (a record by a key not at the table, a bad signature, noise on a link,
a silent link) is evidence of nothing: it is counted and shown, never written.

A seated liar can still sign refused records as fast as it can send them, so what is written
has a budget: per author (the key the evidence names first) and per table, in files and in
bytes.  Past it an evidence file is counted, not written; a halt's evidence is always written
(a table halts once, and its file is rewritten in place, not added to).

Invariants: ``admit`` is the only way to spend the budget; counts only grow; nothing here
touches a file.
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = [
    "MAX_EVIDENCE_BYTES_PER_AUTHOR",
    "MAX_EVIDENCE_BYTES_PER_TABLE",
    "MAX_EVIDENCE_FILES_PER_AUTHOR",
    "MAX_EVIDENCE_FILES_PER_TABLE",
    "EvidenceBudget",
]

MAX_EVIDENCE_FILES_PER_AUTHOR = 16
"""Evidence files about one author at one table: a liar's first lies are enough to judge it."""
MAX_EVIDENCE_BYTES_PER_AUTHOR = 2 * 1024 * 1024
"""Bytes of evidence files about one author (a refused record of 64 KiB makes 130 KB)."""
MAX_EVIDENCE_FILES_PER_TABLE = 64
"""Evidence files at one table, whoever they name."""
MAX_EVIDENCE_BYTES_PER_TABLE = 8 * 1024 * 1024
"""Bytes of evidence files at one table, whoever they name."""


@dataclass
class EvidenceBudget:
    """What is left to write, per author and per table, and what was only counted."""

    files: dict[bytes, int] = field(default_factory=dict)
    sizes: dict[bytes, int] = field(default_factory=dict)
    table_files: int = 0
    table_bytes: int = 0
    counted: int = 0
    """Evidence past the budget: counted, not written."""

    def admit(self, author: bytes, size: int) -> bool:
        """Whether a file of ``size`` bytes about ``author`` may be written (and spend it)."""
        files = self.files.get(author, 0)
        spent = self.sizes.get(author, 0)
        if (
            files >= MAX_EVIDENCE_FILES_PER_AUTHOR
            or spent + size > MAX_EVIDENCE_BYTES_PER_AUTHOR
            or self.table_files >= MAX_EVIDENCE_FILES_PER_TABLE
            or self.table_bytes + size > MAX_EVIDENCE_BYTES_PER_TABLE
        ):
            self.counted += 1
            return False
        self.files[author] = files + 1
        self.sizes[author] = spent + size
        self.table_files += 1
        self.table_bytes += size
        return True
