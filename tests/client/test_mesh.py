"""The mesh's decisions: who dials whom, what goes on which link, pulls; and games over it.

The first tests call ``client.node.mesh`` directly; the others run whole tables on
``MeshRouter``, where records travel only over links and each table's relay and beat (the
peer node's own parts, ``client.node.peer_relay`` and ``client.node.peer_beat``) decide where they
go next, what a presence report says and when to pull, as ``client.runtime.peer`` does over TCP.
"""

from __future__ import annotations

from typing import Any

from client.node.mesh import FLOODED, RETRY_FIRST, Address, Held, Mesh
from client.rules.records import ACK, CHAIN_KINDS, CHAT, END, MOVE, REMOVE, START, VOTE
from client.tabletop.table import Table
from tests.client.harness import Setup, forge, last_seq
from tests.client.meshnet import MeshRouter
from tests.client.test_rejoin import assert_no_equivocation, keys_of
from tests.client.test_removal import assert_same_chain, run_until

A, B, C, D = (bytes([n]) * 32 for n in range(1, 5))
PEERS = (A, B, C, D)


# --- dialing ---------------------------------------------------------------------------------
def test_the_later_joiner_dials_and_retries_with_a_growing_pause() -> None:
    mesh = Mesh(C, PEERS)
    for key, port in ((A, 1), (B, 2), (D, 4)):
        mesh.learn(key, Address("10.0.0.9", port))
    plan = mesh.to_dial(0.0, linked=())
    assert [key for key, _ in plan] == [A, B]  # D joined after C: D dials C
    assert mesh.to_dial(0.0, linked=()) == []  # both busy
    mesh.dial_ended(A, 0.0, ok=False)
    mesh.dial_ended(B, 0.0, ok=True)
    assert mesh.to_dial(0.1, linked=[B]) == []
    assert [k for k, _ in mesh.to_dial(RETRY_FIRST, linked=[B])] == [A]
    mesh.dial_ended(A, RETRY_FIRST, ok=False)
    assert mesh.to_dial(RETRY_FIRST * 2, linked=[B]) == []  # the pause doubled
    assert [k for k, _ in mesh.to_dial(RETRY_FIRST * 3, linked=[B])] == [A]


def test_a_restarted_peer_dials_everyone_and_a_new_address_is_tried_at_once() -> None:
    mesh = Mesh(B, PEERS, restarted=True)
    for key in (A, C, D):
        mesh.learn(key, Address("h", 7000))
    assert {k for k, _ in mesh.to_dial(0.0, linked=())} == {A, C, D}
    mesh.dial_ended(C, 0.0, ok=False)
    mesh.learn(C, Address("h", 7001), direct=True)
    assert [k for k, _ in mesh.to_dial(0.0, linked=[A, D])] == [C]


def test_an_address_seen_on_a_link_wins_over_hearsay_until_the_link_ends() -> None:
    mesh = Mesh(A, PEERS)
    assert mesh.learn(B, Address("10.0.0.2", 7001), direct=True)
    assert not mesh.learn(B, Address("10.9.9.9", 1))  # another peer's word: not while linked
    assert mesh.book[B] == Address("10.0.0.2", 7001)
    mesh.link_lost(B, 1.0)
    assert mesh.learn(B, Address("10.0.0.7", 7002))
    assert not mesh.learn(A, Address("x", 1)) and not mesh.learn(C, Address("", 0))


def test_both_ends_keep_the_same_one_of_two_links() -> None:
    for me in PEERS:
        mesh = Mesh(me, PEERS)
        assert mesh.keeps_first(first_dialer=D, second_dialer=B)  # D joined later
        assert not mesh.keeps_first(first_dialer=B, second_dialer=D)
        assert not mesh.keeps_first(first_dialer=C, second_dialer=C)  # a redial: the newer


