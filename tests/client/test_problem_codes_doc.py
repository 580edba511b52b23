"""The problem codes of ``palabre verify --json``: every one documented, every one made.

Other verifiers and tests compare codes, not sentences, so the list in docs/LOG_FORMAT.md
(with each code's severity and exit code) must be exactly the product's, and every code the
verifier and the table's ply rules can give must be in it.
"""

from __future__ import annotations

import re
from pathlib import Path

from client.logs.verify_report import INCOMPLETE, INVALID, PROBLEM_CODES, Problem

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "LOG_FORMAT.md").read_text(encoding="utf-8")
EXITS = {INVALID: 1, INCOMPLETE: 3}


def documented() -> dict[str, tuple[str, int]]:
    table = DOC.split("<!-- problem-codes:", 1)[1].split("\n\n", 1)[0]
    rows = re.findall(r"^\| `([a-z-]+)` \| (\w+) \| (\d) \|", table, re.M)
    return {code: (severity, int(exit_code)) for code, severity, exit_code in rows}


def test_the_documented_codes_are_the_products() -> None:
    table = documented()
    assert len(table) == len(PROBLEM_CODES) > 30
    assert table == {code: (sev, EXITS[sev]) for code, sev in PROBLEM_CODES.items()}


def test_every_code_in_the_source_is_documented() -> None:
    """Codes given where problems are made (the verifier, the claims judge, every ply rule):
    each a literal the list holds, so a code reached only by a rare path is covered too."""
    made: set[str] = set()
    for path in (ROOT / "client").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        made |= set(re.findall(r'code ?= ?"([a-z-]+)"', text))
        if path.name in ("verifier.py", "verify_claims.py"):
            made |= set(re.findall(r'(?:invalid|problem)\(\s*"([a-z-]+)"', text))
            made |= set(re.findall(r'\(\s*"([a-z-]+)",\s*INCOMPLETE', text))
    assert len(made) > 30
    assert made <= set(PROBLEM_CODES), made - set(PROBLEM_CODES)
    # only a torn tail's two codes are chosen at run time (a tuple, not a literal call)
    assert set(PROBLEM_CODES) - made <= {"torn-tail", "bad-length"}


def test_an_undocumented_code_is_a_bug_caught_at_once() -> None:
    try:
        Problem(INVALID, "a sentence", code="no-such-code")
    except ValueError as error:
        assert "no-such-code" in str(error)
    else:
        raise AssertionError("an undocumented code was accepted")
    try:
        Problem(INCOMPLETE, "a sentence", code="fork")  # a fork is never merely incomplete
    except ValueError:
        pass
    else:
        raise AssertionError("a code was accepted with another severity")
