"""The Cognes board widget: aiming by dragging, the ghost of the landing, fouls confirmed.

Every move the board emits is checked against ``engine.legal_moves``; the board never
decides legality itself: it snaps with the engine's ``snap_direction`` and walks
``engine.next_choices``.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from PySide6.QtCore import QSize, Qt

from client.sessions.local_game import LocalGame
from engines.cognes import ENGINE, legal_flips
from engines.cognes_exact import displacements
from tests.ui.board_input import drag_coin
from tests.ui.test_window import open_window, qt_trio, until
from ui.boards.cognes import Board, nearest_offered
from ui.i18n import install_language

pytestmark = [pytest.mark.gui, pytest.mark.filterwarnings("error")]

DOWN = 540  # 270°: from coin 0 at twelve o'clock straight at the middle


def legal_wires(state: Any) -> list[tuple[int, ...]]:
    return [tuple(ENGINE.move_to_wire(move)) for move in ENGINE.legal_moves(state)]


@pytest.fixture
def board(qtbot: Any) -> Board:
    widget = Board()
    qtbot.addWidget(widget)
    widget.resize(700, 760)
    widget.show()
    return widget


def show(
    board: Board, state: Any, seat: int = 1, interactive: bool = True, last: Any = None
) -> None:
    board.show_position(ENGINE, state, last_move=last, my_seat=seat, interactive=interactive)


def test_dragging_toward_the_middle_flips_the_coin(qtbot: Any, board: Board) -> None:
    state = ENGINE.initial_state({"seats": 2})
    sent: list[tuple[int, ...]] = []
    board.moveChosen.connect(sent.append)
    show(board, state)
    assert set(board.canvas.movable) == {wire[0] for wire in legal_wires(state)}
    drag_coin(qtbot, board, 0, DOWN)
    assert sent == [(0, DOWN)]
    assert sent[0] in legal_wires(state)


def test_the_ghost_shows_the_landing_and_its_gain_while_aiming(qtbot: Any, board: Board) -> None:
    state = ENGINE.initial_state({"seats": 2})
    show(board, state)
    board.aim(0, 0, -500, released=False)
    ghost = board.canvas.ghost
    assert ghost is not None and ghost.allowed and not ghost.foul
    assert ghost.direction == DOWN and ghost.landing == (0, 1750 - 240)
    assert ghost.gain == 240
    assert "24.0 mm closer" in board.prompt.text()


def test_a_drag_away_from_the_middle_or_a_click_sends_nothing(qtbot: Any, board: Board) -> None:
    state = ENGINE.initial_state({"seats": 2})
    sent: list[tuple[int, ...]] = []
    board.moveChosen.connect(sent.append)
    show(board, state)
    drag_coin(qtbot, board, 0, 180, length=40)  # straight up, away from the middle
    assert sent == [] and "cannot be flipped that way" in board.prompt.text()
    qtbot.mouseClick(board.canvas, Qt.MouseButton.LeftButton, pos=board.canvas.coin_center(0))
    assert sent == [] and board.canvas.ghost is None


def test_a_rough_drag_snaps_to_the_nearest_offered_direction(board: Board) -> None:
    offered = (500, 510, 600)
    assert nearest_offered(505, offered) in (500, 510)
    assert nearest_offered(590, offered) == 600
    assert nearest_offered(100, offered) is None  # too far from anything offered
    assert nearest_offered(719, (5,)) == 5  # around the circle


def foul_position() -> Any:
    """Coin 1 moved just below coin 0's straight-down landing: that flip touches it."""
    state = ENGINE.initial_state({"seats": 3})
    centres = list(state.centres)
    centres[1] = (0, 1750 - 240 - 200)
    return replace(state, centres=tuple(centres))


def test_a_foul_asks_for_confirmation(qtbot: Any, board: Board) -> None:
    state = foul_position()
    sent: list[tuple[int, ...]] = []
    board.moveChosen.connect(sent.append)
    show(board, state)
    drag_coin(qtbot, board, 0, DOWN)
    assert sent == [] and board.confirm.isVisible()
    assert board.canvas.ghost is not None and board.canvas.ghost.touched == (1,)
    assert "touching coin 1" in board.confirm_text.text()
    qtbot.mouseClick(board.cancel_foul, Qt.MouseButton.LeftButton)
    assert sent == [] and not board.confirm.isVisible() and board.canvas.ghost is None
    drag_coin(qtbot, board, 0, DOWN)
    qtbot.mouseClick(board.play_foul, Qt.MouseButton.LeftButton)
    assert sent == [(0, DOWN)] and sent[0] in legal_wires(state)
    assert ENGINE.format_move(state, ENGINE.move_from_wire(list(sent[0]))).endswith("!")


