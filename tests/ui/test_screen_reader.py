"""What a screen reader gets from the table, read through Qt's accessibility interface, in
real games against bots: the board's position as text and each ply, chat line and ending
announced (``ui.accessible_board``, ``ui.announcer``).

Seat 1's moves are chosen by a seeded bot and handed to the table as its board hands them
(``moveChosen``); the other seats are the session's own bots.
"""

from __future__ import annotations

from typing import Any

import pytest
import qtrio
from PySide6.QtGui import QAccessible

from client.bots import make_bot
from client.sessions.local_game import LocalGame
from client.sessions.session_api import ChatEntry
from engines import find_engine
from tests.ui.windows import open_window, until
from ui.announcer import HAS_ANNOUNCEMENTS

pytestmark = [pytest.mark.gui, pytest.mark.filterwarnings("error")]
qt_trio = pytest.mark.trio(run=qtrio.run)

GAMES = {
    "consensus": ({"seats": 4}, ("Ana: Président ", "orpse")),
    "discorder": ({"seats": 2}, ("Jaune (Ana) tiles:", "Pegs:")),
    "forbans": ({"seats": 2}, ("Bleu (Ana):", "Vert (")),
    "cognes": ({"seats": 2}, ("Coins, measured from the middle one: coin 0 at",)),
}


def read(widget: Any, text: QAccessible.Text) -> str:
    interface = QAccessible.queryAccessibleInterface(widget)
    assert interface is not None and interface.isValid()
    return str(interface.text(text))


@pytest.mark.parametrize("name", sorted(GAMES))
@qt_trio
async def test_the_board_is_read_and_every_ply_line_and_ending_is_said(
    qtbot: Any, name: str
) -> None:
    params, position_words = GAMES[name]
    engine = find_engine(name)
    async with open_window(qtbot) as window:
        game = LocalGame(engine, params, player_name="Ana", seed=3, bot_delay=0)
        window.open_session(game)
        table = window.table
        said: list[str] = []
        table.announcer.announced.connect(said.append)
        board = table.board
        assert board is not None
        assert read(board, QAccessible.Text.Name).endswith("board")
        description = read(board, QAccessible.Text.Description)
        assert all(words in description for words in position_words), description
        me = make_bot(name, "sensible", 11)
        for _turn in range(3):
            await until(lambda: game.snapshot.my_turn)
            assert "Your move." in read(board, QAccessible.Text.Description)
            before = len(said)
            plies = game.snapshot.ply
            move = me.choose(engine, game.snapshot.state)
            board.moveChosen.emit(tuple(engine.move_to_wire(move)))
            await until(lambda: game.snapshot.my_turn or game.snapshot.outcome is not None)
            new = game.snapshot.ply - plies
            assert len(said) - before == new >= 1, said[before:]  # one sentence a ply
            assert read(table.announcer, QAccessible.Text.Name) == said[-1]
            if game.snapshot.outcome is not None:
                break
        # What the last plies did is on the board, as the table's line says it.
        assert table.recent_line.text() in read(board, QAccessible.Text.Description)
        game.chat("well played")
        await until(lambda: said[-1] == "Ana says: well played")
        assert read(table.announcer, QAccessible.Text.Name) == "Ana says: well played"
        if game.snapshot.outcome is None:
            table.resign_button.click()
            table.confirm_yes.click()
            await until(lambda: game.snapshot.outcome is not None)
        await until(lambda: said[-1].startswith("Game over"))
        assert said.count(said[-1]) == 1  # the ending once, not again for its notice
        assert read(table.announcer, QAccessible.Text.Name) == said[-1]


def test_announcements_are_qts_own_on_this_qt() -> None:
    """PySide6 6.8 and later have QAccessibleAnnouncementEvent; the live region is the
    fallback for older ones only."""
    from PySide6 import __version_info__

    assert (__version_info__ >= (6, 8)) == HAS_ANNOUNCEMENTS


def test_a_french_player_hears_french(qtbot: Any) -> None:
    from ui.i18n import install_language
    from ui.screens.table import TableScreen

    install_language("fr")  # the ``english`` fixture puts English back
    table = TableScreen()
    qtbot.addWidget(table)
    table.set_session(LocalGame(find_engine("consensus"), {"seats": 4}, player_name="Ana"))
    board = table.board
    assert read(board, QAccessible.Text.Name) == "Plateau de Consensus"
    assert "Aucun cadavre sur le plateau." in read(board, QAccessible.Text.Description)
    assert read(table.chat.field, QAccessible.Text.Name) == "Message de discussion"
    table.reader.chat_line(ChatEntry(0, 1, "Ana", "bonjour"))
    assert read(table.announcer, QAccessible.Text.Name) == "Ana dit\u00a0: bonjour"
