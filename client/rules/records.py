"""The boundary between the table core and the network layer: signed records, signers, openers.

The table core (``client.rules.chain``, ``client.tabletop.table`` ...) never sees sockets, bytes on
a wire or signature checks.  It is fed :class:`SignedRecord` values that ``net`` has already
verified and decoded, and it signs through a :class:`Signer` that ``net`` provides per local key.
The wiring to ``net`` is a thin adapter that builds these three things:

* :class:`SignedRecord` — one envelope ``[author_key, payload, signature]`` whose signature
  was verified over the exact bytes (record purpose) and whose ``payload`` was decoded as
  ``[kind, table_id, seq, body]``.  ``record_hash`` is BLAKE2b-256 of the exact envelope
  bytes; ``envelope`` keeps those bytes for logs and evidence.
* :class:`Signer` — signs ``(kind, body)`` for one local key at one table, choosing the next
  ``seq`` and writing the record ahead to the journal before returning it.  The record it
  returns must be exactly what a receiver would decode (``body`` decoded back from the
  payload), so the core treats its own records like anyone else's.
* :class:`EnvelopeOpener` — verifies and decodes envelope bytes embedded in a record body
  (the signed acceptances a DRAW carries, later REMOVE votes and TAKEBACK consents); raises
  :class:`BadEnvelope` with a reason otherwise.

Invariants: two records are equal exactly when their record hashes are; the core never
mutates a record or its body; the kinds below are the only ones the core understands.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from net.identity import short_fingerprint

__all__ = [
    "ACK",
    "CHAIN_KINDS",
    "CHAT",
    "DRAW",
    "DRAW_ACCEPT",
    "DRAW_OFFER",
    "END",
    "HALT",
    "LEAVE",
    "MOVE",
    "OUTSIDE_KINDS",
    "POINT",
    "REMOVE",
    "RESIGN",
    "START",
    "TAKEBACK",
    "TAKEBACK_ASK",
    "TAKEBACK_CONSENT",
    "VOTE",
    "EnvelopeOpener",
    "SignedRecord",
    "Signer",
    "key_label",
]

# --- record kinds -------------------------------------------------------------------------
START = "START"
"""The host's table definition; the log begins with it (``client.rules.start``)."""
MOVE = "MOVE"
RESIGN = "RESIGN"
DRAW = "DRAW"
REMOVE = "REMOVE"
"""Reserved for the removal issue: a ply that takes absent peers off the table."""
TAKEBACK = "TAKEBACK"
"""A ply that returns the game to the state before the last (``client.rules.takeback``)."""
ACK = "ACK"
END = "END"
HALT = "HALT"
"""A peer stopped the table on a divergence; carries its state and the records involved."""
LEAVE = "LEAVE"
"""Its author left the table on purpose, at ``{ply, digest}``: removable at once
(``client.tabletop.table_leaving``)."""
CHAT = "CHAT"
POINT = "POINT"
DRAW_OFFER = "DRAW_OFFER"
DRAW_ACCEPT = "DRAW_ACCEPT"
VOTE = "VOTE"
"""Reserved for the removal issue: a vote for a REMOVE, embedded in it."""
TAKEBACK_ASK = "TAKEBACK_ASK"
TAKEBACK_CONSENT = "TAKEBACK_CONSENT"
"""Asking for and consenting to a TAKEBACK (consents are embedded in it)."""

CHAIN_KINDS = frozenset({MOVE, RESIGN, DRAW, REMOVE, TAKEBACK})
"""Kinds that occupy a ply of the chain (each body carries ``ply`` and ``prev``)."""
OUTSIDE_KINDS = frozenset({CHAT, POINT, DRAW_OFFER, DRAW_ACCEPT, TAKEBACK_ASK, TAKEBACK_CONSENT})
"""Kinds kept in arrival order that never change the state."""


@dataclass(frozen=True, eq=False)
class SignedRecord:
    """A verified, decoded envelope.  Equality and hashing go by ``record_hash``."""

    author: bytes
    kind: str
    table_id: bytes
    seq: int
    body: Mapping[str, Any]
    # Loose, not object: the decoder checked the body's shape, and every reader reads its
    # fields again with client.rules.bodies (type and bounds) before it trusts them.
    record_hash: bytes
    envelope: bytes

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SignedRecord):
            return NotImplemented
        return self.record_hash == other.record_hash

    def __hash__(self) -> int:
        return hash(self.record_hash)

    def __repr__(self) -> str:
        return (
            f"SignedRecord({self.kind} by {key_label(self.author)} seq {self.seq} "
            f"hash {self.record_hash[:6].hex()})"
        )


class Signer(Protocol):
    """Signs records for one local key at one table (``net`` provides it)."""

    @property
    def key(self) -> bytes:
        """The public key records are signed with."""
        ...

    def sign(self, kind: str, body: Mapping[str, object]) -> SignedRecord:
        """The record, already written ahead to the journal, as receivers will decode it."""
        ...


class EnvelopeOpener(Protocol):
    """Verifies and decodes an embedded envelope (``BadEnvelope`` otherwise)."""

    def __call__(self, envelope: bytes) -> SignedRecord: ...


def key_label(key: bytes) -> str:
    """A short, readable label for a key: the first groups of its fingerprint (``K3QF-7XZA…``),
    as ``net`` shows it everywhere."""
    return short_fingerprint(key)
