"""Issue 8 end to end: the mesh, rejoin, removal and spectators with real peer processes.

Four ``palabre`` processes play Consensus over loopback with bots; faults are triggered at a
ply number read from a peer's output (a ply line is printed when it becomes final there),
never after a sleep.
"""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from client.commands.net_demo import file_chain
from engines import find_engine
from net.logfile import LogContents, read_log
from tests.e2e.tables import ROOT, Proc, Table, chain_line, ply_lines

pytestmark = pytest.mark.e2e

DELAY = "40"
"""Milliseconds each bot waits before moving: long enough to strike mid-game."""


def start_four(table: Table, *host_options: str) -> None:
    table.host("consensus", "--bot", "--bot-delay", DELAY, *host_options)
    for seat in (2, 3, 4):
        table.join(f"P{seat}", "--seat", str(seat), "--bot", "--bot-delay", DELAY)


def listening_port(proc: Proc) -> int:
    return int(proc.wait_for(r"^Listening on port (\d+)")[1])


def wait_for_ply(proc: Proc, ply: int) -> None:
    proc.wait_for(rf"^\s*{ply}\. ", timeout=60)


def kill(proc: Proc) -> None:
    proc.process.send_signal(signal.SIGKILL)
    proc.code = proc.process.wait()


def game_file(table: Table, profile: str) -> Path:
    [path] = sorted((table.home / "profiles" / profile / "games").glob("*.palabre-log"))
    return path


def verify(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "client", "verify", str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )


def assert_one_chain(table: Table, profiles: list[str], procs: list[Proc]) -> None:
    """The game files hold one chain, and every process printed the same last chain line."""
    chains = {tuple(file_chain(game_file(table, p), find_engine)) for p in profiles}
    assert len(chains) == 1, table.outputs()
    lines = {chain_line(proc.output) for proc in procs}
    assert len(lines) == 1, table.outputs()
    plies, final, _digest = lines.pop()
    assert final == plies > 0
    for profile in profiles:
        checked = verify(game_file(table, profile))
        assert checked.returncode == 0, checked.stdout + checked.stderr


