"""A move split at its deadline (issue 27, fault 4): whole tables of real peers on the
in-memory network (``tests.client.mesh_tables``) under trio's virtual clock.

The host's first move goes to ann only, 150 ms before its limit: every seat starts with
150 ms, the lag credit is 300 ms, so ``T`` is 450 ms, and its bot moves after 300 ms (the
1.6 s increment keeps its budget's wait at the 300 ms ``--bot-delay``).  From the moment the
START is final at every peer (every clock for ply 1 runs), nothing the host writes reaches
bob or cy, and what ann writes to them takes 0.5 s: they take the move (relayed by ann)
800 ms after their clock started.
The links heal once the ply is final at the host."""

from __future__ import annotations

from pathlib import Path

import pytest

from client.rules.clock import ClockSpec
from client.rules.clock_history import ClockedPly, clock_history
from tests.client.mesh_tables import MeshTable, play_table
from tests.client.test_mesh_faults import FOUR, assert_one_game

SPEC = ClockSpec(base_ms=150, increment_ms=1_600, lag_ms=300, ack_ms=5_000)
LATE = 0.5


def split(table: MeshTable, *, ann_late: bool) -> None:
    table.cut("host", "bob")
    table.cut("host", "cy")
    table.delay("ann", "bob", LATE)
    table.delay("ann", "cy", LATE)
    if ann_late:
        table.delay("host", "ann", LATE)


def heal(table: MeshTable) -> None:
    for other in ("bob", "cy"):
        table.network.heal(table.host_of("host"), table.host_of(other))
        table.delay("ann", other, 0)
    table.delay("host", "ann", 0)


def first_ply(ann_late: bool, home: Path) -> tuple[MeshTable, ClockedPly]:
    final: list[str] = []

    def start_final(table: MeshTable) -> None:
        final.append("")
        if len(final) == len(FOUR):
            split(table, ann_late=ann_late)

    at_final = {(name, 0): start_final for name in FOUR} | {("host", 1): heal}
    table = play_table(FOUR, home, host_options={"clock": SPEC}, at_final=at_final)
    assert_one_game(table)
    histories = {n: clock_history(p.table.chain) for n, p in table.peers.items() if p.table}
    assert len(histories) == 4
    assert all(h == histories["host"] for h in histories.values()), histories
    first = histories["host"][0]
    assert (first.ply, first.seat) == (1, 1)
    return table, first


@pytest.mark.parametrize("ann_late", [False, True], ids=["one-late-link-pair", "three-late"])
def test_a_move_split_at_its_deadline_has_one_verdict_everywhere(
    tmp_path: Path, ann_late: bool
) -> None:
    """With only bob and cy late (2 of 4), the lower middle is ann's figure: on time, the
    same charge at every peer.  With ann's link delayed too (3 of 4 late), the ply is late
    and the host's seat resigned on time, identically everywhere."""
    table, first = first_ply(ann_late, tmp_path)
    host, ann, bob, cy = first.figures
    assert first.verdict.threshold == 450
    assert host is not None and abs(host - 300) <= 10, first.figures  # 150 ms before T
    assert bob is not None and cy is not None and min(bob, cy) > first.verdict.threshold
    assert ann is not None and (ann > first.verdict.threshold) is ann_late
    assert first.verdict.late is ann_late
    move = table.peers["host"].table.chain.at(1).record  # type: ignore[union-attr]
    for late in ("bob", "cy"):  # the move came to them from ann, not the host
        came = [a for a in table.arrived if a.at_peer == late and a.record_hash == move.record_hash]
        assert came and came[0].came_from == "ann", came
    for peer in table.peers.values():
        chain = peer.table.chain  # type: ignore[union-attr]
        out = chain.at(1).engine_state.out[0]  # type: ignore[attr-defined]
        assert bool(out) is ann_late  # resigned on time: Grab's seat 1 is out
    if not ann_late:
        assert first.verdict.charge == max(0, ann - SPEC.lag_ms)
        assert first.remaining[0] == 150 - first.verdict.charge + SPEC.increment_ms
    else:
        assert first.remaining[0] == 0
