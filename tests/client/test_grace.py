"""A peer cut off from everyone judges nobody's absence by the time it could not hear.

Two hosts of four cut together and healed a few seconds apart must not remove one another
(docs/RELIABILITY.md, scenario 9): the first one back would otherwise find the other silent
past the away timeout at once and add the vote the others were waiting for.  Peers run on
the in-memory router with presence on; a cut is every link of a peer (its table keeps
running, as a real process does), and a heal hands the peer everything it missed, as the
links' TCP buffers do when they come back.  Faults are triggered at a ply number.
"""

from __future__ import annotations

from collections.abc import Iterable

from hypothesis import given, settings
from hypothesis import strategies as st

from client.rules.records import REMOVE, VOTE
from client.tabletop.presence import CUT_OFF, Presence
from client.tabletop.table import Table
from tests.client.harness import Router, Setup
from tests.client.test_removal import AWAY, assert_same_chain, cluster, removes, restart, run_until

# --- the rule, on Presence alone ------------------------------------------------------------
ME, P, Q = b"m" * 32, b"p" * 32, b"q" * 32


def test_a_peer_that_hears_nobody_finds_nobody_away_until_a_timeout_after_its_return() -> None:
    presence = Presence([ME, P, Q], ME, 0.0, away=5.0)
    presence.hear(P, 1.0)
    presence.hear(Q, 1.0 + CUT_OFF)  # a gap of CUT_OFF is not a cut
    assert not presence.cut_off(1.0 + CUT_OFF) and presence.away(P, 6.0)
    assert presence.cut_off(5.0 + CUT_OFF + 0.5)
    assert not presence.away(P, 20.0) and not presence.away(Q, 20.0)
    assert presence.shown_away(P, 20.0)  # what is shown is not changed: P is silent
    assert presence.due(1.0, 5.0, 20.0) is None  # the clock stands still while cut off
    presence.hear(P, 30.0)  # back
    assert not presence.cut_off(30.0)
    assert presence.due(1.0, 5.0, 30.0) == 35.0 and presence.next_change(30.0) == 35.0
    assert presence.sighted(32.0, 33.0) == 1.0 and presence.sighted(10.0, 33.0) == 3.0
    presence.hear(P, 33.0)  # P's reports go on; Q stays silent
    assert not presence.away(Q, 34.9) and presence.away(Q, 35.0)


def test_with_one_other_peer_its_silence_is_not_a_cut_and_a_restart_starts_the_clocks() -> None:
    two = Presence([ME, P], ME, 0.0, away=5.0)
    assert not two.cut_off(100.0) and two.away(P, 5.0)  # a 2-peer table ends as abandoned
    restarted = Presence([ME, P, Q], ME, 100.0, away=5.0)
    assert not restarted.away(P, 104.0)
    restarted.hear(P, 110.0)  # the first peer it reaches, 10 s after its restart
    restarted.hear(P, 112.0)
    assert not restarted.away(Q, 114.0) and restarted.away(Q, 115.0)


# --- tables ------------------------------------------------------------------------------------
def cut_off(router: Router, name: str) -> None:
    """Every link of ``name`` carries nothing from now on."""
    router.cut |= {frozenset((name, other)) for other in router.tables if other != name}


def reconnect(router: Router, name: str) -> None:
    """``name``'s links to the peers that are not cut off come back: the first frame on each
    is news of the other end (``Table.heard``), then what the linked peers signed arrives
    (each table drops what it has seen; nothing from a peer still cut off)."""
    isolated = {n for n in router.tables if n != name and is_cut_off(router, n)}
    router.cut = {pair for pair in router.cut if name not in pair or pair & isolated}
    linked = [n for n in router.tables if n not in isolated]
    for other in linked:
        if other != name:
            for here, there in ((name, other), (other, name)):
                key = router.tables[there].me
                assert key is not None
                router.take(here, router.tables[here].heard(key, router.now))
    for source in linked:
        for record in router.sent_by[source]:
            router.deliver(record.envelope, linked, delay=0.0)


def is_cut_off(router: Router, name: str) -> bool:
    return all(frozenset((name, other)) in router.cut for other in router.tables if other != name)


def to_move(table: Table) -> bytes | None:
    """The peer that signs the next ply at ``table``'s head."""
    state = table.head.engine_state
    seat = table.engine.to_move(state)
    if seat is None:
        return None
    return table.runner_of(table.head.seat_key(table.engine.controller(state, seat)))


def votes_of(router: Router, names: Iterable[str]) -> list[str]:
    return [n for n in names if any(r.kind == VOTE for r in router.sent_by[n])]


def remove_time(router: Router) -> float | None:
    return next((when for when, r in router.sent_at if r.kind == REMOVE), None)


