"""Issue 7 end to end: real peer processes over loopback TCP, as a user would run them.

Faults are asked of ``tests.e2e.faulty_peer`` at a ply number, never after a sleep.
"""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from client.bots import make_bot
from client.bots.match import play_match
from client.commands.net_demo import PeerResult, check_chains
from engines import find_engine
from net.identity import fingerprint, load_profile_identity
from net.invite import Invite
from tests.e2e.tables import ROOT, Table, chain_line, ply_lines

pytestmark = pytest.mark.e2e

FAST = ("--bot", "--bot-delay", "0")


def four_peers(table: Table, faults: dict[str, str] | None = None, **delays: str) -> list[int]:
    """Host + three joiners at seats 2-4 playing Consensus with bots; their exit codes."""
    faults = faults or {}
    table.host(
        "consensus", "--bot", "--bot-delay", delays.get("host", "0"), faults=faults.get("host", "")
    )
    for seat in (2, 3, 4):
        name = f"P{seat}"
        table.join(
            name,
            "--seat",
            str(seat),
            "--bot",
            "--bot-delay",
            delays.get(name, "0"),
            faults=faults.get(name, ""),
        )
    return table.finish()


def results(table: Table) -> list[PeerResult]:
    found = []
    for proc in table.procs:
        files = sorted((table.home / "profiles" / proc.name / "games").glob("*.palabre-log"))
        found.append(
            PeerResult(proc.name, proc.code or 0, proc.output, files[0] if files else None)
        )
    return found


def assert_same_final_chain(table: Table) -> int:
    """Every peer ended with every ply final and one chain; returns the ply count."""
    import io

    report = io.StringIO()
    assert check_chains(results(table), report) == 0, report.getvalue() + table.outputs()
    lines = {tuple(ply_lines(proc.output)) for proc in table.procs}
    assert len(lines) == 1, table.outputs()
    return chain_line(table.procs[0].output)[0]


def test_four_terminals_play_a_whole_consensus_game(table: Table) -> None:
    codes = four_peers(table)
    assert codes == [0, 0, 0, 0], table.outputs()
    plies = assert_same_final_chain(table)
    host = table.procs[0].output
    assert re.search(r"^Invite: palabre://(?!0\.0\.0\.0)\S+:\d+/[a-z2-7]{26}#", host, re.M)
    assert all(line.endswith("final") for line in ply_lines(host))
    # the bots are seeded by seat: the same game as in one process
    engine = find_engine("consensus")
    bots = {seat: make_bot("consensus", "sensible", seat) for seat in range(1, 5)}
    match = play_match(engine, {"seats": 4}, bots)
    assert plies == len(match.plies)
    played = [line.split()[-2] for line in ply_lines(host)]
    assert played == [ply.notation for ply in match.plies]
    # the engine's sentence, its seats named as the table seats them (issue 21)
    pattern = re.sub(r"[Ss]eat\\ \d", ".+?", re.escape(match.outcome.summary))
    for proc in table.procs:
        result = next(line for line in proc.output.splitlines() if line.startswith("Result: "))
        assert re.match("Result: " + pattern, result), (result, match.outcome.summary)
        assert "Seat " not in result, result


