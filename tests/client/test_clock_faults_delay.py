"""Clocked tables of real peers with a slow link (issue 27, faults 2 and 3): whole tables on
the in-memory network (``tests.client.mesh_tables``) under trio's virtual clock, with a
one-way delay set on the network before the table starts.  Bots wait 300 ms per move and
think in no virtual time, so every figure is exact and a charge is the same on every run."""

from __future__ import annotations

import statistics
from pathlib import Path

from client.node.mesh import Mesh
from client.rules.clock import ClockSpec
from client.rules.clock_history import ClockedPly, clock_history
from client.rules.records import ACK
from tests.client.harness import Setup, forge
from tests.client.mesh_tables import MeshTable, play_table
from tests.client.test_mesh_faults import FOUR, assert_one_game

NO_LAG = ClockSpec(base_ms=60_000, increment_ms=0, lag_ms=0, ack_ms=10_000)
"""No lag credit: a charge is the verdict's figure itself."""


def clocked(names: list[str], home: Path, spec: ClockSpec, **faults: object) -> MeshTable:
    table = play_table(names, home, host_options={"clock": spec}, **faults)  # type: ignore[arg-type]
    assert_one_game(table)
    histories = [clock_history(peer.table.chain) for peer in table.peers.values() if peer.table]
    assert len(histories) == len(names) and all(h == histories[0] for h in histories)
    return table


def history(table: MeshTable) -> list[ClockedPly]:
    chain = table.peers[table.names[0]].table.chain  # type: ignore[union-attr]
    return clock_history(chain)


def test_a_slow_link_to_one_peer_changes_no_charge(tmp_path: Path) -> None:
    """Fault 2: what cy writes to the host takes 1.5 s.  The others pass cy's plies and
    ACKs on to the host at once, so every clock starts when it would without the delay:
    every charge is the baseline's, to 50 ms, and nobody is late."""
    baseline = history(clocked(FOUR, tmp_path / "base", NO_LAG))
    table = clocked(FOUR, tmp_path / "slow", NO_LAG, faults=lambda t: t.delay("cy", "host", 1.5))
    slow = history(table)
    assert len(slow) > 10 and not any(p.verdict.late or p.verdict.disputed for p in slow)
    base = {p.ply: p.verdict.charge for p in baseline}
    usual = statistics.median(base.values())
    gaps = [abs(p.verdict.charge - base.get(p.ply, usual)) for p in slow]
    assert max(gaps) <= 50, [(p.ply, p.figures) for p in slow]
    assert all(300 <= charge <= 350 for charge in base.values()), baseline


def test_on_a_clocked_table_plies_and_acks_go_on_to_every_link() -> None:
    """Even to a peer that says it hears their author (its direct link may be the slow
    one); without a clock, only to peers that do not."""
    setup = Setup(["A", "B", "C"])
    a, b, c = (setup.key(name) for name in "ABC")
    ack = forge(setup, "A", ACK, {"ply": 1, "digest": bytes(32)})
    for clocked in (False, True):
        mesh = Mesh(b, (a, b, c), clocked=clocked)
        mesh.report(c, [a, b])
        assert mesh.passes_on(ack, None, c, spectator=False) is clocked
        assert not mesh.passes_on(ack, None, ack.author, spectator=False)  # never to its author


def test_two_peers_with_a_slow_link_flag_nobody_and_the_onset_is_disputed(
    tmp_path: Path,
) -> None:
    """Fault 3: two peers on a 2 s clock; from ply 2 on, what ann writes to the host takes
    3 s.  Nobody is flagged and the game ends.  Each peer starts a clock when the ply before
    is final there, so a steady delay shifts a ply's start and its record alike when the
    turn passes; but when the host moves again (Grab's extra move), its clock starts when
    ann's ACK of its last ply comes, 3 s late, ann's at once: the host's figure is on time,
    ann's past ``T``, the lower decides at two peers, and the ply is marked disputed."""
    spec = ClockSpec(base_ms=2_000, increment_ms=0, lag_ms=300, ack_ms=10_000)

    def slow(table: MeshTable) -> None:
        table.delay("ann", "host", 3.0)

    table = clocked(["host", "ann"], tmp_path, spec, at_ply={("host", 2): slow})
    plies = history(table)
    assert plies and not any(p.verdict.late for p in plies)
    disputed = [p for p in plies if p.verdict.disputed]
    shown = [(p.ply, p.seat, p.figures) for p in plies]
    assert disputed, shown
    for ply in disputed:
        host, ann = (f or 0 for f in ply.figures)
        assert ply.seat == 1 and host <= ply.verdict.threshold < ann, shown
    seats = {p.ply: p.seat for p in plies}
    passed = [p for p in plies if p.ply > 4 and seats.get(p.ply - 1) != p.seat]
    assert passed and not any(p.verdict.disputed for p in passed), shown
