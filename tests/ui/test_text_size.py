"""The window follows the system's text size and 200 % scaling without clipping or overlap
(``ui.layout_check``): the start screen and each game's table with the application's font
at 150 % and at twice its size, and the screenshot script at ``QT_SCALE_FACTOR=2`` in its
own process, for a Consensus table and for a Discorder one."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import qtrio
from PySide6.QtWidgets import QApplication, QLabel, QPushButton, QVBoxLayout, QWidget

from client.sessions.local_game import LocalGame
from engines import find_engine
from tests.ui.windows import open_window, until
from ui.layout_check import clipped, overlapping

pytestmark = [pytest.mark.gui, pytest.mark.filterwarnings("error")]
qt_trio = pytest.mark.trio(run=qtrio.run)
ROOT = Path(__file__).resolve().parents[2]


GAMES = ["cognes", "consensus", "discorder", "forbans"]


@pytest.fixture(params=[1.5, 2.0], ids=["text150", "text200"])
def big_text(qapp: Any, request: pytest.FixtureRequest) -> Iterator[float]:
    """The application's font bigger (150 % or twice its size), as a system set to big
    text gives it."""
    before = QApplication.font()
    font = QApplication.font()
    font.setPointSizeF(before.pointSizeF() * request.param)
    QApplication.setFont(font)
    yield before.pointSizeF()
    QApplication.setFont(before)


def test_the_check_sees_a_squeezed_button(qtbot: Any) -> None:
    root = QWidget()
    qtbot.addWidget(root)
    QVBoxLayout(root).addWidget(QPushButton("A button with a long text"))
    root.show()
    assert clipped(root) == []
    button = root.findChild(QPushButton)
    button.setFixedWidth(30)
    assert len(clipped(root)) == 1
    label = QLabel("over", root)
    label.setGeometry(button.geometry())
    label.show()
    assert overlapping(root) == []  # not laid out: an overlay, as a board's are
    root.layout().addWidget(label)
    label.setGeometry(button.geometry())
    assert len(overlapping(root)) == 1


@pytest.mark.parametrize("game", GAMES)
@qt_trio
async def test_nothing_is_clipped_with_bigger_text(qtbot: Any, big_text: float, game: str) -> None:
    async with open_window(qtbot) as window:
        window.resize(1200, 800)
        await until(lambda: window.start.isVisible())
        assert clipped(window.start) == []
        assert overlapping(window.start) == []
        session = LocalGame(
            find_engine(game),
            {"seats": 4 if game == "consensus" else 2},
            player_name="Ana",
            seed=2,
            bot_delay=0,
        )
        window.open_session(session)
        await until(lambda: session.snapshot.my_turn)
        table = window.table
        assert table.title.font().pointSizeF() > big_text * 1.25  # a heading follows the text
        assert clipped(table) == []
        assert overlapping(table) == []


@pytest.mark.parametrize("game", ["consensus", "discorder"])
def test_at_200_percent_nothing_is_clipped_and_the_pictures_are_twice_as_big(
    tmp_path: Path, game: str
) -> None:
    from PIL import Image

    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PALABRE_HOME": str(tmp_path / "h")}
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "screenshot_sizes.py"), "--scale", "2",
         "--out", str(tmp_path), "--check", "--plies", "4", "--game", game],
        env=env, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    for name in ("start", "table" if game == "consensus" else f"table-{game}"):
        with Image.open(tmp_path / f"{name}-2x.png") as picture:
            assert picture.size == (2400, 1600)
