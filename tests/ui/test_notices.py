"""The table's notices in the chat speak the interface's language: translated from their key
under the French translator, the client's English text in English, names and plies kept,
free text (an outcome summary, a refusal reason) shown as given."""

from __future__ import annotations

from typing import Any

import pytest
import qtrio
from PySide6.QtCore import Qt

from client.sessions.notices import ENGLISH, Notice, notice
from client.sessions.session_api import ChatEntry
from engines.consensus import ENGINE
from tests.ui.test_window import start_local_game
from tests.ui.windows import click_move, open_window
from ui.boards.consensus import Board
from ui.i18n import install_language
from ui.notices import NOTICES, notice_text

pytestmark = [pytest.mark.gui, pytest.mark.filterwarnings("error")]
qt_trio = pytest.mark.trio(run=qtrio.run)
NBSP = "\u00a0"


def entry(said: Notice) -> ChatEntry:
    return ChatEntry(4, None, "table", said.english(), said)


def test_every_notice_the_client_makes_has_its_english_sentence_here() -> None:
    # host-says is the host's own free text: nothing to translate.
    assert NOTICES.keys() == ENGLISH.keys() - {"host-says"}
    for key, source in NOTICES.items():
        assert str(source) == ENGLISH[key], key


def test_free_text_stays_as_given_and_unknown_notices_fall_back_on_english() -> None:
    install_language("fr")
    over = entry(notice("game-over", summary="Seat 2 wins by power."))
    assert notice_text(over) == f"Partie terminée{NBSP}: Seat 2 wins by power."
    refused = entry(notice("refused", reason="bad {signature}"))
    assert notice_text(refused) == f"Refusé{NBSP}: bad {{signature}}"
    path = "/home/ana/.palabre/evidence/table-3.json"
    assert notice_text(entry(notice("evidence-written", path=path))) == (
        f"Preuves écrites dans {path}"
    )
    host = entry(notice("host-says", text="On commence dans une minute."))
    assert notice_text(host) == "On commence dans une minute."
    unknown = ChatEntry(4, None, "table", "Something new.", Notice("from-a-newer-client"))
    assert notice_text(unknown) == "Something new."
    assert notice_text(ChatEntry(4, None, "table", "Plain text.")) == "Plain text."
    install_language("en")
    assert notice_text(over) == "Game over: Seat 2 wins by power."


def lines(table: Any) -> list[str]:
    chat = table.chat.lines
    return [chat.item(row).text() for row in range(chat.count())]


@qt_trio
async def test_a_takeback_and_a_draw_offer_are_noticed_in_french_then_in_english(
    qtbot: Any,
) -> None:
    install_language("fr")
    async with open_window(qtbot, name="Ana") as window:
        session = start_local_game(qtbot, window, pace_ms=5000)  # the bots wait: my ply stays
        table = window.table
        board = table.board
        assert isinstance(board, Board)
        target = ENGINE.destinations(session.snapshot.state, 20)[0]
        click_move(qtbot, board, [20, target])
        qtbot.mouseClick(table.takeback_button, Qt.MouseButton.LeftButton)
        qtbot.mouseClick(table.offer_button, Qt.MouseButton.LeftButton)
        assert lines(table) == [
            "Ana demande à reprendre le coup 1.",
            "Les robots acceptent.",
            "Ana propose la nulle.",
            f"Les robots refusent la nulle{NBSP}; la partie continue.",
        ]
        english = [
            "Ana asks to take back ply 1.",
            "The bots consent.",
            "Ana offers a draw.",
            "The bots decline the draw; play goes on.",
        ]
        assert [line.text for line in session.snapshot.chat] == english  # the client's text
        install_language("en")
        table.chat.show_chat(session.snapshot.chat)
        assert lines(table) == english
