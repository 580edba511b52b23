"""A console that cannot show every character (Windows' legacy code pages, a pipe in the
C locale) never ends a command: what it cannot show comes out without its accent, else as
``?``."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from engines import find_engine
from tests.client.gamelogs import LoggedTable

ROOT = Path(__file__).resolve().parents[2]


def _game_with_accented_names(directory: Path) -> Path:
    engine = find_engine("discorder")
    table = LoggedTable(directory, ["Bérénice", "Zoë"], engine, bots="none")
    for name in ("Bérénice", "Zoë"):
        state = table.tables[name].head.engine_state
        table.act(name, table.tables[name].move(engine.legal_moves(state)[0], table.router.now))
    table.act("Zoë", table.tables["Zoë"].chat("très bien ✓ — 好", table.router.now))
    table.close()
    return table.paths["Bérénice"]


@pytest.mark.parametrize("entry", ["client", "ui"])  # python -m client; palabre (ui.entry)
@pytest.mark.parametrize("command", [["log", "show"], ["verify"]])
def test_a_console_in_ascii_shows_question_marks_instead_of_failing(
    tmp_path: Path, command: list[str], entry: str
) -> None:
    path = _game_with_accented_names(tmp_path)
    env = {**os.environ, "PYTHONIOENCODING": "ascii", "PALABRE_HOME": str(tmp_path / "home")}
    done = subprocess.run(
        [sys.executable, "-m", entry, *command, str(path)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        timeout=120,
    )
    output = done.stdout.decode("ascii") + done.stderr.decode("ascii")  # ASCII, every byte
    assert "Traceback" not in output and "UnicodeEncodeError" not in output, output
    assert done.returncode in (0, 3), output  # the game has no END: valid but incomplete
    assert "Berenice" in output and "Zoe" in output  # the letters, without their accents
    if command == ["log", "show"]:
        assert "tres bien ? ? ?" in output  # no letter under ✓, — or 好: a question mark
