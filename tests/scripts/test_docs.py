"""The docs hold on a fresh clone: every path they name exists in the repository, every
script they name answers ``--help``, and no command needs one developer's machine (an
absolute path, a bare ``pytest``) or a file a clone does not have."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = sorted(
    [
        ROOT / "README.md",
        *ROOT.glob("docs/*.md"),
        *ROOT.glob("docs/rules/*.md"),
        ROOT / "docs" / "examples" / "README.md",
        ROOT / "conformance" / "README.md",
    ]
)
PATH = re.compile(
    r"(?<![\w/.-])((?:scripts|docs|tests|client|net|engines|ui|conformance)/[\w./-]*[\w/])"
)
NOT_IN_A_CLONE = re.compile(r"DESIGN\.md|ENVIRONMENT\.md|STYLE\.md|CLIENT_DESIGN\.md|shared spec")
MACHINE_PATH = re.compile(r"(?<![\w.])/(?:work|home|root|opt)/")
# Inside a code block, or a `code span`: what people copy into a shell.
COMMAND_TEXT = re.compile(r"```.*?```|`[^`\n]+`", re.S)


def _text(doc: Path) -> str:
    return doc.read_text(encoding="utf-8")


def _named_paths() -> dict[str, set[str]]:
    """Each repository path the docs name (a test id's ``::name`` kept), and the docs."""
    found: dict[str, set[str]] = {}
    for doc in DOCS:
        for match in PATH.finditer(_text(doc)):
            end = match.end()
            name = re.match(r"::(\w+\*?)", _text(doc)[end:])
            key = match[1] + (f"::{name[1]}" if name else "")
            found.setdefault(key, set()).add(str(doc.relative_to(ROOT)))
    return found


def _test_def(name: str) -> str:
    """A test's ``def`` line; ``name*`` stands for every test whose name starts so."""
    return rf"^(async )?def {name.rstrip('*')}" + ("" if name.endswith("*") else r"\b")


def test_the_docs_are_found() -> None:
    assert len(DOCS) >= 8 and ROOT / "docs" / "RELIABILITY.md" in DOCS
    assert "scripts/netlab" in _named_paths()  # the extraction works


def test_every_path_the_docs_name_exists() -> None:
    missing = []
    for named, docs in sorted(_named_paths().items()):
        path, _, test = named.partition("::")
        target = ROOT / path
        if "*" in path or not path.rstrip("/"):
            continue
        if not target.exists():
            missing.append(f"{named} (in {', '.join(sorted(docs))})")
        elif test and not re.search(_test_def(test), target.read_text(), re.M):
            missing.append(f"{named}: no such test (in {', '.join(sorted(docs))})")
    assert missing == []


def test_no_doc_points_outside_the_clone() -> None:
    found = []
    for doc in DOCS:
        for number, line in enumerate(_text(doc).splitlines(), 1):
            if NOT_IN_A_CLONE.search(line):
                found.append(f"{doc.name}:{number}: {line.strip()}")
        for block in COMMAND_TEXT.findall(_text(doc)):
            if MACHINE_PATH.search(block):
                found.append(f"{doc.name}: a machine's path: {block.strip()[:80]}")
            for line in block.strip("`").splitlines():
                if re.match(r"\s*pytest\b", line):
                    found.append(f"{doc.name}: bare pytest (use .venv/bin/python -m): {line}")
    assert found == []


def _scripts() -> list[str]:
    return sorted({p for p in _named_paths() if re.fullmatch(r"scripts/[\w.-]+", p)})


@pytest.mark.parametrize("script", _scripts())
def test_every_script_the_docs_name_answers_help(script: str) -> None:
    path = ROOT / script
    command = [sys.executable, str(path)] if script.endswith(".py") else [str(path)]
    if not script.endswith(".py") and _text(path).startswith("#!/usr/bin/env python"):
        command = [sys.executable, str(path)]  # netlab: the venv's Python, as the tests run it
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run(
        [*command, "--help"], cwd=ROOT, capture_output=True, text=True, timeout=120, env=env
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.strip(), f"{script} --help printed nothing"
