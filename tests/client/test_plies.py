"""Every way a signed ply can be refused, at every peer, with a reason a player can read.

A refused ply is never applied, never occupies its ply (the right record still goes in),
and is kept as evidence; the table does not halt for it.
"""

from __future__ import annotations

import pytest

from client.rules.chain import Chain
from client.rules.net_adapter import open_envelope
from client.rules.plies import PLY_RULES
from client.rules.records import DRAW, DRAW_ACCEPT, DRAW_OFFER, MOVE, RESIGN, SignedRecord
from client.rules.start import parse_start
from client.tabletop.events import PlyApplied, TableRejected
from tests.client.harness import Router, Setup, act, deliver, forge, forge_raw, world

PILE30 = {"seats": 3, "pile": 30}


def rejections(router: Router, name: str) -> list[str]:
    return [event.reason for event in router.of_type(name, TableRejected)]


def assert_refused_everywhere(router: Router, reason: str, ply: int) -> None:
    for name, table in router.tables.items():
        assert rejections(router, name)[-1] == reason, name
        assert table.head.ply == ply and not table.halted
        assert table.rejected[-1].reason == reason


def test_a_move_for_another_seat_is_refused_and_does_not_occupy_the_ply() -> None:
    setup, router = world(["A", "B", "C"], params=PILE30)
    genesis = router.tables["A"].head.chain_digest
    deliver(router, forge(setup, "B", MOVE, {"ply": 1, "prev": genesis, "seat": 1, "move": [1]}))
    bob = router.tables["A"].describe(setup.key("B"))
    assert bob.endswith("(B)") and bob.startswith("peer ")
    assert_refused_everywhere(
        router, f"{bob} sent a move for seat 1 but holds seat 2; the move was ignored", 0
    )
    evidence = router.tables["C"].rejected[-1]
    assert evidence.kind == "rejected" and evidence.culprits == (setup.key("B"),)
    assert evidence.states[0].decoded[0] == 30  # the position before: 30 stones
    act(router, "A", router.tables["A"].move(2, 1.0))
    assert all(
        t.head.ply == 1 and t.head.record.author == setup.key("A") for t in router.tables.values()
    )


@pytest.mark.parametrize(
    ("seat", "reason"),
    [
        (1, "sent a move for seat 1, but it is seat 2's turn; the move was ignored"),
        (2, "sent a move for seat 2 but holds seat 1; the move was ignored"),
    ],
)
def test_a_move_out_of_turn_is_refused(seat: int, reason: str) -> None:
    setup, router = world(["A", "B", "C"], params=PILE30)
    act(router, "A", router.tables["A"].move(2, 1.0))
    head = router.tables["B"].head
    body = {"ply": 2, "prev": head.chain_digest, "seat": seat, "move": [1]}
    deliver(router, forge(setup, "A", MOVE, body))
    ann = router.tables["B"].describe(setup.key("A"))
    assert_refused_everywhere(router, f"{ann} {reason}", 1)


def receive_everywhere(router: Router, record: SignedRecord) -> None:
    """Hand a record ``net`` would refuse straight to every table (no envelope check)."""
    for name, table in router.tables.items():
        router.take(name, table.receive(record, router.now))
    router.run()


@pytest.mark.parametrize(
    ("move", "reason"),
    [
        (
            [4],
            "sent an illegal move for seat 1: you may take 1, 2 or 3 stones; the move was ignored",
        ),
        (
            [1, 2],
            "sent a malformed move for seat 1 (a grab move is one integer); the move was ignored",
        ),
        ("t1", "sent a malformed MOVE: field 'move' is not a list; it was ignored"),
    ],
)
def test_an_illegal_or_malformed_move_is_refused(move: object, reason: str) -> None:
    setup, router = world(["A", "B", "C"], params=PILE30)
    genesis = router.tables["A"].head.chain_digest
    body = {"ply": 1, "prev": genesis, "seat": 1, "move": move}
    if isinstance(move, list):
        deliver(router, forge(setup, "A", MOVE, body))
    else:  # net's schema would refuse it: the core's own reader still does
        receive_everywhere(router, forge_raw(setup, "A", MOVE, body))
    assert_refused_everywhere(router, f"{router.tables['B'].describe(setup.key('A'))} {reason}", 0)


def test_a_move_on_the_wrong_prev_is_refused() -> None:
    setup, router = world(["A", "B"])
    deliver(router, forge(setup, "A", MOVE, {"ply": 1, "prev": bytes(32), "seat": 1, "move": [1]}))
    ann = router.tables["B"].describe(setup.key("A"))
    reason = (
        f"{ann} sent a MOVE for ply 1 built on another position (its prev is not the chain "
        "digest after ply 0); it was ignored"
    )
    assert_refused_everywhere(router, reason, 0)


def test_captured_seat_is_signed_by_its_captor_only() -> None:
    setup, router = world(["A", "B", "C"], params=PILE30)
    act(router, "A", router.tables["A"].move(3, 1.0))  # A captures seat 2
    head = router.tables["C"].head
    body = {"ply": 2, "prev": head.chain_digest, "seat": 2, "move": [1]}
    deliver(router, forge(setup, "B", MOVE, body))
    bob = router.tables["C"].describe(setup.key("B"))
    reason = (
        f"{bob} sent a move for seat 2 but holds seat 2 (seat 2 is played by seat 1 now); "
        "the move was ignored"
    )
    assert_refused_everywhere(router, reason, 1)
    act(router, "A", router.tables["A"].move(1, 2.0))
    applied = router.of_type("C", PlyApplied)[-1].state
    assert (applied.ply, applied.seat, applied.record.author) == (2, 2, setup.key("A"))


