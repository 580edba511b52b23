"""REMOVE: absent peers voted off, bots in their seats, the freeze, the one step back.

Peers run on the in-memory router with presence on (reports every 2 s on every link that
is up) and a short away timeout, so a peer that goes down is found away within seconds of
virtual time.  Faults are triggered at a ply number, never after a wall-clock sleep.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from client.rules.errors import IntentRefused
from client.rules.records import ACK, MOVE, REMOVE, VOTE, SignedRecord
from client.rules.removal import ABANDONED, Proposal, read_proposal
from client.tabletop.events import (
    Output,
    PlyDropped,
    PresenceChanged,
    RecordIgnored,
    TableEnded,
    TableHalted,
    TableRejected,
    VoteReceived,
)
from client.tabletop.table import Table
from tests.client.harness import Router, Setup, deliver, forge, world

AWAY = 5.0


def cluster(
    seats: Sequence[str],
    *,
    pile: int = 30,
    bots: Any = "all",
    bots_of: dict[str, Any] | None = None,
    bot_delay: float = 0.5,
    away: float = AWAY,
    idle: float = 600.0,
    seed: int = 0,
    **network: Any,
) -> tuple[Setup, Router]:
    setup = Setup(
        seats,
        params={"seats": len(seats), "pile": pile},
        away_ms=int(away * 1000),
        idle_ms=int(idle * 1000),
        seed=seed,
    )
    tables = {
        n: setup.table(n, bots=(bots_of or {}).get(n, bots), bot_delay=bot_delay, seed=seed)
        for n in setup.peer_names
    }
    router = Router(tables, presence=True, seed=seed, **network)
    router.start()
    return setup, router


def run_until(router: Router, done: Callable[[], bool], limit: float = 400.0) -> None:
    """Step until ``done()`` (checked after every step) or virtual time ``limit``."""
    while not done():
        if not router.step(until=limit):
            return


def removes(table: Table) -> list[Proposal]:
    return [read_proposal(s.record.body) for s in table.chain.states[1:] if s.record.kind == REMOVE]


def assert_same_chain(tables: Sequence[Table]) -> None:
    chains = {tuple(s.chain_digest for s in t.chain.states) for t in tables}
    assert len(chains) == 1


def down_at_ply(router: Router, name: str, ply: int, watcher: str) -> None:
    """Take ``name`` off the network once ``watcher``'s head reaches ``ply``."""
    run_until(router, lambda: router.tables[watcher].head.ply >= ply)
    router.down.add(name)


# --- whole games ---------------------------------------------------------------------------
def test_a_peer_that_goes_silent_is_removed_and_a_bot_finishes_its_seat() -> None:
    setup, router = cluster(["A", "B", "C"])
    down_at_ply(router, "C", 4, watcher="A")
    a, b = router.tables["A"], router.tables["B"]
    run_until(router, lambda: a.ended and b.ended)
    assert a.ended and b.ended and not a.halted and not b.halted
    assert_same_chain([a, b])
    [proposal] = removes(a)
    assert proposal.removed == (setup.key("C"),)
    [replacement] = proposal.replacements
    assert replacement.seat == 3 and replacement.runner == setup.key("A")  # lowest seat
    remove_state = next(s for s in a.chain.states if s.record.kind == REMOVE)
    assert remove_state.record.author == setup.key("A")
    assert remove_state.peers == (setup.key("A"), setup.key("B"))
    later = a.chain.states[remove_state.ply + 1 :]
    assert any(s.record.author == replacement.key for s in later)  # the bot plays seat 3
    assert a.final_ply == b.final_ply == a.head.ply
    shown = [e for e in router.of_type("B", PresenceChanged) if e.key == setup.key("C")]
    assert shown and shown[0].present is False  # everyone saw C away first
    votes = router.of_type("B", VoteReceived)
    assert {v.author for v in votes} == {setup.key("A"), setup.key("B")}


def test_the_bot_that_replaces_a_removed_player_has_its_level_in_the_remove() -> None:
    """A names the level of the bots it makes in its REMOVE (a log says what played); B's
    table, which makes none, takes the REMOVE and its level as A wrote it."""
    setup = Setup(["A", "B", "C"], params={"seats": 3, "pile": 30}, away_ms=int(AWAY * 1000))
    tables = {
        "A": setup.table("A", bot_delay=0.5, bot_level="strong"),
        "B": setup.table("B", bot_delay=0.5),
        "C": setup.table("C", bot_delay=0.5),
    }
    router = Router(tables, presence=True)
    router.start()
    down_at_ply(router, "C", 4, watcher="A")
    a, b = router.tables["A"], router.tables["B"]
    run_until(router, lambda: bool(removes(b)))
    [replacement] = removes(b)[0].replacements
    assert (replacement.seat, replacement.level) == (3, "strong")
    assert b.head.seats[2].level == "strong" and a.chain.states[-1].seats[2].level == "strong"


