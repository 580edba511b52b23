"""A game against bots, started from the start screen, is saved like every table's game
(issue 21): a signed game file in the profile's games folder, named ``DATE-GAME-PLAYERS``,
that ``palabre verify`` accepts and the replay opens; the start screen's *Open* dialog starts
in that folder.  Real window, real keys, real files, the real verifier as a process."""

from __future__ import annotations

import subprocess
import sys
from datetime import date
from pathlib import Path
from typing import Any

import pytest
import qtrio
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog

from client.logs.verifier import verify_file
from client.profile.game_file import game_dir, game_file_name
from client.rules.bot_names import bot_name
from client.sessions.local_game import LocalGame
from tests.ui.windows import open_window, start_local, until

pytestmark = [pytest.mark.gui, pytest.mark.filterwarnings("error")]
qt_trio = pytest.mark.trio(run=qtrio.run)


def test_a_game_file_is_named_by_day_game_and_players() -> None:
    day = date(2026, 12, 3)
    name = game_file_name(day, "consensus", ["Ana", "Sensible 2", "Sensible 3"])
    assert name == "2026-12-03-consensus-Ana-Sensible2-Sensible3.palabre-log"
    assert game_file_name(day, "cognes", ["A/B", "C"], 2) == "2026-12-03-cognes-A_B-C-2.palabre-log"


@qt_trio
async def test_a_game_against_bots_is_a_verified_game_file(
    qtbot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with open_window(qtbot, name="Zoé") as window:
        session = start_local(qtbot, window, "discorder")
        assert isinstance(session, LocalGame)
        table = window.table
        games = game_dir(window.launcher.profile)
        bot = bot_name(2, "Zoé", "normal")  # the file says who sat as the log names them
        expected = games / game_file_name(date.today(), "discorder", ["Zoé", bot])
        assert session.game_file == expected and expected.is_file()
        engine = session.snapshot.engine
        for _ in range(3):
            await until(lambda: session.snapshot.my_turn)
            session.move(engine.move_to_wire(engine.legal_moves(session.snapshot.state)[0]))
            if session.snapshot.can_take_back:
                break
        # Ctrl+Z asks for a takeback of my own move; the bots consent: the file keeps both.
        await until(lambda: session.snapshot.can_take_back)
        qtbot.mouseClick(table.takeback_button, Qt.MouseButton.LeftButton)
        await until(lambda: session.snapshot.plies[-1].kind == "takeback")
        qtbot.mouseClick(table.resign_button, Qt.MouseButton.LeftButton)
        qtbot.mouseClick(table.confirm_yes, Qt.MouseButton.LeftButton)
        await until(lambda: session.snapshot.outcome is not None)
        plies = len(session.snapshot.plies)
        await until(lambda: table.summary.replay_button.isEnabled())  # the summary has the file

        verdict = subprocess.run(
            [sys.executable, "-m", "client", "verify", str(expected)],
            capture_output=True,
            text=True,
            check=False,
        )
        assert verdict.returncode == 0, verdict.stdout + verdict.stderr
        assert "valid and complete" in verdict.stdout
        report = verify_file(expected).report
        assert report.final == plies and next(p.name for p in report.players) == "Zoé"

        asked: list[str] = []

        def pick(_parent: Any, _title: str, folder: str, _filter: str) -> tuple[str, str]:
            asked.append(folder)
            return str(expected), ""

        monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(pick))
        start = window.start
        window.stack.setCurrentWidget(start)
        qtbot.mouseClick(start.open_file, Qt.MouseButton.LeftButton)
        assert asked == [str(games)]
        replay = window.replay
        await until(lambda: replay.replay is not None)
        assert replay.replay is not None and replay.replay.plies == plies


def test_a_second_game_of_the_day_gets_its_own_file(tmp_path: Path) -> None:
    from client.profile.game_file import create_named

    day = date(2026, 12, 3)
    first = create_named(tmp_path, day, "forbans", ["Ana", "Bob"])
    second = create_named(tmp_path, day, "forbans", ["Ana", "Bob"])
    assert first.path.name == "2026-12-03-forbans-Ana-Bob.palabre-log"
    assert second.path.name == "2026-12-03-forbans-Ana-Bob-2.palabre-log"
    first.close()
    second.close()
