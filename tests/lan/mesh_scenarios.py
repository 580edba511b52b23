"""Issue 12, scenarios 2, 3, 8 and 9: they need the mesh of issue 8 (rejoin, removal, the
table going on without its host), which is not on main yet, so this module is not collected
(its name does not start with ``test_``).  Once the mesh is merged, its tests move into
``test_scenarios.py``.  Run by hand on a branch with the mesh:

    python -m pytest tests/lan/mesh_scenarios.py -q

Same rules as ``test_scenarios.py``: real processes on netlab hosts, faults at a ply number
read from a peer's output, every surviving file verified and one chain everywhere.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from net.identity import load_profile_identity
from tests.lan.harness import LanPeer, lan_table, records_lost, report

pytestmark = [pytest.mark.netns, pytest.mark.e2e]


def test_2_a_joiner_killed_mid_game_restarts_on_its_host_and_rejoins(tmp_path: Path) -> None:
    with lan_table(4, tmp_path) as table:
        table.host(1)
        joiners = [table.join(index) for index in (2, 3, 4)]
        victim = joiners[1]
        port = int(joiners[0].wait_for(r"^Listening on port (\d+)").group(1))
        victim.wait_ply(12)
        table.kill(victim)  # SIGKILL: no goodbye, a file cut wherever it was
        killed_at = time.monotonic()
        # the same profile on the same host, dialing another peer than the host
        again = table.join(3, target=f"{table.address(2)}:{port}")
        rejoined = again.wait_for(r"^Rejoined: took the table up again from \S+ \(at ply (\d+)\)$")
        rejoined_at = time.monotonic()
        codes = table.finish()
        assert set(codes.values()) == {0}, table.outputs()
        plies = table.all_final()
        results = table.check(0)  # the rejoined peer's file (the same file) is complete
        assert victim.game_file() == again.game_file()
        held = int(rejoined.group(1))
        caught_up = min(
            e["t"] for e in again.trace_events() if e["ev"] == "final" and e["ply"] > held
        )
        report(
            "2",
            plies=plies,
            killed_after_ply=12,
            file_held_ply=held,
            rejoin_s=round(rejoined_at - killed_at, 2),
            next_ply_final_s=round(caught_up - killed_at, 2),
            lost=records_lost(results),
            halted_peers=table.halted_peers(),
        )


def _removal_line(peer: LanPeer, seats: str) -> re.Match[str]:
    return peer.wait_for(rf"^\s*(\d+)\. .*removed; bots take seats \[{seats}\]")


def test_3_the_host_killed_after_start_is_removed_and_the_others_finish(tmp_path: Path) -> None:
    with lan_table(4, tmp_path) as table:
        host = table.host(1, "--away-timeout", "3")
        joiners = [table.join(index) for index in (2, 3, 4)]
        joiners[0].wait_ply(6)
        table.kill(host)  # and never started again
        killed_at = time.monotonic()
        codes = table.finish()
        assert set(codes.values()) == {0}, table.outputs()
        plies = table.all_final()
        results = table.check(0)
        removal = int(_removal_line(joiners[0], "1").group(1))
        host_key = load_profile_identity("p1", host.home).public_key.hex()
        [entry] = [p for p in results[0].report["peers"] if p["key"] == host_key]
        assert entry["removed_at"] == removal, results[0].report
        removed_final = min(table.finals()[removal])
        report(
            "3",
            plies=plies,
            killed_after_ply=6,
            removed_at_ply=removal,
            removal_final_s=round(removed_final - killed_at, 2),
            lost=records_lost(results),
            halted_peers=table.halted_peers(),
        )


def test_8_a_player_cut_past_the_away_timeout_is_replaced_and_comes_back_watching(
    tmp_path: Path,
) -> None:
    with lan_table(4, tmp_path) as table:
        host = table.host(1, "--away-timeout", "3")
        away = [table.join(index) for index in (2, 3, 4)][2]
        away.wait_ply(4)  # host 4 has just played ply 4
        table.netlab("cut", "4")
        cut_at = time.monotonic()
        removal = int(_removal_line(host, "4").group(1))  # final at the host: every vote held
        table.netlab("heal", "4")
        healed_at = time.monotonic()
        codes = table.finish()
        assert set(codes.values()) == {0}, table.outputs()
        plies = table.all_final()  # the removed player's peer too: it watched to the end
        results = table.check(0)
        assert re.search(r"removed; bots take seats \[4\]", away.output)
        key = load_profile_identity("p4", away.home).public_key.hex()
        for result in results:
            [entry] = [p for p in result.report["peers"] if p["key"] == key]
            assert entry["removed_at"] == removal, result.report
        finals = table.finals()
        back = max(finals[removal]) - healed_at
        report(
            "8",
            plies=plies,
            final_everywhere_before_cut=max(p for p, t in finals.items() if max(t) < cut_at),
            removed_at_ply=removal,
            removed_after_s=round(min(finals[removal]) - cut_at, 2),
            cut_s=round(healed_at - cut_at, 2),
            removal_seen_by_the_removed_s=round(back, 2),
            dropped_its_own_ply="dropped: ply" in away.output,
            lost=records_lost(results),
            halted_peers=table.halted_peers(),
        )


NO_MAJORITY_CUT = 10.0
"""Scenario 9's cut: over three times the away timeout (3 s)."""


def test_9_two_hosts_cut_together_cannot_be_removed_and_the_game_goes_on(
    tmp_path: Path,
) -> None:
    with lan_table(4, tmp_path) as table:
        table.host(1, "--away-timeout", "3")
        joiners = [table.join(index) for index in (2, 3, 4)]
        joiners[2].wait_ply(4)
        table.netlab("cut", "3")
        table.netlab("cut", "4")
        cut_at = time.monotonic()
        joiners[0].wait_for(r"^presence: .*\(H4\) is away$", 30)  # they were seen away ...
        time.sleep(NO_MAJORITY_CUT)  # ... and stayed away well past the timeout
        table.netlab("heal", "3")
        table.netlab("heal", "4")
        healed_at = time.monotonic()
        codes = table.finish()
        assert set(codes.values()) == {0}, table.outputs()
        plies = table.all_final()
        results = table.check(0)
        for peer in table.peers:
            assert "removed; bots take seats" not in peer.output, peer.output
        for result in results:
            assert all(p["removed_at"] is None for p in result.report["peers"]), result.report
        sent, finals = table.sent(), table.finals()
        meanwhile = sorted(ply for ply, at in sent.items() if cut_at < at < healed_at)
        resumed = min(max(t) for t in finals.values() if max(t) > healed_at) - healed_at
        report(
            "9",
            plies=plies,
            final_everywhere_before_cut=max(p for p, t in finals.items() if max(t) < cut_at),
            cut_s=round(healed_at - cut_at, 1),
            made_during_cut=meanwhile,
            next_final_after_heal_s=round(resumed, 2),
            removed=0,
            lost=records_lost(results),
            halted_peers=table.halted_peers(),
        )
