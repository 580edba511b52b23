"""No developer words in front of a player (issue 21): the status line says whose move it is
and what the position means, never "digest", "peers" or "ply 14/14 final" (the Details
button keeps them for the curious); games are named as their rules call them."""

from __future__ import annotations

from typing import Any

import pytest
import qtrio
import trio
from PySide6.QtCore import Qt

from engines.consensus import ENGINE as CONSENSUS
from engines.forbans import ENGINE as FORBANS
from tests.ui.windows import click_move, open_window, start_local, until
from ui.boards.consensus import Board
from ui.i18n import install_language
from ui.notation import readable_notation

pytestmark = [pytest.mark.gui, pytest.mark.filterwarnings("error")]
qt_trio = pytest.mark.trio(run=qtrio.run)

DEVELOPER_WORDS = ("digest", "peer", "final", "condensé", "pair", "définitif")


def shows_no_developer_word(text: str) -> bool:
    lowered = text.lower()
    return not any(word in lowered for word in DEVELOPER_WORDS)


@qt_trio
async def test_the_status_line_speaks_to_a_player_and_details_keep_the_bookkeeping(
    qtbot: Any,
) -> None:
    async with open_window(qtbot) as window:
        session = start_local(qtbot, window, "consensus")
        table = window.table
        assert isinstance(table.board, Board)
        assert "Your move." in table.status.text()
        assert shows_no_developer_word(table.status.text()), table.status.text()
        assert not table.details.isVisible()
        click_move(qtbot, table.board, [20, 29])  # the Coutumier on c3 steps forward
        await until(lambda: session.snapshot.my_turn and session.snapshot.ply == 4)
        assert shows_no_developer_word(table.status.text()), table.status.text()
        qtbot.mouseClick(table.details_button, Qt.MouseButton.LeftButton)
        assert table.details.isVisible()
        assert "Ply 4/4 final" in table.details.text() and "digest" in table.details.text()
        qtbot.mouseClick(table.details_button, Qt.MouseButton.LeftButton)
        assert not table.details.isVisible()


@pytest.mark.parametrize("language", ["en", "fr"])
@qt_trio
async def test_games_are_named_as_their_rules_call_them(qtbot: Any, language: str) -> None:
    install_language(language)
    async with open_window(qtbot) as window:
        start = window.start
        shown = [start.local_game.itemText(row) for row in range(start.local_game.count())]
        assert "Les Forbans" in shown and "Consensus" in shown
        assert not any(name.islower() for name in shown), shown
        assert [start.host_game.itemText(row) for row in range(start.host_game.count())] == shown
        start.local_game.setCurrentIndex(start.local_game.findData("forbans"))
        start.local_pace.setValue(2000)
        qtbot.mouseClick(start.local_play, Qt.MouseButton.LeftButton)
        assert window.stack.currentWidget() is window.table, start.message.text()
        assert window.table.title.text().startswith("Les Forbans"), window.table.title.text()
        assert shows_no_developer_word(window.table.status.text())
        await trio.sleep(0)


@qt_trio
async def test_forbans_plies_are_listed_with_the_ports_names(qtbot: Any) -> None:
    async with open_window(qtbot) as window:
        session = start_local(qtbot, window, "forbans", my_seat=2, seats=2)
        await until(lambda: session.snapshot.my_turn)
        first = session.snapshot.plies[0]
        engine = session.snapshot.engine
        port = engine.map.ports[first.wire[0]]  # type: ignore[attr-defined]
        item = window.table.moves.item(0)
        assert first.notation == f"+vert@{port.id}"
        assert f"Vert piece on {port.name}" in item.text() and port.id not in item.text()
        assert item.toolTip() == first.notation  # the engine's words stay at hand


def test_a_move_reads_with_the_ports_names_and_anything_else_as_it_is() -> None:
    assert readable_notation(FORBANS, "curacao-maracaibo") == "Curaçao → Maracaïbo"
    assert readable_notation(FORBANS, "+bleu@tortue") == "Bleu piece on Île de la Tortue"
    assert readable_notation(FORBANS, "nowhere-maracaibo") == "nowhere-maracaibo"
    assert readable_notation(FORBANS, "+vert@") == "+vert@"
    assert readable_notation(CONSENSUS, "Sc3-c5") == "Sc3-c5"
