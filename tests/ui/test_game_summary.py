"""Game over shows a summary (issue 21): the result and its reason, the standings, the plies
and the length of the game, and buttons to play again and to export the moves.  (A whole
game won is in test_full_games.py, an abandoned table replayed in test_table_endings.py.)"""

from __future__ import annotations

from typing import Any

import pytest
import qtrio
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from tests.ui.windows import open_window, start_local, until

pytestmark = [pytest.mark.gui, pytest.mark.filterwarnings("error")]
qt_trio = pytest.mark.trio(run=qtrio.run)


@qt_trio
async def test_resigning_shows_the_summary_and_the_same_game_starts_again(qtbot: Any) -> None:
    async with open_window(qtbot, name="Zoé") as window:
        session = start_local(qtbot, window, "forbans", seats=2)
        table = window.table
        assert not table.summary.isVisible()
        qtbot.mouseClick(table.resign_button, Qt.MouseButton.LeftButton)
        qtbot.mouseClick(table.confirm_yes, Qt.MouseButton.LeftButton)
        await until(lambda: session.snapshot.outcome is not None)
        summary = table.summary
        assert summary.isVisible()
        bot = session.snapshot.seat_name(2)
        headline = summary.headline.text()
        assert headline.startswith(f"Game over — {bot} won. ") and "resign" in headline, headline
        assert summary.standings.text().index(bot) < summary.standings.text().index("Zoé")
        assert f"<b>{bot}</b>: won" in summary.standings.text()
        assert "<b>Zoé</b>: lost" in summary.standings.text()
        plies = session.snapshot.ply
        assert summary.facts.text().startswith(f"{plies} plies · 0 min ")
        assert summary.replay_button.isEnabled()  # a game against bots is saved too
        assert summary.replay_button.toolTip() == str(session.game_file)  # type: ignore[attr-defined]

        qtbot.mouseClick(summary.export_button, Qt.MouseButton.LeftButton)
        lines = QApplication.clipboard().text().splitlines()
        assert len(lines) == plies and lines[-1].startswith(f"{plies}. Zoé: ")
        assert summary.note.text() == f"The {plies} moves are in the clipboard."

        assert summary.again_button.isEnabled()
        qtbot.mouseClick(summary.again_button, Qt.MouseButton.LeftButton)
        again = window.session
        assert again is not None and again is not session
        assert window.stack.currentWidget() is table and not table.summary.isVisible()
        assert again.snapshot.engine.name == "forbans" and len(again.snapshot.seats) == 2
        assert again.snapshot.outcome is None and again.snapshot.my_seat == 1
