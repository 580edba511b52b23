"""Acks and finality: optimistic application, finality as a prefix, duplicates, early records."""

from __future__ import annotations

import pytest

from client.rules.errors import LocalTableError
from client.rules.finality import OwnClaims
from client.rules.records import ACK, MOVE
from client.tabletop.events import PlyApplied, PlyFinal, RecordDropped
from client.tabletop.table_inbox import BUFFER_LIMIT, BUFFER_WINDOW
from tests.client.harness import Router, Setup, act, forge, world


def finals(router: Router, name: str) -> list[int]:
    return [event.ply for event in router.of_type(name, PlyFinal)]


def test_a_ply_is_final_when_every_peer_acked_it() -> None:
    _setup, router = world(["A", "B", "C"], params={"seats": 3, "pile": 30})
    assert all(finals(router, n) == [0] for n in "ABC")
    router.down.add("C")  # C hears nothing for now
    act(router, "A", router.tables["A"].move(2, 1.0))
    act(router, "B", router.tables["B"].move(2, 2.0))  # B applies ply 2 before ply 1 is final
    assert router.tables["A"].head.ply == 2 and router.tables["A"].final_ply == 0
    assert [e.state.ply for e in router.of_type("B", PlyApplied)] == [1, 2]
    router.down.clear()
    router.heal()
    router.run()
    for name, table in router.tables.items():
        assert table.final_ply == 2 and finals(router, name) == [0, 1, 2]


def test_acks_arriving_before_their_ply_wait_and_count() -> None:
    _setup, router = world(["A", "B"])
    b = router.tables["B"]
    move = router.tables["A"].move(2, 1.0)  # A's MOVE then A's ACK, held back
    record, ack = move.send
    assert (record.kind, ack.kind) == (MOVE, ACK)
    assert b.receive(ack, 2.0).events == []  # early: buffered, nothing yet
    out = b.receive(record, 3.0)
    assert [type(e).__name__ for e in out.events] == ["PlyApplied", "PlyFinal"]
    assert [r.kind for r in out.log] == [MOVE, ACK, ACK]  # the ply, then B's and A's acks


def test_duplicates_are_dropped_silently() -> None:
    _setup, router = world(["A", "B"])
    out = router.tables["A"].move(2, 1.0)
    b = router.tables["B"]
    first = b.receive(out.send[0], 2.0)
    assert first.events and first.log
    again = b.receive(out.send[0], 3.0)
    assert again.events == [] and again.log == [] and again.send == []


def test_plies_arriving_out_of_order_are_applied_in_order() -> None:
    _setup, router = world(["A", "B"])
    a, b = router.tables["A"], router.tables["B"]
    first = a.move(1, 1.0).send[0]  # 21 -> 20: an extra move for seat 1
    second = a.move(3, 2.0).send[0]
    assert b.receive(second, 3.0).events == []
    out = b.receive(first, 4.0)
    assert [e.state.ply for e in out.of_type(PlyApplied)] == [1, 2]


def test_records_too_far_ahead_are_dropped_and_can_come_again() -> None:
    setup, router = world(["A", "B"])
    b = router.tables["B"]
    far = forge(setup, "A", ACK, {"ply": BUFFER_WINDOW + 1, "digest": bytes(32)})
    out = b.receive(far, 1.0)
    assert [type(e) for e in out.events] == [RecordDropped]
    assert b.receive(far, 2.0).events  # not remembered as seen: a later copy is considered


def test_the_early_buffer_is_bounded() -> None:
    setup, router = world(["A", "B"])
    b = router.tables["B"]
    dropped = 0
    for index in range(BUFFER_LIMIT + 5):
        ack = forge(setup, "A", ACK, {"ply": 2 + index % BUFFER_WINDOW, "digest": bytes(32)})
        dropped += len(b.receive(ack, 1.0).of_type(RecordDropped))
    assert dropped == 5


def test_a_peer_never_signs_two_digests_for_one_ply() -> None:
    claims = OwnClaims("ACK")
    assert claims.should_sign(3, b"x") is True
    assert claims.should_sign(3, b"x") is False
    with pytest.raises(LocalTableError, match="already signed another ACK for ply 3"):
        claims.should_sign(3, b"y")


def test_each_peer_acks_each_ply_once() -> None:
    setup = Setup(["A", "B", "C"], params={"seats": 3, "pile": 40})
    tables = {n: setup.table(n) for n in "ABC"}
    router = Router(tables, seed=4, max_delay=0.02, duplicate=0.3)
    router.start()
    router.run()
    for name in "ABC":
        acks = [(r.author, r.body["ply"]) for r in router.logs[name] if r.kind == ACK]
        assert len(acks) == len(set(acks)) == 3 * (tables[name].head.ply + 1)