def test_two_against_two_removes_nobody_and_the_game_goes_on_after_they_return() -> None:
    _setup, router = cluster(["A", "B", "C", "D"])
    run_until(router, lambda: router.tables["A"].head.ply >= 3)
    router.down |= {"C", "D"}
    a, b = router.tables["A"], router.tables["B"]
    run_until(router, lambda: False, limit=router.now + 10 * AWAY)
    assert not removes(a) and not removes(b)
    assert not any(r.kind == VOTE for r in router.logs["A"] + router.logs["B"])
    assert not a.ended and not a.halted
    router.down.clear()
    router.heal()
    run_until(router, lambda: all(t.ended for t in router.tables.values()), limit=router.now + 400)
    assert all(t.ended for t in router.tables.values())
    assert_same_chain(list(router.tables.values()))
    assert not removes(a)


def test_two_absences_at_once_make_one_remove() -> None:
    setup, router = cluster(["A", "B", "C", "D", "E"], pile=40)
    down_at_ply(router, "C", 3, watcher="A")
    router.down.add("E")
    alive = [router.tables[n] for n in "ABD"]
    run_until(router, lambda: all(t.ended for t in alive))
    assert all(t.ended and not t.halted for t in alive)
    assert_same_chain(alive)
    [proposal] = removes(alive[0])
    assert proposal.removed == (setup.key("C"), setup.key("E"))
    assert [s.seat for s in proposal.replacements] == [3, 5]
    assert {s.runner for s in proposal.replacements} == {setup.key("A")}


def test_a_two_peer_table_ends_as_abandoned_naming_the_absent_peer() -> None:
    setup, router = cluster(["A", "B"])
    down_at_ply(router, "B", 3, watcher="A")
    a = router.tables["A"]
    run_until(router, lambda: a.ended)
    assert a.ended and a.abandoned is not None and not removes(a)
    [ended] = router.of_type("A", TableEnded)
    assert ended.outcome.reason == ABANDONED and ended.outcome.winners == ()
    [end] = [r for r in router.logs["A"] if r.kind == "END"]
    assert end.body["result"]["absent"] == (setup.key("B"),)
    assert end.body["ply"] == a.head.ply == ended.ply
    with pytest.raises(IntentRefused, match="abandoned"):
        a.move(1, router.now)


def restart(router: Router, setup: Setup, name: str, **table_args: Any) -> Table:
    """``name`` restarts with the same profile: a new table restored from its own log."""
    log = router.logs[name]
    table = setup.table(name, log=log, **table_args)
    router.tables[name] = table
    router.down.discard(name)
    router.take(name, table.restore(log, router.now))
    return table


def test_the_absent_peer_of_an_abandoned_table_drops_its_unseen_ply_when_it_returns() -> None:
    setup, router = cluster(["A", "B"], bots=())
    a, b = router.tables["A"], router.tables["B"]
    run_until(router, lambda: a.final_ply == 0 and b.final_ply == 0, limit=5.0)
    router.take("A", a.move(2, router.now))
    run_until(router, lambda: b.head.ply == 1, limit=router.now + 1)
    router.cut.add(frozenset("AB"))
    router.take("B", b.move(1, router.now))  # B's ply 2 never reaches A; then B stops
    router.down.add("B")
    router.cut.clear()
    assert b.head.ply == 2
    run_until(router, lambda: a.ended, limit=router.now + 3 * AWAY)
    assert a.abandoned == (1, (setup.key("B"),))
    b = restart(router, setup, "B", bots=())
    assert b.head.ply == 2 and not b.ended
    router.heal()
    run_until(router, lambda: b.ended, limit=router.now + 1)
    assert b.ended and b.abandoned == (1, (setup.key("B"),)) and not b.halted
    assert [e.state.ply for e in router.of_type("B", PlyDropped)] == [2]
    assert_same_chain([a, b])
    assert not b.seated or b.abandoned is not None


