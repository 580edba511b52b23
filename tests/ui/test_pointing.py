"""Pointing on the boards: gestures, marks in the author's colour, fading, clearing, and the
way a networked table carries them to another player's board.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import qtrio
import trio
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QColor

from client.node.hosting import HostConfig
from client.node.joining import JoinConfig
from client.node.peer_node import NodeConfig
from client.runtime.peer import Peer
from client.sessions.local_game import LocalGame
from client.sessions.net_session import NetSession
from client.sessions.session_api import Pointed
from engines import find_engine
from engines.consensus_board import parse_square
from engines.discorder import CELLS
from net.identity import load_profile_identity
from net.logfile import read_log
from net.records import open_record
from ui.boards import make_board
from ui.boards.base import BoardWidget
from ui.boards.mark_geometry import cognes_table_mark
from ui.boards.pointing import FADE_AFTER, FADE_FOR, ShownMarks
from ui.pointing import toggled
from ui.screens.table import TableScreen
from ui.theme import seat_colour

pytestmark = [pytest.mark.gui, pytest.mark.filterwarnings("error")]
qt_trio = pytest.mark.trio(run=qtrio.run)

GAMES = {"consensus": {"seats": 4}, "discorder": {}, "forbans": {"seats": 2}, "cognes": {}}


def sq(name: str) -> int:
    square = parse_square(name)
    assert square is not None
    return square


def shown_board(qtbot: Any, game: str) -> tuple[BoardWidget, Any]:
    engine = find_engine(game)
    board = make_board(engine, game)
    qtbot.addWidget(board)
    board.resize(700, 700)
    board.show()
    state = engine.initial_state(GAMES[game])
    board.show_position(engine, state, last_move=None, my_seat=1, interactive=False)
    return board, state


def marks_of(game: str, state: Any) -> list[int]:
    if game == "consensus":
        return list(range(81))
    if game == "discorder":
        return list(range(CELLS + CELLS - 8))
    if game == "forbans":
        return list(range(len(state.board)))
    # Coins, and points of the table away from the coins (which start on a ring).
    return [*range(len(state.centres)), cognes_table_mark(0, 0), cognes_table_mark(500, -700)]


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_board_finds_each_mark_where_it_draws_it(qtbot: Any, game: str) -> None:
    board, state = shown_board(qtbot, game)
    overlay = board.pointing
    assert overlay is not None and overlay.geometry() == overlay.canvas.rect()
    for mark in marks_of(game, state):
        point = overlay.mark_point(mark)
        assert point is not None, mark
        assert overlay.mark_at(point) == mark, (game, mark)
    assert overlay.mark_point(65535) is None  # a number the board has no place for


def right_drag(qtbot: Any, board: BoardWidget, start: QPointF, end: QPointF) -> None:
    assert board.pointing is not None
    canvas = board.pointing.canvas
    a, b = start.toPoint(), end.toPoint()
    qtbot.mousePress(canvas, Qt.MouseButton.RightButton, pos=a)
    qtbot.mouseMove(canvas, pos=(a + b) / 2)
    qtbot.mouseRelease(canvas, Qt.MouseButton.RightButton, pos=b)


def centre(board: BoardWidget, mark: int) -> QPointF:
    assert board.pointing is not None
    point = board.pointing.mark_point(mark)
    assert point is not None
    return point


def test_toggling_adds_removes_and_drops_the_oldest() -> None:
    arrows, squares = toggled((), (), 3, 9)
    assert (arrows, squares) == (((3, 9),), ())
    arrows, squares = toggled(arrows, squares, 4, 4)
    assert (arrows, squares) == (((3, 9),), (4,))
    assert toggled(arrows, squares, 3, 9) == ((), (4,))
    assert toggled(arrows, squares, 4, 4) == (((3, 9),), ())
    many = tuple(range(64))
    assert toggled((), many, 99, 99)[1] == (*range(1, 64), 99)


def table_with_local_game(qtbot: Any) -> tuple[TableScreen, LocalGame, list[Pointed]]:
    game = LocalGame(find_engine("consensus"), {"seats": 4}, my_seat=1, bot_delay=0)
    seen: list[Pointed] = []
    game.subscribe(lambda event: seen.append(event) if isinstance(event, Pointed) else None)
    screen = TableScreen()
    qtbot.addWidget(screen)
    screen.resize(1200, 800)
    screen.show()
    screen.set_session(game)
    return screen, game, seen


def test_gestures_on_the_table_point_toggle_and_clear(qtbot: Any) -> None:
    screen, _game, seen = table_with_local_game(qtbot)
    board, pointing = screen.board, screen.pointing
    assert board is not None and pointing is not None and board.pointing is not None
    assert board.pointing.enabled
    qtbot.waitUntil(pointing.toolbar.isVisible)
    right_drag(qtbot, board, centre(board, sq("a1")), centre(board, sq("e5")))
    right_drag(qtbot, board, centre(board, sq("c3")), centre(board, sq("c3")))
    assert seen[-1] == Pointed(0, 1, "You", ((sq("a1"), sq("e5")),), (sq("c3"),))
    (shown,) = board.pointing.shown
    assert shown.marks == seen[-1]
    right_drag(qtbot, board, centre(board, sq("c3")), centre(board, sq("c3")))
    assert seen[-1].squares == () and seen[-1].arrows == ((sq("a1"), sq("e5")),)
    qtbot.mouseClick(pointing.clear_button, Qt.MouseButton.LeftButton)
    assert seen[-1].arrows == seen[-1].squares == ()
    assert board.pointing.shown == ()


def test_marks_clear_on_the_next_ply_and_right_click_still_steps_back(qtbot: Any) -> None:
    screen, game, seen = table_with_local_game(qtbot)
    board = screen.board
    assert board is not None and board.pointing is not None
    right_drag(qtbot, board, centre(board, sq("b1")), centre(board, sq("b1")))
    assert len(board.pointing.shown) == 1
    canvas = board.canvas  # type: ignore[attr-defined]
    qtbot.mouseClick(canvas, Qt.MouseButton.LeftButton, pos=canvas.square_center(sq("c3")))
    assert board.partial == [sq("c3")]  # type: ignore[attr-defined]
    # Building a move, a right click steps back as it always did, and points at nothing.
    right_drag(qtbot, board, centre(board, sq("d4")), centre(board, sq("d4")))
    assert board.partial == []  # type: ignore[attr-defined]
    assert len(seen) == 1
    qtbot.mouseClick(canvas, Qt.MouseButton.LeftButton, pos=canvas.square_center(sq("c3")))
    target = board.choices[0]  # type: ignore[attr-defined]
    qtbot.mouseClick(canvas, Qt.MouseButton.LeftButton, pos=canvas.square_center(target))
    assert game.snapshot.ply == 1
    assert board.pointing.shown == ()
    # A POINT about the position before the move arrives late: it is not drawn.
    game._emit(Pointed(0, 2, "Bot 2", ((1, 2),), ()))
    assert board.pointing.shown == ()


def test_pointing_mode_points_with_the_left_button_and_moves_nothing(qtbot: Any) -> None:
    screen, game, seen = table_with_local_game(qtbot)
    board, pointing = screen.board, screen.pointing
    assert board is not None and pointing is not None and board.pointing is not None
    qtbot.mouseClick(pointing.mode_button, Qt.MouseButton.LeftButton)
    canvas = board.pointing.canvas
    a, b = centre(board, sq("b2")).toPoint(), centre(board, sq("b4")).toPoint()
    qtbot.mousePress(canvas, Qt.MouseButton.LeftButton, pos=a)
    qtbot.mouseMove(canvas, pos=b)
    qtbot.mouseRelease(canvas, Qt.MouseButton.LeftButton, pos=b)
    assert seen[-1].arrows == ((sq("b2"), sq("b4")),)
    assert board.partial == [] and game.snapshot.ply == 0  # type: ignore[attr-defined]


def test_marks_are_drawn_in_the_author_colour_and_fade(qtbot: Any) -> None:
    screen, game, _seen = table_with_local_game(qtbot)
    board, pointing = screen.board, screen.pointing
    assert board is not None and pointing is not None and board.pointing is not None
    now = [1000.0]
    pointing.clock = board.pointing.clock = lambda: now[0]
    qtbot.waitUntil(pointing.toolbar.isVisible)  # the board has its final size
    before = board.grab().toImage()
    game._emit(Pointed(0, 3, "Bot 3", (), (sq("e5"),)))
    game._emit(Pointed(0, 1, "You", ((sq("a1"), sq("i9")),), ()))
    drawn = board.grab().toImage()
    assert before != drawn
    assert pointing.mine() == (((sq("a1"), sq("i9")),), ())
    # Seat 3's ring passes just inside the square's edge; look for its green there.
    e5 = centre(board, sq("e5"))
    size = board.pointing.mark_size()
    ring_x = int(e5.x() + size * 0.46)
    offset = board.pointing.mapTo(board, QPoint(0, 0))
    colours = {
        QColor(drawn.pixel(ring_x + dx + offset.x(), int(e5.y()) + offset.y())).name()
        for dx in range(-2, 3)
    }
    green = seat_colour(3)
    assert any(
        abs(QColor(c).green() - green.green()) < 40 and QColor(c).red() < 150 for c in colours
    ), colours
    now[0] += FADE_AFTER + FADE_FOR + 0.1
    board.pointing._tick()
    assert board.pointing.shown == ()
    assert pointing.mine() == ((), ())
    assert board.grab().toImage() == before


def test_replayed_marks_never_fade(qtbot: Any) -> None:
    board, _state = shown_board(qtbot, "discorder")
    assert board.pointing is not None
    board.pointing.clock = lambda: 10**9
    board.show_marks([ShownMarks(Pointed(3, 2, "Bob", ((0, 9),), (CELLS + 1,)))])
    board.pointing._tick()
    assert len(board.pointing.shown) == 1
    assert not board.pointing.timer.isActive()


# --- two networked sessions on loopback ---------------------------------------------------
async def until(predicate: Any, timeout: float = 20.0) -> None:
    with trio.fail_after(timeout):
        while not predicate():
            await trio.sleep(0.01)


@qt_trio
async def test_pointing_on_one_board_reaches_another_players_board(
    qtbot: Any, tmp_path: Path
) -> None:
    engine = find_engine("discorder")
    host = Peer(
        load_profile_identity("ann", tmp_path),
        HostConfig(engine, {}, "Ann", auto_start=False),
        NodeConfig(profile="ann", home=tmp_path, bot_delay=0.0, stay=True),
    )
    ann = NetSession(host)
    screens = []
    for _ in range(2):
        screen = TableScreen()
        qtbot.addWidget(screen)
        screen.resize(1100, 750)
        screen.show()
        screens.append(screen)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(ann.serve)
        await until(lambda: bool(ann.lobby.view.invite))
        joiner = Peer(
            load_profile_identity("bob", tmp_path),
            JoinConfig(("127.0.0.1", host.port), "Bob"),
            NodeConfig(profile="bob", home=tmp_path, bot_delay=0.0, stay=True),
        )
        bob = NetSession(joiner)
        nursery.start_soon(bob.serve)
        await until(lambda: len(ann.lobby.view.seats) == 2 and ann.lobby.view.seats[1].name != "")
        bob.set_ready(True)
        ann.set_ready(True)
        await until(lambda: ann.lobby.view.seats[1].ready)
        ann.start()
        await until(lambda: ann.started and bob.started)
        await until(lambda: host.table is not None and host.table.final_ply >= 0)
        await until(lambda: joiner.table is not None and joiner.table.final_ply >= 0)
        screens[0].set_session(ann)
        screens[1].set_session(bob)
        sender, receiver = screens[0].board, screens[1].board
        assert sender is not None and receiver is not None
        assert sender.pointing is not None and receiver.pointing is not None
        right_drag(qtbot, sender, centre(sender, 3), centre(sender, 17))
        right_drag(qtbot, sender, centre(sender, CELLS + 2), centre(sender, CELLS + 2))
        await until(lambda: sum(len(s.marks.squares) for s in receiver.pointing.shown) == 1)
        (shown,) = receiver.pointing.shown
        assert shown.marks.seat == 1 and "(Ann)" in shown.marks.author
        assert shown.marks.arrows == ((3, 17),) and shown.marks.squares == (CELLS + 2,)
        # Bob answers with his own marks, in his own colour, beside Ann's.
        right_drag(qtbot, receiver, centre(receiver, 20), centre(receiver, 20))
        await until(lambda: len(sender.pointing.shown) == 2)
        assert {s.marks.seat for s in sender.pointing.shown} == {1, 2}
        ann.leave()
        bob.leave()
    # Both POINT records of Ann are in Bob's game file, signed by Ann.
    (log,) = (tmp_path / "profiles" / "bob" / "games").glob("*.palabre-log")
    kinds = [open_record(envelope).kind.name for envelope in read_log(log).records]
    assert kinds.count("POINT") == 3
