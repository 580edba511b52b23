"""Where each board's pointing marks are: mark numbers to widget points and back.

A *mark number* is what a POINT record carries (docs/PROTOCOL.md).  Per game:

* Consensus: the square, 0 … 80 (``engines.consensus_board``);
* Discorder: the move's wire number: a cell 0 … 55, or ``CELLS`` + a peg site;
* Les Forbans: the port number;
* Cognes: a coin's number (below ``COGNES_TABLE``), or a point of the table:
  ``COGNES_TABLE + row * COGNES_GRID + column`` on a grid of ``COGNES_STEP`` table units
  centred on the middle (±4,000 units, beyond the widest table the engine allows), so a
  player can point at where a coin should land.

Each ``*_geometry`` function returns ``(mark_at, mark_point, mark_size)`` for
``BoardWidget.attach_pointing``; a mark number that means nothing on the board maps to None
and is not drawn (a peer may send any number up to 65535).
"""

from __future__ import annotations

import math
from collections.abc import Callable

from PySide6.QtCore import QPointF

from engines.discorder import CELLS, WIDTH
from ui.boards.cognes_canvas import CognesCanvas
from ui.boards.consensus_canvas import ConsensusCanvas
from ui.boards.discorder_canvas import DiscorderCanvas
from ui.boards.forbans_canvas import ForbansCanvas
from ui.boards.forbans_layout import DISC

__all__ = [
    "COGNES_GRID",
    "COGNES_STEP",
    "COGNES_TABLE",
    "Geometry",
    "cognes_geometry",
    "cognes_table_mark",
    "consensus_geometry",
    "discorder_geometry",
    "forbans_geometry",
]

Geometry = tuple[
    Callable[[QPointF], int | None], Callable[[int], QPointF | None], Callable[[], float]
]

COGNES_TABLE = 1024
COGNES_STEP = 32
COGNES_GRID = 250
SQUARES = 81
SITES = CELLS - WIDTH


def consensus_geometry(canvas: ConsensusCanvas) -> Geometry:
    def point(square: int) -> QPointF | None:
        return canvas.square_rect(square).center() if 0 <= square < SQUARES else None

    return canvas.square_at, point, lambda: canvas.square_rect(0).width()


def discorder_geometry(canvas: DiscorderCanvas) -> Geometry:
    def at(pixel: QPointF) -> int | None:
        target = canvas.target_at(pixel)
        if target is None:
            return None
        kind, number = target
        return number if kind == "cell" else CELLS + number

    def point(mark: int) -> QPointF | None:
        if 0 <= mark < CELLS:
            return canvas.cell_rect(mark).center()
        if CELLS <= mark < CELLS + SITES:
            site = mark - CELLS
            low, high = canvas.cell_rect(site).center(), canvas.cell_rect(site + WIDTH).center()
            return (low + high) / 2
        return None

    return at, point, lambda: canvas.cell_rect(0).width()


def forbans_geometry(canvas: ForbansCanvas) -> Geometry:
    def point(port: int) -> QPointF | None:
        return canvas.port_point(port) if 0 <= port < len(canvas.points) else None

    return canvas.port_at, point, lambda: DISC * 2.4 * canvas.scale()


def cognes_table_mark(x: float, y: float) -> int:
    """The mark number of the grid cell holding table point (``x``, ``y``)."""
    half = COGNES_GRID // 2
    column = min(max(math.floor(x / COGNES_STEP) + half, 0), COGNES_GRID - 1)
    row = min(max(math.floor(y / COGNES_STEP) + half, 0), COGNES_GRID - 1)
    return COGNES_TABLE + row * COGNES_GRID + column


def cognes_geometry(canvas: CognesCanvas) -> Geometry:
    def at(pixel: QPointF) -> int | None:
        coin = canvas.coin_at(pixel)
        if coin is not None:
            return coin
        x, y = canvas.to_table(pixel)
        if math.hypot(x, y) > canvas.start_radius + canvas.radius * 3:
            return None  # off the table: the right click stays the board's
        return cognes_table_mark(x, y)

    def point(mark: int) -> QPointF | None:
        if 0 <= mark < len(canvas.centres):
            return canvas.to_pixels(canvas.centres[mark])
        cell = mark - COGNES_TABLE
        if 0 <= cell < COGNES_GRID * COGNES_GRID:
            half = COGNES_GRID // 2
            row, column = divmod(cell, COGNES_GRID)
            x = (column - half) * COGNES_STEP + COGNES_STEP / 2
            y = (row - half) * COGNES_STEP + COGNES_STEP / 2
            return canvas.to_pixels((x, y))
        return None

    return at, point, lambda: canvas.radius * 2 * canvas.scale()
