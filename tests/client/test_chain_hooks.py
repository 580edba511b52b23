"""The hooks REMOVE and TAKEBACK will use: more ply rules, looking back, dropping the head.

A TAKEBACK rule written here, outside the core, plugs in through ``rules=`` and plays at a
table with no other change: that is the shape the later issues will take.
"""

from __future__ import annotations

import pytest

from client.rules.chain import Chain, PlyContext, PlyEffect, TableState
from client.rules.consent import check_consents
from client.rules.errors import LocalTableError
from client.rules.finality import ClaimBook, FinalityTracker
from client.rules.net_adapter import open_envelope
from client.rules.plies import PLY_RULES, controlling_seat, seat_to_move
from client.rules.records import MOVE, SignedRecord
from client.rules.start import parse_start
from client.tabletop.table import Table
from tests.client.harness import Router, Setup, act, deliver, forge

TAKEBACK, TAKEBACK_CONSENT = "TAKEBACK", "TAKEBACK_CONSENT"


def takeback(ctx: PlyContext, record: SignedRecord) -> PlyEffect:
    """Back to the state before the last ply, with every peer's consent on this position."""
    seat = seat_to_move(ctx, "takeback", record)
    assert record.author == ctx.before.seat_key(controlling_seat(ctx, seat))
    envelopes = list(record.body["consents"])
    check_consents(ctx, envelopes, frozenset({TAKEBACK_CONSENT}), ctx.before.peers, "takeback")
    earlier = ctx.history[ctx.before.ply - 1]
    return PlyEffect(earlier.engine_state, "takeback", seat)


def test_a_takeback_rule_plugs_in_and_the_chain_keeps_both() -> None:
    setup = Setup(["A", "B"])
    rules = {**PLY_RULES, TAKEBACK: takeback}
    tables = {
        n: Table(
            setup.start_record,
            setup.engine,
            open_envelope,
            me=setup.key(n),
            signers={setup.key(n): setup.host_signer if n == "A" else setup.signer(n)},
            rules=rules,
        )
        for n in "AB"
    }
    router = Router(tables)
    router.start()
    router.run()
    act(router, "A", tables["A"].move(2, 1.0))
    head = tables["B"].head
    position = {"ply": 2, "prev": head.chain_digest}
    consents = [forge(setup, n, TAKEBACK_CONSENT, position).envelope for n in "AB"]
    body = {**position, "consents": consents}
    deliver(router, forge(setup, "B", TAKEBACK, body))
    for table in tables.values():
        states = table.chain.states
        assert [s.label for s in states[1:]] == ["t2", "takeback"]
        assert states[2].engine_state == states[0].engine_state
        assert states[2].chain_digest != states[0].chain_digest  # the chain keeps both
        assert table.final_ply == 2 and not table.rejected
    act(router, "A", tables["A"].move(1, 2.0))  # the game goes on from the old position
    assert tables["B"].head.ply == 3 and tables["B"].head.engine_state.pile == 20


def test_only_the_head_is_dropped_and_never_a_final_ply() -> None:
    setup = Setup(["A", "B"])
    chain = Chain(parse_start(setup.start_record), setup.engine, open_envelope, PLY_RULES)
    with pytest.raises(ValueError, match="the genesis is never dropped"):
        chain.drop_head()
    body = {"ply": 1, "prev": chain.head.chain_digest, "seat": 1, "move": [2]}
    record = forge(setup, "A", MOVE, body)
    chain.append(chain.check(record))
    tracker = FinalityTracker()
    acks = ClaimBook()
    assert tracker.advance(acks, chain.states) == []
    dropped: TableState = chain.drop_head()
    assert dropped.record == record and chain.head.ply == 0
    tracker.step_back(chain.head.ply)
    tracker.final_ply = 1
    with pytest.raises(LocalTableError, match="ply 1 was final"):
        tracker.step_back(0)
