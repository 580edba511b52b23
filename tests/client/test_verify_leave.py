"""LEAVE in a game log: a notice on a position of the chain verifies; one on another
position, or a ply its author signs after it, is invalid (docs/LOG_FORMAT.md)."""

from __future__ import annotations

from pathlib import Path

from client.logs.verifier import verify_file
from client.logs.verify_report import Report
from engines import Outcome, find_engine
from tests.client.gamelogs import Script
from tests.client.test_verify_remove import four, votes_and_remove

DISCORDER = find_engine("discorder")


def verify(script: Script, tmp_path: Path) -> Report:
    return verify_file(script.write(tmp_path / "leave.palabre")).report


def _leave(script: Script, who: str, ply: int | None = None) -> None:
    state = script.chain.head if ply is None else script.chain.at(ply)
    script.sign(who, "LEAVE", {"ply": state.ply, "digest": state.chain_digest})


def test_a_two_peer_table_abandoned_on_a_leave_verifies(tmp_path: Path) -> None:
    script = Script(DISCORDER, ["A", "B"], seed=6)
    script.ack()
    script.play(3)
    _leave(script, "B")
    b = script.identity("B").key
    script.end("A", absent=(b,), result=Outcome((), False, "abandoned", "B left the table."))
    report = verify(script, tmp_path)
    assert report.problems == [], report.lines()
    assert report.result is not None and report.result.reason == "abandoned"


def test_a_leave_then_a_remove_verifies(tmp_path: Path) -> None:
    script = four()
    script.play(4)
    _leave(script, "D")
    votes_and_remove(script)
    script.ack()
    script.play()
    script.end()
    report = verify(script, tmp_path)
    assert report.problems == [] and report.exit_code == 0, report.lines()


def test_a_leave_on_another_position_is_invalid(tmp_path: Path) -> None:
    script = Script(DISCORDER, ["A", "B"], seed=6)
    script.ack()
    script.play(3)
    script.sign("B", "LEAVE", {"ply": 2, "digest": script.chain.at(1).chain_digest})
    report = verify(script, tmp_path)
    assert [p.code for p in report.problems if p.severity == "invalid"] == ["bad-leave"]
    assert report.exit_code == 1


def test_a_ply_signed_after_its_authors_leave_is_invalid(tmp_path: Path) -> None:
    script = Script(DISCORDER, ["A", "B"], seed=6)
    script.ack()
    while DISCORDER.to_move(script.chain.head.engine_state) != 2:
        script.move()
        script.ack()
    _leave(script, "B")
    script.move()  # seat 2 is B's: a move after it left
    report = verify(script, tmp_path)
    assert "after-leave" in [p.code for p in report.problems]
    assert report.exit_code == 1