# --- forwarding and pulls --------------------------------------------------------------------
def test_removes_flood_and_moves_and_acks_go_only_where_their_author_has_no_link() -> None:
    setup = Setup(["A", "B", "C"])
    keys = {n: setup.key(n) for n in "ABC"}
    mesh = Mesh(keys["A"], tuple(keys.values()))
    mesh.report(keys["C"], [keys["A"]])  # C hears A only: no link with B
    digest = bytes(32)
    ack = forge(setup, "B", ACK, {"ply": 1, "digest": digest})
    move = forge(setup, "B", MOVE, {"ply": 1, "prev": digest, "seat": 2, "move": [1]})
    assert mesh.passes_on(ack, keys["B"], keys["C"], spectator=False)
    assert mesh.passes_on(move, keys["B"], keys["C"], spectator=False)
    mesh.report(keys["C"], [keys["A"], keys["B"]])
    assert not mesh.passes_on(ack, keys["B"], keys["C"], spectator=False)
    assert not mesh.passes_on(move, keys["B"], keys["C"], spectator=False)
    assert mesh.passes_on(ack, keys["B"], b"s" * 32, spectator=True)
    remove = forge(setup, "A", REMOVE, {"ply": 1, "prev": digest, "removed": [keys["B"]],
                                        "replacements": [], "votes": [b"x"]})  # fmt: skip
    assert mesh.passes_on(remove, keys["A"], keys["C"], spectator=False)
    assert {REMOVE, END, VOTE, START} <= FLOODED and not {ACK, MOVE} & FLOODED


def test_a_pull_is_answered_from_the_ply_asked_or_wholly_from_another_branch() -> None:
    setup = Setup(["A", "B"])
    held = Held()
    digest = bytes(32)
    records = [
        setup.start_record,
        forge(setup, "A", MOVE, {"ply": 1, "prev": digest, "seat": 1, "move": [1]}),
        forge(setup, "A", ACK, {"ply": 1, "digest": digest}),
        forge(setup, "B", CHAT, {"text": "hi"}),
        forge(setup, "B", MOVE, {"ply": 2, "prev": digest, "seat": 2, "move": [1]}),
        forge(setup, "B", ACK, {"ply": 2, "digest": digest}),
    ]
    for record in [*records, records[1]]:
        held.add(record)
    assert len(held) == 6
    envelopes = [r.envelope for r in records]
    assert held.answer(1, same_branch=True) == [envelopes[2], *envelopes[3:]]
    assert held.answer(2, same_branch=True) == [envelopes[3], envelopes[5]]
    assert held.answer(1, same_branch=False) == envelopes


def test_a_pull_is_answered_once_a_second_per_link() -> None:
    mesh = Mesh(A, PEERS)
    assert mesh.may_answer("link", 0.0)
    assert not mesh.may_answer("link", 0.5)
    assert mesh.may_answer("other", 0.5) and mesh.may_answer("link", 1.0)


# --- games over the mesh ------------------------------------------------------------------
def mesh_game(
    seats: list[str], *, seed: int = 0, pile: int = 40, **options: Any
) -> tuple[Setup, MeshRouter]:
    setup = Setup(seats, params={"seats": len(seats), "pile": pile}, away_ms=20_000, seed=seed)
    tables = {n: setup.table(n, bot_delay=0.3, seed=seed) for n in setup.peer_names}
    router = MeshRouter(tables, seed=seed, **options)
    return setup, router


def finished(tables: list[Table]) -> bool:
    return all(t.ended for t in tables)


def test_a_full_mesh_plays_a_game_and_passes_on_nearly_nothing() -> None:
    _setup, router = mesh_game(["A", "B", "C", "D"], max_delay=0.02)
    router.start()
    tables = list(router.tables.values())
    run_until(router, lambda: finished(tables), limit=300)
    assert finished(tables) and not any(t.halted for t in tables)
    assert_same_chain(tables)
    # Once the first reports told who has which link, nothing but the chain is passed on.
    late = {kind for when, kind in router.forwarded if when > 2 * router.heartbeat}
    assert late and late <= FLOODED


def test_a_cut_link_is_bridged_by_the_others() -> None:
    _setup, router = mesh_game(["A", "B", "C", "D"], max_delay=0.02)
    router.cut.add(frozenset("AB"))
    router.start()
    tables = list(router.tables.values())
    run_until(router, lambda: finished(tables), limit=300)
    assert finished(tables) and not any(t.halted for t in tables)
    assert_same_chain(tables)
    assert not any(t.chain.states[-1].record.kind == "REMOVE" for t in tables)


