"""A reused ``seq`` at a live table (issue 13, client/rules/seq_book.py): two different records
with one author and ``seq`` are misconduct.  Outside the chain the later one is rejected and
the game goes on; with a record of the chain in the pair the table halts, naming the author;
two records for one slot of the chain are judged by the chain's own rules.  Whichever order
the honest peers receive a pair in, they end the same way."""

from __future__ import annotations

from client.rules.records import ACK, CHAT, MOVE, SignedRecord
from client.rules.seq_book import SEQ_WINDOW
from client.tabletop.events import ChatReceived, TableHalted, TableRejected
from net.records import MAX_SEQ
from tests.client.envelopes import Identity, signed
from tests.client.harness import Router, Setup, act, deliver, world

GRAB = {"seats": 3, "pile": 30}


def by(setup: Setup, name: str, seq: int, kind: str, body: dict[str, object]) -> SignedRecord:
    return signed(setup.identities[name], setup.table_id, seq, kind, body)


def last_seq(router: Router, name: str) -> int:
    return router.sent_by[name][-1].seq


def chats(router: Router, name: str) -> list[str]:
    return [event.text for event in router.of_type(name, ChatReceived)]


def test_a_second_chat_with_a_used_seq_is_rejected_with_both_records_and_the_game_goes_on() -> None:
    setup, router = world(["A", "B", "C"], params=GRAB)
    act(router, "C", router.tables["C"].chat("hello", 1.0))
    first = router.sent_by["C"][-1]
    second = by(setup, "C", first.seq, CHAT, {"text": "resign, all of you"})
    deliver(router, second, to=["A", "B"])
    cat = router.tables["A"].describe(setup.key("C"))
    for name in "AB":
        table = router.tables[name]
        [rejected] = router.of_type(name, TableRejected)
        assert rejected.record == second
        assert rejected.reason == (
            f"{cat} signed two different records with seq {first.seq} "
            "(a CHAT, then a CHAT); the second was ignored"
        )
        evidence = rejected.evidence
        assert evidence is not None and evidence.records == (first, second)
        assert evidence.culprits == (setup.key("C"),)
        assert chats(router, name) == ["hello"]
        assert second not in router.logs[name] and not table.halted
    act(router, "A", router.tables["A"].move(2, 2.0))  # the game goes on
    assert all(t.head.ply == 1 and t.final_ply == 1 for t in router.tables.values())


def test_peers_that_get_a_pair_of_chats_in_opposite_orders_each_keep_one_and_go_on() -> None:
    setup, router = world(["A", "B", "C"], params=GRAB)
    router.cut |= {frozenset("AC"), frozenset("BC")}  # C's records go where the test says
    early = by(setup, "C", last_seq(router, "C") + 1, CHAT, {"text": "early"})
    deliver(router, early, to=["A"])
    act(router, "C", router.tables["C"].chat("late", 1.0))
    late = router.sent_by["C"][-1]
    assert late.seq == early.seq
    deliver(router, late, to=["A", "B"])
    deliver(router, early, to=["B"])
    assert chats(router, "A") == ["early"] and chats(router, "B") == ["late"]
    assert [e.record for e in router.of_type("A", TableRejected)] == [late]
    assert [e.record for e in router.of_type("B", TableRejected)] == [early]
    router.cut.clear()
    act(router, "A", router.tables["A"].move(2, 2.0))
    assert not any(t.halted for t in router.tables.values())
    assert len({t.head.chain_digest for t in router.tables.values()}) == 1


