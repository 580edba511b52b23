"""Whole games between in-memory peers: every interleaving ends with one chain, all final.

The router reorders, delays, duplicates and drops deliveries from a seed; Hypothesis picks
seeds and network conditions, so every failing interleaving replays exactly.
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from client.rules.errors import IntentRefused
from client.rules.records import ACK, CHAIN_KINDS, END, MOVE, START, SignedRecord
from client.tabletop.events import TableEnded, TableRejected
from client.tabletop.table import Table
from tests.client.harness import Router, Setup, act, forge, play, world

PLANS = [
    ["A", "B"],
    ["A", "B", "C"],
    ["A", "B", "C", "D"],
    ["A", "bot:A", "B"],
    ["A", "bot:B", "B", "bot:A"],
]


def assert_one_chain_all_final_all_ended(
    router: Router, refused: set[SignedRecord] | None = None
) -> None:
    tables = list(router.tables.values())
    chains = {tuple(s.chain_digest for s in t.chain.states) for t in tables}
    assert len(chains) == 1
    for name, table in router.tables.items():
        assert not table.halted, name
        assert {e.records[0] for e in table.rejected} == (refused or set()), name
        assert len(table.rejected) == len(refused or ()), name
        assert table.final_ply == table.head.ply > 0, name
        assert table.ended and len(router.of_type(name, TableEnded)) == 1, name
        assert table.chain.outcome() is not None
        assert_log_is_ordered(router, name, table)


def assert_log_is_ordered(router: Router, name: str, table: Table) -> None:
    """START first; the chain's records in order; each ACK/END after the ply it names."""
    log = router.logs[name]
    assert log[0].kind == START
    assert len({r.record_hash for r in log}) == len(log)
    plies = [r for r in log if r.kind in CHAIN_KINDS]
    assert plies == [s.record for s in table.chain.states[1:]]
    position = {r.record_hash: i for i, r in enumerate(log)}
    for record in log:
        if record.kind in (ACK, END) and record.body["ply"] > 0:
            ply_record = table.chain.at(record.body["ply"]).record
            assert position[ply_record.record_hash] < position[record.record_hash]
    peers = len(table.head.peers)
    assert sum(r.kind == ACK for r in log) == peers * (table.head.ply + 1)
    assert sum(r.kind == END for r in log) == peers


@pytest.mark.parametrize("plan", PLANS, ids=lambda plan: "-".join(plan))
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_whole_games_end_with_one_chain(plan: list[str], seed: int) -> None:
    setup = Setup(plan, params={"seats": len(plan), "pile": 40}, seed=seed)
    router = play(setup, seed=seed, max_delay=0.05, duplicate=0.2)
    assert_one_chain_all_final_all_ended(router)


@settings(max_examples=40)
@given(
    plan=st.sampled_from(PLANS),
    seed=st.integers(0, 2**32),
    max_delay=st.sampled_from([0.0, 0.001, 0.05, 1.0]),
    duplicate=st.sampled_from([0.0, 0.5]),
    bot_delay=st.sampled_from([0.0, 0.01, 0.3]),
)
def test_any_interleaving_ends_with_one_chain(
    plan: list[str], seed: int, max_delay: float, duplicate: float, bot_delay: float
) -> None:
    setup = Setup(plan, params={"seats": len(plan), "pile": 30})
    router = play(setup, seed=seed, bot_delay=bot_delay, max_delay=max_delay, duplicate=duplicate)
    assert_one_chain_all_final_all_ended(router)


@settings(max_examples=20)
@given(seed=st.integers(0, 2**32), drop=st.sampled_from([0.05, 0.3]))
def test_lost_records_stall_but_never_split_and_resending_finishes(seed: int, drop: float) -> None:
    setup = Setup(["A", "B", "C"], params={"seats": 3, "pile": 30})
    tables = {name: setup.table(name, seed=seed) for name in "ABC"}
    router = Router(tables, seed=seed, max_delay=0.02, drop=drop)
    router.start()
    for _ in range(200):
        router.run()
        heads = [t.chain.states for t in tables.values()]
        shortest = min(len(h) for h in heads)
        assert len({tuple(s.chain_digest for s in h[:shortest]) for h in heads}) == 1
        if all(t.ended for t in tables.values()):
            break
        router.drop = 0.0 if _ > 50 else drop
        router.heal()
    assert_one_chain_all_final_all_ended(router)


