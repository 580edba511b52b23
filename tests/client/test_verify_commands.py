"""The commands as a user types them: ``palabre verify``, ``palabre log show``, the progress bar."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from client.commands import cli
from client.logs.board_text import board_lines
from client.logs.progress import ProgressBar
from client.logs.verifier import verify_file
from engines import find_engine
from tests.client.gamelogs import LoggedTable, Script, records_of, rewrite, short_game
from tests.client.test_verify_remove import four, votes_and_remove
from tests.client.tinygame import ENGINE as GRAB

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> LoggedTable:
    return short_game(tmp_path_factory.mktemp("short"))


def test_verify_prints_the_summary_and_exits_0(
    game: LoggedTable, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["verify", str(game.paths["A"])]) == 0
    out = capsys.readouterr()
    assert "verdict:  valid and complete (exit 0)" in out.out
    assert out.err == ""  # no progress bar when stderr is not a terminal


def test_verify_lists_each_problem_then_the_summary(
    game: LoggedTable, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    records = records_of(game.paths["A"])
    path = rewrite(tmp_path / "bad.palabre", [*records[:3], records[4], *records[3:]])
    assert cli.main(["verify", str(path)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("invalid: ply 1, record 4 at offset ")
    assert "comes before that ply in the log" in lines[0]
    assert lines[-1] == "verdict:  invalid (exit 1)"


def test_verify_json_is_one_document(game: LoggedTable, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["verify", "--json", str(game.paths["B"])]) == 0
    assert json.loads(capsys.readouterr().out)["exit"] == 0


@pytest.mark.parametrize(
    ("content", "code", "message"),
    [
        (None, 2, "cannot read it"),
        (b"GIF89a", 2, "is not a palabre log"),
        (b"", 2, "is empty or cut inside its first line"),
    ],
)
def test_verify_unreadable_files_exit_2_without_a_traceback(
    tmp_path: Path, content: bytes | None, code: int, message: str
) -> None:
    path = tmp_path / "log.palabre"
    if content is not None:
        path.write_bytes(content)
    run = subprocess.run(
        [sys.executable, "-m", "ui.entry", "verify", str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == code
    assert message in run.stdout
    assert "Traceback" not in run.stdout + run.stderr


def test_log_show_prints_plies_chat_and_result(
    game: LoggedTable, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["log", "show", str(game.paths["A"])]) == 0
    out = capsys.readouterr().out
    a = game.tables["A"].start.name_of(game.identities["A"].key)
    assert "game:     discorder (ruleset discorder/1" in out
    assert "seat 1  " in out and "seat 2  " in out
    lines = out.splitlines()
    plies = [line for line in lines if line.strip()[:2] in ("1.", "2.", "3.")]
    assert len(plies) == 3
    assert "seat 1" in plies[0] and "a1" in plies[0] and "final" in plies[0] and a in plies[0]
    assert "draw agreed" in plies[2]
    chat = lines.index(f"        chat  {a}: bonjour")
    assert lines.index(plies[1]) < chat < lines.index(plies[2])  # chat in its place
    assert f"        {a} offers a draw" in lines
    assert "result:   Draw agreed. (ENDs from every peer)" in lines
    assert lines[-1] == "log:      valid and complete"


def test_log_show_ply_prints_the_board(
    game: LoggedTable, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["log", "show", str(game.paths["A"]), "--ply", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("position after ply 2: b1 by peer ")
    assert lines[-1] == "to move: seat 1"
    assert "1   J N . . . . . ." in lines
    assert cli.main(["log", "show", str(game.paths["A"]), "--ply", "0"]) == 0
    assert capsys.readouterr().out.startswith("position at ply 0: the start")


def test_log_show_refuses_a_ply_outside_the_log(
    game: LoggedTable, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["log", "show", str(game.paths["A"]), "--ply", "9"]) == 2
    assert "this log holds plies 0 to 3, not 9" in capsys.readouterr().err


def test_log_show_marks_removals_and_dropped_records(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    consensus = find_engine("consensus")
    script = four()
    while consensus.to_move(script.chain.head.engine_state) != 4:
        script.move()
        script.ack()
    head = script.chain.head
    move = consensus.move_to_wire(consensus.legal_moves(head.engine_state)[0])
    script.sign("D", "MOVE", {"ply": head.ply + 1, "prev": head.chain_digest, "seat": 4,
                              "move": move})  # fmt: skip
    votes_and_remove(script)
    script.ack()
    path = script.write(tmp_path / "removal.palabre")
    assert cli.main(["log", "show", str(path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    d = script.chain.start.name_of(script.identity("D").key)
    dropped = f"      -   MOVE of ply {head.ply + 1} by {d}, dropped by a REMOVE"
    removal = next(line for line in lines if "removed; bots take seats [4]" in line)
    assert lines.index(dropped) < lines.index(removal)
    assert removal.lstrip().startswith(f"{head.ply + 1}.  table ")
    assert "seat 4  " in lines[lines.index("players:") + 5]  # the new bot, from that ply
    assert lines[-1] == "log:      valid but incomplete, 1 problem(s): `palabre verify` lists them"


def test_log_export_needs_the_entry_point(
    game: LoggedTable, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["log", "export", str(game.paths["A"]), "--ply", "1", "--png", str(tmp_path / "x")]
    assert cli.main(args) == 2
    assert "draws with Qt" in capsys.readouterr().err


def test_every_game_has_a_text_board() -> None:
    for name in ("consensus", "discorder", "forbans", "cognes"):
        engine = find_engine(name)
        state = engine.initial_state(dict(engine.sample_params[0]))
        lines = board_lines(engine, state)
        assert len(lines) >= 3 and lines[-1].startswith("to move: seat 1")
        assert not any(line.startswith("state (canonical") for line in lines)
    consensus = find_engine("consensus")
    lines = board_lines(consensus, consensus.initial_state({"seats": 4}))
    assert lines[1] == "9  P2 G2 S2  .  .  . S3 G3 P3"
    assert lines[9] == "1  P1 G1 S1  .  .  . S4 G4 P4"


def test_a_game_without_a_text_board_shows_its_decoded_state() -> None:
    lines = board_lines(GRAB, GRAB.initial_state({"seats": 2, "pile": 7}))
    assert lines == ["state (canonical, decoded):", "  (7, 1, (1, 2), (False, False), 0, 0, 0)",
                     "to move: seat 1"]  # fmt: skip


def test_the_progress_bar_waits_a_second_then_draws_and_erases() -> None:
    now = [0.0]
    stream = io.StringIO()
    bar = ProgressBar(stream, "verifying x", clock=lambda: now[0], force=True)
    bar(10, 100)
    assert stream.getvalue() == ""  # under a second: nothing
    now[0] = 1.5
    bar(50, 100)
    assert stream.getvalue().endswith("verifying x [###############...............]  50% 50/100")
    now[0] = 1.55
    bar(60, 100)
    assert "60/100" not in stream.getvalue()  # at most ten redraws a second
    bar(100, 100)
    assert stream.getvalue().endswith(" 100% 100/100")
    width = len("verifying x [") + 30 + len("] 100% 100/100")
    bar.close()
    assert stream.getvalue().endswith("\r" + " " * width + "\r")
    quiet = io.StringIO()  # not a terminal: never drawn
    bar = ProgressBar(quiet, "verifying x", clock=lambda: now[0])
    now[0] = 10.0
    bar(1, 2)
    bar.close()
    assert quiet.getvalue() == ""


def test_a_long_verification_reports_progress(tmp_path: Path) -> None:
    script = Script(find_engine("consensus"), ["A", "B", "C", "D"], seed=1)
    script.ack()
    script.play()
    calls: list[tuple[int, int]] = []
    verify_file(
        script.write(tmp_path / "long.palabre"), lambda done, total: calls.append((done, total))
    )
    total = len(script.records)
    assert calls[-1] == (total, total)
    assert [done for done, _ in calls] == sorted(done for done, _ in calls)
