"""Tampered logs: every change to the signed content is found, with the right ply and reason.

The small log is a real 2-player Discorder game written by real signers (two tiles, a chat
line, a draw offered and accepted: 18 records, two of them embedding acceptances).  The
wrong-but-signed records are made by a test helper holding the players' keys.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest

from client.logs import verifier
from client.logs.verifier import verify_bytes, verify_file
from client.logs.verify_report import INCOMPLETE, INVALID, Report
from client.rules.net_adapter import open_envelope
from client.rules.records import CHAIN_KINDS, SignedRecord
from engines import find_engine
from net.logfile import parse_log, read_log
from tests.client.envelopes import Identity
from tests.client.gamelogs import Forger, LoggedTable, records_of, rewrite, short_game


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> LoggedTable:
    return short_game(tmp_path_factory.mktemp("short"))


def kinds(records: list[bytes]) -> list[str]:
    return [open_envelope(data).kind for data in records]


def check(tmp_path: Path, records: list[bytes]) -> Report:
    return verify_file(rewrite(tmp_path / "tampered.palabre", records)).report


def reasons(report: Report, ply: int | None = None) -> list[str]:
    return [p.reason for p in report.problems if ply is None or p.ply == ply]


def codes(report: Report, ply: int | None = None) -> list[str]:
    """The stable problem codes (docs/LOG_FORMAT.md section 6), in the order found."""
    return [p.code for p in report.problems if ply is None or p.ply == ply]


@pytest.mark.slow
def test_every_single_byte_flipped_is_detected(game: LoggedTable) -> None:
    original = game.paths["A"].read_bytes()
    assert verify_bytes(original, "A").report.exit_code == 0
    for position in range(len(original)):
        data = bytearray(original)
        data[position] ^= 0x01 if position % 2 else 0x80  # low and high bits alike
        report = verify_bytes(bytes(data), "flipped").report
        assert report.exit_code in (1, 2, 3), position


def test_flips_in_signed_bytes_are_invalid_and_name_the_record(game: LoggedTable) -> None:
    original = game.paths["A"].read_bytes()
    offsets = read_log(game.paths["A"]).offsets
    for number, offset in enumerate(offsets, 1):
        data = bytearray(original)
        data[offset + 4 + 40] ^= 0x01  # inside the payload (the author key takes 35 bytes)
        report = verify_bytes(bytes(data), "flipped").report
        assert report.exit_code == 1, number
        assert any(p.record == number and p.severity == INVALID for p in report.problems)
        expected = "bad-start" if number == 1 else "bad-signature"
        assert expected in [p.code for p in report.problems if p.record == number], number


def test_each_chain_record_removed_is_invalid(game: LoggedTable, tmp_path: Path) -> None:
    records = records_of(game.paths["A"])
    chain = [i for i, kind in enumerate(kinds(records)) if kind in CHAIN_KINDS]
    assert len(chain) == 3
    for ply, index in enumerate(chain, 1):
        report = check(tmp_path, records[:index] + records[index + 1 :])
        assert report.exit_code == 1, ply
        assert any(f"ply {ply}" in reason for reason in reasons(report, ply)), reasons(report)


def test_each_chain_record_duplicated_is_invalid(game: LoggedTable, tmp_path: Path) -> None:
    records = records_of(game.paths["A"])
    for index, kind in enumerate(kinds(records)):
        if kind not in CHAIN_KINDS:
            continue
        for at in range(index + 1, len(records) + 1):
            tampered = [*records[:at], records[index], *records[at:]]
            report = check(tmp_path, tampered)
            assert report.exit_code == 1
            assert f"a copy of record {index + 1}" in reasons(report)
            assert "duplicate" in codes(report)


def test_a_chain_record_moved_out_of_chain_order_is_invalid(
    game: LoggedTable, tmp_path: Path
) -> None:
    """Moved before the ply it builds on, after the ply that builds on it, or after an ACK or
    END of its own ply: wherever no peer could have received it.  (Elsewhere it lands among
    records that do not depend on it, whose order differs between honest peers anyway.)"""
    checked = 0
    for name in ("A", "B"):
        records = records_of(game.paths[name])
        names = kinds(records)
        chain = [i for i, kind in enumerate(names) if kind in CHAIN_KINDS]
        for ply, index in enumerate(chain, 1):
            for to in range(1, len(records)):
                moved = [r for i, r in enumerate(records) if i != index]
                moved.insert(to, records[index])
                if _crosses(records, index, to, ply):
                    report = check(tmp_path, moved)
                    assert report.exit_code == 1, (name, ply, to)
                    checked += 1
    assert checked > 40


def _crosses(records: list[bytes], index: int, to: int, ply: int) -> bool:
    """Whether moving ``records[index]`` (ply ``ply``) to ``to`` passes a record that binds
    to it (an ACK or END of that ply, the next ply) or one it binds to (the previous ply)."""
    low, high = sorted((index, to))
    passed = [open_envelope(r) for i, r in enumerate(records) if low <= i <= high and i != index]
    for record in passed:
        at = record.body.get("ply")
        if record.kind in CHAIN_KINDS and at in (ply - 1, ply + 1):
            return True
        if record.kind in ("ACK", "END") and at == ply and to > index:
            return True
    return False


def test_any_other_record_removed_is_reported(game: LoggedTable, tmp_path: Path) -> None:
    records = records_of(game.paths["A"])
    for index, kind in enumerate(kinds(records)):
        if kind in CHAIN_KINDS:
            continue
        report = check(tmp_path, records[:index] + records[index + 1 :])
        if index == 0:
            assert report.exit_code == 2  # no START: not a game log
        else:
            assert report.exit_code == 3, (index, kind)  # a seq gap, a missing ACK or END
            assert {p.severity for p in report.problems} == {INCOMPLETE}


def test_a_record_signed_by_an_outsider_is_invalid(game: LoggedTable, tmp_path: Path) -> None:
    records = records_of(game.paths["A"])
    outsider = Identity(999)
    forger = Forger({"X": outsider}, game.table_id)
    head = game.tables["A"].chain.at(1)
    for record in (
        forger.sign("X", "CHAT", {"text": "hello"}, seq=1),
        forger.sign("X", "ACK", {"ply": 1, "digest": head.chain_digest}, seq=2),
        forger.sign("X", "MOVE", {"ply": 2, "prev": head.chain_digest, "seat": 2, "move": [9]}),
    ):
        report = check(tmp_path, [*records[:6], record.envelope, *records[6:]])
        assert report.exit_code == 1
        [problem] = report.problems
        assert problem.record == 7
        assert "which neither START nor any REMOVE allows" in problem.reason
        assert problem.code == "outsider"


def _insert_before_ply(
    game: LoggedTable, ply: int, record: SignedRecord, replace: bool = False
) -> list[bytes]:
    records = records_of(game.paths["A"])
    index = next(
        i
        for i, data in enumerate(records)
        if (r := open_envelope(data)).kind in CHAIN_KINDS and r.body["ply"] == ply
    )
    return [*records[:index], record.envelope, *records[index + int(replace) :]]


def test_a_move_by_the_wrong_seat_is_reported_at_its_ply(game: LoggedTable, tmp_path: Path) -> None:
    before = game.tables["A"].chain.at(1)
    forger = game.forger()
    # seat 2 is to move at ply 2; A (seat 1) signs a move for it
    wrong = forger.sign(
        "A", "MOVE", {"ply": 2, "prev": before.chain_digest, "seat": 2, "move": [2]}
    )
    report = check(tmp_path, _insert_before_ply(game, 2, wrong))
    assert report.exit_code == 1
    assert reasons(report, 2) == [
        f"{_peer(game, 'A')} sent a move for seat 2 but holds seat 1; the move was ignored"
    ]
    assert codes(report, 2) == ["wrong-signer"]
    # and a move for the wrong seat by the right key
    wrong = forger.sign(
        "B", "MOVE", {"ply": 2, "prev": before.chain_digest, "seat": 1, "move": [2]}
    )
    report = check(tmp_path, _insert_before_ply(game, 2, wrong))
    assert reasons(report, 2) == [
        f"{_peer(game, 'B')} sent a move for seat 1, but it is seat 2's turn; the move was ignored"
    ]
    assert codes(report, 2) == ["not-its-turn"]


def test_an_illegal_move_is_reported_at_its_ply(game: LoggedTable, tmp_path: Path) -> None:
    before = game.tables["A"].chain.at(1)
    occupied = game.tables["A"].chain.at(1).engine_state.board.index(1)  # A's first tile
    illegal = game.forger().sign(
        "B", "MOVE", {"ply": 2, "prev": before.chain_digest, "seat": 2, "move": [occupied]}
    )
    report = check(tmp_path, _insert_before_ply(game, 2, illegal))
    assert report.exit_code == 1
    [reason] = reasons(report, 2)
    assert reason.startswith(f"{_peer(game, 'B')} sent an illegal move for seat 2: ")
    assert codes(report, 2) == ["illegal-move"]


def test_a_wrong_ack_digest_is_reported_at_its_ply(game: LoggedTable, tmp_path: Path) -> None:
    records = records_of(game.paths["A"])
    forger = game.forger()
    genuine = next(
        i
        for i, data in enumerate(records)
        if (r := open_envelope(data)).kind == "ACK"
        and r.body["ply"] == 2
        and r.author == game.identities["B"].key
    )
    wrong = forger.sign("B", "ACK", {"ply": 2, "digest": bytes(32)})
    report = check(tmp_path, [*records[:genuine], wrong.envelope, *records[genuine + 1 :]])
    assert report.exit_code == 1
    invalid = [p for p in report.problems if p.severity == INVALID]
    assert [(p.ply, p.record) for p in invalid] == [(2, genuine + 1)]
    assert invalid[0].code == "wrong-digest"
    assert invalid[0].reason.startswith(
        f"{_peer(game, 'B')} signed another chain digest for ply 2 than the replay of this log"
    )
    # the genuine ACK kept and a second one added: a double claim, both records named
    report = check(tmp_path, [*records, wrong.envelope])
    assert reasons(report, 2) == [
        f"{_peer(game, 'B')} signed two different ACKs for ply 2: records {genuine + 1} and "
        f"{len(records) + 1}"
    ]
    assert codes(report, 2) == ["double-claim"]


def test_equivocation_names_both_records(game: LoggedTable, tmp_path: Path) -> None:
    records = records_of(game.paths["A"])
    before = game.tables["A"].chain.at(0)
    other = game.forger().sign(
        "A", "MOVE", {"ply": 1, "prev": before.chain_digest, "seat": 1, "move": [5]}
    )
    report = check(tmp_path, [*records[:6], other.envelope, *records[6:]])
    assert report.exit_code == 1
    assert reasons(report, 1) == [
        f"{_peer(game, 'A')} signed two different legal records for ply 1 (equivocation): "
        "records 4 and 7"
    ]
    assert codes(report, 1) == ["equivocation"]


def test_a_seq_used_twice_names_both_records(game: LoggedTable, tmp_path: Path) -> None:
    records = records_of(game.paths["A"])
    again = game.forger().sign("B", "CHAT", {"text": "me again"}, seq=2)
    report = check(tmp_path, [*records, again.envelope])
    assert report.exit_code == 1
    assert reasons(report) == [
        f"{_peer(game, 'B')} signed two different records with seq 2: records 6 and "
        f"{len(records) + 1}"
    ]
    assert codes(report) == ["seq-reuse"]


def test_a_wrong_end_result_or_an_early_end_is_invalid(game: LoggedTable, tmp_path: Path) -> None:
    records = records_of(game.paths["A"])
    chain = game.tables["A"].chain
    forger = game.forger()
    head = chain.head
    result = {"winners": [1], "draw": False, "reason": "agreement", "summary": "", "scores": [],
              "absent": []}  # fmt: skip
    end = forger.sign("B", "END", {"ply": head.ply, "digest": head.chain_digest, "result": result})
    position = len(records) - 1  # B's genuine END is the last record of A's log
    report = check(tmp_path, [*records[:position], end.envelope])
    assert report.exit_code == 1
    assert any("END says winners 1 (agreement), but the engine gives a draw" in r
               for r in reasons(report, head.ply))  # fmt: skip
    assert "wrong-result" in codes(report, head.ply)
    early = chain.at(1)
    end = forger.sign("B", "END", {"ply": 1, "digest": early.chain_digest, "result": result})
    report = check(tmp_path, [*records, end.envelope])
    assert any("but the game is not over there" in r for r in reasons(report, 1))
    assert "end-not-over" in codes(report, 1)


def test_a_draw_without_every_acceptance_is_invalid(game: LoggedTable, tmp_path: Path) -> None:
    before = game.tables["A"].chain.at(2)
    forger = game.forger()
    mine = forger.sign("A", "DRAW_ACCEPT", {"ply": 3, "prev": before.chain_digest})
    draw = forger.sign(
        "A", "DRAW", {"ply": 3, "prev": before.chain_digest, "acceptances": [mine.envelope]}
    )
    report = check(tmp_path, _insert_before_ply(game, 3, draw))
    assert report.exit_code == 1
    [reason] = reasons(report, 3)
    assert "'s draw lacks the consent of " + _peer(game, "B") in reason
    assert codes(report, 3) == ["bad-consents"]


def test_a_resignation_out_of_turn_is_invalid(game: LoggedTable, tmp_path: Path) -> None:
    before = game.tables["A"].chain.at(1)
    resign = game.forger().sign("A", "RESIGN", {"ply": 2, "prev": before.chain_digest, "seat": 1})
    report = check(tmp_path, _insert_before_ply(game, 2, resign))
    assert reasons(report, 2) == [
        f"{_peer(game, 'A')} resigned seat 1 out of turn (it is seat 2's turn); "
        "the resignation was ignored"
    ]
    assert codes(report, 2) == ["not-its-turn"]


def test_a_record_for_another_table_or_a_second_start_is_invalid(
    game: LoggedTable, tmp_path: Path
) -> None:
    records = records_of(game.paths["A"])
    elsewhere = Forger(game.forger().identities, bytes(16)).sign("B", "CHAT", {"text": "hi"})
    report = check(tmp_path, [*records, elsewhere.envelope])
    assert any("for another table" in r for r in reasons(report))
    assert codes(report)[0] == "other-table"
    report = check(tmp_path, [*records, records[0]])
    assert "a copy of record 1" in reasons(report)
    assert codes(report)[0] == "duplicate"


def test_a_halt_in_the_log_is_invalid(tmp_path: Path) -> None:
    engine = find_engine("discorder")
    table = LoggedTable(tmp_path, ["A", "B"], engine, bots="none")
    state = table.tables["A"].head
    body = {"ply": 0, "digest": state.chain_digest, "state": engine.encode(state.engine_state),
            "reason": "testing", "records": []}  # fmt: skip
    halt = table.signers["A"][table.identities["A"].key].sign("HALT", body)
    table.close()
    report = verify_file(table.paths["A"]).report
    assert halt.envelope in records_of(table.paths["A"])
    assert report.exit_code == 1
    [problem] = [r for r in reasons(report, 0) if "halted the table" in r]
    assert problem == (
        f"{_peer(table, 'A')} halted the table at ply 0; its palabre says: “testing” (its "
        "claim); the chain digest it signed for ply 0 is the one this log replays"
    )
    assert "halt" in codes(report, 0)


def _peer(game: LoggedTable, name: str) -> str:
    return game.tables["A"].start.name_of(game.identities[name].key)


def test_a_first_ply_moved_to_the_end_of_a_whole_game_is_invalid(tmp_path: Path) -> None:
    """Every later ply waits for it, then all are released at once, in a loop."""
    from tests.client.gamelogs import Script

    script = Script(find_engine("consensus"), ["A", "B", "C", "D"])
    script.ack()
    script.play()
    records = [record.envelope for record in script.records]
    first = next(i for i, data in enumerate(records) if open_envelope(data).kind == "MOVE")
    moved = [*records[:first], *records[first + 1 :], records[first]]
    report = check(tmp_path, moved)
    assert report.exit_code == 1 and report.unreadable is None
    assert report.plies == script.chain.head.ply  # all replayed in the end
    assert any(
        reason.startswith("this MOVE is for ply 2 but ply 1 is not in the log")
        for reason in reasons(report, 1)
    )


def test_two_threads_report_exactly_what_one_thread_does(
    game: LoggedTable, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Signatures shared with a second thread two at a time, in batches of 8 records (many
    batches): the same report for the honest log and for each record's key or signature
    altered."""
    monkeypatch.setattr(verifier, "BATCH", 8)
    monkeypatch.setattr(verifier, "SHARE", 2)
    threads: set[str] = set()
    check_signatures = verifier._good_signatures

    def noting_the_thread(jobs: list[Any]) -> list[int]:
        threads.add(threading.current_thread().name)
        if threading.current_thread() is threading.main_thread():
            time.sleep(0.001)  # leave the other thread a run to take (not a timing check)
        return check_signatures(jobs)

    monkeypatch.setattr(verifier, "_good_signatures", noting_the_thread)
    original = game.paths["A"].read_bytes()
    contents = parse_log(original)
    variants = [original]
    for offset, record in zip(contents.offsets, contents.records, strict=True):
        for at in (offset + 4 + 10, offset + 4 + len(record) - 1):  # author key, signature
            data = bytearray(original)
            data[at] ^= 0x01
            variants.append(bytes(data))
    for data in variants:
        one = verify_bytes(data, "log").report
        two = verify_bytes(data, "log", threads=2).report
        assert (two.exit_code, two.problems, two.signatures) == (
            one.exit_code,
            one.problems,
            one.signatures,
        )
    assert any(name.startswith("palabre-verify") for name in threads), threads
    assert threading.main_thread().name in threads
    assert verify_bytes(original, "log", threads=2).report.exit_code == 0
    assert (
        sum(verify_bytes(v, "log", threads=2).report.exit_code == 1 for v in variants)
        == len(variants) - 1
    )


def test_a_record_only_embedded_in_a_ply_is_missing_from_the_log(
    game: LoggedTable, tmp_path: Path
) -> None:
    """LOG_FORMAT.md section 3, missing records: a record counts as in the file only as a
    record of its own, never embedded in a DRAW (or a TAKEBACK, REMOVE or HALT).  B's
    DRAW_ACCEPT, taken out of A's log, is still inside the DRAW: B's seq has a gap all the
    same, and the log is incomplete, not invalid."""
    records = records_of(game.paths["A"])
    [index] = [
        i
        for i, data in enumerate(records)
        if (r := open_envelope(data)).kind == "DRAW_ACCEPT" and r.author == game.identities["B"].key
    ]
    accept = open_envelope(records[index])
    [draw] = [open_envelope(d) for d in records if open_envelope(d).kind == "DRAW"]
    assert accept.envelope in draw.body["acceptances"]
    report = check(tmp_path, records[:index] + records[index + 1 :])
    assert report.exit_code == 3
    assert codes(report) == ["missing-records"]
    [gap] = report.missing
    assert gap.gap.author == game.identities["B"].key
    assert gap.gap.ranges == ((accept.seq, accept.seq),)
