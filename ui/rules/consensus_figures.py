"""Small Consensus diagrams for the rules window, each checked move by move with the engine.

``move_figure`` takes a hand-made position (seat 1 to move), a move as square names in the
order a player clicks them, and which step's choices to mark.  Every step is asked of
``ENGINE.next_choices``: a step the engine does not offer raises ``ValueError``, so the rules
window can only draw moves the engine plays.  The board drawn is the position before the
move; arrows show the move (solid), where a victim goes (dashed: grey for a corpse, the
victim's colour when it is displaced alive) and a piece leaving e5 (orange); a red cross
marks a Haussaire's victim.  Green dots (rings on pieces) are the engine's choices for the
marked step.

The drawing is the table's own ``ConsensusCanvas`` restricted to a window of the board, so
pieces look the same as in a game.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from PySide6.QtCore import QLineF, QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QPainter, QPaintEvent, QPen, QPolygonF

from engines.consensus import ENGINE, NO_KILL, ConsensusState
from engines.consensus_board import (
    DEAD,
    E5,
    FONCTIONNAIRE,
    GIGN,
    HAUSSAIRE,
    KIND_LETTERS,
    PRESIDENT,
    SQUARE_NAMES,
    parse_square,
    piece_code,
)
from ui.boards.consensus_canvas import FRAME, ConsensusCanvas
from ui.theme import CORPSE, seat_colour

CELL = 30
MOVE = QColor("#0d47a1")
EXIT = QColor("#ef6c00")
KILL = QColor("#c62828")


@dataclass(frozen=True)
class Arrow:
    start: int
    end: int
    colour: QColor
    dashed: bool = False


def square(name: str) -> int:
    found = parse_square(name)
    if found is None:
        raise ValueError(f"no square {name!r}")
    return found


def board_of(pieces: str) -> tuple[int, ...]:
    """A board from tokens like ``P1c3`` (seat 1's Président on c3); lower case: a corpse."""
    board = [0] * 81
    for token in pieces.split():
        letter, seat, where = token[0], int(token[1]), square(token[2:])
        code = piece_code(seat, KIND_LETTERS.index(letter.upper()))
        board[where] = code | (DEAD if letter.islower() else 0)
    return tuple(board)


class ConsensusFigure(ConsensusCanvas):
    """A window of the board (files and ranks inclusive) with arrows and crosses on top."""

    def __init__(self, board: tuple[int, ...], view: str) -> None:
        super().__init__()
        low, high = (square(name) for name in view.split(":"))
        self.files = (low % 9, high % 9)
        self.ranks = (low // 9, high // 9)
        self.board = board
        self.arrows: tuple[Arrow, ...] = ()
        self.crosses: tuple[int, ...] = ()
        columns = self.files[1] - self.files[0] + 1
        rows = self.ranks[1] - self.ranks[0] + 1
        self.setMinimumSize(0, 0)
        self.setFixedSize(QSize(int(CELL * (columns + 0.8)), int(CELL * (rows + 0.8))))

    def shown(self, where: int) -> bool:
        return (
            self.files[0] <= where % 9 <= self.files[1]
            and self.ranks[0] <= where // 9 <= self.ranks[1]
        )

    def square_rect(self, where: int) -> QRectF:
        column = where % 9 - self.files[0]
        row = self.ranks[1] - where // 9
        return QRectF(CELL * (0.7 + column), CELL * (0.1 + row), CELL, CELL)

    def paintEvent(self, _event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        squares = [where for where in range(81) if self.shown(where)]
        top_left = self.square_rect(self.ranks[1] * 9 + self.files[0])
        frame = top_left.united(self.square_rect(self.ranks[0] * 9 + self.files[1]))
        painter.fillRect(frame.adjusted(-3, -3, 3, 3), QBrush(FRAME))
        for where in squares:
            self._paint_square(painter, where)
        self._paint_labels(painter)
        for where in squares:
            if self.board[where]:
                self._paint_piece(painter, where, self.board[where])
        for where in self.targets:
            if self.shown(where):
                self._paint_target(painter, where)
        pairs = {(arrow.start, arrow.end) for arrow in self.arrows}
        for arrow in self.arrows:
            # An arrow and its reverse (a GIGN and its victim's corpse) are drawn side by side.
            shift = 0.14 if (arrow.end, arrow.start) in pairs else 0.0
            self._paint_arrow(painter, arrow, shift)
        for where in self.crosses:
            self._paint_cross(painter, where)
        painter.end()

    def labels(self) -> list[tuple[QRectF, Qt.AlignmentFlag, str]]:
        """The files' letters under the board and the ranks' numbers left of it: (box,
        alignment in it, text), in the margins ``square_rect`` leaves."""
        found = []
        bottom = Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignBottom
        for file in range(self.files[0], self.files[1] + 1):
            rect = self.square_rect(self.ranks[0] * 9 + file).translated(0, CELL * 0.62)
            found.append((rect, bottom, "abcdefghi"[file]))
        left = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
        for rank in range(self.ranks[0], self.ranks[1] + 1):
            # The whole margin left of the frame (3 px), never over the first file's squares.
            square = self.square_rect(rank * 9 + self.files[0])
            rect = QRectF(0, square.top(), square.left() - 3 - CELL * 0.08, CELL)
            found.append((rect, left, str(rank + 1)))
        return found

    def label_font(self, base: QFont) -> QFont:
        font = QFont(base)
        font.setPixelSize(int(CELL * 0.34))
        return font

    def _paint_labels(self, painter: QPainter) -> None:
        painter.setPen(QPen(QColor("#555555")))
        painter.setFont(self.label_font(painter.font()))
        for rect, align, text in self.labels():
            painter.drawText(rect, align, text)

    def _paint_arrow(self, painter: QPainter, arrow: Arrow, shift: float = 0.0) -> None:
        start = self.square_rect(arrow.start).center()
        end = self.square_rect(arrow.end).center()
        line = QLineF(start, end)
        if line.length() < 1:
            return
        if shift:
            normal = line.normalVector()
            normal.setLength(CELL * shift)
            line.translate(normal.p2() - normal.p1())
        line.setLength(line.length() - CELL * 0.3)  # leave the head short of the letter
        colour = QColor(arrow.colour)
        colour.setAlpha(220)
        pen = QPen(colour, CELL * 0.1)
        pen.setCapStyle(Qt.PenCapStyle.RoundCap)
        if arrow.dashed:
            pen.setStyle(Qt.PenStyle.DashLine)
        painter.setPen(pen)
        painter.drawLine(line)
        tip = line.p2()
        back = QLineF(tip, line.p1())
        back.setLength(CELL * 0.36)
        head = QPolygonF([tip])
        for turn in (28.0, -28.0):
            side = QLineF(back)
            side.setAngle(back.angle() + turn)
            head.append(side.p2())
        painter.setPen(QPen(colour, 1))
        painter.setBrush(QBrush(colour))
        painter.drawPolygon(head)

    def _paint_cross(self, painter: QPainter, where: int) -> None:
        rect = self.square_rect(where).adjusted(
            CELL * 0.18, CELL * 0.18, -CELL * 0.18, -CELL * 0.18
        )
        painter.setPen(QPen(KILL, CELL * 0.11, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap))
        painter.drawLine(rect.topLeft(), rect.bottomRight())
        painter.drawLine(rect.topRight(), rect.bottomLeft())

    def content_points(self) -> list[QPointF]:
        """The centres of the squares shown (tests grab the picture around them)."""
        return [self.square_rect(where).center() for where in range(81) if self.shown(where)]


def _arrows(board: tuple[int, ...], path: list[int]) -> tuple[tuple[Arrow, ...], tuple[int, ...]]:
    """The arrows and crosses drawing a (possibly partial) move, as the rules describe it."""
    if len(path) < 2:
        return (), ()
    origin, target, *further = path
    kind, victim = board[origin] & 7, board[target]
    arrows = [Arrow(origin, target, MOVE)]
    crosses: list[int] = []
    if kind == HAUSSAIRE:
        crosses += [spot for spot in further[:1] if spot != NO_KILL]
        return tuple(arrows), tuple(crosses)
    if kind == GIGN and victim:
        arrows.append(Arrow(target, origin, QColor(CORPSE), dashed=True))
    elif victim and further:
        placed = further.pop(0)
        alive = kind == FONCTIONNAIRE
        colour = seat_colour((victim >> 3) & 7) if alive else QColor(CORPSE)
        arrows.append(Arrow(target, placed, colour, dashed=True))
    if target == E5 and further:
        arrows.append(Arrow(E5, further[0], EXIT))
    return tuple(arrows), tuple(crosses)


def _path(state: ConsensusState, move: str) -> list[int]:
    """``move`` as squares, each step checked against the engine's step view."""
    path = [NO_KILL if name == "-" else square(name) for name in move.split()]
    for index, step in enumerate(path):
        offered = ENGINE.next_choices(state, path[:index])[0]
        if step not in offered:
            raise ValueError(f"the engine does not offer {move.split()[index]} in {move!r}")
    return path


def move_figure(
    pieces: str,
    move: str,
    *,
    view: str,
    choices_after: int | None = None,
    choices_of: str | None = None,
) -> ConsensusFigure:
    """Draw ``move`` (square names, e.g. ``"c3 f6 b7"``) from the position ``pieces``.

    ``choices_after``: mark the engine's choices once that many squares of the move are
    chosen (1: where the piece may go; 2: where its victim may go, and so on).
    ``choices_of``: mark instead the choices after another (partial) move.
    """
    board = board_of(pieces)
    state = replace(ENGINE.initial_state({"seats": 4}), board=board)
    path = _path(state, move)
    figure = ConsensusFigure(board, view)
    figure.arrows, figure.crosses = _arrows(board, path)
    figure.selected = tuple(path[:1])
    marked = path[:choices_after] if choices_after is not None else None
    if choices_of is not None:
        marked = _path(state, choices_of)
        figure.selected += tuple(marked[:1])
    if marked is not None:
        offered = ENGINE.next_choices(state, marked)[0]
        figure.targets = tuple(spot for spot in offered if spot != NO_KILL)
    if board[E5] and board[E5] & 7 == PRESIDENT and not board[E5] & DEAD:
        figure.ruler_square = E5
    return figure


def describe(figure: ConsensusFigure) -> str:
    """The arrows in words, for tests and debugging."""
    return " ".join(f"{SQUARE_NAMES[a.start]}>{SQUARE_NAMES[a.end]}" for a in figure.arrows)