def test_the_appender_vanishing_is_replaced_by_the_next_one() -> None:
    setup, router = cluster(["A", "B", "C", "D", "E"], pile=60)
    tables = router.tables
    down_at_ply(router, "E", 2, watcher="A")
    # A proposes first (it appends for {E}) and vanishes before the others' votes reach it.
    run_until(router, lambda: any(r.kind == VOTE for r in router.sent_by["A"]))
    router.down.add("A")
    run_until(router, lambda: bool(removes(tables["B"])), limit=router.now + 10 * AWAY)
    [proposal] = removes(tables["B"])
    assert proposal.removed == (setup.key("A"), setup.key("E"))
    assert {s.runner for s in proposal.replacements} == {setup.key("B")}
    alive = [tables[n] for n in "BCD"]
    run_until(router, lambda: all(t.ended for t in alive), limit=router.now + 600)
    assert all(t.ended and not t.halted for t in alive)
    assert_same_chain(alive)
    # A comes back: the REMOVE that names it reaches it; it watches from now on.
    router.down.discard("A")
    router.heal()
    run_until(router, lambda: tables["A"].head.ply == tables["B"].head.ply, limit=router.now + 5)
    assert_same_chain([tables["A"], *alive])
    assert not tables["A"].seated and not tables["A"].halted
    with pytest.raises(IntentRefused, match="removed"):
        tables["A"].chat("hello", router.now)


def test_an_idle_peer_that_is_connected_is_removed_after_the_idle_timeout() -> None:
    # C is here (its reports keep coming) but never moves.
    setup, router = cluster(["A", "B", "C"], bots_of={"C": ()}, idle=30.0, away=600.0)
    tables = router.tables
    b = tables["B"]
    run_until(router, lambda: bool(removes(b)), limit=200.0)
    [proposal] = removes(b)
    assert proposal.removed == (setup.key("C"),)
    remove_state = next(s for s in b.chain.states if s.record.kind == REMOVE)
    assert router.now >= 30.0
    run_until(router, lambda: tables["A"].ended and b.ended, limit=router.now + 600)
    assert tables["A"].ended and b.ended
    assert remove_state.ply >= 2  # C owed its first move


# --- the freeze and the race ---------------------------------------------------------------
def sign_now(router: Router, name: str, out: Any) -> list[SignedRecord]:
    router.take(name, out)
    return list(out.send)


def test_a_peer_that_voted_signs_no_ply_until_the_remove_arrives() -> None:
    setup, router = cluster(["A", "B", "C"], bots=(), bot_delay=0.0)
    tables = router.tables
    a = tables["A"]
    run_until(router, lambda: all(t.final_ply == 0 for t in tables.values()), limit=5.0)
    router.cut |= {frozenset("AB"), frozenset("BC")}  # B hears nobody; A and C hear each other
    run_until(router, lambda: any(r.kind == VOTE for r in router.sent_by["A"]), limit=60.0)
    assert a.ballot.frozen(a.head) and a.head.ply == 0
    with pytest.raises(IntentRefused, match="vote"):
        a.move(2, router.now)  # A is to move, but it voted on this position
    run_until(router, lambda: a.head.ply == 1, limit=router.now + 5)
    assert a.head.record.kind == REMOVE and not a.ballot.frozen(a.head)
    router.take("A", a.move(2, router.now))
    assert a.chain.at(2).record.kind == MOVE and a.chain.at(2).record.author == setup.key("A")


def test_a_vote_racing_the_absent_players_late_move_ends_with_one_chain() -> None:
    # X (seat 3) is silent for A, but its late move reaches B before A's proposal does.
    setup, router = cluster(["A", "B", "X"], bots=(), bot_delay=0.0)
    tables = router.tables
    a, b, x = tables["A"], tables["B"], tables["X"]
    run_until(router, lambda: all(t.final_ply == 0 for t in tables.values()), limit=5.0)
    router.take("A", a.move(1, router.now))
    run_until(router, lambda: x.head.ply == 1, limit=router.now + 1)
    router.take("B", b.move(1, router.now))
    run_until(router, lambda: x.head.ply == 2, limit=router.now + 1)
    router.down.add("X")
    run_until(router, lambda: any(r.kind == VOTE for r in router.sent_by["A"]), limit=60.0)
    proposal_vote = [r for r in router.sent_by["A"] if r.kind == VOTE][-1]
    assert a.ballot.frozen(a.head) and b.head.ply == 2
    # X's move and ACK reach B only; B applies and acks before A's vote gets to it.
    late = x.move(1, router.now)
    late_move, late_ack = late.send
    now = router.now
    out_b = b.receive(late_move, now)
    out_b.extend(b.receive(late_ack, now))
    b_ack = next(r for r in out_b.send if r.kind == ACK)
    assert b.head.ply == 3
    assert b.receive(proposal_vote, now).send == []  # B moved past that position
    # A gets B's ACK of ply 3 first, then X's move as B forwards it: its vote lapses.
    out_a = a.receive(b_ack, now)
    assert a.head.ply == 2 and out_a.send == []
    out_a = a.receive(late_move, now)
    assert a.head.ply == 3 and a.chain.at(3).record == late_move
    assert [r.kind for r in out_a.send] == [ACK, VOTE]  # X is still away: a new vote
    router.take("A", out_a)
    router.take("B", out_b)
    # X stays away: removed at a later ply, and the game ends without a fork.
    run_until(router, lambda: bool(removes(a)), limit=router.now + 60)
    run_until(router, lambda: bool(removes(b)), limit=router.now + 5)
    assert not a.halted and not b.halted
    assert removes(a)[0].removed == (setup.key("X"),)
    assert a.chain.at(3).record == late_move
    assert_same_chain([a, b])


