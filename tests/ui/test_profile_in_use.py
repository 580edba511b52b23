"""The window and one profile, one process (issue 19): a window whose profile another palabre
plays with says so in words a player reads, keeps everything that needs no table, and goes to
a table once the other process is gone (killed: the OS lock goes with it); a terminal
``palabre join`` on the profile of a window at a table is refused, naming the window; the
start screen names a profile folder that others may change."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import qtrio
from PySide6.QtCore import Qt

from tests.ui.windows import free_port, open_window

pytestmark = [pytest.mark.gui, pytest.mark.filterwarnings("error")]
qt_trio = pytest.mark.trio(run=qtrio.run)

ROOT = Path(__file__).resolve().parents[2]
HOLD = (
    "import sys\n"
    "from client.profile.profile_lock import hold_profile\n"
    "hold_profile('default', 'playing a table')\n"
    "print('held', flush=True)\n"
    "sys.stdin.read()\n"
)


@pytest.fixture
def other_palabre(palabre_home: Path) -> Iterator[subprocess.Popen[str]]:
    """Another process that holds the default profile as ``palabre join`` does."""
    process = subprocess.Popen(
        [sys.executable, "-c", HOLD],
        cwd=ROOT,
        env={**os.environ, "PALABRE_HOME": str(palabre_home)},
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None and process.stdout.readline() == "held\n"
    yield process
    process.kill()
    process.wait()
    assert process.stdin is not None and process.stdout is not None
    process.stdin.close()
    process.stdout.close()


@qt_trio
async def test_a_profile_in_use_elsewhere_is_said_and_the_window_goes_on(
    qtbot: Any, other_palabre: subprocess.Popen[str]
) -> None:
    said = (
        f"Another palabre (process {other_palabre.pid}) is already using this profile: it is "
        "playing a table. You can be at one table at a time: leave that table or close that "
        "palabre, then try again."
    )
    async with open_window(qtbot) as window:
        start = window.start
        start.host_game.setCurrentIndex(start.host_game.findData("discorder"))
        start.host_port.setValue(free_port())
        qtbot.mouseClick(start.host_button, Qt.MouseButton.LeftButton)
        assert start.message.text() == said
        assert window.stack.currentWidget() is start and window.session is None
        start.join_target.setText("127.0.0.1:7000")
        qtbot.mouseClick(start.join_button, Qt.MouseButton.LeftButton)
        assert start.message.text() == said
        assert window.stack.currentWidget() is start
        qtbot.mouseClick(start.local_play, Qt.MouseButton.LeftButton)  # alone: no lock
        assert window.stack.currentWidget() is window.table, start.message.text()
        qtbot.mouseClick(window.table.leave_button, Qt.MouseButton.LeftButton)
        if window.table.leave_confirm.isVisible():  # mid-game, leaving is asked first
            qtbot.mouseClick(window.table.leave_yes, Qt.MouseButton.LeftButton)
        other_palabre.send_signal(signal.SIGKILL)  # a crash: the OS lets the lock go
        other_palabre.wait()
        qtbot.mouseClick(start.host_button, Qt.MouseButton.LeftButton)
        assert window.stack.currentWidget() is window.lobby, start.message.text()


@qt_trio
async def test_a_terminal_join_on_the_profile_of_a_window_at_a_table_is_refused(
    qtbot: Any, palabre_home: Path
) -> None:
    async with open_window(qtbot) as window:
        start = window.start
        start.host_game.setCurrentIndex(start.host_game.findData("discorder"))
        start.host_port.setValue(free_port())
        qtbot.mouseClick(start.host_button, Qt.MouseButton.LeftButton)
        assert window.stack.currentWidget() is window.lobby, start.message.text()
        games = palabre_home / "profiles" / "default" / "games"
        before = sorted(games.iterdir()) if games.exists() else []
        run = subprocess.run(
            [sys.executable, "-m", "client", "join", "127.0.0.1:1", "--headless", "--bot"],
            cwd=ROOT,
            env={**os.environ, "PALABRE_HOME": str(palabre_home)},
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert run.returncode == 4, run.stderr
        assert run.stderr.startswith(
            f"palabre: this profile (default) is already at a table in the palabre window in "
            f"process {os.getpid()}; one profile plays one table at a time"
        ), run.stderr
        assert run.stdout == ""
        assert (sorted(games.iterdir()) if games.exists() else []) == before


@qt_trio
async def test_the_start_screen_warns_of_a_profile_folder_others_may_change(
    qtbot: Any, palabre_home: Path
) -> None:
    folder = palabre_home / "profiles" / "default"
    folder.mkdir(parents=True)
    folder.chmod(0o777)
    async with open_window(qtbot) as window:
        text = window.start.message.text()
        assert text.startswith(f"The folder {folder} can be changed by other users (mode 777)")
        assert window.start.fingerprint.text().startswith("Your fingerprint: ")  # it still works
