"""A person plays at a terminal: ``palabre host`` without ``--bot``, driven through its
standard input as a person types, against a bot peer (Bruno) over loopback TCP."""

from __future__ import annotations

import re
import subprocess
import time
from pathlib import Path

import pytest

from net.invite import parse_invite
from tests.e2e.tables import ROOT, Proc, Table, peer_command

pytestmark = pytest.mark.e2e

PROMPT = r"^Your turn \(seat 1\): type a move \(like (\S+)\), or help for the commands$"


def _person(table: Table, game: str, *extra: str) -> Proc:
    """The host, played by a person: its standard input is a pipe the test types into."""
    out = table.home / "host.out"
    args = ["host", "--game", game, "--port", "0", "--headless", "--name", "Ana", "--no-announce"]
    args += extra
    with open(out, "w") as sink:
        process = subprocess.Popen(
            peer_command("ana", args), cwd=ROOT, stdin=subprocess.PIPE, stdout=sink,
            stderr=subprocess.STDOUT, text=True, env=table.env(),
        )  # fmt: skip
    proc = Proc("host", process, out)
    table.procs.append(proc)
    table.invite = parse_invite(proc.wait_for(r"^Invite: (\S+)$")[1])
    return proc


def _type(proc: Proc, line: str) -> None:
    assert proc.process.stdin is not None
    proc.process.stdin.write(line + "\n")
    proc.process.stdin.flush()


def _prompts(proc: Proc) -> int:
    return len(re.findall(PROMPT, proc.output, re.M))


def _next_turn_or_result(proc: Proc, turn: int, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while _prompts(proc) < turn and not re.search(r"^Result: ", proc.output, re.M):
        assert time.monotonic() < deadline, f"no turn {turn}, no result:\n{proc.output}"
        assert proc.process.poll() is None or _prompts(proc) >= turn, proc.output
        time.sleep(0.05)


def test_a_person_plays_a_whole_game_seeing_the_board(tmp_path: Path) -> None:
    table = Table(tmp_path)
    try:
        ana = _person(table, "forbans")
        table.join("Bruno", "--bot", "--bot-delay", "1500")
        example = ana.wait_for(PROMPT, 60)[1]
        text = ana.output
        # The board comes before the prompt, as `log show --ply` draws it.
        assert "position after ply 0:\n" in text and "to move: Ana" in text
        _type(ana, "help")
        ana.wait_for(r"^  board +show the board$")
        assert re.search(r"^  resign +", ana.output, re.M) and "  kick SEAT" in ana.output
        _type(ana, "board")
        ana.wait_for(r"(?s)position after ply 0:.*position after ply 0:")
        _type(ana, example)
        _type(ana, example)  # again, at once: Bruno's bot waits 1.5 s before its move
        ana.wait_for(r"^sent; waiting for Bruno's palabre$")
        ana.wait_for(r"^Not your turn: Bot 2 of Bruno \(normal\) is to move$")
        # Every later turn: the move the prompt gives as an example, until the game ends.
        for turns in range(2, 40):
            _next_turn_or_result(ana, turns)
            if re.search(r"^Result: ", ana.output, re.M):
                break
            _type(ana, re.findall(PROMPT, ana.output, re.M)[-1])
        assert table.finish(60) == [0, 0], table.outputs()
        text = ana.output
        # Each prompt comes after the line of the ply it follows, and after its board.
        for ply in re.findall(r"^position after ply (\d+):$", text, re.M):
            if int(ply) > 0:
                assert text.index(f"\n{int(ply):4d}. ") < text.index(f"position after ply {ply}:")
        assert "Traceback" not in text
    finally:
        table.kill()


def test_a_resignation_typed_out_of_turn_is_confirmed_then_sent(tmp_path: Path) -> None:
    table = Table(tmp_path)
    try:
        ana = _person(table, "forbans")
        table.join("Bruno", "--bot", "--bot-delay", "1500")
        _type(ana, ana.wait_for(PROMPT, 60)[1])
        _type(ana, "resign")
        ana.wait_for(r"^Resignation noted: it is sent at your turn$")
        ana.wait_for(r"^Result: .*resign", 60)
        assert table.finish(60) == [0, 0], table.outputs()
    finally:
        table.kill()


def test_end_of_input_leaves_the_table(tmp_path: Path) -> None:
    """Ctrl-D: the person leaves as the window's Leave table does, with the leave notice."""
    table = Table(tmp_path)
    try:
        ana = _person(table, "forbans")
        bruno = table.join("Bruno", "--bot", "--bot-delay", "1500")
        ana.wait_for(PROMPT, 60)
        assert ana.process.stdin is not None
        ana.process.stdin.close()
        assert ana.process.wait(timeout=30) == 0, ana.output
        assert "You left the table (end of input)." in ana.output
        assert "Traceback" not in ana.output
        bruno.wait_for(r"^left: Ana left the table \(ply \d+\)$", 30)
        # the notice ends this table of two at once, not after the away timeout (60 s)
        assert bruno.process.wait(timeout=30) == 0, bruno.output
        # the result in the player's words: her name, not the key label the record names
        assert "Result: The table was abandoned: Ana left the table." in bruno.output, bruno.output
    finally:
        table.kill()


def test_a_person_sees_the_clocks_is_warned_and_loses_on_time(tmp_path: Path) -> None:
    """A 6-second clock (``--clock 0.1+0``): the board's header shows both clocks, Ana is
    warned at once (under 10 s), types nothing, and her own palabre resigns for her at her
    limit: the ply and the result say "on time", at both peers."""
    table = Table(tmp_path)
    try:
        ana = _person(table, "discorder", "--clock", "0.1+0")
        bruno = table.join("Bruno", "--bot", "--bot-delay", "0")
        ana.wait_for(PROMPT, 60)
        assert re.search(
            r"^clocks: > seat 1 Ana 6\.0 · seat 2 Bot 2 of Bruno \(normal\) 6\.0$", ana.output, re.M
        )
        ana.wait_for(r"^Under 10 seconds on your clock \(\d\.\d left\)$")
        # the result names the seats as the table seats them, never "Seat 2" (issue 21)
        ana.wait_for(r"^Result: .* Ana lost on time\. \(after 1 plies", 30)
        assert table.finish(60) == [0, 0], table.outputs()
        for proc in (ana, bruno):
            assert re.search(r"^ +1\. Ana .* final  \(lost on time\)$", proc.output, re.M)
            assert "Ana lost on time." in proc.output
            result = next(line for line in proc.output.splitlines() if line.startswith("Result:"))
            assert "Seat" not in result, result
            # the lobby said the clock, and what a clock between two machines cannot do
            assert "lobby: clock 0.1 min + 0 s a move for each player\n" in proc.output
            assert "neither can make the other's player lose on time" in proc.output
    finally:
        table.kill()


def test_a_terminal_watcher_is_told_it_watches_and_sees_the_board(tmp_path: Path) -> None:
    """``palabre join ADDRESS --watch`` in a terminal (no --headless): it said "playing in
    this terminal" and printed no board at all, only the plies' notation (issue 21)."""
    table = Table(tmp_path)
    try:
        table.host("discorder", "--bot", "--bots", "1", "--bot-delay", "200")
        watcher = table.spawn(
            "wes", ["join", table.loopback_invite(), "--watch", "--name", "Wes"], stdin=""
        )
        watcher.wait_for(r"your seats: none \(watching\)", 30)
        watcher.wait_for(r"^position after ply [1-9]\d*:$", 30)
        assert "watching in this terminal" in watcher.output
        assert "playing in this terminal" not in watcher.output
        assert "Traceback" not in watcher.output
    finally:
        table.kill()
