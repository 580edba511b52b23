"""Small Discorder diagrams for the rules window, checked with the engine.

``discorder_figure`` builds a position from a picture of the board (rows 7 to 1, ``J``
Jaune, ``N`` Noir, ``.`` empty) and peg sites (``a3|4``), asks the engine for its runs
(``run_views``) and checks their statuses against what the caption says; with
``show_pegs`` it marks the sites where the engine allows a peg.  The drawing is the table's
own ``DiscorderCanvas`` without the supply tray, so runs, pegs and tiles look as in a game.
"""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import QSize
from PySide6.QtGui import QPainter

from engines.discorder import CELLS, ENGINE, HEIGHT, PEGS, SITES, TILES_PER_PLAYER, WIDTH
from ui.boards.discorder_canvas import DiscorderCanvas


class DiscorderFigure(DiscorderCanvas):
    """The board alone: no supply tray under it."""

    def __init__(self) -> None:
        super().__init__()
        self.setMinimumSize(0, 0)
        self.setFixedSize(QSize(250, 236))
        self.setMouseTracking(False)

    def _layout(self) -> tuple[float, float, float]:
        cell = min(self.width() / (WIDTH + 0.9), self.height() / (HEIGHT + 0.8))
        left = (self.width() - cell * WIDTH) / 2 + cell * 0.25
        top = (self.height() - cell * (HEIGHT + 0.5)) / 2
        return left, top, cell

    def _paint_tray(self, painter: QPainter, left: float, top: float, size: float) -> None:
        """No tray in a figure."""


def _site(name: str) -> int:
    column, rows = name[0], name[1:].split("|")
    low = min(int(row) for row in rows)
    return (low - 1) * WIDTH + "abcdefgh".index(column)


def discorder_figure(
    rows: str, pegs: str = "", *, runs: str = "", show_pegs: bool = False
) -> DiscorderFigure:
    """``rows``: 7 lines of 8 characters, row 7 first; ``runs``: the statuses the engine must
    report, in its order ("secured pending given-away"), for runs of three or more."""
    lines = [line.strip() for line in rows.strip().splitlines()]
    if len(lines) != HEIGHT or any(len(line) != WIDTH for line in lines):
        raise ValueError("a Discorder figure is 7 lines of 8 cells")
    board = [0] * CELLS
    for index, line in enumerate(lines):
        row = HEIGHT - 1 - index
        for column, mark in enumerate(line):
            board[row * WIDTH + column] = {".": 0, "J": 1, "N": 2}[mark]
    placed = [False] * SITES
    for name in pegs.split():
        placed[_site(name)] = True
    start = ENGINE.initial_state({})
    state = replace(
        start,
        board=tuple(board),
        pegs=tuple(placed),
        tiles_left=(TILES_PER_PLAYER - board.count(1), TILES_PER_PLAYER - board.count(2)),
        pegs_left=PEGS - sum(placed),
    )
    views = ENGINE.run_views(state)
    found = " ".join(view.status for view in views)
    if found != runs:
        raise ValueError(f"the engine sees runs {found!r}, the figure says {runs!r}")
    figure = DiscorderFigure()
    figure.board, figure.pegs, figure.runs = state.board, state.pegs, views
    if show_pegs:
        choices = ENGINE.next_choices(state, [])[0]
        figure.site_choices = frozenset(n - CELLS for n in choices if n >= CELLS)
    return figure
