"""The append-only log file and the write-ahead signer."""

from __future__ import annotations

import errno
import os
import struct
from pathlib import Path

import pytest

from net.errors import LogFileError
from net.logfile import MAGIC, LogWriter, parse_log, read_log
from net.records import Kind, open_record, sign_record
from net.signer import RecordSigner, last_seq
from tests.net.samples import ALICE, BOB, OTHER_TABLE, TABLE


def _records(count: int) -> list[bytes]:
    return [
        sign_record(ALICE, Kind.CHAT, TABLE, n, {"text": f"n{n}"}).data for n in range(1, count + 1)
    ]


def test_records_come_back_exactly(tmp_path: Path) -> None:
    path = tmp_path / "game.log"
    records = _records(3)
    with LogWriter.create(path) as log:
        for record in records:
            log.append(record)
    contents = read_log(path)
    assert list(contents.records) == records
    assert contents.torn is None
    data = path.read_bytes()
    assert data.startswith(MAGIC)
    assert data[len(MAGIC) : len(MAGIC) + 4] == struct.pack(">I", len(records[0]))
    assert contents.offsets[0] == len(MAGIC)
    assert contents.end == len(data)


def test_create_never_overwrites(tmp_path: Path) -> None:
    path = tmp_path / "game.log"
    path.write_bytes(b"precious")
    with pytest.raises(LogFileError, match="already exists; it was left as it is"):
        LogWriter.create(path)
    assert path.read_bytes() == b"precious"


def test_a_torn_tail_keeps_the_complete_records_at_every_cut(tmp_path: Path) -> None:
    path = tmp_path / "game.log"
    records = _records(2)
    with LogWriter.create(path) as log:
        for record in records:
            log.append(record)
    whole = path.read_bytes()
    last_start = len(whole) - 4 - len(records[1])
    for cut in range(last_start + 1, len(whole)):
        contents = parse_log(whole[:cut])
        assert list(contents.records) == records[:1]
        assert contents.torn is not None
        assert (contents.torn.offset, contents.torn.length, contents.torn.kind) == (
            last_start,
            cut - last_start,
            "short",
        )
        assert f"{cut - last_start} bytes at offset {last_start} was cut" in str(contents.torn)


def test_reopen_cuts_the_torn_tail_and_appends_cleanly(tmp_path: Path) -> None:
    path = tmp_path / "game.log"
    records = _records(3)
    with LogWriter.create(path) as log:
        log.append(records[0])
        log.append(records[1])
    with path.open("r+b") as handle:
        handle.truncate(path.stat().st_size - 5)  # a crash in the middle of record 2
    log, contents = LogWriter.reopen(path)
    assert list(contents.records) == records[:1]
    assert contents.torn is not None and contents.torn.kind == "short"
    with log:
        log.append(records[2])
    again = read_log(path)
    assert list(again.records) == [records[0], records[2]]
    assert again.torn is None


@pytest.mark.parametrize("length", [0, 65536, 2**32 - 1])
def test_an_impossible_length_is_reported_as_damage(tmp_path: Path, length: int) -> None:
    record = _records(1)[0]
    data = MAGIC + struct.pack(">I", len(record)) + record + struct.pack(">I", length) + b"xyz"
    contents = parse_log(data)
    assert list(contents.records) == [record]
    assert contents.torn is not None and contents.torn.kind == "bad-length"
    assert "impossible (damaged file)" in str(contents.torn)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "is empty or cut inside its first line"),
        (MAGIC[:5], "is empty or cut inside its first line"),
        (b"PK\x03\x04 a zip file", "is not a palabre log"),
        (b"palabre-log/2\n", "is not a palabre log"),
    ],
)
def test_not_a_log(tmp_path: Path, data: bytes, message: str) -> None:
    path = tmp_path / "x.log"
    path.write_bytes(data)
    with pytest.raises(LogFileError, match=message):
        read_log(path)


def test_unreadable_log(tmp_path: Path) -> None:
    with pytest.raises(LogFileError, match=r"cannot read .*No such file"):
        read_log(tmp_path / "missing.log")


