"""Game files written by real peer processes over loopback verify, as a user would run it.

``palabre demo --out DIR`` plays Consensus between four peer processes; every file it keeps
verifies with exit 0, and ``palabre log show`` / ``log export`` read it.  A table of four
``palabre host`` / ``join`` processes agreeing a draw leaves files whose DRAW carries every
peer's signed acceptance: they verify too.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtGui import QImage

from client.logs.verifier import verify_file
from tests.e2e.tables import ROOT, Table

pytestmark = pytest.mark.e2e


def palabre(*args: str, home: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PALABRE_HOME": str(home), "QT_QPA_PLATFORM": "offscreen"}
    return subprocess.run(
        [sys.executable, "-m", "ui.entry", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=180,
        env=env,
    )


def test_the_files_of_a_four_process_demo_verify(tmp_path: Path) -> None:
    out = tmp_path / "kept"
    demo = palabre("demo", "--game", "consensus", "--seed", "2", "--out", str(out), home=tmp_path)
    assert demo.returncode == 0, demo.stdout + demo.stderr
    files = sorted(out.iterdir())
    assert len(files) == 4
    # kept as private as the profile's own game files (LOG_FORMAT.md section 1: mode 0600)
    assert [stat.S_IMODE(path.stat().st_mode) for path in files] == [0o600] * 4
    for path in files:
        run = palabre("verify", str(path), home=tmp_path)
        assert run.returncode == 0, run.stdout
        assert "verdict:  valid and complete (exit 0)" in run.stdout
        report = json.loads(palabre("verify", "--json", str(path), home=tmp_path).stdout)
        assert report["plies"] == report["final"] > 0 and report["ended"]
        assert len(report["peers"]) == 4 and report["problems"] == []
    show = palabre("log", "show", str(files[0]), home=tmp_path)
    assert show.returncode == 0 and show.stdout.splitlines()[-1] == "log:      valid and complete"
    plies = report["plies"]
    board = palabre("log", "show", str(files[0]), "--ply", str(plies), home=tmp_path)
    assert board.returncode == 0 and board.stdout.startswith(f"position after ply {plies}: ")
    picture = tmp_path / "end.png"
    export = palabre(
        "log", "export", str(files[0]), "--ply", str(plies), "--png", str(picture), home=tmp_path
    )
    assert export.returncode == 0, export.stderr
    image = QImage(str(picture))
    assert (image.width(), image.height()) == (800, 800)


def test_the_files_of_an_agreed_draw_between_four_processes_verify(tmp_path: Path) -> None:
    table = Table(tmp_path)
    try:
        accept = "accept_draws=1"
        table.host("consensus", "--bot", "--bot-delay", "300", faults=accept)
        for seat, faults in ((2, "offer_draw_at=4"), (3, accept), (4, accept)):
            table.join(f"P{seat}", "--seat", str(seat), "--bot", "--bot-delay", "300",
                       faults=faults)  # fmt: skip
        assert table.finish() == [0, 0, 0, 0], table.outputs()
    finally:
        table.kill()
    files = sorted((tmp_path / "profiles").glob("*/games/*.palabre-log"))
    assert len(files) == 4
    for path in files:
        report = verify_file(path).report
        assert report.problems == [], report.lines()
        assert report.result is not None and report.result.reason == "agreement"
        assert report.signatures > report.records  # the DRAW's embedded acceptances


def test_a_peer_killed_mid_game_leaves_a_file_that_reopens_and_verifies_incomplete(
    tmp_path: Path,
) -> None:
    """SIGKILL one of four peer processes mid-game.  Until rejoining exists (the mesh issue),
    what can be checked: its file holds only whole records up to the kill, reopens for
    appending, and verifies as valid but incomplete; so do the files of the others."""
    from net.logfile import LogWriter

    table = Table(tmp_path)
    try:
        # No vote can remove the victim (which would let the others finish the game): the
        # test ends on an event, the host seeing its link to the victim lost, not on a clock.
        table.host("consensus", "--bot", "--bot-delay", "100", "--away-timeout", "600")
        for seat in (2, 3, 4):
            table.join(f"P{seat}", "--seat", str(seat), "--bot", "--bot-delay", "100")
        victim = table.procs[3]
        victim.wait_for(r"^\s*6\. ", timeout=60)
        victim.process.kill()  # SIGKILL: no chance to close anything
        victim.process.wait()
        table.procs[0].wait_for(r"^link: P4: ", timeout=60)
    finally:
        table.kill()  # the others too, as abruptly
    files = {path.parts[-3]: path for path in (tmp_path / "profiles").glob("*/games/*.palabre-log")}
    assert sorted(files) == ["host", "p2", "p3", "p4"]
    for name, path in files.items():
        report = verify_file(path).report
        assert report.exit_code == 3, (name, report.lines())
        assert report.plies >= 6 and report.result is None
    writer, contents = LogWriter.reopen(files["p4"])
    writer.close()
    assert contents.torn is None or contents.torn.kind == "short"
    assert len(contents.records) == verify_file(files["p4"]).report.records