def test_a_chat_reusing_the_seq_of_an_ack_halts_the_table_naming_its_author() -> None:
    setup, router = world(["A", "B", "C"], params=GRAB)
    ack = router.sent_by["C"][0]
    assert ack.kind == ACK and ack.body["ply"] == 0
    chat = by(setup, "C", ack.seq, CHAT, {"text": "my genesis ack never was"})
    deliver(router, chat, to=["A", "B"])
    cat = router.tables["A"].describe(setup.key("C"))
    for name in "AB":
        table = router.tables[name]
        evidence = table.evidence
        assert evidence is not None and len(router.of_type(name, TableHalted)) == 1
        assert evidence.kind == "equivocation" and evidence.culprits == (setup.key("C"),)
        assert router.of_type(name, TableHalted)[0].evidence.reason == (
            f"{cat} signed two different records with seq {ack.seq} (an ACK of ply 0, then a CHAT)"
        )
        assert evidence.verdict == f"{cat} signed two different records with seq {ack.seq}"
        assert {ack, chat} <= set(evidence.records)
        assert chats(router, name) == []
        assert chat not in router.logs[name]


def test_a_move_and_a_chat_with_one_seq_halt_everyone_in_either_order() -> None:
    """C's move reaches A before a chat with its seq, the chat reaches B first: B never
    applies the move, A did; both halt and name C, and neither logs both."""
    setup, router = world(["A", "B", "C"], params=GRAB)
    act(router, "A", router.tables["A"].move(1, 1.0))
    act(router, "B", router.tables["B"].move(1, 2.0))
    chat = by(setup, "C", last_seq(router, "C") + 1, CHAT, {"text": "gg"})
    deliver(router, chat, to=["B"])
    router.cut |= {frozenset("AC"), frozenset("BC")}
    act(router, "C", router.tables["C"].move(2, 3.0))
    move = next(r for r in router.sent_by["C"] if r.kind == MOVE)
    assert move.seq == chat.seq
    router.cut.clear()
    deliver(router, move, to=["A", "B"])
    deliver(router, chat, to=["A"])
    a, b = router.tables["A"], router.tables["B"]
    assert a.head.ply == 3 and b.head.ply == 2  # B refused to take the move after the chat
    assert a.chain.at(2).chain_digest == b.chain.at(2).chain_digest
    for name, table in (("A", a), ("B", b)):
        evidence = table.evidence
        assert evidence is not None and evidence.culprits == (setup.key("C"),), name
        assert "signed two different records with seq" in evidence.verdict
        assert {move, chat} <= set(evidence.records)
        assert not {move, chat} <= set(router.logs[name])


def test_two_moves_for_one_ply_with_one_seq_are_judged_by_the_chain() -> None:
    # both legal: equivocation, as with two seqs
    setup, router = world(["A", "B", "C"], params=GRAB)
    genesis = router.tables["A"].head.chain_digest
    seq = last_seq(router, "A") + 1
    one = by(setup, "A", seq, MOVE, {"ply": 1, "prev": genesis, "seat": 1, "move": [1]})
    two = by(setup, "A", seq, MOVE, {"ply": 1, "prev": genesis, "seat": 1, "move": [2]})
    router.deliver(one.envelope, ["B"])
    router.deliver(two.envelope, ["C"])
    router.run()
    for name in "BC":
        evidence = router.tables[name].evidence
        assert evidence is not None and evidence.kind == "equivocation"
        assert evidence.verdict.endswith("signed two different records for ply 1")
    # one illegal, one legal: the legal one is taken everywhere, whichever came first
    setup, router = world(["A", "B", "C"], params=GRAB)
    illegal = by(setup, "A", seq, MOVE, {"ply": 1, "prev": genesis, "seat": 1, "move": [9]})
    legal = by(setup, "A", seq, MOVE, {"ply": 1, "prev": genesis, "seat": 1, "move": [2]})
    router.deliver(illegal.envelope, ["B"])
    router.deliver(legal.envelope, ["C"])
    router.run()
    router.deliver(legal.envelope, ["B"])
    router.deliver(illegal.envelope, ["C"])
    router.run()
    for name in "BC":
        table = router.tables[name]
        assert not table.halted and table.head.ply == 1 and table.head.record == legal
        [rejected] = router.of_type(name, TableRejected)
        assert rejected.record == illegal and "illegal move" in rejected.reason


