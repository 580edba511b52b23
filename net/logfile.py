"""The append-only file of envelopes: the write-ahead journal and the game log (section 5).

Format: the magic line ``MAGIC`` (``b"palabre-log/1\\n"``: name and format version), then
records, each a 4-byte big-endian length (1 to 65535) and that many bytes: an envelope
exactly as received or signed.  Nothing else; the log issue adds meaning, not framing.

Invariants:

* ``LogWriter.append`` writes the whole record in one ``write`` then flushes and fsyncs
  before returning, so a record that was returned has reached the disk.  A failed append
  truncates the file back to where it was and raises ``LogFileError``.  With
  ``sync=False`` the fsync is left to a later ``sync()``, so that a writer can make several
  records durable with one fsync (before sending any of them).
* A crash can leave at most one incomplete record at the end (a torn tail).  ``read_log``
  keeps every complete record and describes the tail in ``LogContents.torn``;
  ``LogWriter.reopen`` also cuts that tail off (after reporting it) so appends go on cleanly.
* A length of 0 or over the cap cannot come from a torn write; it is reported as a torn
  tail of kind ``"bad-length"`` so a verifier can call it damage rather than a crash.
* Damage is told from a crash by what follows it.  A length prefix that disagrees with the
  signed envelope after it (each envelope's own layout gives its size) is a damaged prefix:
  the record is read all the same and the prefix reported in ``LogContents.damaged``.
  Where the records cannot be split at all (a length impossible, or running past the end),
  the reader scans on for the next whole record whose signature verifies; if there is one,
  the bytes in between are damage (reported, skipped) and reading goes on from there.  Only
  when no whole signed record follows is the rest a torn tail (what a crash leaves).
* ``create`` never overwrites: it fails if the file exists.
"""

from __future__ import annotations

import contextlib
import os
import struct
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from net.envelope import RECORD_TAG, parse_envelope, signature_is_valid
from net.errors import DecodeError, LogFileError
from net.fsutil import NO_INHERIT, fsync_dir, os_reason, write_at

__all__ = [
    "MAGIC",
    "MAX_RECORD",
    "Damage",
    "LogContents",
    "LogWriter",
    "TornTail",
    "parse_log",
    "read_log",
]

MAGIC = b"palabre-log/1\n"
MAX_RECORD = 65535
_LENGTH = struct.Struct(">I")
_ENVELOPE_HEAD = b"\x93\xc4\x20"  # every envelope begins so (net.envelope: array of 3, a key)


@dataclass(frozen=True)
class TornTail:
    """What was cut: ``length`` bytes from ``offset`` on, and why."""

    offset: int
    length: int
    kind: Literal["short", "bad-length"]

    def __str__(self) -> str:
        if self.kind == "short":
            return f"an incomplete record of {self.length} bytes at offset {self.offset} was cut"
        return (
            f"{self.length} bytes from offset {self.offset} were cut: "
            "a record length there is impossible (damaged file)"
        )


@dataclass(frozen=True)
class Damage:
    """Bytes from ``offset`` on that do not frame records, with whole records after them.

    ``said`` is the length the prefix at ``offset`` gives.  ``size`` set: the prefix is
    wrong and the signed record of ``size`` bytes after it was read all the same (nothing
    skipped); ``size`` None: ``skipped`` bytes were passed over to the next whole record."""

    offset: int
    said: int
    skipped: int = 0
    size: int | None = None

    def __str__(self) -> str:
        if self.size is not None:
            return (
                f"the record length at offset {self.offset} says {self.said} bytes, but the "
                f"signed record after it takes {self.size}: that length is damaged (the "
                "record was read all the same)"
            )
        return (
            f"{self.skipped} bytes from offset {self.offset} do not split into records (the "
            f"record length there says {self.said} bytes), yet whole signed records follow "
            f"from offset {self.offset + self.skipped} on: the file is damaged there, not cut "
            "by a crash"
        )


@dataclass(frozen=True)
class LogContents:
    """The complete records of a log file, their offsets, and the torn tail if any."""

    records: tuple[bytes, ...]
    offsets: tuple[int, ...]
    torn: TornTail | None
    end: int  # where the complete records end (the file's clean length)
    damaged: tuple[Damage, ...] = ()
    """Damage with whole records after it, in file order (see the module's invariants)."""


def read_log(path: Path) -> LogContents:
    """Read a log; ``LogFileError`` if it cannot be read or is not a palabre log."""
    try:
        data = path.read_bytes()
    except OSError as error:
        raise LogFileError(f"cannot read {path}: {os_reason(error)}") from error
    return parse_log(data, str(path))


def parse_log(data: bytes, name: str = "the log") -> LogContents:
    """Split log bytes into records (see ``read_log``)."""
    if not data.startswith(MAGIC):
        if MAGIC.startswith(data):
            raise LogFileError(f"{name} is empty or cut inside its first line")
        raise LogFileError(f"{name} is not a palabre log (it does not start with {MAGIC!r})")
    records: list[bytes] = []
    offsets: list[int] = []
    damaged: list[Damage] = []
    offset = len(MAGIC)
    torn: TornTail | None = None
    while offset < len(data):
        said = _LENGTH.unpack_from(data, offset)[0] if offset + 4 <= len(data) else 0
        fits = 1 <= said <= MAX_RECORD and offset + 4 + said <= len(data)
        size = _envelope_size(data, offset + 4)
        if size is not None and size != said and _signed(data, offset + 4, size):
            damaged.append(Damage(offset, said, size=size))  # only the prefix is wrong
            length = size
        elif fits:  # a damaged envelope under a length that fits: the reader says so
            length = said
        elif (resume := _next_record(data, offset + 1)) is not None:
            damaged.append(Damage(offset, said, skipped=resume - offset))
            offset = resume
            continue
        else:
            impossible = offset + 4 <= len(data) and not 1 <= said <= MAX_RECORD
            torn = TornTail(offset, len(data) - offset, "bad-length" if impossible else "short")
            break
        records.append(data[offset + 4 : offset + 4 + length])
        offsets.append(offset)
        offset += 4 + length
    end = offset if torn is None else torn.offset
    return LogContents(tuple(records), tuple(offsets), torn, end, tuple(damaged))


