"""Issue 12: four machines on a LAN (four network namespaces), and what goes wrong on one.

Each scenario runs real ``palabre host`` / ``palabre join`` processes on the hosts of a
``scripts/netlab`` lab and ends with every surviving peer's game file verifying and the same
chain in every file (``LanTable.check``).  Faults happen at a ply number read from a peer's
output, never after a sleep; bots move after 20 ms and the away timeout is cut to 5 s
(``--away-timeout``) where a scenario waits for it, so each takes seconds.  Every measured
figure goes to ``harness.report`` (``PALABRE_LAN_REPORT``) for ``docs/RELIABILITY.md``.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest

from client.logs.verifier import verify_file
from net.identity import fingerprint, load_profile_identity
from net.invite import parse_invite
from tests.e2e.tables import chain_line
from tests.lan.harness import LanPeer, LanTable, lan_table, records_lost, report

pytestmark = [pytest.mark.netns, pytest.mark.e2e]


AWAY = "5"
"""The away timeout of scenarios 3, 8 and 9, in seconds: the shortest a table takes
(``client.tabletop.presence.MIN_AWAY``, two and a half heartbeats) instead of the default 60."""


def liar_key(peer: LanPeer) -> str:
    return load_profile_identity(peer.profile, peer.home).public_key.hex()


def test_1_four_hosts_play_a_whole_game(tmp_path: Path) -> None:
    with lan_table(4, tmp_path) as table:
        began = time.monotonic()
        host = table.host(1)
        invite = parse_invite(host.wait_for(r"^Invite: (\S+)$").group(1))
        # the invite names the host's LAN address (this LAN has no default route)
        assert invite.addresses[0] == table.address(1), host.output
        table.join(2, target=str(invite))
        table.join(3)
        table.join(4)
        codes = table.finish()
        assert set(codes.values()) == {0}, table.outputs()
        plies = table.all_final()
        results = table.check(0)
        assert results[0].report["ended"] and results[0].report["result"] is not None
        report(
            "1",
            plies=plies,
            seconds=round(time.monotonic() - began, 1),
            lost=records_lost(results),
            halted_peers=table.halted_peers(),
        )


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
        host = table.host(1, "--away-timeout", AWAY)
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


CUT_SECONDS = 20.0
"""Scenario 4's cut: longer than the heartbeats (2 s) and than a link's quiet spells, shorter
than the table's away timeout (60 s) and the links' idle timeout (30 s)."""


def test_4_a_host_cut_from_the_lan_for_a_while_catches_up(tmp_path: Path) -> None:
    cut_seconds = CUT_SECONDS
    with lan_table(4, tmp_path) as table:
        pace = ("--bot-delay", "300")  # the cut lands where it is asked: ply 3 is the last
        table.host(1, *pace)
        cut = [table.join(index, *pace) for index in (2, 3, 4)][1]
        cut.wait_ply(3)  # host 3 has just played ply 3; seats 4, 1, 2 play next
        table.netlab("cut", "3")
        cut_at = time.monotonic()
        time.sleep(cut_seconds)  # the cut's length is the scenario, not a trigger
        table.netlab("heal", "3")
        healed_at = time.monotonic()
        codes = table.finish()
        assert set(codes.values()) == {0}, table.outputs()
        plies = table.all_final()
        results = table.check(0)
        # the plies made during the cut became final everywhere, after the heal
        sent, finals = table.sent(), table.finals()
        meanwhile = sorted(ply for ply, at in sent.items() if cut_at < at < healed_at)
        assert meanwhile, table.outputs()
        for ply in meanwhile:
            assert len(finals[ply]) == 4 and min(finals[ply]) > healed_at, (ply, table.outputs())
        caught_up = max(max(finals[ply]) for ply in meanwhile) - healed_at
        before = max(p for p, times in finals.items() if max(times) < cut_at)
        report(
            "4",
            cut_seconds=cut_seconds,
            plies=plies,
            final_everywhere_before_cut=before,
            made_during_cut=meanwhile,
            final_after_heal_s=round(caught_up, 2),
            lost=records_lost(results),
            halted_peers=table.halted_peers(),
        )


def _netns_file(table: LanTable, index: int, *command: str) -> str:
    return table.lab.run("exec", str(index), *command).stdout


def _dropped(table: LanTable, index: int) -> int:
    """Packets host ``index``'s loss rules dropped (both ways)."""
    rules = _netns_file(table, index, "nft", "list", "table", "inet", "netlab")
    return sum(int(n) for n in re.findall(r"counter packets (\d+)", rules))


