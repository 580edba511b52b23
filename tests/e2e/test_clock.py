"""Clocked tables end to end (issue 27): real peer processes over loopback TCP, as a user
runs them with ``palabre host --clock``; every game file verified by ``palabre verify``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.e2e.tables import ROOT, Table

pytestmark = pytest.mark.e2e


def clock_tables(table: Table) -> list[dict[str, object]]:
    """``verify --json``'s clock field of every peer's game file (each must be valid)."""
    tables = []
    for proc in table.procs:
        files = sorted((table.home / "profiles" / proc.name / "games").glob("*.palabre-log"))
        assert len(files) == 1, table.outputs()
        done = subprocess.run(
            [sys.executable, "-m", "client", "verify", "--json", str(files[0])],
            cwd=ROOT,
            capture_output=True,
            text=True,
            env={"PALABRE_HOME": str(table.home), "PALABRE_MDNS": "off", "PATH": "/usr/bin:/bin"},
            timeout=120,
        )
        report = json.loads(done.stdout)
        assert done.returncode == 0, report["problems"]
        tables.append(report["clock"])
    return tables


def test_a_clocked_consensus_game_ends_everywhere_with_one_clock_table(table: Table) -> None:
    """Fault 1, the baseline: every ply carries the four ACKs of the ply before it, and the
    four files verify with the same clock table and no disputed ply."""
    table.host("consensus", "--clock", "5+3", "--bot", "--bot-delay", "0")
    for seat in (2, 3, 4):
        table.join(f"P{seat}", "--seat", str(seat), "--bot", "--bot-delay", "0")
    assert table.finish() == [0, 0, 0, 0], table.outputs()
    clocks = clock_tables(table)
    assert all(clock == clocks[0] for clock in clocks)
    first = clocks[0]
    assert isinstance(first, dict) and first["base_ms"] == 300_000
    plies = first["plies"]
    assert isinstance(plies, list) and len(plies) > 20
    assert all(len(ply["figures"]) == 4 for ply in plies)
    assert not any(ply["late"] or ply["disputed"] for ply in plies)
    assert all(type(figure) is int for ply in plies for figure in ply["figures"])


def test_the_host_refuses_a_time_control_it_cannot_read(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "client", "host", "--game", "consensus", "--clock", "five"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={"PALABRE_HOME": str(tmp_path), "PALABRE_MDNS": "off", "PATH": "/usr/bin:/bin"},
        timeout=60,
    )
    assert done.returncode == 2
    assert "--clock: write a time control as minutes+seconds, like 5+3, not 'five'" in done.stderr
    assert "Traceback" not in done.stderr