def test_frozen_coins_do_not_move_and_players_out_are_shown(qtbot: Any, board: Board) -> None:
    state = ENGINE.apply(foul_position(), ENGINE.move_from_wire([0, DOWN]))  # seat 1 fouls
    sent: list[tuple[int, ...]] = []
    board.moveChosen.connect(sent.append)
    show(board, state, seat=2, last=(0, DOWN))
    assert state.frozen[0] and state.frozen[1]
    assert 0 not in board.canvas.movable and 1 not in board.canvas.movable
    drag_coin(qtbot, board, 1, DOWN)
    assert sent == []
    assert "<s>seat 1</s> out" in board.players.text()
    assert board.seat_notes(ENGINE, state) == {1: "out"}
    assert board.canvas.last_coin == 0 and board.canvas.last_from == (0, 1750)
    assert board.status_note(ENGINE, state) == "5 coins free, 2 frozen"


def test_nothing_is_aimed_when_it_is_not_my_turn(qtbot: Any, board: Board) -> None:
    sent: list[tuple[int, ...]] = []
    board.moveChosen.connect(sent.append)
    show(board, ENGINE.initial_state({"seats": 2}), interactive=False)
    drag_coin(qtbot, board, 0, DOWN)
    assert sent == [] and board.canvas.ghost is None and board.prompt.text() == ""


@pytest.mark.parametrize("size", [QSize(300, 300), QSize(1200, 500), QSize(500, 1100)])
def test_the_table_resizes_cleanly(size: QSize, board: Board) -> None:
    board.resize(size)
    board.layout().activate()
    state = ENGINE.initial_state({"seats": 2, "coins": 9, "coin_radius": 200, "start_radius": 2000})
    show(board, state)
    canvas = board.canvas
    s = canvas.scale()
    for coin in range(len(state.centres)):
        centre = canvas.coin_center(coin)
        assert canvas.coin_at(centre.toPointF()) == coin
        assert centre.x() - 200 * s >= 0 and centre.x() + 200 * s <= canvas.width()
        assert centre.y() - 200 * s >= 0 and centre.y() + 200 * s <= canvas.height()
    assert 2 * 2200 * s <= min(canvas.width(), canvas.height()) + 1
    assert not board.grab().toImage().isNull()


def test_the_flip_length_is_the_engines(board: Board) -> None:
    state = ENGINE.initial_state({"seats": 2, "coin_radius": 150, "start_radius": 1900})
    show(board, state)
    board.aim(0, 0, -500, released=False)
    ghost = board.canvas.ghost
    assert ghost is not None
    assert ghost.landing == (0, 1900 + displacements(300)[DOWN][1])


@qt_trio
async def test_a_local_game_is_played_by_dragging(qtbot: Any) -> None:
    async with open_window(qtbot) as window:
        window.resize(1300, 900)
        game = LocalGame(ENGINE, {"seats": 2}, player_name="Ana", bot_kind="random", bot_delay=0)
        window.open_session(game)
        board = window.table.board
        assert isinstance(board, Board)
        for _ in range(3):
            await until(lambda: game.snapshot.my_turn or game.snapshot.outcome is not None)
            if game.snapshot.outcome is not None:
                break
            state = game.snapshot.state
            flip = legal_flips(state)[len(legal_flips(state)) // 2]
            drag_coin(qtbot, board, flip.coin, flip.direction, length=220)
            assert game.snapshot.plies[-1].player == 1
            assert game.snapshot.plies[-1].wire == (flip.coin, flip.direction)


def test_the_coin_numbers_are_explained_in_a_tooltip(qapp: Any) -> None:
    board = Board()
    assert "number is its name" in board.canvas.toolTip()
    install_language("fr")
    try:
        assert "numéro d’une pièce est son nom" in Board().canvas.toolTip()
    finally:
        install_language("en")
