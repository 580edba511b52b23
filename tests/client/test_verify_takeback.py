"""``palabre verify`` and ``log show`` on logs with takebacks.

Honest logs are written by four in-memory peers with real signers and real files, every
player moving, asking and consenting through the table's intents.  Forged ones are signed
record by record by ``gamelogs.Script``, which holds every key.
"""

from __future__ import annotations

from pathlib import Path

from client.logs.log_show import game_lines
from client.logs.verifier import verify_file
from client.logs.verify_report import Report
from client.rules.chain import chain_digest
from client.rules.records import SignedRecord
from client.sessions.replay import Replay
from engines import AnyEngine
from tests.client.gamelogs import LoggedTable, Script
from tests.client.tinygame import ENGINE

PEERS = ["A", "B", "C", "D"]


def grab(_name: str) -> AnyEngine:
    return ENGINE


def verify(path: Path) -> Report:
    return verify_file(path, find=grab).report


def whose_turn(table: LoggedTable) -> str:
    head = table.tables["A"].head
    seat = ENGINE.to_move(head.engine_state)
    assert seat is not None
    key = head.seat_key(ENGINE.controller(head.engine_state, seat))
    return next(name for name, identity in table.identities.items() if identity.key == key)


def move(table: LoggedTable, name: str | None = None) -> str:
    name = name or whose_turn(table)
    own = table.tables[name]
    table.act(name, own.move(ENGINE.legal_moves(own.head.engine_state)[-1], table.router.now))
    return name


def take_back(table: LoggedTable, asker: str) -> None:
    table.act(asker, table.tables[asker].ask_takeback(table.router.now))
    for name in PEERS:
        if name != asker:
            table.act(name, table.tables[name].consent_takeback(table.router.now))


def test_every_file_of_a_game_with_two_takebacks_verifies(tmp_path: Path) -> None:
    table = LoggedTable(tmp_path, PEERS, ENGINE, bots="none", seed=4)
    take_back(table, move(table, "A"))  # A takes back its first move
    move(table, "A")
    move(table)
    take_back(table, move(table))  # and someone else later
    while table.tables["A"].chain.outcome() is None:
        move(table)
    labels = [s.label for s in table.tables["A"].chain.states[1:]]
    assert labels[:2] == ["t3", "ply 1 taken back"]
    assert labels[5] == "ply 5 taken back"
    paths = table.close()
    for name, path in paths.items():
        report = verify(path)
        assert report.problems == [], name
        assert report.exit_code == 0
        assert report.plies == table.tables[name].head.ply == report.final
    lines = game_lines(verify_file(paths["C"], find=grab))
    a = table.tables["A"].start.name_of(table.identities["A"].key)
    taken = next(line for line in lines if "ply 1 taken back" in line)
    assert taken.lstrip().startswith("2.  seat 2") and "final" in taken
    ask = lines.index(f"        {a} asks to take back ply 1")
    assert lines.index(next(line for line in lines if " t3 " in line)) < ask < lines.index(taken)
    assert sum("consents to take back ply 1" in line for line in lines) == 4
    assert lines[-1] == "log:      valid and complete"
    # the replay steps through both records; the takeback's frame is the position before
    replay = Replay.build(verify_file(paths["D"], find=grab))
    assert replay.frames[2].label == "ply 1 taken back" and replay.frames[2].last_move is None
    assert replay.frames[2].engine_state == replay.frames[0].engine_state
    assert replay.frames[6].engine_state == replay.frames[4].engine_state
    asks = [line for line in replay.lines if line.kind == "takeback-ask"]
    assert [(line.about, line.ply, line.author) for line in asks] == [
        (1, 1, "A"),
        (5, 5, asks[1].author),
    ]
    consents = [line.about for line in replay.lines if line.kind == "takeback-consent"]
    assert consents == [1, 1, 1, 1, 5, 5, 5, 5]


def script_after_one_move() -> Script:
    script = Script(ENGINE, PEERS, seed=2)
    script.ack()
    script.move(2)  # A: 21 -> 19, seat 2 (B) to move
    script.ack()
    return script


def consents(script: Script, names: str = "ABCD") -> list[bytes]:
    head = script.chain.head
    position = {"ply": head.ply + 1, "prev": head.chain_digest}
    return [script.sign(name, "TAKEBACK_CONSENT", position).envelope for name in names]


def forged_takeback(script: Script, who: str, carried: list[bytes]) -> SignedRecord:
    head = script.chain.head
    body = {"ply": head.ply + 1, "prev": head.chain_digest, "consents": carried}
    return script.sign(who, "TAKEBACK", body)


def problems(report: Report, ply: int) -> list[str]:
    return [p.reason for p in report.problems if p.ply == ply]


def test_a_scripted_honest_takeback_then_the_whole_game_verifies(tmp_path: Path) -> None:
    script = script_after_one_move()
    script.ply("B", "TAKEBACK", consents=consents(script))
    script.ack()
    assert script.chain.head.engine_state == script.chain.at(0).engine_state
    script.play()
    script.end()
    report = verify(script.write(tmp_path / "honest.palabre"))
    assert report.problems == [] and report.exit_code == 0


def test_a_takeback_without_every_consent_is_invalid(tmp_path: Path) -> None:
    script = script_after_one_move()
    forged_takeback(script, "B", consents(script, "ABC"))
    report = verify(script.write(tmp_path / "forged.palabre"))
    assert report.exit_code == 1
    [reason] = problems(report, 2)
    assert "(B)'s takeback of ply 1 lacks the consent of peer" in reason and "(D)" in reason


def test_a_takeback_by_another_than_the_player_to_move_is_invalid(tmp_path: Path) -> None:
    script = script_after_one_move()
    forged_takeback(script, "A", consents(script))
    report = verify(script.write(tmp_path / "forged.palabre"))
    [reason] = problems(report, 2)
    assert "(A) sent a takeback, but it is seat 2's turn: only the player to move" in reason


def test_a_takeback_with_consents_for_an_older_position_is_invalid(tmp_path: Path) -> None:
    script = script_after_one_move()
    old = consents(script)
    script.move(1)  # B moves on: 19 -> 18
    script.ack()
    forged_takeback(script, "C", old)
    report = verify(script.write(tmp_path / "forged.palabre"))
    [reason] = problems(report, 3)
    assert "given for another position" in reason


def test_a_takeback_of_a_takeback_is_invalid(tmp_path: Path) -> None:
    script = script_after_one_move()
    script.ply("B", "TAKEBACK", consents=consents(script))
    script.ack()
    forged_takeback(script, "A", consents(script))
    report = verify(script.write(tmp_path / "forged.palabre"))
    [reason] = problems(report, 3)
    assert "ply 2 is a takeback, and a takeback is never taken back" in reason


def test_acks_of_a_state_that_was_not_restored_are_invalid(tmp_path: Path) -> None:
    script = script_after_one_move()
    moved = script.chain.head
    record = script.ply("B", "TAKEBACK", consents=consents(script))
    # every peer acks as if the takeback had left the state after ply 1 in place
    wrong = chain_digest(moved.chain_digest, record.record_hash, moved.engine_digest)
    for name in PEERS:
        script.sign(name, "ACK", {"ply": 2, "digest": wrong})
    report = verify(script.write(tmp_path / "forged.palabre"))
    assert report.exit_code == 1
    wrong_acks = [r for r in problems(report, 2) if "signed another chain digest for ply 2" in r]
    assert len(wrong_acks) == 4
