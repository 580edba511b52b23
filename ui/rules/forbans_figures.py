"""Small Les Forbans diagrams for the rules window, on a toy map, checked with the engine.

The toy map is a real ``ForbansMap`` (12 ports A–L on a 4 × 3 grid, joined to their
neighbours across and down) and the positions are played by a real ``ForbansEngine`` on it:
``forbans_figure`` applies the move drawn and checks that the engine says what the caption
says (an ordinary move, a win by encirclement or gathering, or a refusal), and the
liberties and danger marks come from the engine's own group helpers.  The world map would
make the same points with ports too small to see.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from functools import cache

from PySide6.QtCore import QLineF, QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QPainter, QPaintEvent, QPen, QPolygonF
from PySide6.QtWidgets import QWidget

from engines import IllegalMove
from engines.forbans import PLACEMENTS, ForbansEngine, Step
from engines.forbans_board import bits, groups, liberty_count, side_masks
from engines.forbans_map import ForbansMap, parse_map
from ui.boards.forbans import danger
from ui.boards.forbans_canvas import DANGER, SEA, SEA_ROUTE, SIDE_COLOURS
from ui.side_marks import paint_mark

COLUMNS, ROWS = 4, 3
GAP = 62
LABEL_PIXELS = 11
"""The size of a port's name."""
LIBERTY = QColor("#2e7d32")
MOVE = QColor("#0d47a1")
FORBIDDEN = QColor("#c62828")


