"""Takeback by consent end to end: four real peer processes over loopback TCP.

P2 asks to take back its own move (``PALABRE_TEST_FAULTS`` ``takeback_at``, at a ply
number, never after a sleep); every peer is a bot peer, so each consents by itself; the
player to move appends the TAKEBACK; the game goes on to its end and every peer's game file
verifies with ``palabre verify`` (exit 0) and shows the takeback in ``palabre log show``.
"""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from tests.e2e.tables import ROOT, Table
from tests.e2e.test_table import assert_same_final_chain, four_peers, results

pytestmark = pytest.mark.e2e


def palabre(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "client", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_a_takeback_by_consent_of_four_peers_and_every_file_verifies(table: Table) -> None:
    delays = {name: "300" for name in ("host", "P2", "P3", "P4")}
    codes = four_peers(table, {"P2": "takeback_at=5"}, **delays)
    assert codes == [0, 0, 0, 0], table.outputs()
    assert_same_final_chain(table)
    asked = re.search(r"^faulty_peer: asks to take back ply (\d+)$", table.procs[1].output, re.M)
    assert asked, table.outputs()
    ply = int(asked.group(1))
    for proc in table.procs:
        out = proc.output
        assert re.search(
            rf"^takeback: Bot 2 of P2 \(normal\) asks to take back ply {ply}$", out, re.M
        )
        consented = rf"^takeback: Bot \d of (\w+) \(normal\) consents to take back ply {ply}$"
        consents = re.findall(consented, out, re.M)
        assert sorted(consents) == ["Host", "P3", "P4"], out
        assert re.search(
            rf"^\s*{ply + 1}\. Bot \d of \w+ .*ply {ply} taken back\s+final$", out, re.M
        )
        assert "REJECTED" not in out
    for peer in results(table):
        assert peer.game_file is not None
        done = palabre("verify", str(peer.game_file))
        assert done.returncode == 0, done.stdout + done.stderr
        assert "valid and complete (exit 0)" in done.stdout
        shown = palabre("log", "show", str(peer.game_file))
        assert shown.returncode == 0, shown.stdout + shown.stderr
        assert re.search(rf"^\s*{ply + 1}\.  seat \d\s+ply {ply} taken back\s+final", shown.stdout,
                         re.M), shown.stdout  # fmt: skip
        assert f"(P2) asks to take back ply {ply}" in shown.stdout
