"""The rules windows' figures (issue 21): no label covers a dot, a piece or a coin, and none
is cut off at the figure's edge, in English and in French.  Each figure says where it puts
its words and what it draws; the test measures the words' real extent in the font drawn
(``QFontMetricsF.boundingRect``) against those discs and squares and the figure's bounds."""

from __future__ import annotations

import math
from typing import Any

import pytest
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QFont, QFontMetricsF
from PySide6.QtWidgets import QWidget

from ui.boards.cognes_canvas import CognesCanvas
from ui.i18n import install_language
from ui.rules import rule_games, rules_for
from ui.rules.consensus_figures import ConsensusFigure
from ui.rules.forbans_figures import LABEL_PIXELS, ForbansFigure, toy_map

pytestmark = [pytest.mark.gui, pytest.mark.filterwarnings("error")]


def figures() -> list[tuple[str, int, Any]]:
    found = []
    for game in rule_games():
        rules = rules_for(game)
        assert rules is not None
        drawings = [figure.draw for section in rules.sections for figure in section.figures]
        found += [(game, number, draw) for number, draw in enumerate(drawings)]
    return found


def covers(box: QRectF, centre: QPointF, radius: float) -> bool:
    x = min(max(centre.x(), box.left()), box.right())
    y = min(max(centre.y(), box.top()), box.bottom())
    return math.hypot(centre.x() - x, centre.y() - y) < radius


def text_extent(font: QFont, box: QRectF, align: Qt.AlignmentFlag, text: str) -> QRectF:
    return QFontMetricsF(font).boundingRect(box, int(align), text)


def problems(widget: QWidget) -> list[str]:
    """What is wrong with the figure's words: each one that covers something or leaves it."""
    bounds = QRectF(widget.rect())
    found = []
    if isinstance(widget, ForbansFigure):
        font = QFont(widget.font())
        font.setPixelSize(LABEL_PIXELS)
        ports = range(len(toy_map().ports))
        discs = [disc for where in ports for disc in widget.circles(where)]
        for where in ports:
            name = toy_map().ports[where].name
            extent = text_extent(font, widget.label_box(where), Qt.AlignmentFlag.AlignCenter, name)
            if not bounds.contains(extent):
                found.append(f"port {name}'s name is cut off: {extent} in {bounds}")
            for centre, radius in discs:
                if covers(extent, centre, radius):
                    found.append(f"port {name}'s name covers the disc at {centre}")
    elif isinstance(widget, ConsensusFigure):
        font = widget.label_font(widget.font())
        squares = [widget.square_rect(where) for where in range(81) if widget.shown(where)]
        frame = squares[0].united(squares[-1]).adjusted(-3, -3, 3, 3)  # the board's frame
        for box, align, text in widget.labels():
            extent = text_extent(font, box, align, text)
            if not bounds.contains(extent):
                found.append(f"label {text} is cut off: {extent} in {bounds}")
            if extent.intersects(frame):
                found.append(f"label {text} covers the board at {extent}")
    elif isinstance(widget, CognesCanvas) and widget.ghost is not None:
        font = widget.ghost_font(widget.font())
        words = widget.ghost_words(widget.ghost)
        box = widget.ghost_label(widget.ghost, QFontMetricsF(font).horizontalAdvance(words) + 4)
        extent = text_extent(font, box, Qt.AlignmentFlag.AlignCenter, words)
        if not bounds.contains(extent):
            found.append(f"{words!r} is cut off: {extent} in {bounds}")
        landing = (widget.to_pixels(widget.ghost.landing), widget.radius * widget.scale())
        for centre, radius in [*widget.coin_circles(), landing]:
            if covers(extent, centre, radius):
                found.append(f"{words!r} covers the coin at {centre}")
    return found


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize(("game", "number", "draw"), figures())
def test_no_label_covers_a_dot_or_leaves_the_figure(
    qtbot: Any, language: str, game: str, number: int, draw: Any
) -> None:
    install_language(language)
    widget = draw()
    qtbot.addWidget(widget)
    assert problems(widget) == [], f"{game} figure {number} ({language})"


def test_the_check_sees_a_label_on_a_coin(qtbot: Any) -> None:
    """The test can fail: the words set on a coin, or past the edge, are found."""
    widget = next(draw() for game, _number, draw in figures() if game == "cognes")
    qtbot.addWidget(widget)
    assert isinstance(widget, CognesCanvas) and widget.ghost is not None
    coin = widget.coin_circles()[1][0]
    widget.ghost_label = lambda _ghost, width: QRectF(coin.x() - 5, coin.y() - 5, width, 10)
    assert any("covers the coin" in problem for problem in problems(widget))
    widget.ghost_label = lambda _ghost, width: QRectF(widget.width() - 5, 0, width, 10)
    assert any("cut off" in problem for problem in problems(widget))
