"""The evidence budget: per author and per table, in files and bytes; past it, counted."""

from __future__ import annotations

from client.node.evidence_budget import (
    MAX_EVIDENCE_BYTES_PER_AUTHOR,
    MAX_EVIDENCE_FILES_PER_AUTHOR,
    MAX_EVIDENCE_FILES_PER_TABLE,
    EvidenceBudget,
)


def test_one_author_gets_its_files_then_is_counted_and_others_still_get_theirs() -> None:
    budget = EvidenceBudget()
    kept = [budget.admit(b"liar", 100) for _ in range(MAX_EVIDENCE_FILES_PER_AUTHOR + 5)]
    assert kept.count(True) == MAX_EVIDENCE_FILES_PER_AUTHOR and budget.counted == 5
    assert not any(kept[MAX_EVIDENCE_FILES_PER_AUTHOR:])
    assert budget.admit(b"other", 100)


def test_bytes_bound_an_author_before_its_file_count() -> None:
    budget = EvidenceBudget()
    big = MAX_EVIDENCE_BYTES_PER_AUTHOR // 3 + 1
    assert [budget.admit(b"liar", big) for _ in range(3)] == [True, True, False]


def test_the_table_bound_holds_whoever_the_files_name() -> None:
    budget = EvidenceBudget()
    authors = [bytes([n]) for n in range(MAX_EVIDENCE_FILES_PER_TABLE + 1)]
    kept = [budget.admit(author, 10) for author in authors]
    assert kept.count(True) == MAX_EVIDENCE_FILES_PER_TABLE and kept[-1] is False
