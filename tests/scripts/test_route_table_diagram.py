"""docs/ARCHITECTURE.md's route table diagram is the one the code draws
(scripts/route_table_diagram.py, from a real ``Table.routes``): it fails when it is stale."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "route_table_diagram.py"
DOC = ROOT / "docs" / "ARCHITECTURE.md"


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), *args], cwd=ROOT, capture_output=True, text=True, timeout=120
    )


def test_the_doc_holds_the_route_table_the_code_has() -> None:
    done = _run("--check")
    assert done.returncode == 0, done.stderr
    text = DOC.read_text(encoding="utf-8")
    for part in ("TablePlies.on_ply", "TableClaims.on_claim", "TableOutside.on_outside"):
        assert part in text  # the block is filled, not empty between its markers


def test_a_stale_diagram_fails_the_check_and_is_redrawn(tmp_path: Path) -> None:
    stale = tmp_path / "ARCHITECTURE.md"
    stale.write_text(
        DOC.read_text(encoding="utf-8").replace("TableClaims.on_claim", "TableClaims.on_ack"),
        encoding="utf-8",
    )
    check = _run("--check", "--doc", str(stale))
    assert check.returncode == 1 and "stale" in check.stderr
    assert _run("--doc", str(stale)).returncode == 0
    assert stale.read_text(encoding="utf-8") == DOC.read_text(encoding="utf-8")


def test_a_doc_without_the_markers_is_refused(tmp_path: Path) -> None:
    bare = tmp_path / "bare.md"
    bare.write_text("# no diagram here\n", encoding="utf-8")
    done = _run("--doc", str(bare))
    assert done.returncode == 2 and "no markers" in done.stderr
    assert bare.read_text(encoding="utf-8") == "# no diagram here\n"
