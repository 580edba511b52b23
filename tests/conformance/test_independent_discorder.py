"""Discorder's digests from the docs alone: ``independent_discorder.py`` (stdlib and msgpack,
nothing of palabre) replays real Discorder logs and must match every ACK and END palabre's
peers signed; and it must notice a digest that is wrong."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = Path(__file__).with_name("independent_discorder.py")
LOGS = [
    ROOT / "docs" / "examples" / "discorder.palabre-log",
    *sorted((ROOT / "conformance" / "real").glob("discorder-*.palabre-log")),
    ROOT / "conformance" / "crafted" / "discorder-honest.palabre-log",
]


def run(*logs: Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    # -I: isolated, so neither the working folder nor PYTHONPATH can lend it palabre's code
    command = [sys.executable, "-I", str(SCRIPT), *map(str, logs)]
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=120)


def test_it_imports_nothing_of_palabre() -> None:
    tree = ast.parse(SCRIPT.read_text(encoding="utf-8"))
    names = {
        alias.name.split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
    }
    names |= {
        (node.module or "").split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom)
    }
    assert names <= {"hashlib", "struct", "sys", "msgpack"}, names


def test_it_matches_every_chain_digest_palabre_signed(tmp_path: Path) -> None:
    assert len(LOGS) >= 7  # whole games, a spectator, takeback and draw, resignation, abandon
    done = run(*LOGS, cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.count(" 0 differ") == len(LOGS)
    assert "66 plies" in done.stdout  # a whole game, to the full board


def test_it_notices_a_digest_that_is_not_the_replays(tmp_path: Path) -> None:
    wrong = ROOT / "conformance" / "crafted" / "discorder-wrong-digest.palabre-log"
    done = run(wrong, cwd=tmp_path)
    assert done.returncode == 1 and " 1 differ" in done.stdout, done.stdout + done.stderr
