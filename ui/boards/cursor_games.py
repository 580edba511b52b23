"""Each board's part of the keyboard cursor (``ui.boards.board_cursor``): its spots, what it
highlights, and what Enter on a spot does — always the click handler a mouse click on that
spot reaches, so the keyboard and the mouse build moves by one path.

* Consensus: the 81 squares; Enter is ``click_square`` (``step_clicks``: pick, drop, each
  further choice, the same refusals; Enter on the Haussaire itself is *No kill*, as a click).
* Les Forbans: the ports; Enter is ``click_port``.
* Discorder: the cells and the peg sites between them; Enter is the cell's or the site's click.
* Cognes: the coins.  A flip is aimed, not clicked: Enter on a ringed coin starts aiming it
  toward the middle (the nearest direction the engine offers), Left and Right turn the aim
  to the next offered direction (Page Up and Page Down ten at a time), Enter releases: the
  very ``aim`` calls a drag makes, so the ghost, the foul warning and the refusals are the
  drag's.  Esc drops the aim.

``attach_cursor(board)`` gives a board its cursor (None for a board without spots, the
generic move list).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from PySide6.QtCore import Qt

from engines.cognes_exact import displacements, snap_direction
from engines.discorder import CELLS, WIDTH
from ui.boards import cognes, consensus, discorder, forbans
from ui.boards.base import BoardWidget
from ui.boards.board_cursor import BoardCursor, CursorGame
from ui.boards.cognes import nearest_offered

__all__ = ["AIM_KEYS", "attach_cursor", "turned"]

SITES = CELLS - WIDTH
AIM_KEYS = {
    Qt.Key.Key_Left: 1,
    Qt.Key.Key_Right: -1,
    Qt.Key.Key_PageUp: 10,
    Qt.Key.Key_PageDown: -10,
}
"""How many offered directions a key turns the aim by (positive: counter-clockwise, as the
directions count)."""


def turned(direction: int, offered: Sequence[int], steps: int) -> int:
    """The offered direction ``steps`` away from ``direction`` round the circle."""
    ordered = sorted(offered)
    if not ordered:
        return direction
    index = ordered.index(direction) if direction in ordered else 0
    return ordered[(index + steps) % len(ordered)]


class _NoKeys:
    """What every game but Cognes does with the keys it does not take: nothing."""

    def takes(self, key: Qt.Key) -> bool:
        return False

    def handle(self, key: Qt.Key, spot: int | None) -> None:
        return None


class ConsensusKeys(_NoKeys):
    def __init__(self, board: consensus.Board) -> None:
        self.board = board

    def spots(self) -> Sequence[int]:
        return range(81)

    def highlighted(self) -> Sequence[int]:
        return [choice for choice in self.board.choices if 0 <= choice < 81]

    def active(self) -> bool:
        return self.board.interactive

    def press(self, spot: int) -> None:
        self.board.click_square(spot)


class ForbansKeys(_NoKeys):
    def __init__(self, board: forbans.Board) -> None:
        self.board = board

    def spots(self) -> Sequence[int]:
        return range(len(self.board.canvas.points))

    def highlighted(self) -> Sequence[int]:
        return self.board.choices

    def active(self) -> bool:
        return self.board.interactive

    def press(self, spot: int) -> None:
        self.board.click_port(spot)


class DiscorderKeys(_NoKeys):
    def __init__(self, board: discorder.Board) -> None:
        self.board = board

    def spots(self) -> Sequence[int]:
        return range(CELLS + SITES)

    def highlighted(self) -> Sequence[int]:
        return sorted(self.board.choices)

    def active(self) -> bool:
        return self.board.interactive

    def press(self, spot: int) -> None:
        if spot < CELLS:
            self.board.click_cell(spot)
        else:
            self.board.click_site(spot - CELLS)


class CognesKeys:
    def __init__(self, board: cognes.Board) -> None:
        self.board = board
        self.aiming: tuple[int, int] | None = None
        """The coin being aimed and the direction it points to."""

    def spots(self) -> Sequence[int]:
        return range(len(self.board.canvas.centres))

    def highlighted(self) -> Sequence[int]:
        return self.board.canvas.movable

    def active(self) -> bool:
        return self.board.interactive and self.board.pending_foul is None

    def _still_aiming(self) -> bool:
        """The aim holds while its coin can still be flipped in this position."""
        if self.aiming is not None and (
            not self.active() or self.aiming[0] not in self.board.canvas.movable
        ):
            self.aiming = None
        return self.aiming is not None

    def takes(self, key: Qt.Key) -> bool:
        return self._still_aiming() and (key in AIM_KEYS or key == Qt.Key.Key_Escape)

    def handle(self, key: Qt.Key, spot: int | None) -> None:
        assert self.aiming is not None
        coin, direction = self.aiming
        if key == Qt.Key.Key_Escape:
            self.aiming = None
            self.board.aim(coin, 0, 0, False)
            return
        self._aim(coin, turned(direction, self.board.offered(coin), AIM_KEYS[key]))

    def press(self, spot: int) -> None:
        if self._still_aiming():
            assert self.aiming is not None
            coin, direction = self.aiming
            self.aiming = None
            self.board.aim(coin, *self._vector(coin, direction), True)
            return
        if spot not in self.board.canvas.movable:
            return  # as a drag from a coin that cannot move: nothing
        x, y = self.board.state.centres[spot]
        towards = nearest_offered(snap_direction(round(-x), round(-y)), self.board.offered(spot))
        offered = self.board.offered(spot)
        if towards is None and offered:
            towards = offered[0]
        if towards is not None:
            self._aim(spot, towards)

    def _aim(self, coin: int, direction: int) -> None:
        self.aiming = (coin, direction)
        self.board.aim(coin, *self._vector(coin, direction), False)

    def _vector(self, coin: int, direction: int) -> tuple[int, int]:
        """A drag's vector along ``direction``, long enough that it snaps back to it."""
        vx, vy = displacements(2 * self.board.state.coin_radius)[direction]
        length = math.hypot(vx, vy) or 1.0
        return round(vx / length * 100_000), round(vy / length * 100_000)


def _game_of(board: BoardWidget) -> CursorGame | None:
    if isinstance(board, consensus.Board):
        return ConsensusKeys(board)
    if isinstance(board, forbans.Board):
        return ForbansKeys(board)
    if isinstance(board, discorder.Board):
        return DiscorderKeys(board)
    if isinstance(board, cognes.Board):
        return CognesKeys(board)
    return None


def attach_cursor(board: BoardWidget) -> BoardCursor | None:
    """A keyboard cursor on ``board``'s canvas, on the spots its pointing marks use."""
    game = _game_of(board)
    pointing = board.pointing
    if game is None or pointing is None:
        return None

    def point(start: int, end: int) -> bool:
        if pointing is None or not pointing.enabled:
            return False
        pointing.gesture.emit(start, end)
        return True

    return BoardCursor(board, pointing.canvas, pointing.mark_point, pointing.mark_size, game, point)
