"""Ctrl-C in ``palabre host`` and ``palabre join`` mid-game: the player leaves with the leave
notice, then one line, exit 130, no traceback, and a game file that verifies; the other peer
acts on the notice at once (a table of two ends as abandoned) instead of after the away
timeout (60 s here)."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

import pytest

from net.invite import parse_invite
from tests.e2e.tables import ROOT, Proc, Table, peer_command

pytestmark = pytest.mark.e2e


def _spawn(table: Table, name: str, args: list[str]) -> Proc:
    """A peer that takes Ctrl-C as a terminal's would: SIGINT at its default (a shell's
    background job, CI's included, may have it ignored)."""
    out = table.home / f"{name}.out"
    with open(out, "w") as sink:
        process = subprocess.Popen(
            peer_command(name, args), cwd=ROOT, stdout=sink, stderr=subprocess.STDOUT,
            text=True, env=table.env(),
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        )  # fmt: skip
    proc = Proc(name, process, out)
    table.procs.append(proc)
    return proc


def _interrupt(proc: Proc) -> None:
    proc.process.send_signal(signal.SIGINT)
    assert proc.process.wait(timeout=30) == 130, proc.output
    assert proc.output.rstrip().endswith("palabre: interrupted"), proc.output
    assert "Traceback" not in proc.output


def _verify(table: Table, name: str) -> int:
    files = sorted((table.home / "profiles" / name / "games").glob("*.palabre-log"))
    assert len(files) == 1
    return subprocess.run(
        [sys.executable, "-m", "client", "verify", str(files[0])],
        cwd=ROOT, capture_output=True, text=True, timeout=60, env=table.env(),
    ).returncode  # fmt: skip


def _two_peers(table: Table) -> tuple[Proc, Proc]:
    """A host (with two bots) and bruno (one bot), both headless, on loopback."""
    common = ["--headless", "--bot", "--bot-delay", "400", "--no-announce"]
    host = _spawn(table, "host", ["host", "--game", "consensus", "--port", "0", "--bots",
                                  "2", *common])  # fmt: skip
    table.invite = parse_invite(host.wait_for(r"^Invite: (\S+)$")[1])
    return host, _spawn(table, "bruno", ["join", table.loopback_invite(), *common[:-1]])


def test_ctrl_c_in_join_leaves_with_the_notice_and_the_host_ends_the_table_at_once(
    tmp_path: Path,
) -> None:
    table = Table(tmp_path)
    try:
        host, joiner = _two_peers(table)
        joiner.wait_for(r"^\s+6\. .* final$", 60)
        _interrupt(joiner)
        assert "You left the table (Ctrl-C)." in joiner.output
        host.wait_for(r"^left: \S+ left the table \(ply \d+\)$", 30)
        assert host.process.wait(timeout=30) == 0, host.output  # well before the away timeout
        assert "abandoned" in host.output
        assert _verify(table, "host") == 0  # valid and complete: ended as abandoned
        assert _verify(table, "bruno") == 3  # valid, incomplete: it left before the end
    finally:
        table.kill()


def test_ctrl_c_in_host_leaves_too(tmp_path: Path) -> None:
    """The host is a peer like the others: its Ctrl-C ends the joiner's table of two."""
    table = Table(tmp_path)
    try:
        host, joiner = _two_peers(table)
        host.wait_for(r"^\s+4\. .* final$", 60)
        _interrupt(host)
        assert joiner.process.wait(timeout=30) == 0, joiner.output
        assert _verify(table, "bruno") == 0
        assert _verify(table, "host") == 3
    finally:
        table.kill()