def tear_last_record(path: Path) -> None:
    """What a crash while writing a record leaves: the record's length and part of it."""
    contents = read_log(path)
    last = contents.records[-1]
    with path.open("ab") as file:
        file.write(len(last).to_bytes(4, "big") + last[: len(last) // 2])


def verify_json(path: Path) -> tuple[int, dict[str, Any]]:
    checked = subprocess.run(
        [sys.executable, "-m", "client", "verify", "--json", str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    return checked.returncode, json.loads(checked.stdout)


def assert_verifies_as_cut_short(path: Path, plies: int) -> LogContents:
    """``palabre verify`` on the file of a peer killed after ply ``plies`` was final there:
    valid but incomplete, every complete record kept, the torn tail (if any) reported."""
    contents = read_log(path)
    code, report = verify_json(path)
    assert code == 3, report
    assert report["status"] == "valid but incomplete"
    assert report["records"] == len(contents.records)
    assert report["plies"] >= plies and report["final"] >= plies, report
    assert report["result"] is None
    problems = report["problems"]
    assert {problem["severity"] for problem in problems} == {"incomplete"}, problems
    assert any("the game is not over" in problem["reason"] for problem in problems)
    torn = contents.torn
    if torn is None:
        assert report["cut"] is None
    else:
        assert report["cut"] == {"offset": torn.offset, "length": torn.length, "kind": "short"}
        assert any(f"the file was cut: {torn}" == problem["reason"] for problem in problems)
    return contents


@pytest.mark.parametrize(
    ("victim", "torn"),
    [("P3", False), ("P3", True), ("Host", False)],
    ids=["P3", "P3-torn", "Host"],
)
def test_a_peer_killed_mid_game_rejoins_at_another_peer_and_the_game_finishes(
    table: Table, victim: str, torn: bool
) -> None:
    """A joiner, or the host itself: SIGKILL at a ply; its game file verifies as valid but
    incomplete; then ``palabre join`` again with the same profile at another peer's address:
    it takes its game file up (cutting a torn last record, as a crash while writing leaves)
    and plays on, and its file then verifies complete with the others' chain."""
    start_four(table)
    host, p2, p3, p4 = table.procs
    port = listening_port(p2)
    killed = {"P3": p3, "Host": host}[victim]
    wait_for_ply(killed, 12)
    kill(killed)
    profile = killed.name
    path = game_file(table, profile)
    if torn:
        tear_last_record(path)
    before = assert_verifies_as_cut_short(path, 12)
    assert (before.torn is not None) == torn
    seat = ["--seat", "3"] if victim == "P3" else []
    again = table.join(
        victim,
        *seat,
        "--bot",
        "--bot-delay",
        DELAY,
        target=f"127.0.0.1:{port}",  # any peer's address: not the host's
        profile=profile,
        run=f"{profile}-again",
    )
    codes = table.finish()
    expected = [0, 0, 0, 0, 0]
    expected[table.procs.index(killed)] = -signal.SIGKILL
    assert codes == expected, table.outputs()
    assert re.search(
        r"^Rejoined: took the table up again from .* \(at ply \d+\)$", again.output, re.M
    )
    recovered = re.findall(r"^Recovered: (.*) from the game file", again.output, re.M)
    assert recovered == ([str(before.torn)] if torn else []), again.output
    after = read_log(path)
    assert after.torn is None
    assert after.records[: len(before.records)] == before.records  # kept, and appended to
    assert len(after.records) > len(before.records)
    others = [proc for proc in (host, p2, p3, p4) if proc is not killed]
    assert_one_chain(table, ["host", "p2", "p3", "p4"], [*others, again])
    assert "Result: " in again.output
    assert not any("removed" in line for line in ply_lines(again.output))


def test_the_host_killed_after_start_is_voted_off_and_the_others_finish(table: Table) -> None:
    start_four(table, "--away-timeout", "5")
    host, p2, p3, p4 = table.procs
    wait_for_ply(p2, 6)
    kill(host)
    codes = table.finish()
    assert codes == [-signal.SIGKILL, 0, 0, 0], table.outputs()
    assert_one_chain(table, ["p2", "p3", "p4"], [p2, p3, p4])
    for proc in (p2, p3, p4):
        removal = [
            line for line in ply_lines(proc.output) if "removed; bots take seats [1]" in line
        ]
        assert len(removal) == 1, proc.output
        assert re.search(r"^presence: Host is away$", proc.output, re.M), proc.output
        assert re.search(r"^vote: P\d votes to remove Host", proc.output, re.M)


def test_a_spectator_joining_mid_game_at_any_peer_verifies_the_same_chain(table: Table) -> None:
    start_four(table)
    host, p2, p3, p4 = table.procs
    port = listening_port(p4)
    wait_for_ply(p4, 10)
    watcher = table.join("Eve", "--watch", target=f"127.0.0.1:{port}")
    codes = table.finish()
    assert codes == [0, 0, 0, 0, 0], table.outputs()
    assert_one_chain(table, ["host", "p4", "eve"], [host, p2, p3, p4, watcher])
    assert "your seats: none (watching)" in watcher.output


def test_a_person_who_never_moves_is_voted_off_after_the_idle_timeout(table: Table) -> None:
    """P4 is a person at a terminal who types nothing: connected, acking, never moving.
    The others vote it off once it owes a move past the idle timeout; a bot plays seat 4,
    the game ends, and P4 is told and watches to the end."""
    table.host("consensus", "--bot", "--bot-delay", DELAY, "--idle-timeout", "3")
    for seat in (2, 3):
        table.join(f"P{seat}", "--seat", str(seat), "--bot", "--bot-delay", DELAY)
    idle = table.join("P4", "--seat", "4")  # no --bot: moves would be typed
    codes = table.finish()
    assert codes == [0, 0, 0, 0], table.outputs()
    assert "Your turn (seat 4)" in idle.output
    assert "You were voted off the table" in idle.output
    assert_one_chain(table, ["host", "p2", "p3", "p4"], table.procs)
    for proc in table.procs:
        removal = [line for line in ply_lines(proc.output) if "(P4) removed" in line]
        assert len(removal) == 1 and "bots take seats [4]" in removal[0], proc.output
        assert "You were voted off" not in proc.output or proc is idle
        # Seat 4 is the bot's at the end: a result that names seat 4 names the bot.
        (result,) = [line for line in proc.output.splitlines() if line.startswith("Result: ")]
        assert "P4" not in result, result


def test_one_cut_link_between_two_peers_is_bridged_by_the_others(table: Table) -> None:
    """P2 cuts its link to P3 at ply 5 and never links with it again: the records between
    them go through the host and P4; nobody is shown away, nobody removed."""
    table.host("consensus", "--bot", "--bot-delay", DELAY, "--away-timeout", "5")
    table.join("P2", "--seat", "2", "--bot", "--bot-delay", DELAY, faults="cut_link_at=5:P3")
    for seat in (3, 4):
        table.join(f"P{seat}", "--seat", str(seat), "--bot", "--bot-delay", DELAY)
    codes = table.finish()
    assert codes == [0, 0, 0, 0], table.outputs()
    p2 = table.procs[1]
    assert "faulty_peer: cut the link to P3 at ply 5" in p2.output
    assert_one_chain(table, ["host", "p2", "p3", "p4"], table.procs)
    assert chain_line(p2.output)[0] > 20  # the game went on well past the cut
    for proc in table.procs:
        assert not any("removed" in line for line in ply_lines(proc.output)), proc.output
        assert "votes to remove" not in proc.output