@cache
def toy_map() -> ForbansMap:
    names = "ABCDEFGHIJKL"
    nodes = [
        {"id": name.lower(), "name": name, "lon": 10 * (i % COLUMNS), "lat": -10 * (i // COLUMNS)}
        for i, name in enumerate(names)
    ]
    edges = []
    for i in range(len(names)):
        if i % COLUMNS < COLUMNS - 1:
            edges.append({"a": names[i].lower(), "b": names[i + 1].lower(), "kind": "main"})
        if i + COLUMNS < len(names):
            edges.append({"a": names[i].lower(), "b": names[i + COLUMNS].lower(), "kind": "sec"})
    return parse_map(json.dumps({"nodes": nodes, "edges": edges}), source="toy map")


@cache
def toy_engine() -> ForbansEngine:
    return ForbansEngine(toy_map())


def port(name: str) -> int:
    found = toy_map().port_named(name.lower())
    if found is None:
        raise ValueError(f"no port {name!r} on the toy map")
    return found


def board_of(pieces: str) -> tuple[int, ...]:
    """Tokens ``A+2`` (two Bleu pieces on A) and ``B-1`` (one Vert piece on B)."""
    board = [0] * len(toy_map().ports)
    for token in pieces.split():
        board[port(token[0])] = int(token[1:])
    return tuple(board)


@dataclass(frozen=True)
class Arrow:
    start: int
    end: int
    forbidden: bool = False


class ForbansFigure(QWidget):
    """The toy map with stacks, liberty dots, danger rings and one arrow."""

    def __init__(self, board: tuple[int, ...]) -> None:
        super().__init__()
        self.board = board
        self.liberties: tuple[int, ...] = ()
        self.threatened: tuple[int, ...] = ()
        self.last_liberties: tuple[int, ...] = ()
        self.arrow: Arrow | None = None
        self.setFixedSize(QSize(GAP * COLUMNS + 10, GAP * ROWS + 6))

    def point(self, where: int) -> QPointF:
        return QPointF(GAP * (where % COLUMNS) + GAP / 2 + 5, GAP * (where // COLUMNS) + GAP / 2)

    def paintEvent(self, _event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.fillRect(self.rect(), QBrush(SEA))
        board_map = toy_map()
        for route in board_map.routes:
            width = 3.0 if route.kind == "main" else 1.6
            painter.setPen(QPen(SEA_ROUTE, width))
            painter.drawLine(self.point(route.a), self.point(route.b))
        for where in range(len(board_map.ports)):
            self._paint_port(painter, where)
        if self.arrow is not None:
            self._paint_arrow(painter, self.arrow)
        painter.end()

    def label_box(self, where: int) -> QRectF:
        """The box the port's name is centred in: up and left of the port, clear of its
        stack (radius 14) and its danger ring (radius 20, pen included)."""
        centre = self.point(where)
        return QRectF(centre.x() - GAP / 2 + 3, centre.y() - GAP / 2 + 1, 14, 14)

    def circles(self, where: int) -> list[tuple[QPointF, float]]:
        """What is drawn on the port, as (centre, outer radius with the pen) discs."""
        centre = self.point(where)
        drawn = []
        if where in self.threatened:
            drawn.append((centre, 20 + 1.1))
        if where in self.last_liberties:
            drawn.append((centre, 13 + 1.0))
        if not self.board[where]:
            drawn.append((centre, 7.0 if where in self.liberties else 5.5))
        else:
            drawn.append((centre, 14 + 0.75))
        return drawn

    def _paint_port(self, painter: QPainter, where: int) -> None:
        centre = self.point(where)
        count = self.board[where]
        font = QFont(painter.font())
        font.setPixelSize(LABEL_PIXELS)
        painter.setFont(font)
        painter.setPen(QPen(QColor("#333333")))
        name = toy_map().ports[where].name
        painter.drawText(self.label_box(where), Qt.AlignmentFlag.AlignCenter, name)
        if where in self.threatened:
            painter.setPen(QPen(DANGER, 2.2, Qt.PenStyle.DashLine))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawEllipse(centre, 20, 20)
        if where in self.last_liberties:
            painter.setPen(QPen(DANGER, 2, Qt.PenStyle.DotLine))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawEllipse(centre, 13, 13)
        if not count:
            painter.setPen(QPen(QColor("#2b2b2b"), 1))
            painter.setBrush(QBrush(QColor("#ffffff")))
            painter.drawEllipse(centre, 5, 5)
            if where in self.liberties:
                painter.setPen(Qt.PenStyle.NoPen)
                painter.setBrush(QBrush(LIBERTY))
                painter.drawEllipse(centre, 7, 7)
            return
        colour = SIDE_COLOURS[1 if count > 0 else 2]
        painter.setPen(QPen(colour.darker(160), 1.5))
        painter.setBrush(QBrush(colour))
        painter.drawEllipse(centre, 14, 14)
        font.setBold(True)
        font.setPixelSize(14)
        painter.setFont(font)
        painter.setPen(QPen(QColor("#ffffff")))
        painter.drawText(QRectF(centre.x() - 14, centre.y() - 14, 28, 28),
                         Qt.AlignmentFlag.AlignCenter, str(abs(count)))  # fmt: skip
        # The camp's shape, as on the table's board, inside the disc (labels keep clear of it).
        side = 1 if count > 0 else 2
        paint_mark(
            painter,
            "forbans",
            side,
            centre + QPointF(7, -7),
            4.5,
            QColor("#ffffff"),
            colour.darker(160),
        )

    def _paint_arrow(self, painter: QPainter, arrow: Arrow) -> None:
        line = QLineF(self.point(arrow.start), self.point(arrow.end))
        line = QLineF(line.pointAt(16 / line.length()), line.pointAt(1 - 17 / line.length()))
        colour = FORBIDDEN if arrow.forbidden else MOVE
        painter.setPen(QPen(colour, 3.2, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap))
        painter.drawLine(line)
        back = QLineF(line.p2(), line.p1())
        back.setLength(11)
        head = QPolygonF([line.p2()])
        for turn in (28.0, -28.0):
            side = QLineF(back)
            side.setAngle(back.angle() + turn)
            head.append(side.p2())
        painter.setBrush(QBrush(colour))
        painter.setPen(QPen(colour, 1))
        painter.drawPolygon(head)
        if arrow.forbidden:
            middle = line.pointAt(0.5)
            painter.setPen(QPen(colour, 3.2, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap))
            for dx, dy in ((5, 5), (5, -5)):
                painter.drawLine(middle + QPointF(-dx, -dy), middle + QPointF(dx, dy))


def forbans_figure(
    pieces: str,
    *,
    mover: str = "vert",
    move: str = "",
    expect: str = "",
    liberties_of: str = "",
    show_danger: bool = False,
) -> ForbansFigure:
    """Draw ``pieces``; ``move`` ("J I") is played by ``mover`` and must end as ``expect``:
    "" (the game goes on), "encirclement", "gathering" or "illegal".  ``liberties_of``
    dots the liberties of the group on that port; ``show_danger`` rings the groups with one
    liberty left, as the table does."""
    engine = toy_engine()
    board = board_of(pieces)
    # Move phase: Vert moves first after the 12 placements, then the sides alternate.
    ply = PLACEMENTS + (0 if mover == "vert" else 1)
    state = replace(engine.initial_state({}), board=board, ply=ply)
    figure = ForbansFigure(board)
    if move:
        origin, target = (port(name) for name in move.split())
        try:
            after = engine.apply(state, Step(origin, target))
        except IllegalMove:
            outcome = "illegal"
        else:
            result = engine.outcome(after)
            outcome = result.reason if result is not None else ""
        if outcome != expect:
            raise ValueError(f"{move}: the engine says {outcome!r}, the figure says {expect!r}")
        figure.arrow = Arrow(origin, target, forbidden=outcome == "illegal")
    if liberties_of:
        bleu, vert = side_masks(board)
        where = port(liberties_of)
        side = bleu if board[where] > 0 else vert
        masks = toy_map().neighbour_masks
        group = next(g for g in groups(side, masks) if g >> where & 1)
        empty = ((1 << len(board)) - 1) & ~(bleu | vert)
        around = 0
        for member in bits(group):
            around |= masks[member]
        figure.liberties = tuple(bits(around & empty))
        assert len(figure.liberties) == liberty_count(group, empty, masks)
    if show_danger:
        figure.threatened, figure.last_liberties = danger(engine, board)
    return figure
