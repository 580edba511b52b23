"""REMOVE, abandoned tables and turn authority, on logs signed record by record by the test.

These logs are written record by record by ``gamelogs.Script`` with real keys (so a test can
sign what an honest table never would); the verifier checks them with the table's own rule
for REMOVE (``client.rules.removal.remove_rule``).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from client.logs.log_show import game_lines
from client.logs.verifier import verify_file
from client.logs.verify_report import Report
from client.rules.chain import TableState
from client.rules.records import SignedRecord
from engines import Outcome, find_engine
from tests.client.gamelogs import Script

CONSENSUS = find_engine("consensus")


def four() -> Script:
    script = Script(CONSENSUS, ["A", "B", "C", "D"], seed=5)
    script.ack()  # the genesis
    return script


def votes_and_remove(
    script: Script,
    removed: Sequence[str] = ("D",),
    voters: Sequence[str] = ("A", "B", "C"),
    appender: str = "A",
    runner: str = "A",
    bots: dict[int, str] | None = None,
    vote_change: dict[str, Any] | None = None,
    level: str | None = None,
) -> SignedRecord:
    """Votes (logged outside the chain, then embedded) and the REMOVE for the next ply."""
    head = script.chain.head
    seats = {spec.seat for spec in head.seats if script.name_of(spec.key) in removed}
    bots = bots if bots is not None else {seat: f"new{seat}" for seat in seats}
    body = {
        "ply": head.ply + 1,
        "prev": head.chain_digest,
        "removed": [script.identity(name).key for name in removed],
        "replacements": [
            {"seat": seat, "key": script.identity(bot).key, "runner": script.identity(runner).key}
            | ({} if level is None else {"level": level})
            for seat, bot in sorted(bots.items())
        ],
    }
    votes = [
        script.sign(voter, "VOTE", {**body, **(vote_change or {})}).envelope for voter in voters
    ]
    extra = {k: v for k, v in body.items() if k not in ("ply", "prev")}
    return script.ply(appender, "REMOVE", **extra, votes=votes)


def finish(script: Script) -> None:
    script.play()
    script.end()


def verify(script: Script, tmp_path: Path) -> Report:
    return verify_file(script.write(tmp_path / "removal.palabre")).report


def test_a_removal_voted_by_every_other_peer_verifies(tmp_path: Path) -> None:
    script = four()
    script.play(4)
    votes_and_remove(script)
    script.ack()
    finish(script)
    report = verify(script, tmp_path)
    assert report.problems == [] and report.exit_code == 0
    d = script.identity("D").key
    assert report.removed == [(5, d)]
    bot = report.players[-1]
    assert (bot.seat, bot.key, bot.since_ply) == (4, script.identity("new4").key, 5)
    assert bot.runner == script.identity("A").key and bot.name == "Bot 4 of A"
    assert report.ended and report.final == report.plies
    assert "(removed at ply 5)" in "\n".join(report.lines())


def test_the_level_of_a_replacing_bot_is_in_the_report_and_in_log_show(tmp_path: Path) -> None:
    script = four()
    script.play(4)
    votes_and_remove(script, level="strong")
    script.ack()
    finish(script)
    verification = verify_file(script.write(tmp_path / "removal.palabre"))
    report = verification.report
    assert report.problems == [] and report.exit_code == 0
    bot = report.players[-1]
    assert (bot.seat, bot.since_ply, bot.level, bot.name) == (4, 5, "strong", "Bot 4 of A (strong)")
    assert report.to_json()["players"][-1]["level"] == "strong"  # type: ignore[index]
    assert "Bot 4 of A (strong)  (from ply 5)" in "\n".join(report.lines())
    assert any("Bot 4 of A (strong)" in line for line in game_lines(verification))


def late_move_of_d() -> tuple[Script, TableState, SignedRecord]:
    """Plies until seat 4 (D) is to move, then D's move for the next ply, logged but not
    applied by the script: the record a REMOVE of D will drop."""
    script = four()
    while CONSENSUS.to_move(script.chain.head.engine_state) != 4 or script.chain.head.ply < 3:
        script.move()
        script.ack()
    head = script.chain.head
    move = CONSENSUS.move_to_wire(CONSENSUS.legal_moves(head.engine_state)[0])
    body = {"ply": head.ply + 1, "prev": head.chain_digest, "seat": 4, "move": move}
    return script, head, script.sign("D", "MOVE", body)


def test_a_removal_drops_the_absent_peers_unacked_record(tmp_path: Path) -> None:
    script, head, late = late_move_of_d()
    dropped_state = script.chain.check(late)
    script.sign("D", "ACK", {"ply": head.ply + 1, "digest": dropped_state.chain_digest})
    votes_and_remove(script)
    script.ack()
    finish(script)
    report = verify(script, tmp_path)
    assert report.problems == [], report.lines()
    assert report.removed == [(head.ply + 1, script.identity("D").key)]


def test_a_removal_may_not_drop_a_record_a_remaining_peer_acked(tmp_path: Path) -> None:
    script, head, late = late_move_of_d()
    acked = script.chain.check(late).chain_digest
    script.sign("B", "ACK", {"ply": head.ply + 1, "digest": acked})
    votes_and_remove(script)
    report = verify(script, tmp_path)
    assert report.exit_code == 1
    assert any(
        f"this REMOVE drops the record of ply {head.ply + 1}, which peer" in p.reason
        and "(B) acked already" in p.reason
        for p in report.problems
    )
    assert "remove-over-ack" in [p.code for p in report.problems]


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (
            {"removed": ("C", "D"), "voters": ("A", "B")},
            "would leave 2 of 4 peers, not more than half",
        ),
        ({"voters": ("A", "B")}, "lacks the consent of peer"),
        ({"voters": ("A", "B", "C", "D")}, "who has no say here"),
        ({"appender": "B"}, "the remaining peer with the lowest seat"),
        ({"runner": "B"}, "has its bots run by another peer"),
        ({"bots": {4: "A"}}, "does not give each seat a new bot key"),
        ({"bots": {}}, "replaces seats [] but the removed peers played seats [4]"),
        ({"vote_change": {"prev": bytes(32)}}, "given for another position"),
        ({"vote_change": {"replacements": []}}, "for another removal"),
    ],
)
def test_a_removal_against_the_rules_is_invalid(
    tmp_path: Path, change: dict[str, Any], reason: str
) -> None:
    script = four()
    script.play(2)
    with pytest.raises(Exception, match="ignored"):  # the script's own chain refuses it too
        votes_and_remove(script, **change)
    report = verify(script, tmp_path)
    assert report.exit_code == 1
    [problem] = [p for p in report.problems if p.severity == "invalid"]
    assert problem.ply == 3 and reason in problem.reason, problem.reason
    # the votes are checked as consents are (client/rules/consent.py), the rest by the REMOVE rule
    votes = ("lacks the consent of peer", "who has no say here", "given for another position")
    assert problem.code == ("bad-consents" if reason in votes else "bad-remove"), reason


def test_a_removed_peer_signs_nothing_afterwards(tmp_path: Path) -> None:
    script = four()
    script.play(2)
    votes_and_remove(script)
    script.ack()
    script.sign("D", "CHAT", {"text": "I am back"})
    report = verify(script, tmp_path)
    assert any("was removed at ply 3 and may not sign a CHAT" in p.reason for p in report.problems)
    assert report.exit_code == 1


def test_a_removed_peer_back_from_a_cut_may_ack_the_plies_it_missed(tmp_path: Path) -> None:
    """As on a LAN (tests/lan, scenario 8): D is cut off, the others play ply 3 and remove
    D at ply 4; back, D acks ply 3 before it hears of its removal, and the others log it."""
    script = four()
    script.play(2)
    script.move()
    script.ack("A", "B", "C")
    missed = script.chain.head
    votes_and_remove(script)
    script.ack()
    script.sign("D", "ACK", {"ply": missed.ply, "digest": missed.chain_digest})
    finish(script)
    report = verify(script, tmp_path)
    assert report.problems == [] and report.exit_code == 0, report.lines()


def test_a_removed_peer_may_not_ack_a_ply_after_its_removal(tmp_path: Path) -> None:
    script = four()
    script.play(2)
    votes_and_remove(script)
    script.ack()
    script.move()
    script.ack()
    head = script.chain.head
    script.sign("D", "ACK", {"ply": head.ply, "digest": head.chain_digest})
    report = verify(script, tmp_path)
    assert any("was removed at ply 3 and may not sign a ACK" in p.reason for p in report.problems)
    assert report.exit_code == 1


def test_an_abandoned_two_peer_table_ends_with_the_absent_peer_named(tmp_path: Path) -> None:
    engine = find_engine("discorder")
    script = Script(engine, ["A", "B"], seed=6)
    script.ack()
    script.play(3)
    script.move()
    script.ack("A")  # B has vanished: it never acks ply 4
    b = script.identity("B").key
    result = Outcome((1,), False, "abandoned", "B left the table.")
    script.end("A", absent=(b,), result=result)
    report = verify(script, tmp_path)
    assert report.problems == [], report.lines()
    assert report.result is not None and report.result.reason == "abandoned"
    assert report.absent == (b,) and report.ended and report.final == 4


def test_a_table_that_could_remove_may_not_end_as_abandoned(tmp_path: Path) -> None:
    script = four()
    script.play(2)
    d = script.identity("D").key
    script.end("A", "B", "C", absent=(d,), result=Outcome((1,), False, "abandoned", "D left."))
    report = verify(script, tmp_path)
    assert report.exit_code == 1
    assert any("should have removed the absent ones" in p.reason for p in report.problems)


# --- turn authority with control transfer and extra moves (the Grab test game) -----------


def grab() -> Script:
    from tests.client.tinygame import ENGINE as GRAB

    script = Script(GRAB, ["A", "B", "C"], {"seats": 3, "pile": 30}, seed=7)
    script.ack()
    script.move(3)  # A takes 3 from seat 1: seat 2 is now played by A
    script.ack()
    return script


def verify_grab(script: Script, tmp_path: Path) -> Report:
    from tests.client.tinygame import ENGINE as GRAB

    path = script.write(tmp_path / "grab.palabre")
    return verify_file(path, find=lambda name: GRAB).report


def test_a_captured_seat_and_extra_moves_are_signed_by_the_controller(tmp_path: Path) -> None:
    script = grab()
    assert script.move(2).author == script.identity("A").key  # seat 2, by its captor; 25 left
    script.ack()
    assert script.move(1).author == script.identity("A").key  # an extra move (25 is 5 x 5)
    script.ack()
    finish(script)
    report = verify_grab(script, tmp_path)
    assert report.problems == [] and report.exit_code == 0


def test_a_captured_seat_signed_by_its_former_player_is_invalid(tmp_path: Path) -> None:
    script = grab()
    head = script.chain.head
    script.sign("B", "MOVE", {"ply": 2, "prev": head.chain_digest, "seat": 2, "move": [1]})
    report = verify_grab(script, tmp_path)
    b = script.chain.start.name_of(script.identity("B").key)
    [problem] = [p for p in report.problems if p.severity == "invalid"]
    assert problem.ply == 2
    assert problem.reason == (
        f"{b} sent a move for seat 2 but holds seat 2 (seat 2 is played by seat 1 now); "
        "the move was ignored"
    )


def test_an_extra_move_taken_by_the_next_seat_is_invalid(tmp_path: Path) -> None:
    script = grab()
    script.move(2)  # seat 2 (by A) leaves 25: seat 2 moves again
    script.ack()
    head = script.chain.head
    script.sign("C", "MOVE", {"ply": 3, "prev": head.chain_digest, "seat": 3, "move": [1]})
    report = verify_grab(script, tmp_path)
    [problem] = [p for p in report.problems if p.severity == "invalid"]
    assert problem.ply == 3 and "but it is seat 2's turn" in problem.reason


def test_an_engine_that_fails_is_reported_as_a_bug_not_a_traceback(tmp_path: Path) -> None:
    from tests.client.tinygame import GrabEngine

    class Broken(GrabEngine):
        def format_move(self, state: Any, move: int) -> str:
            raise ZeroDivisionError("broken on purpose")

    script = grab()
    path = script.write(tmp_path / "grab.palabre")
    report = verify_file(path, find=lambda name: Broken()).report
    assert report.exit_code == 2
    assert report.unreadable is not None
    assert "failed while checking record 5 (ZeroDivisionError: broken on purpose)" in (
        report.unreadable
    )
    assert "a bug in palabre" in report.unreadable


def test_a_removed_peers_ack_of_the_remove_s_own_ply_is_ignored_whatever_it_says(
    tmp_path: Path,
) -> None:
    """LOG_FORMAT.md section 4: a removed peer's ACK or END is placed by the ply it names,
    not by where it is in the file.  Of the REMOVE's own ply it is ignored whatever its
    digest (the peer may have acked the record the REMOVE replaced, or heard of nothing);
    of a ply before, it is judged like any peer's; of a later ply, it is invalid."""
    script = four()
    script.play(2)
    votes_and_remove(script)
    removal = script.chain.head
    script.ack()
    script.sign("D", "ACK", {"ply": removal.ply, "digest": bytes(32)})
    finish(script)
    report = verify(script, tmp_path)
    assert report.problems == [] and report.exit_code == 0, report.lines()
    # the same peer's wrong ACK of the ply before its removal, after the REMOVE in the file
    script = four()
    script.play(2)
    votes_and_remove(script)
    script.ack()
    script.sign("D", "ACK", {"ply": removal.ply - 1, "digest": bytes(32)})
    finish(script)
    report = verify(script, tmp_path)
    assert [p.code for p in report.problems] == ["double-claim"], report.lines()


