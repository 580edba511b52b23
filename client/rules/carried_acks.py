"""The ACKs a ply carries on a clocked table (DESIGN.md §4 *Clocks*, *Carrying*).

On a clocked table every ply n+1 carries in ``acks`` the ACKs of ply n by every peer at the
table after ply n (a REMOVE: by every peer it leaves at the table), as a Tendermint block
carries its predecessor's commit, each with that peer's figure ``ms``.  The chain
(``client.rules.chain``) judges ply n from those figures before it checks ply n+1.

Invariants of an accepted set (else ``PlyRejected`` with code ``bad-acks``): every envelope
verifies through the injected opener and is an ACK of this table for exactly ply n and chain
digest n; authors are distinct, each a required peer, and every required peer is there.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from client.rules.bodies import MAX_ENVELOPE, read_digest, read_int, read_list
from client.rules.errors import BadEnvelope, Malformed, PlyRejected
from client.rules.records import ACK, EnvelopeOpener, SignedRecord

__all__ = ["carried_figures"]


def carried_figures(
    record: SignedRecord,
    *,
    opener: EnvelopeOpener,
    ply: int,
    digest: bytes,
    required: Sequence[bytes],
    describe: Callable[[bytes], str],
) -> tuple[int | None, ...]:
    """The figures (``ms``, None when a peer states none) of the ACKs of ``ply`` that
    ``record`` carries, in the order of ``required``, checked as the module header says."""
    what = f"{describe(record.author)}'s {record.kind}"

    def refuse(reason: str) -> PlyRejected:
        return PlyRejected(f"{what} {reason}; it was ignored", code="bad-acks")

    if "acks" not in record.body:
        raise refuse(f"does not carry the acknowledgements of ply {ply} a clocked table needs")
    envelopes = read_list(record.body, "acks", len(required))
    figures: dict[bytes, int | None] = {}
    for envelope in envelopes:
        if type(envelope) is not bytes or len(envelope) > MAX_ENVELOPE:
            raise refuse("carries an acknowledgement that is not an envelope")
        try:
            ack = opener(envelope)
        except BadEnvelope as error:
            raise refuse(f"carries an acknowledgement that does not verify ({error})") from None
        name = describe(ack.author)
        try:
            figure = _figure(ack, record.table_id, ply, digest)
        except Malformed as error:
            raise refuse(f"carries an acknowledgement by {name} that is not one: {error}") from None
        if ack.author not in required:
            raise refuse(f"carries an acknowledgement by {name}, who has no say here")
        if ack.author in figures:
            raise refuse(f"carries two acknowledgements by {name}")
        figures[ack.author] = figure
    missing = [describe(key) for key in required if key not in figures]
    if missing:
        raise refuse(f"lacks the acknowledgement of ply {ply} by {', '.join(missing)}")
    return tuple(figures[key] for key in required)


def _figure(ack: SignedRecord, table_id: bytes, ply: int, digest: bytes) -> int | None:
    if ack.kind != ACK or ack.table_id != table_id:
        raise Malformed(
            f"it is a {ack.kind} of {'this' if ack.table_id == table_id else 'another'} table"
        )
    body: Mapping[str, object] = ack.body
    if read_int(body, "ply") != ply or read_digest(body, "digest") != digest:
        raise Malformed(f"it acknowledges another position than ply {ply}")
    return stated_figure(body)


def stated_figure(body: Mapping[str, object]) -> int | None:
    """The figure an ACK states (``ms``; None when nil or absent).  Its range was checked
    when the record was decoded (``net.records``), wherever the ACK came from."""
    figure = body.get("ms")
    return figure if type(figure) is int else None
