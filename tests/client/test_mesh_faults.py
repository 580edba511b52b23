"""Faults on the links of real peers (``tests.client.mesh_tables``): a reset, a one-way cut,
a one-way delay, each set on the in-memory network (at a ply, or before the table starts),
timed on the virtual clock to the millisecond."""

from __future__ import annotations

from pathlib import Path

from client.node.peer_events import LinkLost
from client.tabletop.events import PlyFinal, TableEnded
from tests.client.golden import identity
from tests.client.mesh_tables import Arrival, MeshTable, play_table

FOUR = ["host", "ann", "bob", "cy"]


def assert_one_game(table: MeshTable) -> None:
    """Every peer ended well, with the same chain, final to its last ply."""
    assert table.codes == dict.fromkeys(table.names, 0)
    chains = table.final_chains()
    assert len({tuple(chain) for chain in chains.values()}) == 1, chains
    last = len(chains[table.names[0]]) - 1
    for name in table.names:
        assert len(table.events(name, TableEnded)) == 1
        assert PlyFinal(last) in table.events(name, PlyFinal)


def direct(table: MeshTable, source: str, to: str, *, after: float) -> list[Arrival]:
    """Records that came to ``to`` on its link with ``source`` after time ``after``."""
    return [a for a in table.arrived if a.at > after and (a.came_from, a.at_peer) == (source, to)]


def test_a_reset_link_ends_that_link_only(tmp_path: Path) -> None:
    resets: list[tuple[float, int]] = []

    def reset(table: MeshTable) -> None:
        resets.append((table.network_time(), table.reset("ann", "bob")))

    table = play_table(FOUR, tmp_path, at_ply={("host", 4): reset})
    assert [count for _, count in resets] == [1]
    assert_one_game(table)
    when = resets[0][0]
    over = min(at for name in FOUR for at, told in table.told[name] if isinstance(told, TableEnded))
    ended = [e for e in table.ended if e.at < over]  # before the goodbyes of the end
    assert sorted((e.at_peer, e.other) for e in ended) == [("ann", "bob"), ("bob", "ann")]
    assert all(e.at == when and "reset" in e.reason for e in ended), ended
    assert not table.events("ann", LinkLost) and not table.events("bob", LinkLost)
    # The two made a new link: records flowed between them again after the reset.
    assert direct(table, "ann", "bob", after=when) and direct(table, "bob", "ann", after=when)


def test_a_one_way_cut_still_reaches_finality_through_the_others(tmp_path: Path) -> None:
    cuts: list[float] = []

    def cut(table: MeshTable) -> None:
        cuts.append(table.network_time())
        table.cut("ann", "bob")  # bob hears ann no more; ann still hears bob

    table = play_table(FOUR, tmp_path, at_ply={("host", 2): cut})
    assert_one_game(table)
    when = cuts[0]
    ann = identity("ann").public_key
    assert not direct(table, "ann", "bob", after=when)
    # What ann wrote to bob is held on the cut wire; the others passed ann's records on.
    towards_bob = [s for s in table.sent if s.at > when and s.author == ann and s.to == "bob"]
    assert {s.by for s in towards_bob} - {"ann"}, towards_bob
    assert direct(table, "bob", "ann", after=when)  # the other way still flows


def test_a_one_way_delay_delays_only_that_direction(tmp_path: Path) -> None:
    def slow(table: MeshTable) -> None:
        table.delay("host", "ann", 0.25)  # towards ann only

    table = play_table(["host", "ann"], tmp_path, faults=slow)
    assert_one_game(table)
    sent = {(s.record_hash, s.by, s.to): s.at for s in table.sent}
    towards_ann = [a.at - sent[(a.record_hash, "host", "ann")] for a in table.arrived
                   if a.at_peer == "ann" and (a.record_hash, "host", "ann") in sent]  # fmt: skip
    towards_host = [a.at - sent[(a.record_hash, "ann", "host")] for a in table.arrived
                    if a.at_peer == "host" and (a.record_hash, "ann", "host") in sent]  # fmt: skip
    assert len(towards_ann) > 5 and len(towards_host) > 5
    assert all(abs(late - 0.25) < 1e-6 for late in towards_ann), towards_ann
    assert all(abs(late) < 1e-6 for late in towards_host), towards_host
