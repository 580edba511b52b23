"""The mesh's decisions: who dials whom, what goes on which link, pulls; and games over it.

The first tests call ``client.node.mesh`` directly; the others play whole tables of real
peers on the in-memory network (``tests.client.mesh_tables``), with links cut both ways
before or during the game.  A peer restarted from its game file is in the golden traces
(tests/client/test_golden_traces.py, "rejoin") and tests/client/test_rejoin.py; faults one
way and resets in tests/client/test_mesh_faults.py.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from client.node.mesh import FLOODED, HEARTBEAT, RETRY_FIRST, Address, Held, Mesh
from client.rules.records import ACK, CHAT, END, MOVE, REMOVE, START, VOTE
from tests.client.golden import identity
from tests.client.harness import Setup, forge
from tests.client.mesh_tables import MeshTable, play_table

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
# Real peers (hosting, joining, their nodes and links) on the in-memory network.
FOUR = ["host", "ann", "bob", "cy"]


def assert_played(table: MeshTable) -> None:
    """Every peer (and spectator) ended well with the same chain; nobody was voted off."""
    assert table.codes == dict.fromkeys([*table.names, *table.watchers], 0)
    chains = table.final_chains()
    assert len({tuple(chain) for chain in chains.values()}) == 1
    for name, peer in table.peers.items():
        assert peer.table is not None and not peer.table.halted, name
        kinds = {state.record.kind for state in peer.table.chain.states}
        assert REMOVE not in kinds, name


def both_ways(a: str, b: str) -> Callable[[MeshTable], None]:
    def cut(table: MeshTable) -> None:
        table.cut(a, b)
        table.cut(b, a)

    return cut


def test_a_full_mesh_plays_a_game_and_passes_on_nearly_nothing(tmp_path: Path) -> None:
    table = play_table(FOUR, tmp_path, pile=40)
    assert_played(table)
    passed_on = [s for s in table.sent if s.author != identity(s.by).public_key]
    # Once the first reports told who has which link, nothing but the chain is passed on.
    late = {s.kind for s in passed_on if s.at > 2 * HEARTBEAT}
    assert late and late <= FLOODED, late


def test_a_cut_link_is_bridged_by_the_others(tmp_path: Path) -> None:
    table = play_table(FOUR, tmp_path, faults=both_ways("ann", "bob"))
    assert_played(table)
    assert not [a for a in table.arrived if {a.at_peer, a.came_from} == {"ann", "bob"}]


def test_a_peer_linked_to_one_other_only_still_plays(tmp_path: Path) -> None:
    def isolate(table: MeshTable) -> None:  # after START: cy joined through the host
        both_ways("cy", "host")(table)
        both_ways("cy", "ann")(table)

    table = play_table(FOUR, tmp_path, at_ply={("host", 1): isolate})
    assert_played(table)
    assert any(a.at_peer == "cy" and a.came_from == "bob" for a in table.arrived)


def test_a_spectator_joining_mid_game_pulls_everything_and_ends_with_the_same_chain(
    tmp_path: Path,
) -> None:
    table = play_table(
        ["host", "ann", "bob"], tmp_path, pile=40, watchers=["eve"],
        at_ply={("host", 6): lambda table: table.watch("eve")},
    )  # fmt: skip
    assert_played(table)
    eve = identity("eve").public_key
    assert not [s for s in table.sent if s.author == eve]  # it signs nothing
    assert [a for a in table.arrived if a.at_peer == "eve" and a.kind == "MOVE"]


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
