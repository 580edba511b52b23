"""A whole game of Les Forbans, Discorder and Cognes through the window against bots.

The real ``MainWindow`` and table screen show a ``LocalGame``; seat 1 is the person, whose
every move is chosen by a seeded bot and then made by real mouse input on the board (clicks
on ports, cells and peg sites; a drag from a coin), never by calling the session.  Each
emitted wire move must be exactly the chosen one, and the game must end with the outcome
banner shown and every ply listed.
"""

from __future__ import annotations

from typing import Any

import pytest

from client.bots import make_bot
from client.rules.seat_words import with_seat_names
from client.sessions.local_game import LocalGame
from engines import find_engine
from tests.ui.board_input import play_wire
from tests.ui.test_window import open_window, qt_trio, until

pytestmark = [pytest.mark.gui, pytest.mark.filterwarnings("error")]

GAMES = {
    "forbans": {"seats": 2},
    "discorder": {"seats": 2},
    "cognes": {"seats": 2},
}


@pytest.mark.parametrize("name", sorted(GAMES))
@qt_trio
async def test_a_whole_game_is_played_by_mouse_against_bots(qtbot: Any, name: str) -> None:
    engine = find_engine(name)
    seed = 7
    async with open_window(qtbot) as window:
        window.resize(1300, 900)
        game = LocalGame(
            engine, GAMES[name], player_name="Ana", bot_kind="sensible", seed=seed, bot_delay=0
        )
        window.open_session(game)
        board = window.table.board
        me = make_bot(name, "sensible", seed + 1000)
        mine: list[tuple[int, ...]] = []
        while game.snapshot.outcome is None:
            await until(lambda: game.snapshot.my_turn or game.snapshot.outcome is not None)
            if game.snapshot.outcome is not None:
                break
            state = game.snapshot.state
            wire = tuple(engine.move_to_wire(me.choose(engine, state)))
            before = game.snapshot.ply
            play_wire(qtbot, name, board, wire)
            assert game.snapshot.ply > before, f"ply {before}: {wire} was not played"
            assert game.snapshot.plies[before].wire == wire
            assert game.snapshot.plies[before].player == 1
            mine.append(wire)
        outcome = game.snapshot.outcome
        assert outcome is not None and len(mine) >= 3
        if name == "forbans":  # both placements and moves were clicked
            assert {len(wire) for wire in mine} == {1, 2}
        await until(lambda: window.table.banner.isVisible())
        said = with_seat_names(outcome.summary, game.snapshot.seat_name)
        assert said in window.table.banner.text()
        assert window.table.moves.count() == game.snapshot.ply
        summary = window.table.summary  # the game-over summary, whoever won
        assert summary.isVisible() and summary.headline.text() == window.table.banner.text()
        standings = summary.standings.text()
        for seat in outcome.winners:
            assert f"<b>{game.snapshot.seat_name(seat)}</b>: won" in standings, standings
        if outcome.draw:
            assert "draw" in standings
        if name == "discorder":  # its score, seat by seat
            assert f"{outcome.scores[0]} points" in standings
        assert summary.facts.text().startswith(f"{game.snapshot.ply} plies · ")