def test_an_extra_move_is_signed_by_the_same_key_twice() -> None:
    setup, router = world(["A", "B"])  # 21 stones: taking 1 leaves 20, a multiple of 5
    act(router, "A", router.tables["A"].move(1, 1.0))
    head = router.tables["A"].head
    body = {"ply": 2, "prev": head.chain_digest, "seat": 1, "move": [1]}
    deliver(router, forge(setup, "B", MOVE, body))
    assert rejections(router, "A")[-1].endswith(
        "sent a move for seat 1 but holds seat 2; the move was ignored"
    )
    act(router, "A", router.tables["A"].move(2, 2.0))
    assert [s.record.author for s in router.tables["B"].chain.states[1:]] == [setup.key("A")] * 2


def test_resign_out_of_turn_or_for_another_seat_is_refused() -> None:
    setup, router = world(["A", "B", "C"], params=PILE30)
    genesis = router.tables["A"].head.chain_digest
    deliver(router, forge(setup, "B", RESIGN, {"ply": 1, "prev": genesis, "seat": 2}))
    bob = router.tables["A"].describe(setup.key("B"))
    assert_refused_everywhere(
        router,
        f"{bob} resigned seat 2 out of turn (it is seat 1's turn); the resignation was ignored",
        0,
    )
    deliver(router, forge(setup, "B", RESIGN, {"ply": 1, "prev": genesis, "seat": 1}))
    assert_refused_everywhere(
        router,
        f"{bob} sent a resignation for seat 1 but holds seat 2; the resignation was ignored",
        0,
    )


def test_a_resignation_intent_waits_for_the_players_turn() -> None:
    _setup, router = world(["A", "B", "C"], params=PILE30)
    out = act(router, "B", router.tables["B"].resign(1.0))
    assert out.send == []
    act(router, "A", router.tables["A"].move(1, 2.0))
    head = router.tables["C"].head
    assert head.ply == 2 and head.record.kind == RESIGN and head.label == "seat 2 resigns"
    assert router.tables["C"].engine.to_move(head.engine_state) == 3


def test_a_draw_without_every_acceptance_is_refused() -> None:
    setup, router = world(["A", "B", "C"], params=PILE30)
    position = {"ply": 1, "prev": router.tables["A"].head.chain_digest}
    ann, bob = (forge(setup, n, DRAW_ACCEPT, position).envelope for n in "AB")
    stale = forge(setup, "C", DRAW_ACCEPT, {"ply": 1, "prev": bytes(32)}).envelope
    later = forge(setup, "C", DRAW_ACCEPT, {"ply": 2, "prev": position["prev"]}).envelope
    offer = forge(setup, "C", DRAW_OFFER, position).envelope
    tampered = bob[:-1] + bytes([bob[-1] ^ 1])
    names = {n: router.tables["A"].describe(setup.key(n)) for n in "ABC"}
    what = f"{names['A']}'s draw"
    cases = [
        ([ann, bob], f"{what} lacks the consent of {names['C']}; it was ignored"),
        (
            [ann, bob, stale],
            f"{what} carries a consent by {names['C']} given for another position; it was ignored",
        ),
        (
            [ann, bob, later],
            f"{what} carries a consent by {names['C']} given for another position; it was ignored",
        ),
        ([ann, ann, bob], f"{what} carries two consents by {names['A']}; it was ignored"),
        (
            [ann, bob, offer],
            f"{what} carries a DRAW_OFFER by {names['C']} that is no consent here; it was ignored",
        ),
    ]
    for envelopes, reason in cases:
        deliver(router, forge(setup, "A", DRAW, {**position, "acceptances": envelopes}))
        assert_refused_everywhere(router, reason, 0)
    deliver(router, forge(setup, "A", DRAW, {**position, "acceptances": [ann, tampered]}))
    reason = rejections(router, "B")[-1]
    assert reason.startswith(f"{what} carries a consent that does not verify (")
    assert "signature" in reason and router.tables["B"].head.ply == 0


def test_a_draw_by_someone_not_to_move_is_refused() -> None:
    setup, router = world(["A", "B"])
    position = {"ply": 1, "prev": router.tables["A"].head.chain_digest}
    consents = [forge(setup, n, DRAW_ACCEPT, position).envelope for n in "AB"]
    deliver(router, forge(setup, "B", DRAW, {**position, "acceptances": consents}))
    assert rejections(router, "A")[-1].endswith(
        "sent a draw for seat 1 but holds seat 2; the draw was ignored"
    )


def test_nothing_is_half_applied_by_a_refused_ply() -> None:
    setup = Setup(["A", "B"])
    start = parse_start(setup.start_record)
    chain = Chain(start, setup.engine, open_envelope, PLY_RULES)
    body = {"ply": 1, "prev": chain.head.chain_digest, "seat": 1, "move": [2]}
    state = chain.check(forge(setup, "A", MOVE, body))
    assert chain.head.ply == 0  # checking changes nothing
    chain.append(state)
    with pytest.raises(ValueError, match="was not checked against the head"):
        chain.append(state)
    assert [s.ply for s in chain.states] == [0, 1]
