"""The Les Forbans board widget: placements and moves by clicks on the world map.

Every move the board emits is checked against ``engine.legal_moves``; the board never
decides legality itself, it walks ``engine.next_choices``.
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

import pytest
from PySide6.QtCore import QEvent, QPointF, QSize, Qt
from PySide6.QtGui import QKeyEvent

from client.sessions.local_game import LocalGame
from engines.forbans import ENGINE, PLACEMENTS
from tests.ui.board_input import click_port
from tests.ui.test_window import open_window, qt_trio, until
from ui.boards.forbans import Board
from ui.boards.forbans_layout import SEPARATION, positions
from ui.theme import HIGHLIGHT

pytestmark = [pytest.mark.gui, pytest.mark.filterwarnings("error")]

PORTS = ENGINE.map


def port(name: str) -> int:
    number = PORTS.port_named(name)
    assert number is not None
    return number


def movement_state(**stacks: int) -> Any:
    """Bleu to move (ply 13) with the given stacks: ``+n`` Bleu, ``-n`` Vert."""
    board = [0] * len(PORTS.ports)
    for name, count in stacks.items():
        board[port(name)] = count
    start = ENGINE.initial_state({"seats": 2})
    return replace(start, board=tuple(board), ply=PLACEMENTS + 1, history=(1,))


# Bleu's pair on Maracaïbo has Vert on Carthagène beside it and one free port: Curaçao.
THREAT = {
    "maracaibo": 2,
    "cap_horn": 2,
    "guam": 2,
    "carthagene": -2,
    "new_york": -2,
    "macao": -2,
}


def legal_wires(state: Any) -> list[tuple[int, ...]]:
    return [tuple(ENGINE.move_to_wire(move)) for move in ENGINE.legal_moves(state)]


@pytest.fixture
def board(qtbot: Any) -> Board:
    widget = Board()
    qtbot.addWidget(widget)
    widget.resize(900, 560)
    widget.show()
    return widget


def click(
    qtbot: Any, board: Board, name: str | int, button: Any = Qt.MouseButton.LeftButton
) -> None:
    click_port(qtbot, board, port(name) if isinstance(name, str) else name, button)


def show(
    board: Board, state: Any, seat: int = 1, interactive: bool = True, last: Any = None
) -> None:
    board.show_position(ENGINE, state, last_move=last, my_seat=seat, interactive=interactive)


def test_a_placement_is_one_click_on_an_offered_port(qtbot: Any, board: Board) -> None:
    state = ENGINE.initial_state({"seats": 2})
    state = ENGINE.apply(state, ENGINE.move_from_wire([port("tortue")]))  # a Vert piece
    state = ENGINE.apply(state, ENGINE.move_from_wire([port("lisbonne")]))  # a Bleu piece
    sent: list[tuple[int, ...]] = []
    board.moveChosen.connect(sent.append)
    show(board, state)
    assert set(board.canvas.movable) == {wire[0] for wire in legal_wires(state)}
    assert "you place a Vert piece" in board.prompt.text()
    click(qtbot, board, "lisbonne")  # Bleu stands there: a Vert piece may not go
    assert sent == []
    click(qtbot, board, "tortue")
    assert sent == [(port("tortue"),)]
    assert sent[0] in legal_wires(state)


def test_hovering_an_offered_port_shows_the_piece_to_place(qtbot: Any, board: Board) -> None:
    show(board, ENGINE.initial_state({"seats": 2}))
    qtbot.mouseMove(board.canvas, board.canvas.port_center(port("nassau")))
    assert board.canvas.ghost == (port("nassau"), 2)  # Bleu places a Vert piece first
    assert "Nassau" in board.canvas.toolTip()


def test_a_move_is_a_stack_then_a_neighbour(qtbot: Any, board: Board) -> None:
    state = movement_state(**THREAT)
    sent: list[tuple[int, ...]] = []
    board.moveChosen.connect(sent.append)
    show(board, state)
    assert set(board.canvas.movable) == {wire[0] for wire in legal_wires(state)}
    click(qtbot, board, "new_york")  # a Vert stack: not mine
    assert board.partial == [] and sent == []
    click(qtbot, board, "maracaibo")
    assert board.canvas.selected == port("maracaibo")
    assert board.canvas.targets == (port("curacao"),)  # Carthagène holds Vert
    click(qtbot, board, "carthagene")  # not offered: said why, the selection is kept
    assert board.partial == [port("maracaibo")] and sent == []
    click(qtbot, board, "guam")  # another of my stacks: select it instead
    assert board.canvas.selected == port("guam")
    click(qtbot, board, "acapulco")  # across the Pacific
    assert sent == [(port("guam"), port("acapulco"))]
    assert all(wire in legal_wires(state) for wire in sent)


def test_escape_and_right_click_step_back(qtbot: Any, board: Board) -> None:
    show(board, movement_state(**THREAT))
    click(qtbot, board, "cap_horn")
    assert board.partial == [port("cap_horn")]
    escape = QKeyEvent(QEvent.Type.KeyPress, Qt.Key.Key_Escape, Qt.KeyboardModifier.NoModifier)
    board.keyPressEvent(escape)
    assert board.partial == [] and board.canvas.targets == ()
    click(qtbot, board, "cap_horn")
    click(qtbot, board, "juan_fernandez", Qt.MouseButton.RightButton)
    assert board.partial == []


def test_nothing_is_built_when_it_is_not_my_turn(qtbot: Any, board: Board) -> None:
    sent: list[tuple[int, ...]] = []
    board.moveChosen.connect(sent.append)
    show(board, movement_state(**THREAT), interactive=False)
    click(qtbot, board, "cap_horn")
    click(qtbot, board, "buenos_aires")
    assert sent == [] and board.partial == [] and board.prompt.text() == ""


def test_a_group_with_one_free_port_is_marked(board: Board) -> None:
    state = movement_state(**THREAT)
    show(board, state)
    assert board.canvas.threatened == (port("maracaibo"),)
    assert board.canvas.last_liberties == (port("curacao"),)
    assert board.status_note(ENGINE, state) == "Bleu in danger (one free port)"
    safe = movement_state(**{**THREAT, "carthagene": 0, "portobelo": -2})
    show(board, safe)
    assert board.canvas.threatened == () and board.canvas.last_liberties == ()


def highlight_pixels(board: Board) -> int:
    image = board.canvas.grab().toImage()
    return sum(
        1
        for y in range(0, image.height(), 2)
        for x in range(0, image.width(), 2)
        if image.pixelColor(x, y).name() == HIGHLIGHT
    )


def test_the_last_move_is_highlighted(board: Board) -> None:
    state = movement_state(**THREAT)
    show(board, state)
    assert highlight_pixels(board) == 0
    last = (port("juan_fernandez"), port("cap_horn"))
    show(board, state, last=last)
    assert board.canvas.last == last
    assert highlight_pixels(board) > 100


def test_pacific_routes_leave_one_edge_and_enter_the_other(board: Board) -> None:
    canvas = board.canvas
    rect = canvas.map_rect()
    crossings = [route for route in PORTS.routes if route.pacific]
    assert {frozenset((r.a, r.b)) for r in crossings} == {
        frozenset((port("acapulco"), port("guam"))),
        frozenset((port("marquises"), port("salomon"))),
    }
    for route in crossings:
        first, second = canvas.route_segments(route.a, route.b, route.pacific)
        # Each segment starts at its port and runs off the map on the side away from it.
        assert first.p1() == canvas.port_point(route.a)
        assert second.p1() == canvas.port_point(route.b)
        west = min(route.a, route.b, key=lambda p: canvas.port_point(p).x())
        west_segment = first if west == route.a else second
        east_segment = second if west == route.a else first
        assert west_segment.p2().x() < rect.left() and east_segment.p2().x() > rect.right()
    plain = PORTS.route_between(port("tortue"), port("nassau"))
    assert plain is not None and not plain.pacific
    assert len(canvas.route_segments(plain.a, plain.b, plain.pacific)) == 1


def test_crowded_ports_are_nudged_apart_only_a_little() -> None:
    points = positions()
    assert len(points) == len(PORTS.ports)
    for a in range(len(points)):
        for b in range(a + 1, len(points)):
            assert math.dist(points[a], points[b]) >= SEPARATION - 1e-6
    for number, place in enumerate(PORTS.ports):
        true = (place.lon / 100 * math.cos(math.radians(55)), place.lat / 100)
        assert math.dist(true, points[number]) < 6.0, place.id  # about 6° at most


@pytest.mark.parametrize("size", [QSize(420, 300), QSize(1400, 500), QSize(600, 1100)])
def test_the_map_resizes_cleanly(size: QSize, board: Board) -> None:
    board.resize(size)
    board.layout().activate()
    show(board, movement_state(**THREAT))
    canvas = board.canvas
    rect = canvas.map_rect()
    assert canvas.rect().toRectF().contains(rect)
    assert max(rect.width() / canvas.width(), rect.height() / canvas.height()) > 0.95
    for number in range(len(PORTS.ports)):
        point = canvas.port_point(number)
        assert rect.contains(point)
        assert canvas.port_at(point) == number
    labels = list(canvas.label_rects().values())
    assert len(labels) > len(PORTS.ports) // 2
    for index, label in enumerate(labels):
        assert rect.contains(label)
        assert not any(label.intersects(other) for other in labels[index + 1 :])
    assert canvas.port_at(QPointF(rect.left() + 2, rect.top() + 2)) is None
    assert not board.grab().toImage().isNull()


def test_team_games_show_the_camps(board: Board) -> None:
    state = ENGINE.initial_state({"seats": 5})
    show(board, state, seat=4)
    assert board.canvas.legend == ("Bleu: seats 1, 3, 5 · Vert: seats 2, 4", "You play Vert")
    notes = board.seat_notes(ENGINE, state)
    assert notes == {1: "camp Bleu", 2: "camp Vert", 3: "camp Bleu", 4: "camp Vert", 5: "camp Bleu"}
    assert board.status_note(ENGINE, state) == (
        "Setup: 0 of 12 pieces placed; Bleu places a Vert piece"
    )


@qt_trio
async def test_a_local_game_is_played_through_the_map(qtbot: Any) -> None:
    async with open_window(qtbot) as window:
        game = LocalGame(ENGINE, {"seats": 2}, player_name="Ana", bot_kind="random", bot_delay=0)
        window.open_session(game)
        board = window.table.board
        assert isinstance(board, Board)
        assert "camp Bleu" in window.table.players.item(0).text()
        while game.snapshot.ply < PLACEMENTS + 4 and game.snapshot.outcome is None:
            await until(lambda: game.snapshot.my_turn or game.snapshot.outcome is not None)
            if game.snapshot.outcome is not None:
                break
            state = game.snapshot.state
            wire = legal_wires(state)[-1]
            for choice in wire:
                click(qtbot, board, choice)
            assert game.snapshot.plies[-1].wire == wire
            assert game.snapshot.plies[-1].player == 1
        kinds = {len(ply.wire) for ply in game.snapshot.plies if ply.player == 1}
        assert kinds == {1, 2} or game.snapshot.outcome is not None


def test_a_click_that_is_not_allowed_says_why_and_keeps_the_selection(
    qtbot: Any, board: Board
) -> None:
    state = movement_state(**THREAT)
    sent: list[tuple[int, ...]] = []
    board.moveChosen.connect(sent.append)
    show(board, state)
    click(qtbot, board, "new_york")
    assert board.prompt.text() == "The stack on New York is Vert's, not yours."
    click(qtbot, board, "acapulco")
    assert board.prompt.text() == "Acapulco holds none of your pieces."
    click(qtbot, board, "maracaibo")
    assert board.prompt.text().startswith("From Maracaïbo")
    click(qtbot, board, "carthagene")
    assert board.partial == [port("maracaibo")] and sent == []
    assert board.prompt.text().startswith(
        "The stack on Maracaïbo cannot reach Carthagène: only a ringed port one route away."
    )
    assert board.canvas.selected == port("maracaibo")
    assert board.canvas.targets == (port("curacao"),)
    click(qtbot, board, "curacao")  # the refusal goes with the next choice
    assert sent == [(port("maracaibo"), port("curacao"))]
    assert "cannot" not in board.prompt.text()