def cut_at_its_turn() -> tuple[Setup, Router, Output]:
    """A, B and X play plies 1 and 2, then X is cut from both at its own turn and signs ply
    3: its MOVE and its ACK (the output returned) reach nobody."""
    setup, router = cluster(["A", "B", "X"], bots=(), bot_delay=0.0)
    tables = router.tables
    a, b, x = tables["A"], tables["B"], tables["X"]
    run_until(router, lambda: all(t.final_ply == 0 for t in tables.values()), limit=5.0)
    for name in "AB":
        router.take(name, tables[name].move(1, router.now))
        run_until(router, lambda: x.head.ply == a.head.ply == b.head.ply, limit=router.now + 1)
    router.cut |= {frozenset("AX"), frozenset("BX")}
    late = x.move(1, router.now)
    router.take("X", late)
    return setup, router, late


def test_a_removed_peers_late_move_is_dropped_and_its_late_acks_ignored() -> None:
    setup, router, late = cut_at_its_turn()
    tables = router.tables
    a, b, x = tables["A"], tables["B"], tables["X"]
    run_until(router, lambda: bool(removes(a)) and bool(removes(b)), limit=router.now + 60)
    assert a.chain.at(3).record.kind == REMOVE
    router.cut.clear()
    router.heal()  # every record anyone sent, X's late ones included, reaches everyone
    run_until(router, lambda: x.head.chain_digest == a.head.chain_digest, limit=router.now + 5)
    assert_same_chain([a, b, x])
    assert [e.state.record for e in router.of_type("X", PlyDropped)] == [late.send[0]]
    assert not any(t.halted for t in tables.values())
    ignored = {e.record.record_hash for e in router.of_type("A", RecordIgnored)}
    assert {r.record_hash for r in late.send} <= ignored
    assert not x.seated and x.live() is False
    assert not router.of_type("A", TableHalted)
    assert all(r.author != setup.key("X") or r.kind != MOVE for r in router.logs["A"][-5:])


# --- the REMOVE rule, record by record -----------------------------------------------------
def forged_remove(
    setup: Setup,
    table: Table,
    author: str,
    removed: Sequence[str],
    voters: Sequence[str],
    *,
    seats: Sequence[int] | None = None,
    keys: Sequence[bytes] | None = None,
    runner: str | None = None,
    vote_removed: Sequence[str] | None = None,
) -> SignedRecord:
    head = table.head
    seat_numbers = seats if seats is not None else [setup.peer_names.index(n) + 1 for n in removed]
    fresh = keys if keys is not None else [bytes([90 + s]) * 32 for s in seat_numbers]
    run_by = setup.key(runner or author)
    replacements = [
        {"seat": seat, "key": key, "runner": run_by}
        for seat, key in zip(seat_numbers, fresh, strict=True)
    ]
    position = {"ply": head.ply + 1, "prev": head.chain_digest}
    body = {**position, "removed": [setup.key(n) for n in removed], "replacements": replacements}
    voted = {**body, "removed": [setup.key(n) for n in (vote_removed or removed)]}
    votes = [forge(setup, n, VOTE, voted).envelope for n in voters]
    return forge(setup, author, REMOVE, {**body, "votes": votes})


def rejected_reason(router: Router, name: str, record: SignedRecord) -> str:
    deliver(router, record, [name])
    reasons = [e.reason for e in router.of_type(name, TableRejected) if e.record == record]
    assert reasons, f"{record} was not rejected"
    return str(reasons[0])