def test_signer_journals_before_returning_and_counts_seq(tmp_path: Path) -> None:
    path = tmp_path / "game.log"
    with LogWriter.create(path) as log:
        signer = RecordSigner(ALICE, TABLE, log)
        for expected_seq in (1, 2, 3):
            record = signer.sign(Kind.CHAT, {"text": "hi"})
            assert record.seq == expected_seq
            assert read_log(path).records[-1] == record.data  # on disk before it is returned
            assert open_record(record.data) == record
        assert signer.next_seq == 4


def test_signer_resumes_after_its_last_logged_seq(tmp_path: Path) -> None:
    path = tmp_path / "game.log"
    with LogWriter.create(path) as log:
        alice = RecordSigner(ALICE, TABLE, log)
        bob = RecordSigner(BOB, TABLE, log)
        for _ in range(3):
            alice.sign(Kind.CHAT, {"text": "a"})
        for _ in range(5):
            bob.sign(Kind.CHAT, {"text": "b"})
        log.append(b"not an envelope at all")  # damaged entries cannot hold a used number
        log.append(sign_record(ALICE, Kind.CHAT, OTHER_TABLE, 40, {"text": "elsewhere"}).data)
    # "crash": a new process reopens the log and resumes
    log, contents = LogWriter.reopen(path)
    with log:
        resumed = RecordSigner.resume(ALICE, TABLE, log, contents.records)
        assert resumed.next_seq == 4
        assert resumed.sign(Kind.CHAT, {"text": "again"}).seq == 4
    assert last_seq(read_log(path).records, BOB.public_key, TABLE) == 5


def test_a_forged_record_does_not_move_the_seq(tmp_path: Path) -> None:
    real = sign_record(ALICE, Kind.CHAT, TABLE, 2, {"text": "x"})
    forged = sign_record(BOB, Kind.CHAT, TABLE, 99, {"text": "x"}).data.replace(
        BOB.public_key, ALICE.public_key
    )
    assert last_seq([real.data, forged], ALICE.public_key, TABLE) == 2


def test_a_failed_append_leaves_the_file_and_the_seq(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "game.log"
    with LogWriter.create(path) as log:
        signer = RecordSigner(ALICE, TABLE, log)
        signer.sign(Kind.CHAT, {"text": "first"})
        size = path.stat().st_size
        real_pwrite = os.pwrite

        def disk_full(fd: int, data: bytes, offset: int) -> int:
            real_pwrite(fd, data[:10], offset)  # a partial write, then the disk is full
            raise OSError(errno.ENOSPC, "No space left on device")

        monkeypatch.setattr(os, "pwrite", disk_full)
        with pytest.raises(LogFileError, match=r"cannot write to .*: No space left on device"):
            signer.sign(Kind.CHAT, {"text": "second"})
        monkeypatch.undo()
        assert path.stat().st_size == size  # the partial record was cut back
        assert signer.next_seq == 2  # never sent, so the number is still free
        assert signer.sign(Kind.CHAT, {"text": "second"}).seq == 2
    assert len(read_log(path).records) == 2


def test_closed_writer_refuses(tmp_path: Path) -> None:
    log = LogWriter.create(tmp_path / "game.log")
    log.close()
    with pytest.raises(LogFileError, match="is closed"):
        log.append(b"x")
    with pytest.raises(LogFileError, match="cannot be logged"):
        LogWriter.create(tmp_path / "other.log").append(b"")


def test_appends_without_sync_are_made_durable_by_one_sync(tmp_path: Path) -> None:
    path = tmp_path / "batched.log"
    writer = LogWriter.create(path)
    writer.append(b"one", sync=False)
    writer.append(b"two", sync=False)
    assert writer.unsynced
    assert read_log(path).records == (b"one", b"two")  # written at once, fsynced later
    writer.sync()
    assert not writer.unsynced
    writer.append(b"three")
    assert not writer.unsynced
    writer.append(b"four", sync=False)
    writer.close()  # closing syncs
    assert read_log(path).records == (b"one", b"two", b"three", b"four")
