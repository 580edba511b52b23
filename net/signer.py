"""Signing records with write-ahead: one ``RecordSigner`` per author and table.

Invariants:

* The signer owns its author's ``seq`` at one table: each record it signs has the next one,
  starting at 1.  Nothing else signs records for that author and table.
* Write-ahead: ``sign`` appends the envelope to the log (fsynced) *before* returning it, so
  a record that can have been sent is on disk.  After a crash, ``RecordSigner.resume``
  continues after the highest ``seq`` this author has in the log, and never signs a
  different record under a number already used.
* If the append fails, ``sign`` raises ``LogFileError`` and the ``seq`` is not used up: the
  record was neither stored nor returned, so nobody can hold it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from net.envelope import RECORD_TAG, parse_envelope, seal, signature_is_valid
from net.errors import DecodeError, LocalProtocolError
from net.identity import Identity
from net.logfile import LogWriter
from net.records import TABLE_ID_SIZE, Kind, Record, decode_record, encode_payload

__all__ = ["RecordSigner", "last_seq"]


class RecordSigner:
    """Signs one author's records at one table, journaling each before it is returned."""

    def __init__(self, identity: Identity, table_id: bytes, log: LogWriter, last: int = 0) -> None:
        if len(table_id) != TABLE_ID_SIZE:
            raise LocalProtocolError(f"a table id is {TABLE_ID_SIZE} bytes")
        self.identity = identity
        self.table_id = table_id
        self._log = log
        self._last = last

    @classmethod
    def resume(
        cls, identity: Identity, table_id: bytes, log: LogWriter, logged: Iterable[bytes]
    ) -> RecordSigner:
        """A signer that continues after this author's last record in ``logged``."""
        return cls(identity, table_id, log, last_seq(logged, identity.public_key, table_id))

    @property
    def next_seq(self) -> int:
        return self._last + 1

    def sign(self, kind: Kind, body: Mapping[str, Any]) -> Record:
        """Sign, journal (fsynced), and return the record, ready to send."""
        seq = self._last + 1
        payload = encode_payload(kind, self.table_id, seq, body)
        data = seal(self.identity, RECORD_TAG, payload)
        self._log.append(data)  # write-ahead: on failure nothing was sent, seq not used
        self._last = seq
        return decode_record(parse_envelope(data))


def last_seq(logged: Iterable[bytes], author: bytes, table_id: bytes) -> int:
    """The highest ``seq`` of ``author``'s valid records for ``table_id`` (0 if none).

    Entries that are not valid records by that author (other authors, damaged bytes) are
    skipped: they cannot hold a number this author used.
    """
    highest = 0
    for data in logged:
        try:
            envelope = parse_envelope(data)
        except DecodeError:
            continue
        if envelope.author != author:
            continue
        if not signature_is_valid(author, envelope.signature, RECORD_TAG + envelope.payload):
            continue
        try:
            record = decode_record(envelope)
        except DecodeError:
            continue
        if record.table_id == table_id:
            highest = max(highest, record.seq)
    return highest