def play_to_the_end(router: Router, tables: list[Table] | None = None) -> None:
    """Run until every table (default: all the router's) ended; none halted, and all hold
    one chain."""
    if tables is None:
        tables = list(router.tables.values())
    run_until(router, lambda: all(t.ended for t in tables), limit=router.now + 400)
    assert all(t.ended and not t.halted for t in tables)
    assert_same_chain(tables)


def cut_c_then_d(router: Router, setup: Setup) -> float:
    """C cut off at its turn, D one beat later (as ``netlab cut 3; cut 4`` does: C's last
    report is older); A and B vote to remove C, whose silence began first, and wait for D's
    vote.  Three away timeouts later D's links come back: returns when."""
    a = router.tables["A"]
    run_until(router, lambda: a.head.ply >= 3 and to_move(a) == setup.key("C"))
    cut_off(router, "C")
    run_until(router, lambda: False, limit=router.now + 2.0)
    cut_off(router, "D")
    run_until(router, lambda: False, limit=router.now + 3 * AWAY)
    assert votes_of(router, "ABCD") == ["A", "B"] and not removes(a)
    reconnect(router, "D")
    return router.now


def test_two_peers_cut_together_and_healed_apart_remove_nobody() -> None:
    setup, router = cluster(["A", "B", "C", "D"], pile=40)
    back = cut_c_then_d(router, setup)
    a = router.tables["A"]
    assert a.ballot.frozen(a.head)  # A and B voted on C: only D's vote is missing
    # D is back and still sees C silent, but not for a whole away timeout since its return.
    run_until(router, lambda: False, limit=back + 3.0)
    assert votes_of(router, "CD") == [] and not removes(a)
    reconnect(router, "C")
    play_to_the_end(router)
    assert not removes(a) and votes_of(router, "CD") == []


def test_the_first_back_votes_once_the_other_was_silent_a_whole_away_timeout_since() -> None:
    setup, router = cluster(["A", "B", "C", "D"], pile=40)
    back = cut_c_then_d(router, setup)
    a, b, d = (router.tables[n] for n in "ABD")
    run_until(router, lambda: bool(removes(a)), limit=back + 4 * AWAY)
    [proposal] = removes(a)
    assert proposal.removed == (setup.key("C"),)
    # Not before C had been silent a whole away timeout since D was back; and D's clock
    # ran from its return (a beat at most between two reports).
    when = remove_time(router)
    assert when is not None and back + AWAY <= when <= back + AWAY + router.heartbeat
    run_until(router, lambda: a.ended and b.ended and d.ended, limit=router.now + 400)
    assert a.ended and b.ended and d.ended and not a.halted
    assert_same_chain([a, b, d])


def test_a_peer_cut_off_alone_is_removed_by_the_three_others_after_the_away_timeout() -> None:
    setup, router = cluster(["A", "B", "C", "D"], pile=40)
    a = router.tables["A"]
    run_until(router, lambda: a.head.ply >= 3 and to_move(a) == setup.key("C"))
    cut = router.now
    cut_off(router, "C")
    run_until(router, lambda: bool(removes(a)), limit=cut + 4 * AWAY)
    [proposal] = removes(a)
    assert proposal.removed == (setup.key("C"),)
    when = remove_time(router)  # C was last heard a beat before the cut at most
    assert when is not None and cut + AWAY - router.heartbeat <= when <= cut + AWAY
    alive = [router.tables[n] for n in "ABD"]
    play_to_the_end(router, alive)


def test_an_idle_peer_cut_off_with_another_is_not_voted_off_by_it_on_its_return() -> None:
    # No away timeout to speak of: C becomes removable by owing its move past the idle one.
    setup, router = cluster(["A", "B", "C", "D"], pile=40, away=600.0, idle=8.0)
    a = router.tables["A"]
    run_until(router, lambda: a.head.ply >= 3 and to_move(a) == setup.key("C"))
    cut_off(router, "C")
    run_until(router, lambda: False, limit=router.now + 2.0)
    cut_off(router, "D")
    run_until(router, lambda: False, limit=router.now + 15.0)
    assert votes_of(router, "ABCD") == ["A", "B"]  # C owed its move for 8 s
    back = router.now
    reconnect(router, "D")  # D saw C owe its move for 17 s, 15 of them cut off itself
    run_until(router, lambda: False, limit=back + 3.0)
    assert votes_of(router, "CD") == [] and not removes(a)
    reconnect(router, "C")
    play_to_the_end(router)
    assert not removes(a)