@pytest.mark.parametrize(
    ("case", "expected"),
    [
        ({"author": "A", "removed": ["C"], "voters": ["A"]}, "lacks the consent of peer"),
        ({"author": "B", "removed": ["C"], "voters": ["A", "B"]}, "lowest seat appends it"),
        ({"author": "A", "removed": ["C", "D"], "voters": ["A", "B"]}, "more than half"),
        ({"author": "A", "removed": ["A"], "voters": ["B", "C", "D"]}, "removes itself"),
        (
            {"author": "A", "removed": ["C"], "voters": ["A", "B", "D"], "seats": []},
            "replaces seats [] but the removed peers played seats [3]",
        ),
        (
            {"author": "A", "removed": ["C"], "voters": ["A", "B", "D"], "runner": "B"},
            "has its bots run by another peer",
        ),
        (
            {"author": "A", "removed": ["C"], "voters": ["A", "B", "D"], "keys": "reuse"},
            "does not give each seat a new bot key",
        ),
        (
            {"author": "A", "removed": ["D"], "voters": ["A", "B", "C"], "vote_removed": ["C"]},
            "for another removal",
        ),
    ],
)
def test_a_remove_that_breaks_a_rule_is_rejected_with_the_reason(
    case: dict[str, Any], expected: str
) -> None:
    setup, router = world(["A", "B", "C", "D"])
    table = router.tables["B"]
    if case.get("keys") == "reuse":
        case = {**case, "keys": [setup.key("B")]}
    record = forged_remove(setup, table, **case)
    assert expected in rejected_reason(router, "B", record)
    assert table.head.ply == 0 and not table.halted


def test_a_remove_with_every_vote_is_applied_everywhere_and_hands_the_seat_over() -> None:
    setup, router = world(["A", "B", "C", "D"])
    record = forged_remove(setup, router.tables["B"], "A", ["C"], ["A", "B", "D"])
    deliver(router, record)
    for name in "ABD":
        table = router.tables[name]
        assert table.head.record == record and table.head.peers == tuple(
            setup.key(n) for n in "ABD"
        )
        assert table.head.seat_key(3) == bytes([93]) * 32
        assert table.runner_of(bytes([93]) * 32) == setup.key("A")
        assert table.final_ply == 1  # C's acks are no longer needed
    assert not router.tables["C"].seated


# --- any interleaving ------------------------------------------------------------------------
@settings(max_examples=20)
@given(
    peers=st.integers(3, 5),
    gone=st.data(),
    at_ply=st.integers(0, 8),
    seed=st.integers(0, 2**16),
    max_delay=st.sampled_from([0.0, 0.05, 1.5]),
    duplicate=st.sampled_from([0.0, 0.3]),
    bot_delay=st.sampled_from([0.0, 0.4]),
)
def test_any_interleaving_with_absent_peers_ends_with_one_chain(
    peers: int,
    gone: st.DataObject,
    at_ply: int,
    seed: int,
    max_delay: float,
    duplicate: float,
    bot_delay: float,
) -> None:
    names = "ABCDE"[:peers]
    absent = gone.draw(
        st.lists(st.sampled_from(names), min_size=1, max_size=(peers - 1) // 2, unique=True)
    )
    setup, router = cluster(
        list(names),
        pile=40,
        seed=seed,
        bot_delay=bot_delay,
        max_delay=max_delay,
        duplicate=duplicate,
    )
    down_at_ply(router, absent[0], at_ply, watcher=absent[0])
    router.down |= set(absent)
    alive = [router.tables[n] for n in names if n not in absent]
    run_until(router, lambda: all(t.ended for t in alive), limit=router.now + 600)
    # Plies after the outcome are refused, REMOVE too: a peer gone just as the game ended
    # leaves it over but never ended (no END from it); otherwise the others end it.
    assert all(t.chain.outcome() is not None and not t.halted for t in alive)
    assert_same_chain(alive)
    assert len({t.ended for t in alive}) == 1
    gone_keys = {k for p in removes(alive[0]) for k in p.removed}
    assert gone_keys <= {setup.key(n) for n in absent}
    # Those that were removed come back from their logs and end with the same chain.
    for name in absent:
        restart(router, setup, name)
    router.heal()
    returning = [router.tables[n] for n in absent]
    run_until(
        router,
        lambda: all(t.head.chain_digest == alive[0].head.chain_digest for t in returning),
        limit=router.now + 30,
    )
    assert_same_chain(alive + returning)
    assert not any(t.halted for t in returning)
    for table in returning:
        assert table.seated == (table.me not in gone_keys)