def _packets(table: LanTable, index: int) -> int:
    """Packets host ``index``'s interface received and sent (those it dropped included)."""
    for line in _netns_file(table, index, "cat", "/proc/net/dev").splitlines():
        if line.strip().startswith("eth0:"):
            fields = line.split(":", 1)[1].split()
            return int(fields[1]) + int(fields[9])
    raise AssertionError("no eth0 in the host")


def _retransmitted(table: LanTable) -> int:
    """TCP segments the hosts sent again (each namespace counts its own)."""
    total = 0
    for index in (1, 2, 3, 4):
        snmp = _netns_file(table, index, "cat", "/proc/net/snmp").splitlines()
        names, values = [line.split() for line in snmp if line.startswith("Tcp:")][:2]
        total += int(values[names.index("RetransSegs")])
    return total


def test_5_a_host_losing_a_tenth_of_its_packets_still_finishes(tmp_path: Path) -> None:
    with lan_table(4, tmp_path) as table:
        table.netlab("loss", "3", "10")
        began = time.monotonic()
        table.host(1)
        for index in (2, 3, 4):
            table.join(index)
        codes = table.finish()
        assert set(codes.values()) == {0}, table.outputs()
        plies = table.all_final()
        results = table.check(0)
        dropped = _dropped(table, 3)
        assert dropped > 0  # the loss took place
        report(
            "5",
            loss_percent=10,
            plies=plies,
            seconds=round(time.monotonic() - began, 1),
            dropped_packets=dropped,
            packets=_packets(table, 3),
            retransmitted_segments=_retransmitted(table),
            lost=records_lost(results),
            halted_peers=table.halted_peers(),
        )


def test_6_a_peer_whose_engine_lies_halts_every_honest_peer(tmp_path: Path) -> None:
    with lan_table(4, tmp_path) as table:
        table.host(1)
        for index in (2, 3):
            table.join(index)
        rogue = table.join(4, faults="disagree_at=6")
        codes = table.finish()
        assert set(codes.values()) == {3}, table.outputs()
        liar = fingerprint(load_profile_identity("p4", rogue.home).public_key)
        for peer in table.peers[:3]:
            assert re.search(r"^HALTED at ply 6: ", peer.output, re.M), peer.output
            verdict = re.findall(r"^verdict: (.*)$", peer.output, re.M)[-1]
            assert re.fullmatch(
                r"peer \S+ \(H4\) disagrees with the majority \(3 of 4 peers\) on ply 6", verdict
            ), peer.output
            path = Path(re.findall(r"^evidence: (\S+)$", peer.output, re.M)[-1])
            evidence = json.loads(path.read_text())
            assert evidence["ply"] == 6 and evidence["culprits"] == [liar_key(rogue)]
            assert chain_line(peer.output)[1] == 5  # ply 6 never became final
        assert "verdict: this peer" in rogue.output
        # every file (the liar's too) says the same: H4 lied at ply 6, and nothing else
        results = table.verify(*table.peers)
        for result in results:
            assert result.code == 1, (result.peer, result.report)
            invalid = [p for p in result.report["problems"] if p["severity"] == "invalid"]
            assert {problem["ply"] for problem in invalid} == {6}, result.report
            lies = [p["reason"] for p in invalid if "halted the table" not in p["reason"]]
            assert len(lies) == 1 and lies[0].startswith(f"peer {liar[:9]}… (H4) signed another"), (
                result.report
            )
            assert result.report["final"] == 5
        # one chain: some peers applied ply 7 before the halt reached them, nobody forked
        chains = sorted((result.chain for result in results), key=len)
        assert all(chain[: len(chains[0])] == chains[0] for chain in chains), table.outputs()
        assert len(chains[0]) >= 6
        report(
            "6",
            halted_at=6,
            named=liar,
            exit_codes=sorted(codes.values()),
            final_everywhere=min(r.report["final"] for r in results),
            halted_peers=table.halted_peers(),
        )