def test_a_removed_peers_late_record_for_the_remove_s_ply_is_ignored_not_a_fork(
    tmp_path: Path,
) -> None:
    """TABLE.md: a removed peer's late record for a ply a REMOVE occupies is ignored, not a
    fork.  D, cut off, signs its move for ply n; the others remove D at ply n; D's move then
    reaches the writer, after the REMOVE: the same record a REMOVE drops when it comes first,
    so it is ignored (and counts for D's seq), never a fork."""
    script = four()
    while CONSENSUS.to_move(script.chain.head.engine_state) != 4 or script.chain.head.ply < 3:
        script.move()
        script.ack()
    head = script.chain.head
    move = CONSENSUS.move_to_wire(CONSENSUS.legal_moves(head.engine_state)[0])
    votes_and_remove(script)
    script.ack()
    script.sign(
        "D", "MOVE", {"ply": head.ply + 1, "prev": head.chain_digest, "seat": 4, "move": move}
    )
    finish(script)
    report = verify(script, tmp_path)
    assert report.problems == [] and report.exit_code == 0, report.lines()
    # a removed peer's second record for an earlier ply (its own, played) is still caught
    script = four()
    while CONSENSUS.to_move(script.chain.head.engine_state) != 4 or script.chain.head.ply < 3:
        script.move()
        script.ack()
    script.move()
    script.ack()
    before = script.chain.at(head.ply)
    votes_and_remove(script)
    script.ack()
    script.sign(
        "D", "MOVE", {"ply": head.ply + 1, "prev": before.chain_digest, "seat": 4, "move": move}
    )
    finish(script)
    report = verify(script, tmp_path)
    assert [p.code for p in report.problems] == ["equivocation"], report.lines()
