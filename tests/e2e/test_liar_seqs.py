"""A lying peer's ``seq`` numbers and HALTs against real running tables (issue 19).

* The seq bomb: one validly signed CHAT with seq 2**63 - 1.  Every honest peer refuses it
  (``client.rules.seq_book.SEQ_WINDOW``) and the game goes on; the liar's own file, which holds
  it, verifies in bounded memory, naming it.
* Withheld records: the liar signs chat records it sends to nobody, so its ``seq`` skips
  them in every honest file: each such file says whose records are missing and that their
  author never sent them.
* A false HALT: the liar halts the table with a reason that accuses the host.  Every honest
  peer halts (a HALT always does), but shows the accusation as the liar's claim, never as
  its own finding, and ``palabre verify`` does the same.
"""

from __future__ import annotations

import json
import re
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from net.records import MAX_SEQ
from tests.e2e.tables import ROOT, Proc, Table
from tests.e2e.test_liar import four_with_a_liar, rejected, same_chains, told

pytestmark = pytest.mark.e2e

NAMED = r"peer \S+ \(Liar\)"
MEMORY = 1 << 30  # the verifier's address space (see tests/client/test_verify_seq_bomb.py)


def game_file(table: Table, proc: Proc) -> Path:
    (path,) = (table.home / "profiles" / proc.name / "games").glob("*.palabre-log")
    return path


def verify(table: Table, proc: Proc, *options: str) -> subprocess.CompletedProcess[str]:
    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))

    return subprocess.run(
        [sys.executable, "-m", "client", "verify", *options, str(game_file(table, proc))],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        preexec_fn=cap,
    )


def test_a_seq_bomb_is_refused_and_withheld_records_are_named_as_never_sent(
    table: Table,
) -> None:
    liar = four_with_a_liar(table, "seq_bomb@3;withhold@5:3")
    codes = table.finish()
    assert codes == [0, 0, 0, 0], table.outputs()
    same_chains(table)
    told(liar, "seq_bomb")
    withheld = re.search(
        r"^liar: withhold at ply \d+: chat seq (\d+) to (\d+) withheld", liar.output, re.M
    )
    assert withheld, liar.output
    first, last = int(withheld[1]), int(withheld[2])
    honest = [proc for proc in table.procs if proc is not liar]
    for proc in honest:
        rejected(
            proc,
            rf"{NAMED} signed a CHAT with seq {MAX_SEQ}, [\d,]+ past its last one \(\d+\): an "
            r"author numbers its records one by one, and no table takes a jump of more than "
            r"1,048,576; it was ignored",
        )
        assert not re.search(r"^chat: .*: boom$", proc.output, re.M)
        said = r"^chat: Bot \d of Liar \(normal\): after the withheld ones$"  # its --bot seat
        assert re.search(said, proc.output, re.M)
        assert "Traceback" not in proc.output
        done = verify(table, proc, "--json")
        report = json.loads(done.stdout)
        assert report["exit"] == 3, done.stdout
        [gap] = report["missing"]
        assert re.fullmatch(NAMED, gap["who"]) and gap["ranges"] == [[first, last]]
        assert "never sent them to this log's writer" in gap["why"]
        [problem] = [p for p in report["problems"] if "are not in this log" in p["reason"]]
        assert re.match(
            rf"3 record\(s\) signed by {NAMED} are not in this log \(seq {first} to {last}; ",
            problem["reason"],
        ), problem
        assert all(p["severity"] == "incomplete" for p in report["problems"]), report
    # the liar's own file holds the bomb (written ahead): verified in bounded memory
    done = verify(table, liar)
    assert done.returncode == 1, done.stdout + done.stderr
    assert re.search(
        rf"^invalid: record \d+ at offset \d+: {NAMED} signed a CHAT with seq {MAX_SEQ}, ",
        done.stdout,
        re.M,
    ), done.stdout


def test_a_false_halt_is_shown_as_the_liars_claim_never_as_a_finding(table: Table) -> None:
    liar = four_with_a_liar(table, "false_halt@5:Host")
    codes = table.finish()
    assert codes == [3, 3, 3, 3], table.outputs()
    ply = told(liar, "false_halt") - 1  # the HALT is about the head when it was told
    accusation = rf"peer \S+ \(Host\) signed two different records for ply {ply}"
    for proc in (p for p in table.procs if p is not liar):
        halted = re.findall(rf"^HALTED at ply {ply}: (.*)$", proc.output, re.M)
        assert len(halted) == 1, proc.output
        # the accusation appears only as what the liar's palabre says, in quotes
        assert re.fullmatch(
            rf"{NAMED} halted the table; its palabre says: “{accusation}” \(its claim\)",
            halted[0],
        ) or re.fullmatch(
            rf"peer \S+ \(P\d\) halted the table; its palabre says: “{NAMED} halted the table”"
            r" \(its claim\)",
            halted[0],
        ), halted[0]
        verdict = re.findall(r"^verdict: (.*)$", proc.output, re.M)[-1]
        assert verdict == f"4 of 4 peers agree on ply {ply}", proc.output
        assert "Host) signed two different" not in verdict
        for line in proc.output.splitlines():
            if "signed two different records" in line:
                assert "its palabre says: “" in line, line
        done = verify(table, proc)
        assert done.returncode == 1, done.stdout
        for line in done.stdout.splitlines():
            if "signed two different records" in line:
                assert re.search(rf"{NAMED} halted the table at ply {ply}; its palabre says", line)
        assert "Traceback" not in proc.output