def test_a_restarted_peer_counts_silences_from_when_it_hears_the_table_again() -> None:
    setup, router = cluster(["A", "B", "C", "D"], pile=40)
    a = router.tables["A"]
    run_until(router, lambda: a.head.ply >= 3 and to_move(a) == setup.key("C"))
    cut_off(router, "C")
    run_until(router, lambda: False, limit=router.now + 2.0)
    router.down.add("D")  # D's process dies
    run_until(router, lambda: False, limit=router.now + 3 * AWAY)
    assert votes_of(router, "ABCD") == ["A", "B"]
    # D starts again from its log, but takes 6 s to reach anyone (dialing, a slow link).
    cut_off(router, "D")
    restart(router, setup, "D")
    run_until(router, lambda: False, limit=router.now + 6.0)
    back = router.now
    reconnect(router, "D")
    run_until(router, lambda: False, limit=back + 3.0)
    assert votes_of(router, "CD") == [] and not removes(a)
    reconnect(router, "C")
    play_to_the_end(router)
    assert not removes(a)


# --- when the peers voted on come back before the last vote ------------------------------------
def cut_c_then_d_at_the_turn_of(router: Router, setup: Setup, name: str) -> None:
    """As ``cut_c_then_d``, at a position where ``name`` (a person, slow to move) is to move;
    then D's links come back, and C's 3 s later."""
    a = router.tables["A"]
    run_until(router, lambda: a.final_ply >= 0 and to_move(a) == setup.key(name), limit=30.0)
    assert to_move(a) == setup.key(name)
    cut_off(router, "C")
    run_until(router, lambda: False, limit=router.now + 2.0)
    cut_off(router, "D")
    run_until(router, lambda: False, limit=router.now + 3 * AWAY)
    reconnect(router, "D")
    run_until(router, lambda: False, limit=router.now + 3.0)
    reconnect(router, "C")
    run_until(router, lambda: False, limit=router.now + 2 * AWAY)


def test_the_appender_to_move_withdraws_its_vote_when_the_absent_peer_is_back() -> None:
    setup, router = cluster(["A", "B", "C", "D"], pile=40, bots_of={"A": ()})
    cut_c_then_d_at_the_turn_of(router, setup, "A")
    a = router.tables["A"]
    assert votes_of(router, "ABCD") == ["A", "B"]  # A proposed at its own turn, B followed
    assert not removes(a) and not a.ballot.frozen(a.head)  # C is back: A dropped its vote
    router.take("A", a.move(1, router.now))  # and may move: B's vote lapses on A's ACK
    tables = list(router.tables.values())
    run_until(router, lambda: all(t.head.ply == a.head.ply for t in tables), limit=router.now + 5)
    assert all(not t.ballot.frozen(t.head) for t in tables)
    assert_same_chain(tables)


def test_a_peer_to_move_moves_rather_than_follows_a_proposal() -> None:
    setup, router = cluster(["A", "B", "C", "D"], pile=40, bots_of={"B": ()})
    cut_c_then_d_at_the_turn_of(router, setup, "B")
    b = router.tables["B"]
    assert votes_of(router, "ABCD") == ["A"]  # B, to move, did not follow A
    assert not removes(b) and not b.ballot.frozen(b.head)
    router.take("B", b.move(1, router.now))  # A's vote lapses on B's ACK
    play_to_the_end(router)
    assert not removes(b)


# --- any two, any timing ---------------------------------------------------------------------
@settings(max_examples=20)
@given(
    seed=st.integers(0, 2**16),
    pair=st.sampled_from(["CD", "DC", "AB", "BA", "AC", "BD"]),
    at_ply=st.integers(0, 8),
    stagger=st.sampled_from([0.0, 0.5, 2.0]),
    gap=st.sampled_from([0.0, 1.0, 3.0, 4.5, 12.0]),
    max_delay=st.sampled_from([0.0, 0.05]),
)
def test_any_two_of_four_cut_together_and_healed_apart_end_with_one_chain(
    seed: int, pair: str, at_ply: int, stagger: float, gap: float, max_delay: float
) -> None:
    first, second = pair[0], pair[1]
    setup, router = cluster(["A", "B", "C", "D"], pile=40, seed=seed, max_delay=max_delay)
    tables = list(router.tables.values())
    run_until(router, lambda: tables[0].head.ply >= at_ply)
    cut_off(router, first)
    run_until(router, lambda: False, limit=router.now + stagger)
    cut_off(router, second)
    run_until(router, lambda: False, limit=router.now + 3 * AWAY)
    reconnect(router, second)
    run_until(router, lambda: False, limit=router.now + gap)
    reconnect(router, first)

    def over() -> bool:
        return all(t.ended for t in tables if t.seated) and len({t.head.ply for t in tables}) == 1

    run_until(router, over, limit=router.now + 400)
    assert over() and not any(t.halted for t in tables)
    assert_same_chain(tables)
    gone = {key for t in tables for p in removes(t) for key in p.removed}
    assert gone <= {setup.key(first)}  # only the first cut can be voted off, and only
    if gap < AWAY:  # when it stayed away a whole away timeout after the second was back
        assert not gone
