"""``palabre verify`` on honest logs: real keys, real signers writing ahead, real files.

Every peer's file of a whole game verifies with exit 0 and a summary that matches the
table; cuts (at a record boundary, inside a record) are incomplete (exit 3), never invalid;
a file cut by a crash reopens with its complete records.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from client.logs.log_commands import run_verify
from client.logs.verifier import verify_bytes, verify_file
from client.logs.verify_report import INCOMPLETE, INVALID
from client.rules.ending import result_claim
from engines import find_engine
from net.identity import fingerprint
from net.logfile import MAGIC, LogWriter, read_log
from tests.client.gamelogs import LoggedTable, records_of, rewrite, short_game

GAMES = [
    ("consensus", ["A", "B", "C", "D"], {"seats": 4}),
    ("consensus", ["A", "bot:A", "B", "bot:B"], {"seats": 4}),
    ("discorder", ["A", "B"], {"seats": 2}),
    ("forbans", ["A", "B", "bot:A", "bot:B"], {"seats": 4}),
    ("cognes", ["A", "B", "C"], {"seats": 3, "coins": 6}),
]


@pytest.mark.parametrize(("game", "plan", "params"), GAMES, ids=lambda v: str(v))
def test_every_peers_log_of_a_whole_game_verifies(
    tmp_path: Path, game: str, plan: list[str], params: dict[str, int]
) -> None:
    engine = find_engine(game)
    table = LoggedTable(tmp_path, plan, engine, params, seed=3, max_delay=0.02, duplicate=0.2)
    paths = table.close()
    for name, path in paths.items():
        own = table.tables[name]
        assert own.ended
        report = verify_file(path).report
        assert report.problems == [], name
        assert report.exit_code == 0
        assert report.game == game and report.ruleset == engine.ruleset
        assert report.plies == own.head.ply == report.final
        assert report.ended
        assert report.result is not None
        outcome = engine.outcome(own.head.engine_state)
        assert outcome is not None and result_claim(report.result) == result_claim(outcome)
        assert [p.key for p in report.players] == [s.key for s in own.start.seats]
        assert report.records == len(records_of(path))


def test_the_summary_names_game_players_plies_and_result(tmp_path: Path) -> None:
    table = short_game(tmp_path)
    path = table.paths["B"]
    report = verify_file(path).report
    assert report.exit_code == 0
    lines = "\n".join(report.lines())
    for text in (
        "discorder (ruleset discorder/1, engine",
        fingerprint(table.identities["A"].key),
        fingerprint(table.identities["B"].key),
        "plies:    3, final up to ply 3",
        "Draw agreed.",
        "problems: none",
        "valid and complete (exit 0)",
    ):
        assert text in lines
    # the DRAW carries both acceptances: their signatures count too
    assert report.signatures == report.records + 2


def test_json_report_shape(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    table = short_game(tmp_path)
    assert run_verify(table.paths["A"], as_json=True) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data) == {
        "file", "exit", "status", "unreadable", "game", "ruleset", "engine_version",
        "table_id", "options", "peers", "players", "records", "signatures", "plies",
        "final", "result", "ended", "cut", "problems", "damaged", "missing", "clock",
    }  # fmt: skip
    assert data["damaged"] == [] and data["missing"] == [] and data["clock"] is None
    assert data["exit"] == 0 and data["status"] == "valid and complete"
    assert data["game"] == "discorder" and data["options"] == {"seats": 2}
    assert data["table_id"] == table.table_id.hex()
    assert [p["name"] for p in data["peers"]] == ["A", "B"]
    assert data["peers"][0]["fingerprint"] == fingerprint(table.identities["A"].key)
    assert data["players"][1] == {
        "seat": 2,
        "name": "B",
        "key": table.identities["B"].key.hex(),
        "fingerprint": fingerprint(table.identities["B"].key),
        "bot": False,
        "runner": None,
        "since_ply": 0,
        "level": None,
    }
    assert data["plies"] == data["final"] == 3
    assert data["result"]["draw"] is True and data["result"]["reason"] == "agreement"
    assert data["ended"] is True and data["cut"] is None and data["problems"] == []


def test_json_problems_carry_severity_ply_record_offset_and_reason(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    table = short_game(tmp_path)
    records = records_of(table.paths["A"])
    path = rewrite(tmp_path / "cut.palabre", records[:-2], tail=b"\x00\x00\x01\x00abc")
    assert run_verify(path, as_json=True) == 3
    data = json.loads(capsys.readouterr().out)
    assert data["exit"] == 3 and data["status"] == "valid but incomplete"
    assert data["cut"] == {"offset": path.stat().st_size - 7, "length": 7, "kind": "short"}
    for problem in data["problems"]:
        assert set(problem) == {"severity", "code", "ply", "record", "offset", "reason"}
        assert problem["severity"] == INCOMPLETE
    assert any("no END from" in p["reason"] for p in data["problems"])
    codes = [p["code"] for p in data["problems"]]
    assert codes[-1] == "torn-tail" and "no-end" in codes


def test_a_resignation_game_verifies(tmp_path: Path) -> None:
    table = short_game(tmp_path, ending="resign")
    for path in table.paths.values():
        report = verify_file(path).report
        assert report.exit_code == 0, report.lines()
        assert report.result is not None and report.result.winners == (2,)


def test_a_cut_at_every_record_boundary_is_incomplete(tmp_path: Path) -> None:
    table = short_game(tmp_path)
    records = records_of(table.paths["A"])
    for keep in range(len(records)):
        path = rewrite(tmp_path / f"cut{keep}.palabre", records[:keep])
        report = verify_file(path).report
        assert report.exit_code == 3, (keep, report.lines())
        assert {p.severity for p in report.problems} == {INCOMPLETE}
    assert verify_file(rewrite(tmp_path / "all.palabre", records)).report.exit_code == 0


def test_a_cut_inside_a_record_reports_the_tail_and_is_incomplete(tmp_path: Path) -> None:
    table = short_game(tmp_path)
    data = table.paths["A"].read_bytes()
    offsets = read_log(table.paths["A"]).offsets
    for record in (3, len(offsets) - 1):  # a middle record, and the last one
        start = offsets[record]
        end = offsets[record + 1] if record + 1 < len(offsets) else len(data)
        for cut in range(start + 1, end):
            report = verify_bytes(data[:cut], "cut").report
            assert report.exit_code == 3, (cut, report.lines())
            assert report.cut is not None and report.cut.offset == start
            assert report.cut.length == cut - start and report.cut.kind == "short"
            assert report.records == record
            assert any("the file was cut" in p.reason for p in report.problems)


def test_a_crashed_peers_file_reopens_with_its_complete_records(tmp_path: Path) -> None:
    """What crash recovery can do before rejoin exists: the file cut mid-record by a crash
    reopens, keeps every complete record, reports the cut, verifies as incomplete, and the
    writer appends after the last complete record (here: what the peer would pull again)."""
    table = short_game(tmp_path)
    path = table.paths["B"]
    data = path.read_bytes()
    records = records_of(path)
    offsets = read_log(path).offsets
    path.write_bytes(data[: offsets[9] + 20])  # the crash: record 10 half written
    report = verify_file(path).report
    assert report.exit_code == 3 and report.cut is not None and report.cut.offset == offsets[9]
    writer, contents = LogWriter.reopen(path)
    assert list(contents.records) == records[:9]
    assert contents.torn is not None and contents.torn.offset == offsets[9]
    assert path.stat().st_size == offsets[9]  # the torn tail is gone
    after = verify_file(path).report
    assert after.exit_code == 3 and after.cut is None
    for record in records[9:]:
        writer.append(record)
    writer.close()
    assert path.read_bytes() == data
    assert verify_file(path).report.exit_code == 0


def test_an_empty_or_foreign_file_is_unreadable(tmp_path: Path) -> None:
    for data, code in (
        (b"", 2),
        (b"hello world", 2),
        (MAGIC[:5], 2),
        (MAGIC, 3),  # created, nothing written yet: a crash before START
        (MAGIC + b"\x00\x00", 3),
        (MAGIC + b"\x00\x00\x00\x00", 1),  # a length of 0 is damage, not a crash
    ):
        path = tmp_path / "f"
        path.write_bytes(data)
        assert verify_file(path).report.exit_code == code, data
    assert verify_file(tmp_path / "missing").report.exit_code == 2
    assert verify_file(tmp_path).report.exit_code == 2


@settings(max_examples=200)
@given(st.binary(max_size=400))
def test_arbitrary_bytes_never_raise_and_never_pass(data: bytes) -> None:
    for prefix in (b"", MAGIC):
        report = verify_bytes(prefix + data, "fuzz").report
        assert report.exit_code in (1, 2, 3)
        report.lines()
        json.dumps(report.to_json())


@settings(max_examples=60)
@given(st.data())
def test_arbitrary_edits_of_a_real_log_never_raise_and_never_pass(
    tmp_path_factory: pytest.TempPathFactory, data: st.DataObject
) -> None:
    original = _small_log(tmp_path_factory)
    at = data.draw(st.integers(len(MAGIC), len(original) - 1))
    cut = data.draw(st.integers(0, 40))
    insert = data.draw(st.binary(max_size=40))
    edited = original[:at] + insert + original[at + cut :]
    report = verify_bytes(edited, "edited").report
    if edited != original:
        assert report.exit_code in (1, 2, 3)
    assert {p.severity for p in report.problems} <= {INVALID, INCOMPLETE}


_CACHE: dict[str, bytes] = {}


def _small_log(factory: pytest.TempPathFactory) -> bytes:
    if "log" not in _CACHE:
        _CACHE["log"] = short_game(factory.mktemp("small")).paths["A"].read_bytes()
    return _CACHE["log"]


@pytest.mark.parametrize(
    "payload",
    [
        {b"bytes key": 1},  # a map key that is not a string
        [2, bytes(16), 1, {"ply": 1.5}],  # a float
        [99, bytes(16), 1, {}],  # an unknown kind
        [9, bytes(16), 0, {"text": "hi"}],  # seq 0
        [9, bytes(16), 1, {"text": "hi", "extra": 1}],  # an unexpected field
        [9, bytes(16), 1, {"text": "\x1b[2Jhi"}],  # a control character
    ],
    ids=str,
)
def test_a_signed_but_malformed_record_is_invalid_never_a_crash(
    tmp_path: Path, payload: object
) -> None:
    """Signed by a player's own key, so only the decoder stands between it and the replay."""
    import msgpack

    from net.envelope import RECORD_TAG

    table = short_game(tmp_path)
    ann = table.identities["A"]
    data = msgpack.packb(payload, use_bin_type=True)
    envelope = msgpack.packb([ann.key, data, ann.net.sign(RECORD_TAG + data)], use_bin_type=True)
    records = records_of(table.paths["A"])
    report = verify_file(rewrite(tmp_path / "crafted.palabre", [*records, envelope])).report
    assert report.exit_code == 1
    [problem] = report.problems
    assert problem.record == len(records) + 1 and "signed but malformed" in problem.reason
