"""Damage in a game file's framing is told from a crash by what follows it (issue 19).

Before the fix, one damaged byte in the length prefix of a middle record could read as a
crash cut: a length that runs past the end of the file was "an incomplete record ... was
cut" (exit 3), although whole signed records followed it.  The game file is a real one
written by real signers (``tests.client.gamelogs.short_game``).
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from client.logs.log_commands import run_show
from client.logs.verifier import verify_bytes
from client.logs.verify_report import INCOMPLETE, INVALID
from client.rules.net_adapter import open_envelope
from net.logfile import LogWriter, parse_log, read_log
from tests.client.gamelogs import LoggedTable, short_game


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> LoggedTable:
    return short_game(tmp_path_factory.mktemp("short"))


def test_one_damaged_byte_in_a_middle_length_prefix_is_damage_and_every_record_is_read(
    game: LoggedTable,
) -> None:
    original = game.paths["A"].read_bytes()
    offsets = read_log(game.paths["A"]).offsets
    assert verify_bytes(original, "A").report.exit_code == 0
    for number, offset in enumerate(offsets[1:-1], 2):  # every record but the first and last
        for byte in range(4):
            for flip in (0x01, 0x80):
                data = bytearray(original)
                data[offset + byte] ^= flip
                report = verify_bytes(bytes(data), "damaged").report
                where = f"record {number}, prefix byte {byte}, flip {flip:#x}"
                assert report.exit_code == 1, (where, [p.line() for p in report.problems])
                assert report.cut is None, where
                # the damaged prefix is the only problem: the record it frames is read too
                assert [p.severity for p in report.problems] == [INVALID], where
                [problem] = report.problems
                assert problem.record == number and problem.offset == offset, where
                assert f"record length at offset {offset} says" in problem.reason, where
                assert problem.code == "damaged", where
                assert report.records == len(offsets), where


def test_the_json_report_gives_the_damage_and_its_offset(game: LoggedTable) -> None:
    data = bytearray(game.paths["A"].read_bytes())
    offset = read_log(game.paths["A"]).offsets[5]
    data[offset + 2] ^= 0x80  # a length 32 KiB longer: it runs past the end of the file
    report = verify_bytes(bytes(data), "damaged").report.to_json()
    assert report["exit"] == 1 and report["cut"] is None
    [damage] = report["damaged"]
    assert damage["offset"] == offset and damage["skipped"] == 0
    assert damage["said"] == damage["size"] + 0x8000


def test_garbage_between_records_is_skipped_and_what_follows_is_read(game: LoggedTable) -> None:
    """Bytes that frame nothing (here: noise inserted between two records) are passed over
    up to the next whole signed record; the rest of the game is judged as usual."""
    original = game.paths["A"].read_bytes()
    offsets = read_log(game.paths["A"]).offsets
    noise = b"\xff\x00\x93\xc4\x20" + bytes(range(40))  # even the start of an envelope's layout
    at = offsets[7]
    data = original[:at] + noise + original[at:]
    contents = parse_log(data)
    assert contents.records == read_log(game.paths["A"]).records and contents.torn is None
    report = verify_bytes(data, "noisy").report
    assert report.exit_code == 1
    [problem] = report.problems
    assert problem.severity == INVALID and problem.record is None
    assert f"{len(noise)} bytes from offset {at} do not split into records" in problem.reason
    assert problem.code == "damaged"
    assert f"whole signed records follow from offset {at + len(noise)} on" in problem.reason


def test_a_torn_tail_is_still_a_crash_cut(game: LoggedTable) -> None:
    """A file cut anywhere inside a record (the last one written, or one in the middle with
    everything after it gone) is what a crash leaves: incomplete, exit 3."""
    original = game.paths["A"].read_bytes()
    offsets = read_log(game.paths["A"]).offsets
    for offset in (offsets[-1], offsets[9]):
        for cut in (offset + 2, offset + 4, offset + 40, offset + 120):
            report = verify_bytes(original[:cut], "cut").report
            assert report.exit_code == 3, (cut, [p.line() for p in report.problems])
            assert report.cut is not None and report.cut.kind == "short"
            assert report.damaged == ()
            assert any(
                p.severity == INCOMPLETE and "the file was cut" in p.reason for p in report.problems
            )


def test_a_cut_through_a_record_holding_whole_envelopes_is_still_a_crash_cut(
    game: LoggedTable,
) -> None:
    """The DRAW embeds a whole signed DRAW_ACCEPT: a cut inside the DRAW, after that
    acceptance, leaves a whole envelope in the tail, which is no record of the file."""
    contents = read_log(game.paths["A"])
    original = game.paths["A"].read_bytes()
    [draw] = [i for i, r in enumerate(contents.records) if open_envelope(r).kind == "DRAW"]
    end = contents.offsets[draw] + 4 + len(contents.records[draw])
    for cut in range(end - 70, end):
        report = verify_bytes(original[:cut], "cut").report
        assert report.exit_code == 3 and report.damaged == (), cut


def test_log_show_replays_a_damaged_file_and_says_where(game: LoggedTable, tmp_path: Path) -> None:
    data = bytearray(game.paths["A"].read_bytes())
    offset = read_log(game.paths["A"]).offsets[3]  # the first MOVE's prefix
    data[offset + 3] ^= 0x01
    path = tmp_path / "damaged.palabre"
    path.write_bytes(bytes(data))
    out, err = io.StringIO(), io.StringIO()
    assert run_show(path, None, out=out, err=err) == 0, err.getvalue()
    lines = out.getvalue().splitlines()
    assert [line for line in lines if line.startswith("damaged:  ")] == [
        f"damaged:  the record length at offset {offset} says {data[offset + 3]} bytes, but "
        f"the signed record after it takes {data[offset + 3] ^ 0x01}: that length is damaged "
        "(the record was read all the same)"
    ]
    assert "     1.  seat 1" in out.getvalue()  # the move it frames is in the game all the same
    assert lines[-1] == "log:      invalid, 1 problem(s): `palabre verify` lists them"


def test_reopening_a_file_damaged_in_the_middle_cuts_nothing(
    game: LoggedTable, tmp_path: Path
) -> None:
    """A peer going on with its game file after a restart: damage is no torn tail, so
    nothing after it is cut (before, everything from the damaged prefix on was)."""
    data = bytearray(game.paths["A"].read_bytes())
    offset = read_log(game.paths["A"]).offsets[5]
    data[offset + 2] ^= 0x80
    path = tmp_path / "damaged.palabre"
    path.write_bytes(bytes(data))
    writer, contents = LogWriter.reopen(path)
    with writer:
        assert contents.torn is None and len(contents.damaged) == 1
        writer.append(b"\x01")  # appends go on after the last record
    assert path.read_bytes() == bytes(data) + b"\x00\x00\x00\x01\x01"
    assert read_log(path).records == (*read_log(game.paths["A"]).records, b"\x01")
