"""A seq bomb in a game file: one validly signed record with a huge ``seq`` (issue 19).

Before the fix, ``palabre verify`` and ``palabre log show`` listed an author's missing
``seq`` numbers as ``set(range(1, highest))``: a CHAT with seq 2**63 - 1 made them eat every
byte of memory.  These tests run the real commands in a child process whose address space
is capped (``RLIMIT_AS``), so a verifier whose memory follows the ``seq`` values fails at
once instead of eating the machine; the report must come back, with the reason, and the
other authors' gaps must be reported as ranges in memory that follows the records.
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
from pathlib import Path

from client.logs.verifier import verify_file
from client.logs.verify_report import INCOMPLETE, INVALID
from client.rules.seq_book import SEQ_WINDOW
from engines import find_engine
from net.records import MAX_SEQ
from tests.client.envelopes import signed
from tests.client.gamelogs import Script

ROOT = Path(__file__).resolve().parents[2]
MEMORY = 1 << 30
"""The child's address space: far more than verifying a short game takes (about 250 MiB
of it is the interpreter, its libraries and a thread's arena), far less than a set of
``seq`` numbers up to 2**63."""


def bombed_game(path: Path, seq: int = MAX_SEQ) -> Path:
    """A finished 2-player Discorder game whose player A also signed a CHAT with ``seq``,
    in the middle of the game, and went on numbering its records as before."""
    script = Script(find_engine("discorder"), ["A", "B"])
    script.ack()
    script.play(2)
    bomb = signed(script.keys["A"], script.table_id, seq, "CHAT", {"text": "boom"})
    script.records.append(bomb)
    script.play()
    script.end()
    return script.write(path)


def run_capped(*args: str) -> subprocess.CompletedProcess[str]:
    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))

    return subprocess.run(
        [sys.executable, "-m", "client", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=cap,
    )


def test_verify_reports_a_seq_bomb_with_its_reason_in_bounded_memory(tmp_path: Path) -> None:
    path = bombed_game(tmp_path / "bomb.palabre")
    done = run_capped("verify", "--json", str(path))
    assert "Traceback" not in done.stderr, done.stderr
    report = json.loads(done.stdout)
    assert report["exit"] == 1, report
    [bomb] = [p for p in report["problems"] if "9223372036854775807" in p["reason"]]
    assert bomb["severity"] == INVALID and bomb["record"] is not None
    assert bomb["code"] == "seq-jump"
    assert "seq 9223372036854775807" in bomb["reason"] and "(A)" in bomb["reason"]
    assert f"{SEQ_WINDOW:,}" in bomb["reason"]
    # the refused number leaves no hole behind: A's other records are all there
    assert not [p for p in report["problems"] if "are not in this log" in p["reason"]], report
    assert report["plies"] > 2 and report["ended"]


def test_log_show_replays_a_seq_bomb_in_bounded_memory(tmp_path: Path) -> None:
    path = bombed_game(tmp_path / "bomb.palabre")
    done = run_capped("log", "show", str(path))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    assert done.stdout.splitlines()[-1].startswith("log:      invalid, 1 problem(s)")


def test_gaps_are_counted_as_ranges_whatever_the_seq_values(tmp_path: Path) -> None:
    """A's records jump by just under the window, again and again: each jump is taken,
    each gap is reported as a range with its exact size, in one line per author."""
    script = Script(find_engine("discorder"), ["A", "B"])
    script.ack()
    script.play(1)
    seq = script.seqs[script.keys["A"].key]
    for _ in range(50):
        seq += SEQ_WINDOW
        script.records.append(signed(script.keys["A"], script.table_id, seq, "CHAT", {"text": "."}))
    script.seqs[script.keys["A"].key] = seq
    script.play()
    script.end()
    report = verify_file(script.write(tmp_path / "steps.palabre")).report
    assert report.exit_code == 3, [p.line() for p in report.problems]
    [gap] = [p for p in report.problems if "are not in this log" in p.reason]
    assert gap.severity == INCOMPLETE and gap.code == "missing-records"
    assert f"{50 * (SEQ_WINDOW - 1):,} record(s) signed by peer" in gap.reason, gap.reason
    assert "(A)" in gap.reason and " to " in gap.reason
    missing = report.to_json()["missing"]
    assert [m["who"] for m in missing] == [gap.reason.split(" signed by ")[1].split(" are ")[0]]
    assert missing[0]["fingerprint"].startswith(gap.reason.split("peer ")[1][:9])
    assert missing[0]["count"] == 50 * (SEQ_WINDOW - 1)
    assert len(missing[0]["ranges"]) == 50
