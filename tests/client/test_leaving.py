"""LEAVE: a peer that leaves on purpose is removed (or its 2-peer table abandoned) at once.

On the in-memory router with presence on and an away timeout of ``AWAY``: a peer that
signs LEAVE and goes is taken off well within a second of virtual time, where a peer that
only goes silent takes the whole away timeout.  A bad notice ends nothing.
"""

from __future__ import annotations

import pytest

from client.rules.errors import IntentRefused
from client.rules.records import LEAVE, MOVE, SignedRecord
from client.rules.removal import ABANDONED
from client.tabletop.events import PeerLeft, TableEnded, TableRejected
from client.tabletop.table_input import LeaveTable
from tests.client.envelopes import signed
from tests.client.harness import Router, forge
from tests.client.test_removal import AWAY, cluster, removes, restart, run_until


def _deliver(router: Router, record: SignedRecord, to: list[str]) -> None:
    router.deliver(record.envelope, to)
    run_until(router, lambda: False, limit=router.now + 0.5)


def _leave_at_ply(router: Router, name: str, ply: int) -> float:
    """``name`` leaves on purpose once its head reaches ``ply``, then goes off the network;
    the virtual time it left at."""
    run_until(router, lambda: router.tables[name].head.ply >= ply)
    router.take(name, router.tables[name].handle(LeaveTable(router.now)))
    router.down.add(name)
    return router.now


def test_a_peer_that_leaves_is_removed_at_once_not_after_the_away_timeout() -> None:
    setup, router = cluster(["A", "B", "C"])
    left_at = _leave_at_ply(router, "C", 3)
    a, b = router.tables["A"], router.tables["B"]
    run_until(router, lambda: bool(removes(a)) and bool(removes(b)), limit=left_at + AWAY)
    [proposal] = removes(a)
    assert proposal.removed == (setup.key("C"),)
    remove_at = router.now
    assert remove_at - left_at < 1.0  # the away timeout is AWAY (5 s)
    assert [e.key for e in router.of_type("A", PeerLeft)] == [setup.key("C")]
    run_until(router, lambda: a.ended and b.ended)
    assert a.ended and b.ended and not a.halted


def test_a_peer_that_only_goes_silent_waits_out_the_away_timeout() -> None:
    """The same table without the notice: the removal comes only after ``AWAY``."""
    _setup, router = cluster(["A", "B", "C"])
    run_until(router, lambda: router.tables["C"].head.ply >= 3)
    router.down.add("C")
    gone_at = router.now
    a = router.tables["A"]
    run_until(router, lambda: bool(removes(a)), limit=gone_at + 4 * AWAY)
    # silence counts from the last report C sent (every 2 s) before it went
    assert removes(a) and router.now - gone_at >= AWAY - 2.5


def test_a_two_peer_table_whose_other_peer_leaves_ends_as_abandoned_at_once() -> None:
    setup, router = cluster(["A", "B"])
    left_at = _leave_at_ply(router, "B", 3)
    a = router.tables["A"]
    run_until(router, lambda: a.ended, limit=left_at + AWAY)
    assert a.ended and a.abandoned is not None and router.now - left_at < 1.0
    [ended] = router.of_type("A", TableEnded)
    assert ended.outcome.reason == ABANDONED
    [end] = [r for r in router.logs["A"] if r.kind == "END"]
    assert end.body["result"]["absent"] == (setup.key("B"),)
    assert any(r.kind == LEAVE for r in router.logs["A"])  # the notice is in A's game file


def test_the_leaver_signs_nothing_more_and_comes_back_only_as_a_spectator() -> None:
    setup, router = cluster(["A", "B", "C"], bots_of={"C": ()})
    run_until(router, lambda: router.tables["A"].head.ply >= 2)
    c = router.tables["C"]
    router.take("C", c.handle(LeaveTable(router.now)))
    assert not c.seated
    with pytest.raises(IntentRefused):
        c.move(1, router.now)
    with pytest.raises(IntentRefused):
        c.handle(LeaveTable(router.now))  # once is final
    router.down.add("C")
    c = restart(router, setup, "C", bots=())
    assert not c.seated  # its own LEAVE, replayed from its log, still holds