def test_the_demo_runs_four_processes_and_keeps_their_game_files(tmp_path: Path) -> None:
    out = tmp_path / "kept"
    done = subprocess.run(
        [sys.executable, "-m", "client", "demo", "--seed", "3", "--out", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "4 peer processes over loopback TCP" in done.stdout
    assert re.search(r"All 4 peers hold the same chain: \d+ plies, every one final", done.stdout)
    assert sorted(p.name for p in out.iterdir()) == [f"peer{n}.palabre-log" for n in range(1, 5)]
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("game", ["discorder", "forbans", "cognes"])
def test_the_demo_plays_every_other_game(game: str, tmp_path: Path) -> None:
    """Without --out the demo keeps its game files in the profile and says how to verify one."""
    env = {**os.environ, "PALABRE_HOME": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-m", "client", "demo", "--game", game, "--seed", "1"],
        cwd=ROOT, capture_output=True, text=True, timeout=180, env=env,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert re.search(r"All \d peers hold the same chain: \d+ plies, every one final", done.stdout)
    kept = re.search(r"^The game files are kept in (.+)$", done.stdout, re.M)
    assert kept is not None, done.stdout
    folder = Path(kept[1])
    assert folder.parent == tmp_path / "profiles" / "default" / "demos"
    command = re.search(r"^Check one, trusting none of the players: (.+) verify (.+)$",
                        done.stdout, re.M)  # fmt: skip
    assert command is not None and Path(command[2]).parent == folder, done.stdout
    verify = subprocess.run(
        [sys.executable, "-m", "client", "verify", command[2]],
        cwd=ROOT, capture_output=True, text=True, timeout=60, env=env,
    )  # fmt: skip
    assert verify.returncode == 0, verify.stdout + verify.stderr


def test_the_demo_never_writes_over_a_file_in_its_out_folder(tmp_path: Path) -> None:
    out = tmp_path / "kept"
    out.mkdir()
    (out / "peer2.palabre-log").write_bytes(b"mine")
    done = subprocess.run(
        [sys.executable, "-m", "client", "demo", "--seed", "3", "--out", str(out)],
        cwd=ROOT, capture_output=True, text=True, timeout=60,
        env={**os.environ, "PALABRE_HOME": str(tmp_path)},
    )  # fmt: skip
    assert done.returncode == 2
    assert "peer2.palabre-log already there" in done.stderr and "Traceback" not in done.stderr
    assert sorted(out.iterdir()) == [out / "peer2.palabre-log"]
    assert (out / "peer2.palabre-log").read_bytes() == b"mine"


def test_a_resignation_is_a_final_ply_everywhere(table: Table) -> None:
    codes = four_peers(table, {"P3": "resign_at=5"})
    assert codes == [0, 0, 0, 0], table.outputs()
    assert_same_final_chain(table)
    for proc in table.procs:
        assert re.search(
            r"^\s*\d+\. Bot 3 of P3 \(normal\) +Bot 3 of P3 \(normal\) resigns\s+final$",
            proc.output,
            re.M,
        ), proc.output


def test_an_agreed_draw_ends_the_game_for_everyone(table: Table) -> None:
    accept = "accept_draws=1"
    faults = {"host": accept, "P2": "offer_draw_at=4", "P3": accept, "P4": accept}
    delays = {"host": "300", "P2": "300", "P3": "300", "P4": "300"}
    codes = four_peers(table, faults, **delays)
    assert codes == [0, 0, 0, 0], table.outputs()
    plies = assert_same_final_chain(table)
    for proc in table.procs:
        assert re.search(rf"^\s*{plies}\. .*draw agreed\s+final$", proc.output, re.M)
        assert "Result: " in proc.output and "draw" in proc.output.lower()


def test_an_illegal_signed_move_is_rejected_everywhere_and_the_game_goes_on(table: Table) -> None:
    codes = four_peers(table, {"P3": "illegal_at=6"}, P3="200")
    assert codes == [0, 0, 0, 0], table.outputs()
    assert_same_final_chain(table)
    signed = re.search(r"signed an illegal move .* for ply (\d+)", table.procs[2].output)
    assert signed, table.outputs()
    for proc in table.procs:
        rejected = re.search(
            r"^REJECTED: peer \S+ \(P3\) sent an illegal move for seat 3: .* ignored$",
            proc.output,
            re.M,
        )
        assert rejected, proc.output
        path = Path(re.findall(r"^evidence: (\S+)$", proc.output, re.M)[0])
        evidence = json.loads(path.read_text())
        assert evidence["kind"] == "rejected"
        assert evidence["ply"] == int(signed.group(1))
        assert evidence["records"][0]["kind"] == "MOVE"


def test_a_peer_whose_engine_disagrees_halts_the_table_and_is_named(table: Table) -> None:
    codes = four_peers(table, {"P4": "disagree_at=6"})
    assert codes == [3, 3, 3, 3], table.outputs()
    rogue = load_profile_identity("p4", table.home).public_key
    for proc in table.procs[:3]:
        assert re.search(r"^HALTED at ply 6: ", proc.output, re.M), proc.output
        verdict = re.findall(r"^verdict: (.*)$", proc.output, re.M)[-1]
        assert re.fullmatch(
            r"peer \S+ \(P4\) disagrees with the majority \(3 of 4 peers\) on ply 6", verdict
        ), proc.output
        path = Path(re.findall(r"^evidence: (\S+)$", proc.output, re.M)[-1])
        evidence = json.loads(path.read_text())
        assert evidence["ply"] == 6 and evidence["culprits"] == [rogue.hex()]
        assert len(evidence["states"]) >= 2
        assert chain_line(proc.output)[1] == 5  # ply 6 was never final
    rogue_out = table.procs[3].output
    assert "verdict: this peer" in rogue_out and "disagrees with the majority" in rogue_out


def test_chat_and_pointing_reach_every_peer(table: Table) -> None:
    codes = four_peers(table, {"P2": "chat_at=3:bonjour à tous;point_at=4"})
    assert codes == [0, 0, 0, 0], table.outputs()
    for proc in table.procs:
        said = r"^chat: Bot 2 of P2 \(normal\): bonjour à tous$"  # P2's --bot plays its seat
        assert re.search(said, proc.output, re.M), proc.output
        assert re.search(
            r"^point: Bot 2 of P2 \(normal\) at ply \d+: arrows 0->10; squares 5$",
            proc.output,
            re.M,
        ), proc.output


def test_a_full_table_refuses_a_join_with_the_reason(table: Table) -> None:
    host = table.host("discorder", *FAST)
    table.join("P2", *FAST, faults="not_ready=1")
    host.wait_for(r"P2 .* is at the table, seat 2")
    late = table.join("P3", *FAST)
    assert late.process.wait(timeout=30) == 4
    assert "join refused: the host refused the join: the table is full (2 seats)" in late.output
    assert "Traceback" not in late.output


def test_a_started_table_refuses_a_player_with_the_reason(table: Table) -> None:
    host = table.host("consensus", "--bots", "3", "--bot", "--bot-delay", "2000")
    host.wait_for(r"^Start: ")
    late = table.join("P2", *FAST)
    assert late.process.wait(timeout=30) == 4
    assert "the game has already started; join with --watch to follow it" in late.output


def test_an_invite_with_another_fingerprint_is_refused(table: Table) -> None:
    table.host("discorder", *FAST)
    assert table.invite is not None
    other = load_profile_identity("other", table.home).fingerprint
    wrong = Invite(("127.0.0.1",), table.invite.port, table.invite.table_id, other)
    late = table.join("P2", *FAST, target=str(wrong))
    assert late.process.wait(timeout=30) == 4
    assert f"is not the one the invite names ({other})" in late.output
    assert fingerprint(load_profile_identity("host", table.home).public_key) in late.output


def test_another_engine_version_is_refused_with_both_versions(table: Table) -> None:
    table.host("consensus", *FAST)
    late = table.join("P2", *FAST, faults="engine_version=9")
    assert late.process.wait(timeout=30) == 4
    assert (
        "this table plays consensus/1 with engine 1 but this palabre has consensus/1 with engine 9"
        in late.output
    )


def _palabre(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "client", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        env={"PALABRE_HOME": str(home), "PATH": "/usr/bin:/bin"},
    )


def test_bad_addresses_and_unreachable_hosts_are_explained(tmp_path: Path) -> None:
    for address, message in (
        ("not an address!", "cannot read the address"),
        ("10.0.0.1:99999", "the port '99999' is not a number from 1 to 65535"),
        ("palabre://127.0.0.1:7000/abc#XYZ", "cannot read the address"),
    ):
        done = _palabre(tmp_path, "join", address, "--headless", "--bot")
        assert done.returncode == 1, done
        assert message in done.stderr and "Traceback" not in done.stderr
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]  # closed again: nobody listens there
    done = _palabre(tmp_path, "join", f"127.0.0.1:{port}", "--headless", "--bot")
    assert done.returncode == 1
    assert f"cannot reach 127.0.0.1:{port}: connection refused" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_port_in_use_is_explained(tmp_path: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("", 0))
        busy.listen()
        port = busy.getsockname()[1]
        done = _palabre(tmp_path, "host", "--game", "consensus", "--port", str(port), "--headless")
    assert done.returncode == 1
    assert f"port {port} is already in use" in done.stderr
    assert "Traceback" not in done.stderr


def test_palabre_without_a_display_runs_the_networked_demo(tmp_path: Path) -> None:
    env = {"PALABRE_HOME": str(tmp_path), "PATH": "/usr/bin:/bin"}
    done = subprocess.run(
        [sys.executable, "-m", "ui.entry"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no display found" in done.stderr
    assert "4 peer processes over loopback TCP" in done.stdout
    assert "All 4 peers hold the same chain" in done.stdout
