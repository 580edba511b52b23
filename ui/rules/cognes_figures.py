"""Small Cognes diagrams for the rules window: a close-up of the table, checked with the engine.

``cognes_figure`` places coins by hand (table units of 0.1 mm, the middle coin at the
origin), asks the engine's ``judge_flip`` what one flip does and checks it is what the
caption says (a legal flip, a foul, or a flip that does not come close enough); with
``after`` it draws the position the engine's ``apply`` leaves, frozen coins and all.  The
drawing is the table's own ``CognesCanvas`` (same coins, same ghost of the landing, same
dotted circle the landing must reach), zoomed on the part of the table that matters.
"""

from __future__ import annotations

import math
from dataclasses import replace

from PySide6.QtCore import QPointF, QSize

from engines import IllegalMove
from engines.cognes import ENGINE, Flip, judge_flip
from engines.cognes_exact import displacements
from ui.boards.cognes_canvas import CognesCanvas, Ghost

FAR = ((-1700, -900), (1700, -900), (0, -1750))
"""Where the coins a figure does not use stand: off the close-up, touching nothing."""


class CognesFigure(CognesCanvas):
    """The table seen around ``focus`` (table units), ``span`` units from the centre to an
    edge of the picture."""

    def __init__(self, focus: tuple[int, int], span: int) -> None:
        super().__init__()
        self.focus, self.span = focus, span
        self.setMinimumSize(0, 0)
        self.setFixedSize(QSize(400, 230))

    def scale(self) -> float:
        return min(self.width(), self.height()) / (2 * self.span)

    def to_pixels(self, point: tuple[float, float]) -> QPointF:
        s = self.scale()
        x, y = point[0] - self.focus[0], point[1] - self.focus[1]
        return QPointF(self.width() / 2 + x * s, self.height() / 2 - y * s)

    def to_table(self, pixel: QPointF) -> tuple[float, float]:
        s = self.scale()
        x = (pixel.x() - self.width() / 2) / s + self.focus[0]
        return x, (self.height() / 2 - pixel.y()) / s + self.focus[1]


def cognes_figure(
    coins: tuple[tuple[int, int], ...],
    flip: tuple[int, int],
    expect: str,
    *,
    after: bool = False,
    focus: tuple[int, int] = (300, 300),
    span: int = 760,
) -> CognesFigure:
    """Coins 0.. at ``coins`` (the rest far away); ``flip`` is (coin, direction in half
    degrees) and the engine must find it ``expect``: "legal", "foul" or "short"."""
    centres = (*coins, *FAR)
    start = ENGINE.initial_state({"seats": 2, "coins": len(centres)})
    state = replace(start, centres=centres, frozen=(False,) * len(centres))
    coin, direction = flip
    try:
        verdict = judge_flip(state, Flip(coin, direction))
    except IllegalMove:
        verdict = None
    found = "short" if verdict is None else "foul" if verdict.is_foul else "legal"
    if found != expect:
        raise ValueError(f"the engine finds flip {flip} {found!r}, the figure says {expect!r}")
    figure = CognesFigure(focus, span)
    shown = ENGINE.apply(state, Flip(coin, direction)) if after else state
    figure.centres, figure.frozen = shown.centres, shown.frozen
    figure.radius, figure.min_gain = state.coin_radius, state.min_gain
    figure.start_radius = state.start_radius
    if after:
        figure.last_coin, figure.last_from = coin, state.centres[coin]
        return figure
    x, y = state.centres[coin]
    touched: tuple[int, ...]
    if verdict is None:
        vx, vy = displacements(2 * state.coin_radius)[direction]
        landing, touched, middle = (x + vx, y + vy), (), False
    else:
        landing, touched, middle = verdict.landing, verdict.touched, verdict.touches_middle
    gain = round(math.hypot(x, y) - math.hypot(*landing))
    figure.ghost = Ghost(coin, direction, landing, gain, verdict is not None, touched, middle)
    return figure