def test_a_leave_built_on_another_position_is_refused_and_ends_nothing() -> None:
    setup, router = cluster(["A", "B"])
    a = router.tables["A"]
    run_until(router, lambda: a.head.ply >= 2)
    wrong = a.chain.at(1).chain_digest
    _deliver(router, forge(setup, "B", LEAVE, {"ply": 2, "digest": wrong}), to=["A"])
    [rejected] = [e for e in router.of_type("A", TableRejected) if e.record.kind == LEAVE]
    assert "another position" in rejected.reason
    assert not a.ended and not router.of_type("A", PeerLeft)
    run_until(router, lambda: a.ended)
    assert a.abandoned is None  # the game went on to its own end


def test_a_leave_signed_by_a_bot_key_or_for_another_table_is_refused() -> None:
    """A notice for another seat (a bot's key is no peer's) or from another table."""
    setup, router = cluster(["A", "B", "C", "bot:C"])
    a = router.tables["A"]
    run_until(router, lambda: a.head.ply >= 1)
    head = {"ply": a.head.ply, "digest": a.head.chain_digest}
    _deliver(router, forge(setup, 4, LEAVE, head), to=["A"])  # seat 4: C's bot
    other = signed(setup.identities["C"], bytes(16), 999, LEAVE, head)
    _deliver(router, other, to=["A"])
    reasons = [e.reason for e in router.of_type("A", TableRejected) if e.record.kind == LEAVE]
    assert len(reasons) == 2 and "another table" in reasons[1], reasons
    assert not router.of_type("A", PeerLeft) and not removes(a)
    run_until(router, lambda: a.ended)
    assert not removes(a)


def test_a_replayed_leave_counts_once() -> None:
    setup, router = cluster(["A", "B", "C"])
    left_at = _leave_at_ply(router, "C", 2)
    [notice] = [r for r in router.sent_by["C"] if r.kind == LEAVE]
    a = router.tables["A"]
    run_until(router, lambda: bool(removes(a)), limit=left_at + AWAY)
    _deliver(router, notice, to=["A", "B"])  # the same bytes again, after the REMOVE
    assert len(router.of_type("A", PeerLeft)) == 1
    run_until(router, lambda: a.ended)
    assert len(removes(a)) == 1 and not a.halted
    assert all(r.kind != MOVE or r.author != setup.key("C") for r in router.logs["A"][-3:])


def test_a_leave_ahead_of_this_peer_waits_for_the_ply_it_binds() -> None:
    """The leaver moved, then left: its notice names that ply; a peer that has not applied
    the move yet keeps the notice until it has."""
    setup, router = cluster(["A", "B"], bots=())
    a, b = router.tables["A"], router.tables["B"]
    run_until(router, lambda: a.final_ply == 0 and b.final_ply == 0, limit=5.0)
    move_out = a.move(1, router.now)  # seat 1 is A's
    notice_out = a.handle(LeaveTable(router.now))
    [notice] = [r for r in notice_out.send if r.kind == LEAVE]
    assert notice.body["ply"] == 1
    b.receive(notice, router.now)  # before the move itself
    assert not b.ended and not router.of_type("B", PeerLeft)
    router.take("A", move_out)
    router.take("A", notice_out)
    router.down.add("A")
    run_until(router, lambda: b.ended, limit=router.now + 2)
    assert b.abandoned == (1, (setup.key("A"),))


def test_a_move_signed_after_its_authors_leave_is_refused() -> None:
    """A LEAVE is final: a client that leaves, then plays on, is not followed."""
    setup, router = cluster(["C", "A", "B"], bots=())  # seat 1, to move first, is C's
    a = router.tables["A"]
    run_until(router, lambda: a.final_ply == 0, limit=5.0)
    genesis = a.head.chain_digest
    a.receive(forge(setup, "C", LEAVE, {"ply": 0, "digest": genesis}), router.now)
    late = forge(setup, "C", MOVE, {"ply": 1, "prev": genesis, "seat": 1, "move": [1]})
    out = a.receive(late, router.now)
    [refused] = [e for e in out.events if isinstance(e, TableRejected)]
    assert refused.record == late and "a LEAVE is final" in refused.reason
    assert a.head.ply == 0
