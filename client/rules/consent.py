"""Signed consents carried inside a ply: DRAW acceptances now, REMOVE votes and TAKEBACK
consents later.

A consent is a signed record of its own (sent outside the chain first, so every peer sees
it) that binds ``ply`` and ``prev``: the number of the ply it is about and the chain digest
that ply will be appended to.  The ply carries the
exact envelope bytes of the consents it relies on, so anyone replaying the chain can check
them without having seen them arrive.

Invariants of an accepted set (else ``PlyRejected`` naming what is wrong):

* every envelope verifies through the injected opener and belongs to this table;
* every consent has one of the expected kinds and binds exactly this ply and
  ``ctx.before.chain_digest``;
* authors are distinct, each one of the required keys, and every required key is there.
"""

from __future__ import annotations

from collections.abc import Sequence

from client.rules.bodies import MAX_ENVELOPE, read_digest, read_int
from client.rules.chain import PlyContext
from client.rules.errors import BadEnvelope, Malformed, PlyRejected
from client.rules.records import SignedRecord

__all__ = ["check_consents"]


def check_consents(
    ctx: PlyContext,
    envelopes: Sequence[object],
    kinds: frozenset[str],
    required: Sequence[bytes],
    what: str,
) -> tuple[SignedRecord, ...]:
    """The opened consents, checked as the module header says.

    ``what`` names the ply in messages, e.g. ``"peer K3QF-7XZA… (Ann)'s DRAW"``.
    """
    consents: list[SignedRecord] = []
    authors: set[bytes] = set()
    for envelope in envelopes:
        if type(envelope) is not bytes or len(envelope) > MAX_ENVELOPE:
            raise PlyRejected(
                f"{what} carries a consent that is not an envelope; it was ignored",
                code="bad-consents",
            )
        try:
            consent = ctx.opener(envelope)
        except BadEnvelope as error:
            raise PlyRejected(
                f"{what} carries a consent that does not verify ({error}); it was ignored",
                code="bad-consents",
            ) from None
        name = ctx.describe(consent.author)
        if consent.kind not in kinds or consent.table_id != ctx.start.table_id:
            raise PlyRejected(
                f"{what} carries a {consent.kind} by {name} that is no consent here; "
                "it was ignored",
                code="bad-consents",
            )
        try:
            ply = read_int(consent.body, "ply", 1)
            prev = read_digest(consent.body, "prev")
        except Malformed as error:
            raise PlyRejected(
                f"{what} carries a malformed consent by {name} ({error}); it was ignored",
                code="bad-consents",
            ) from None
        if prev != ctx.before.chain_digest or ply != ctx.before.ply + 1:
            raise PlyRejected(
                f"{what} carries a consent by {name} given for another position; it was ignored",
                code="bad-consents",
            )
        if consent.author not in required:
            raise PlyRejected(
                f"{what} carries a consent by {name}, who has no say here; it was ignored",
                code="bad-consents",
            )
        if consent.author in authors:
            raise PlyRejected(
                f"{what} carries two consents by {name}; it was ignored", code="bad-consents"
            )
        authors.add(consent.author)
        consents.append(consent)
    missing = [ctx.describe(key) for key in required if key not in authors]
    if missing:
        raise PlyRejected(
            f"{what} lacks the consent of {', '.join(missing)}; it was ignored", code="bad-consents"
        )
    return tuple(consents)
