"""HALT: the record a peer signs when it stops the table, so every peer holds both states.

When a peer halts on a divergence it signs HALT ``{ply, digest, state, reason, records}``:
its chain digest and canonical engine state at the ply where things went wrong, a sentence
saying why, and the envelopes of the signed records involved (at most four).  A receiver
re-checks the embedded records itself (they are signed, so nobody can invent them), halts
too, and adds the sender's state to its evidence — that is how each evidence file ends up
with both decoded states.

Invariants: a HALT never changes the chain; its reason is only its sender's claim, shown
quoted after its sender's name (``halt_claim``), never as a finding; its state is only a
claim too — the note of its ``StateView`` says whether it hashes to the chain digest the
sender claims over the records this peer holds; embedded records are only ply records,
ACKs and ENDs of this table, opened and verified through the injected opener.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from client.rules.bodies import read_bytes, read_digest, read_int, read_list, read_text
from client.rules.chain import ZERO_DIGEST, Chain, TableState, chain_digest
from client.rules.divergence import StateView
from client.rules.errors import BadEnvelope, Malformed
from client.rules.records import ACK, CHAIN_KINDS, END, EnvelopeOpener, SignedRecord
from engines import AnyEngine
from engines.base import state_digest
from engines.canonical import decode_value

__all__ = ["HaltClaim", "halt_body", "halt_claim", "read_halt", "state_view"]

MAX_STATE = 16 * 1024
MAX_EMBEDDED = 4
MAX_REASON = 300


def state_view(source: str, engine: AnyEngine, state: TableState) -> StateView:
    """A state this peer computed, as it goes into evidence."""
    encoded = engine.encode(state.engine_state)
    return StateView(source, encoded, decode_value(encoded), f"ply {state.ply}")


def halt_claim(who: str, reason: str, ply: int | None = None) -> str:
    """A HALT's reason as players read it: ``who``'s claim, quoted, never a finding.

    Anyone at the table can sign a HALT with any reason ("peer … (Ann) signed two different
    records for ply 7"), so the reason is shown as what the sender's palabre says; what
    the records prove is said apart (the verdict)."""
    at = "" if ply is None else f" at ply {ply}"
    if not reason:
        return f"{who} halted the table{at}, giving no reason"
    return f"{who} halted the table{at}; its palabre says: “{reason}” (its claim)"


def halt_body(
    engine: AnyEngine, state: TableState, reason: str, records: Sequence[SignedRecord]
) -> dict[str, object]:
    """The body of this peer's HALT about ``state``'s ply (embedding plies, ACKs, ENDs)."""
    embeddable = [r for r in records if _embeddable(r.kind)]
    return {
        "ply": state.ply,
        "digest": state.chain_digest,
        "state": engine.encode(state.engine_state),
        "reason": reason[:MAX_REASON],
        "records": [record.envelope for record in embeddable[:MAX_EMBEDDED]],
    }


@dataclass(frozen=True)
class HaltClaim:
    record: SignedRecord
    ply: int
    chain: bytes
    state: bytes
    reason: str
    records: tuple[SignedRecord, ...]

    def view(self, who: str, engine: AnyEngine, chain: Chain) -> StateView:
        """The sender's state for the evidence, with a note on whether it adds up."""
        try:
            decoded = decode_value(self.state)
        except ValueError as error:
            return StateView(f"{who} (its HALT)", self.state, None, f"does not decode: {error}")
        if self.ply > chain.head.ply:
            note = f"ply {self.ply}, which this peer has not reached"
        else:
            before = ZERO_DIGEST if self.ply == 0 else chain.at(self.ply - 1).chain_digest
            record_hash = chain.at(self.ply).record.record_hash
            expected = chain_digest(before, record_hash, state_digest(engine.ruleset, self.state))
            note = (
                f"ply {self.ply}; hashes to the chain digest it claims over this peer's records"
                if expected == self.chain
                else f"ply {self.ply}; does not hash to the chain digest it claims over this "
                "peer's records (it applied other records, or misstates its state)"
            )
        return StateView(f"{who} (its HALT)", self.state, decoded, note)


def read_halt(record: SignedRecord, opener: EnvelopeOpener, table_id: bytes) -> HaltClaim:
    """Check a HALT's shape and open its embedded records (``Malformed`` otherwise)."""
    body = record.body
    embedded: list[SignedRecord] = []
    for envelope in read_list(body, "records", MAX_EMBEDDED):
        if type(envelope) is not bytes:
            raise Malformed("an embedded record is not an envelope")
        try:
            inner = opener(envelope)
        except BadEnvelope as error:
            raise Malformed(f"an embedded record does not verify: {error}") from None
        if inner.table_id != table_id or not (
            inner.kind in CHAIN_KINDS or inner.kind in (ACK, END)
        ):
            raise Malformed(f"an embedded {inner.kind} is not a ply, ACK or END of this table")
        embedded.append(inner)
    return HaltClaim(
        record=record,
        ply=read_int(body, "ply", 0),
        chain=read_digest(body, "digest"),
        state=read_bytes(body, "state", MAX_STATE),
        reason=read_text(body, "reason", MAX_REASON),
        records=tuple(embedded),
    )


def _embeddable(kind: str) -> bool:
    return kind in CHAIN_KINDS or kind in (ACK, END)