def test_a_record_reusing_the_seq_of_start_halts_the_table() -> None:
    setup, router = world(["A", "B", "C"], params=GRAB)
    start = setup.start_record
    chat = by(setup, "A", start.seq, CHAT, {"text": "a table of my own"})
    deliver(router, chat, to=["B", "C"])
    for name in "BC":
        evidence = router.tables[name].evidence
        assert evidence is not None and evidence.culprits == (setup.key("A"),)
        assert "(a START, then a CHAT)" in router.of_type(name, TableHalted)[0].evidence.reason


def test_copies_and_keys_of_no_one_at_the_table_are_no_clash() -> None:
    setup, router = world(["A", "B", "C"], params=GRAB)
    act(router, "C", router.tables["C"].chat("hello", 1.0))
    deliver(router, router.sent_by["C"][-1], to=["A", "B"])  # a copy: dropped silently
    outsider = Identity(999)
    for text in ("one", "two"):
        deliver(router, signed(outsider, setup.table_id, 5, CHAT, {"text": text}), to=["A"])
    reasons = [e.reason for e in router.of_type("A", TableRejected)]
    assert len(reasons) == 2 and all("is no peer at this table" in r for r in reasons)
    assert not any(t.halted for t in router.tables.values())
    assert chats(router, "A") == ["hello"]


def test_a_seq_jumping_past_the_window_is_refused_and_leaves_no_trace() -> None:
    """A validly signed CHAT with seq 2**63 - 1 (the seq bomb of issue 19): refused like any
    lie, not shown, not logged, not noted (C's next records go on as before); a jump of
    exactly ``SEQ_WINDOW`` is still taken."""
    setup, router = world(["A", "B", "C"], params=GRAB)
    last = last_seq(router, "C")
    bomb = by(setup, "C", MAX_SEQ, CHAT, {"text": "boom"})
    deliver(router, bomb, to=["A", "B"])
    cat = router.tables["A"].describe(setup.key("C"))
    for name in "AB":
        [rejected] = router.of_type(name, TableRejected)
        assert rejected.record == bomb
        assert rejected.reason == (
            f"{cat} signed a CHAT with seq {MAX_SEQ}, {MAX_SEQ - last:,} past its last one "
            f"({last}): an author numbers its records one by one, and no table takes a jump "
            f"of more than {SEQ_WINDOW:,}; it was ignored"
        )
        assert rejected.evidence is not None and rejected.evidence.culprits == (setup.key("C"),)
        assert chats(router, name) == [] and bomb not in router.logs[name]
        assert not router.tables[name].halted
    far = by(setup, "C", last + SEQ_WINDOW, CHAT, {"text": "far, but not too far"})
    deliver(router, far, to=["A", "B"])
    assert chats(router, "A") == chats(router, "B") == ["far, but not too far"]
    act(router, "A", router.tables["A"].move(2, 2.0))  # the game goes on, C acks as usual
    assert all(t.head.ply == 1 and t.final_ply == 1 for t in router.tables.values())
    assert all(len(router.of_type(name, TableRejected)) == 1 for name in "AB")


def test_the_window_counts_from_the_highest_seq_taken_so_far() -> None:
    """Records of an author may arrive out of order (a pull, the mesh): only the highest
    taken counts, so an earlier number is never a jump, and the window moves on with it."""
    setup, router = world(["A", "B", "C"], params=GRAB)
    last = last_seq(router, "C")
    high = by(setup, "C", last + SEQ_WINDOW, CHAT, {"text": "high"})
    low = by(setup, "C", last + 1, CHAT, {"text": "low"})
    higher = by(setup, "C", last + 2 * SEQ_WINDOW, CHAT, {"text": "higher"})
    beyond = by(setup, "C", last + 3 * SEQ_WINDOW + 1, CHAT, {"text": "beyond"})
    for record in (high, low, higher, beyond):
        deliver(router, record, to=["A"])
    assert chats(router, "A") == ["high", "low", "higher"]
    assert [e.record for e in router.of_type("A", TableRejected)] == [beyond]
