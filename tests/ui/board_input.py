"""Real mouse input on the game boards, shared by the board tests and the full-game tests.

Each helper turns one wire move (or one step of it) into the clicks or drag a person makes;
none calls the board's own methods, so a test using them goes through the canvas's mouse
handlers exactly as a player does.
"""

from __future__ import annotations

import math
from typing import Any

from PySide6.QtCore import QPoint, Qt

from engines.discorder import CELLS


def click_port(
    qtbot: Any, board: Any, number: int, button: Any = Qt.MouseButton.LeftButton
) -> None:
    """Les Forbans: a click on port ``number``."""
    qtbot.mouseClick(board.canvas, button, pos=board.canvas.port_center(number))


def click_discorder(qtbot: Any, board: Any, number: int) -> None:
    """Discorder: a click on the cell (``number < CELLS``) or the peg site of a wire number."""
    canvas = board.canvas
    point = canvas.cell_center(number) if number < CELLS else canvas.site_center(number - CELLS)
    qtbot.mouseClick(canvas, Qt.MouseButton.LeftButton, pos=point)


def drag_coin(qtbot: Any, board: Any, coin: int, direction: int, length: float = 260.0) -> None:
    """Cognes: press on ``coin``, move ``length`` pixels along ``direction``, release."""
    canvas = board.canvas
    start = canvas.coin_center(coin)
    angle = math.radians(direction / 2)
    # The aim runs from the coin's exact centre, so the end is placed from there: only its
    # own rounding (under a pixel) is then off the direction, at any board size.
    exact = canvas.to_pixels(board.state.centres[coin])
    end = QPoint(
        round(exact.x() + math.cos(angle) * length), round(exact.y() - math.sin(angle) * length)
    )
    qtbot.mousePress(canvas, Qt.MouseButton.LeftButton, pos=start)
    qtbot.mouseMove(canvas, pos=(start + end) / 2)
    qtbot.mouseMove(canvas, pos=end)
    qtbot.mouseRelease(canvas, Qt.MouseButton.LeftButton, pos=end)


def play_wire(qtbot: Any, game: str, board: Any, wire: tuple[int, ...]) -> None:
    """Make the whole move ``wire`` on ``board`` by mouse, as a player of ``game`` would.

    A Cognes foul is confirmed with the board's own button: the chosen move is the foul.
    """
    if game == "forbans":
        for port in wire:
            click_port(qtbot, board, port)
    elif game == "discorder":
        (number,) = wire
        click_discorder(qtbot, board, number)
    elif game == "cognes":
        coin, direction = wire
        drag_coin(qtbot, board, coin, direction, length=220)
        if board.confirm.isVisible():
            qtbot.mouseClick(board.play_foul, Qt.MouseButton.LeftButton)
    else:
        raise ValueError(f"no mouse input for {game}")
