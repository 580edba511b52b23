"""Each embedded envelope verified once per peer: the table's opener, remembering.

A consent (TAKEBACK_CONSENT, DRAW_ACCEPT, a REMOVE's VOTE) reaches a peer twice: on its own,
verified by ``net`` on arrival, then embedded in the ply that relies on it, where the chain
opens it again; the chain also checks a ply more than once (on arrival, again when it
replaces a ply, the table reads a TAKEBACK's consents to tell the player), and each check
opened every consent anew.  ``OpenedOnce`` wraps the injected ``EnvelopeOpener``: a record
``net`` verified on arrival (``remember``) or one it opened itself is kept by its exact
envelope bytes, so opening the same bytes again returns the same record with no second
signature check.  Other bytes, even one byte apart, go to the real opener; a failure is never
kept, so bad bytes fail every time with the real opener's reason.

Invariants: the record returned for some bytes is the one the real opener gave (or ``net``
gave on arrival) for exactly those bytes; at most ``LIMIT`` records are kept, the oldest
dropped first, so a stranger's flood of consents costs a bounded amount of memory.
"""

from __future__ import annotations

from client.rules.records import (
    ACK,
    DRAW_ACCEPT,
    TAKEBACK_CONSENT,
    VOTE,
    EnvelopeOpener,
    SignedRecord,
)

__all__ = ["EMBEDDED_KINDS", "LIMIT", "OpenedOnce"]

EMBEDDED_KINDS = frozenset({DRAW_ACCEPT, TAKEBACK_CONSENT, VOTE, ACK})
"""The kinds a ply carries embedded (a clocked ply its ACKs): worth remembering on arrival.
A HALT's records are opened through the real opener the first time, then kept too."""

LIMIT = 512
"""Records kept at most: a ply's consents are about the head, so old ones are seldom asked."""


class OpenedOnce:
    """An ``EnvelopeOpener`` that verifies each distinct envelope once (module docstring)."""

    def __init__(self, opener: EnvelopeOpener, limit: int = LIMIT) -> None:
        self._opener = opener
        self._limit = limit
        self._known: dict[bytes, SignedRecord] = {}

    def __call__(self, envelope: bytes) -> SignedRecord:
        if type(envelope) is not bytes:  # the rules refuse it; the real opener says why
            return self._opener(envelope)
        known = self._known.get(envelope)
        if known is not None:
            return known
        record = self._opener(envelope)  # raises BadEnvelope: nothing kept
        self._keep(envelope, record)
        return record

    def remember(self, record: SignedRecord) -> None:
        """Keep ``record``, which ``net`` verified on arrival, if a ply may carry it."""
        if record.kind in EMBEDDED_KINDS:
            self._keep(record.envelope, record)

    def _keep(self, envelope: bytes, record: SignedRecord) -> None:
        known = self._known
        if envelope in known:
            return
        if len(known) >= self._limit:
            del known[next(iter(known))]  # the oldest: dicts keep insertion order
        known[envelope] = record