def test_bots_wait_their_delay_in_virtual_time() -> None:
    setup = Setup(["A", "B"], params={"seats": 2, "pile": 30})
    router = play(setup, bot_delay=0.5, max_delay=0.01)
    assert_one_chain_all_final_all_ended(router)
    moves = [(now, r.body["ply"]) for now, r in router.sent_at if r.kind == "MOVE"]
    assert [ply for _, ply in moves] == list(range(1, len(moves) + 1))
    gaps = [later - earlier for (earlier, _), (later, _) in itertools.pairwise(moves)]
    assert moves[0][0] >= 0.5 and min(gaps) >= 0.5 - 1e-9


def test_a_spectator_follows_the_game_and_signs_nothing() -> None:
    setup = Setup(["A", "B", "C"], params={"seats": 3, "pile": 30})
    tables = {name: setup.table(name) for name in "ABC"}
    tables["S"] = setup.table(None, spectator=True)
    router = Router(tables, seed=5, max_delay=0.05)
    router.start()
    router.run()
    watcher = tables["S"]
    assert watcher.chain.states[-1].chain_digest == tables["A"].head.chain_digest
    assert watcher.final_ply == watcher.head.ply and watcher.ended
    assert router.sent_by["S"] == [] and router.sent_by["A"]
    assert [r.record_hash for r in router.logs["S"] if r.kind in CHAIN_KINDS] == [
        s.record.record_hash for s in tables["A"].chain.states[1:]
    ]
    assert not router.of_type("S", TableRejected)
    with pytest.raises(IntentRefused, match="you are watching this table"):
        watcher.chat("hello", router.now)


def test_a_resignation_ends_the_game_for_everyone() -> None:
    _setup, router = world(["A", "B"], params={"seats": 2, "pile": 30})
    act(router, "A", router.tables["A"].move(2, 1.0))
    act(router, "A", router.tables["A"].resign(2.0))  # not A's turn: sent when it comes
    assert router.tables["B"].head.ply == 1
    act(router, "B", router.tables["B"].move(2, 3.0))
    for table in router.tables.values():
        outcome = table.chain.outcome()
        assert outcome is not None and outcome.winners == (2,) and outcome.reason == "resignation"
    assert_one_chain_all_final_all_ended(router)


def test_an_agreed_draw_ends_the_game_for_everyone() -> None:
    setup, router = world(["A", "B", "C"], params={"seats": 3, "pile": 30})
    act(router, "A", router.tables["A"].move(1, 1.0))
    act(router, "C", router.tables["C"].offer_draw(2.0))
    act(router, "A", router.tables["A"].accept_draw(3.0))
    assert router.tables["A"].head.ply == 1  # B has not agreed yet
    act(router, "B", router.tables["B"].accept_draw(4.0))  # B is to move: it appends the DRAW
    head = router.tables["C"].head
    assert head.record.kind == "DRAW" and head.record.author == setup.key("B")
    assert len(head.record.body["acceptances"]) == 3
    assert_one_chain_all_final_all_ended(router)
    assert router.tables["A"].chain.outcome().draw  # type: ignore[union-attr]


@settings(max_examples=25)
@given(
    seed=st.integers(0, 2**32),
    max_delay=st.sampled_from([0.001, 0.05, 1.0]),
    when=st.tuples(st.floats(0, 3), st.floats(0, 3)),
)
def test_signed_illegal_plies_are_refused_at_any_moment_and_the_game_goes_on(
    seed: int, max_delay: float, when: tuple[float, float]
) -> None:
    setup = Setup(["A", "B", "C"], params={"seats": 3, "pile": 30})
    tables = {name: setup.table(name, seed=seed) for name in "ABC"}
    router = Router(tables, seed=seed, max_delay=max_delay, duplicate=0.2)
    genesis = tables["A"].head.chain_digest
    illegal = forge(setup, "A", MOVE, {"ply": 1, "prev": genesis, "seat": 1, "move": [4]})
    wrong_seat = forge(setup, "C", MOVE, {"ply": 3, "prev": bytes(32), "seat": 1, "move": [1]})
    router.deliver(illegal.envelope, delay=when[0])
    router.deliver(wrong_seat.envelope, delay=when[1])
    router.start()
    router.run()
    assert_one_chain_all_final_all_ended(router, refused={illegal, wrong_seat})