def test_7_a_fifth_host_watches_from_mid_game_and_ends_with_the_same_chain(
    tmp_path: Path,
) -> None:
    with lan_table(5, tmp_path) as table:
        pace = ("--bot-delay", "200")  # over 10 s of game left after ply 2: time to start
        host = table.host(1, *pace)
        for index in (2, 3, 4):
            table.join(index, *pace)
        host.wait_ply(2)
        asked = time.monotonic()
        watcher = table.join(5, "--watch")
        codes = table.finish()
        assert set(codes.values()) == {0}, table.outputs()
        assert "your seats: none (watching)" in watcher.output
        plies = table.all_final()
        results = table.check(0)
        # it came mid-game: it held the game so far before the last ply was played
        first_seen = min(e["t"] for e in watcher.trace_events() if e["ev"] == "final")
        last_final = max(table.finals()[plies])
        assert first_seen < last_final, table.outputs()
        behind = sum(1 for e in host.trace_events() if e["ev"] == "final" and e["t"] < first_seen)
        report(
            "7",
            plies=plies,
            joined_at_ply=behind - 1,
            caught_up_s=round(first_seen - asked, 2),
            lost=records_lost(results),
            halted_peers=table.halted_peers(),
        )


def test_8_a_player_cut_past_the_away_timeout_is_replaced_and_comes_back_watching(
    tmp_path: Path,
) -> None:
    with lan_table(4, tmp_path) as table:
        host = table.host(1, "--away-timeout", AWAY)
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
"""How long scenario 9's cut lasts once the others show the cut hosts away (after 5 s):
three times the away timeout in all."""


def test_9_two_hosts_cut_together_cannot_be_removed_and_the_game_goes_on(
    tmp_path: Path,
) -> None:
    with lan_table(4, tmp_path) as table:
        table.host(1, "--away-timeout", AWAY)
        joiners = [table.join(index) for index in (2, 3, 4)]
        joiners[2].wait_ply(4)
        table.netlab("cut", "3")
        table.netlab("cut", "4")
        cut_at = time.monotonic()
        joiners[0].wait_for(r"^presence: H4 is away$", 30)  # they were seen away ...
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


LATE_BOT_MS = "3000"
"""Scenario 10's player thinks 3 s over each move: long enough for the cut to land after its
turn came (the ply before its own is final there) and before it signs."""


def test_10_a_removed_players_late_move_reaches_the_others_and_is_ignored(
    tmp_path: Path,
) -> None:
    with lan_table(4, tmp_path) as table:
        host = table.host(1, "--away-timeout", AWAY)
        table.join(2)
        table.join(3)
        late = table.join(4, "--bot-delay", LATE_BOT_MS)
        late.wait_ply(7)  # seat 4 is to move at ply 8, and thinks for 3 s
        table.netlab("cut", "4")
        cut_at = time.monotonic()
        sent = late.wait_sent(8)  # it signed ply 8 behind the cut: nobody else saw it
        assert sent["kind"] == "MOVE", sent
        removal = int(_removal_line(host, "4").group(1))  # every vote held at the host
        assert removal == 8, table.outputs()
        cut_s = time.monotonic() - cut_at
        table.netlab("heal", "4")  # its MOVE (and its ACKs) now reach the others
        healed_at = time.monotonic()
        honest = [peer for peer in table.peers if peer is not late]
        for peer in honest:  # each says so, in a player's words, and goes on
            peer.wait_for(r"^ignored: H4 was removed at ply 8; their move was ignored$", 30)
        ignored_s = time.monotonic() - healed_at
        codes = table.finish()
        assert set(codes.values()) == {0}, table.outputs()
        for peer in table.peers:
            assert "HALTED" not in peer.output and "REJECTED" not in peer.output, peer.output
        assert "dropped: ply 8" in late.output, late.output  # the one step back, at home
        plies = table.all_final()  # the removed player watched to the end
        assert plies > removal
        # Every file verifies, the removed player's too (LOG_FORMAT.md §4, "Dropping": its
        # MOVE for ply 8 is dropped for the REMOVE, its ACK of it ignored), and holds one chain.
        results = table.check(0)
        key = load_profile_identity("p4", late.home).public_key
        path = late.game_file()
        assert path is not None
        [own] = [
            entry
            for entry in verify_file(path).entries
            if entry.record is not None
            and entry.record.author == key
            and entry.record.kind == "MOVE"
            and entry.ply == removal
        ]
        assert own.status == "dropped"  # in its file, outside the chain
        for result in results:
            [entry] = [p for p in result.report["peers"] if p["key"] == key.hex()]
            assert entry["removed_at"] == removal, result.report
        report(
            "10",
            plies=plies,
            removed_at_ply=removal,
            cut_s=round(cut_s, 2),
            late_move_ignored_by=len(honest),
            ignored_after_heal_s=round(ignored_s, 2),
            lost=records_lost(results),
            halted_peers=table.halted_peers(),
        )
