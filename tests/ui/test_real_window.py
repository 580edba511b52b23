"""The real window on a real X display (Xvfb), not offscreen: `scripts/screenshot_network.py`
hosts a Consensus table from the window, three `palabre join --bot --headless` processes
join it over loopback, the game is played by clicks, and the lobby and the table are saved.
This is the README's picture, made the way a user's screen would show it."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtGui import QImage

pytestmark = [pytest.mark.gui, pytest.mark.slow]
ROOT = Path(__file__).resolve().parents[2]


def test_the_real_window_hosts_networked_bots_under_xvfb(tmp_path: Path) -> None:
    if shutil.which("xvfb-run") is None:
        pytest.skip("xvfb-run is not installed (.ci/run installs it)")
    env = {**os.environ, "PALABRE_HOME": str(tmp_path / "home")}
    env.pop("QT_QPA_PLATFORM", None)  # the xcb platform, on Xvfb's display
    env.pop("DISPLAY", None)
    out = tmp_path / "network.png"
    script = [sys.executable, str(ROOT / "scripts" / "screenshot_network.py")]
    result = subprocess.run(
        ["xvfb-run", "-a", *script, "--out", str(out), "--bot-delay", "0"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "(xcb platform" in result.stdout, result.stdout
    image = QImage(str(out))
    assert image.width() > 2000 and image.height() == 900  # the lobby beside the table
    lobby, table = colours(image, 0, 900), colours(image, 960, image.width())
    assert len(lobby) >= 6 and len(table) >= 20  # drawn, not blank (seat colours, board)


def colours(image: QImage, left: int, right: int) -> set[int]:
    """The distinct colours on a grid of points between columns ``left`` and ``right``."""
    return {image.pixel(x, y) for x in range(left, right, 7) for y in range(0, image.height(), 7)}