def _envelope_size(data: bytes, at: int) -> int | None:
    """The size the envelope starting at ``at`` gives itself by its layout (the canonical
    one ``net.envelope`` writes), None if no envelope layout starts there."""
    if at + 38 > len(data) or not data.startswith(_ENVELOPE_HEAD, at):
        return None
    marker = data[at + 35]
    if marker == 0xC4:
        return 103 + data[at + 36]  # head 3, key 32, bin 8 header 2, tail 2, signature 64
    if marker == 0xC5:
        return 104 + (data[at + 36] << 8 | data[at + 37])
    return None


def _signed(data: bytes, at: int, size: int) -> bool:
    """Whether a whole envelope of ``size`` bytes at ``at`` splits and its signature (by
    the key it names) verifies: bytes damage or a crash cannot make."""
    if at + size > len(data):
        return False
    try:
        envelope = parse_envelope(data[at : at + size])
    except DecodeError:
        return False
    return signature_is_valid(envelope.author, envelope.signature, RECORD_TAG + envelope.payload)


def _next_record(data: bytes, start: int) -> int | None:
    """The offset of the first length prefix from ``start`` on that frames a whole signed
    record, None if there is none (the rest is a torn tail)."""
    at = data.find(_ENVELOPE_HEAD, start + 4)
    while at != -1:
        size = _envelope_size(data, at)
        framed = size is not None and _LENGTH.unpack_from(data, at - 4)[0] == size
        if framed and size is not None and _signed(data, at, size):
            return at - 4
        at = data.find(_ENVELOPE_HEAD, at + 1)
    return None


class LogWriter:
    """Appends records to one log file, each one durable before ``append`` returns."""

    def __init__(self, path: Path, fd: int, size: int) -> None:
        self.path = path
        self._fd: int | None = fd
        self._size = size
        self.unsynced = False
        """Records were appended with ``sync=False`` and not fsynced yet."""

    @classmethod
    def create(cls, path: Path) -> LogWriter:
        """Create a new log (``LogFileError`` if it exists or cannot be written)."""
        try:
            path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL | NO_INHERIT, 0o600)
        except FileExistsError as error:
            raise LogFileError(f"{path} already exists; it was left as it is") from error
        except OSError as error:
            raise LogFileError(f"cannot create {path}: {os_reason(error)}") from error
        writer = cls(path, fd, 0)
        writer._write(MAGIC)
        fsync_dir(path.parent)
        return writer

    @classmethod
    def reopen(cls, path: Path) -> tuple[LogWriter, LogContents]:
        """Open an existing log to append to it, cutting a torn tail (which is reported)."""
        contents = read_log(path)
        try:
            fd = os.open(path, os.O_RDWR | NO_INHERIT)
            if contents.torn is not None:
                os.ftruncate(fd, contents.end)
                os.fsync(fd)
        except OSError as error:
            raise LogFileError(f"cannot open {path} to append: {os_reason(error)}") from error
        return cls(path, fd, contents.end), contents

    def append(self, record: bytes, *, sync: bool = True) -> None:
        """Append one record and fsync it (unless ``sync`` is false: then ``sync()`` later);
        ``LogFileError`` (file unchanged) on failure."""
        if not 1 <= len(record) <= MAX_RECORD:
            raise LogFileError(f"a record of {len(record)} bytes cannot be logged")
        self._write(_LENGTH.pack(len(record)) + record, sync)

    def sync(self) -> None:
        """fsync the records appended with ``sync=False``; ``LogFileError`` on failure."""
        if not self.unsynced:
            return
        if self._fd is None:
            raise LogFileError(f"{self.path} is closed")
        try:
            os.fsync(self._fd)
        except OSError as error:
            raise LogFileError(f"cannot write to {self.path}: {os_reason(error)}") from error
        self.unsynced = False

    def _write(self, data: bytes, sync: bool = True) -> None:
        if self._fd is None:
            raise LogFileError(f"{self.path} is closed")
        try:
            written = write_at(self._fd, data, self._size)
            if written != len(data):
                raise OSError(f"only {written} of {len(data)} bytes were written")
            if sync:
                os.fsync(self._fd)
        except OSError as error:
            with contextlib.suppress(OSError):  # if this fails too, reopen reports the tail
                os.ftruncate(self._fd, self._size)
            raise LogFileError(f"cannot write to {self.path}: {os_reason(error)}") from error
        self.unsynced = not sync  # an fsync covers every earlier write too
        self._size += len(data)

    @property
    def closed(self) -> bool:
        return self._fd is None

    def close(self) -> None:
        """Close the file, fsyncing what is still unsynced first."""
        if self._fd is not None:
            with contextlib.suppress(LogFileError):  # closing anyway; reopen reports a tail
                self.sync()
            os.close(self._fd)
            self._fd = None

    def __enter__(self) -> LogWriter:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()