def test_a_peer_linked_to_one_other_only_still_plays() -> None:
    _setup, router = mesh_game(["A", "B", "C", "D"], max_delay=0.05, duplicate=0.2)
    router.cut |= {frozenset("DA"), frozenset("DB")}
    router.start()
    tables = list(router.tables.values())
    run_until(router, lambda: finished(tables), limit=300)
    assert finished(tables) and not any(t.halted for t in tables)
    assert_same_chain(tables)


def test_records_lost_on_a_link_are_pulled_when_the_table_stalls() -> None:
    _setup, router = mesh_game(["A", "B", "C"], drop=0.2, max_delay=0.02, seed=3)
    router.start()
    tables = list(router.tables.values())
    run_until(router, lambda: finished(tables), limit=600)
    assert finished(tables) and not any(t.halted for t in tables)
    assert_same_chain(tables)
    assert router.pulls  # the losses were made good by pulls


def test_a_spectator_joining_mid_game_pulls_everything_and_ends_with_the_same_chain() -> None:
    setup, router = mesh_game(["A", "B", "C"])
    router.start()
    tables = list(router.tables.values())
    run_until(router, lambda: tables[0].head.ply >= 6, limit=100)
    watcher = setup.table(None, spectator=True)
    router.join("S", watcher)
    router.cut |= {frozenset("SA"), frozenset("SB")}  # it came by C
    router.take("S", watcher.begin(router.now))
    router.pull("S", "C")
    run_until(router, lambda: finished([*tables, watcher]), limit=300)
    assert finished([*tables, watcher]) and not watcher.halted
    assert_same_chain([*tables, watcher])
    assert router.sent_by["S"] == []  # it signs nothing


def test_a_peer_restarted_from_its_log_pulls_what_it_missed_and_is_pulled_from() -> None:
    setup, router = mesh_game(["A", "B", "C"], seed=1)
    router.start()
    crashed: list[Any] = []

    def crash(source: str, output: Any) -> bool:
        plies = [r for r in output.send if r.kind in CHAIN_KINDS]
        if plies and plies[0].body["ply"] >= 5 and not crashed:
            crashed.append((source, plies[0]))
            return True
        return False

    router.crash_when = crash
    tables = list(router.tables.values())
    run_until(router, lambda: bool(crashed), limit=100)
    router.crash_when = None
    name, move = crashed[0]
    run_until(router, lambda: False, limit=router.now + 5)  # the others wait for it
    log = router.logs[name]
    table = setup.table(name, log=log, bot_delay=0.3, seed=1)
    assert last_seq(log, table.me or b"") > 0
    router.join(name, table)
    router.down.discard(name)
    router.take(name, table.restore(log, router.now))
    for other in router.links_of(name):  # the link opens: each side pulls from the other
        router.pull(name, other)
        router.pull(other, name)
    tables = list(router.tables.values())
    run_until(router, lambda: finished(tables), limit=router.now + 300)
    assert finished(tables) and not any(t.halted for t in tables)
    assert_same_chain(tables)
    assert tables[0].chain.at(move.body["ply"]).record == move
    everything = [r for log in router.logs.values() for r in log]
    assert_no_equivocation(everything, keys_of(setup, table))


def test_the_end_holders_grow_and_leave_out_the_absent() -> None:
    """Who is known to hold every END: the peers at the table still missing are waited for,
    the absent ones of an abandoned table are not, and an ``ended`` body holds only keys of
    the table (16 at most), in the table's order."""
    from client.node.mesh import ENDED, SCHEMAS
    from client.rules.ending import EndHolders

    a, b, c, d = (bytes([n]) * 32 for n in range(1, 5))
    holders = EndHolders()
    assert holders.learn([a]) and not holders.learn([a])
    assert holders.missing([a, b, c]) == [b, c]
    assert holders.learn([c, d])
    assert holders.missing([a, b, c], absent=[b]) == []
    body = holders.body([c, b, a])
    assert body == {"keys": [c, a]}  # d is not at this table
    SCHEMAS[ENDED].check({"keys": tuple(body["keys"])}, "ended")
