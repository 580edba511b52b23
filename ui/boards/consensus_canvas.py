"""Drawing the Consensus board: geometry with the player's seat at the bottom, and painting.

The canvas draws what it is given (a board tuple as ``engines.consensus_board`` defines it,
the controllers, highlights) and maps clicks back to squares; it knows no rules.

Orientation: each seat's home corner is turned to the bottom-left, so the player's pieces
start nearest to them (seat 1 a1, seat 2 a9, seat 3 i9, seat 4 i1; rules section 1).  A view
is ``quarter_turns`` counter-clockwise quarter turns of the standard diagram (rank 9 at top).
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QPoint, QPointF, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont, QMouseEvent, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

from engines.consensus_board import DEAD, E5, KIND_LETTERS, PRESIDENT, SQUARE_NAMES
from ui.side_marks import paint_mark
from ui.theme import CORPSE, HIGHLIGHT, NEUTRAL, TARGET, seat_colour, text_on

SIZE = 9
LIGHT = QColor("#f3ead8")
DARK = QColor("#e2d3b5")
POWER = QColor("#c9a227")
FRAME = QColor("#5d4a2f")


def quarter_turns_for(seat: int | None) -> int:
    """How many counter-clockwise quarter turns put ``seat``'s corner at the bottom-left."""
    return 0 if seat is None else (seat - 1) % 4


def square_to_cell(square: int, turns: int) -> tuple[int, int]:
    """Display (column, row from the top) of ``square`` after ``turns`` quarter turns."""
    column, row = square % SIZE, SIZE - 1 - square // SIZE
    for _ in range(turns % 4):
        column, row = row, SIZE - 1 - column
    return column, row


def cell_to_square(column: int, row: int, turns: int) -> int:
    for _ in range(turns % 4):
        column, row = SIZE - 1 - row, column
    return (SIZE - 1 - row) * SIZE + column


class ConsensusCanvas(QWidget):
    """Paints a position; emits ``squareClicked`` (left button) and ``backClicked`` (right)."""

    squareClicked = Signal(int)
    backClicked = Signal()

    def __init__(self) -> None:
        super().__init__()
        self.board: tuple[int, ...] = (0,) * (SIZE * SIZE)
        self.controllers: tuple[int, ...] = (1, 2, 3, 4)
        self.turns = 0
        self.last: tuple[int, ...] = ()
        self.selected: tuple[int, ...] = ()
        self.targets: tuple[int, ...] = ()
        self.movable: tuple[int, ...] = ()
        self.ruler_square: int | None = None
        self.setMinimumSize(270, 270)
        policy = QSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setSizePolicy(policy)
        self.setMouseTracking(False)

    def sizeHint(self) -> QSize:
        return QSize(600, 600)

    # --- geometry -----------------------------------------------------------------------
    def _layout(self) -> tuple[float, float, float]:
        """(left, top, cell size) of the 9x9 grid, leaving a margin for coordinates."""
        side = min(self.width(), self.height())
        cell = side / (SIZE + 0.8)
        left = (self.width() - cell * SIZE) / 2 + cell * 0.2
        top = (self.height() - cell * SIZE) / 2 - cell * 0.2
        return left, top, cell

    def square_rect(self, square: int) -> QRectF:
        left, top, cell = self._layout()
        column, row = square_to_cell(square, self.turns)
        return QRectF(left + column * cell, top + row * cell, cell, cell)

    def square_center(self, square: int) -> QPoint:
        """The widget point at the centre of ``square`` (tests click there)."""
        return self.square_rect(square).center().toPoint()

    def square_at(self, point: QPointF) -> int | None:
        left, top, cell = self._layout()
        column = int((point.x() - left) // cell)
        row = int((point.y() - top) // cell)
        if 0 <= column < SIZE and 0 <= row < SIZE:
            return cell_to_square(column, row, self.turns)
        return None

    # --- input --------------------------------------------------------------------------
    def mousePressEvent(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.RightButton:
            self.backClicked.emit()
            return
        if event.button() == Qt.MouseButton.LeftButton:
            square = self.square_at(event.position())
            if square is not None:
                self.squareClicked.emit(square)

    # --- painting -----------------------------------------------------------------------
    def paintEvent(self, _event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        left, top, cell = self._layout()
        painter.fillRect(QRectF(left - 3, top - 3, cell * SIZE + 6, cell * SIZE + 6), QBrush(FRAME))
        for square in range(SIZE * SIZE):
            self._paint_square(painter, square)
        self._paint_coordinates(painter, left, top, cell)
        for square, code in enumerate(self.board):
            if code:
                self._paint_piece(painter, square, code)
        for square in self.targets:
            self._paint_target(painter, square)
        painter.end()

    def _paint_square(self, painter: QPainter, square: int) -> None:
        rect = self.square_rect(square)
        column, row = square_to_cell(square, self.turns)
        painter.fillRect(rect, QBrush(LIGHT if (column + row) % 2 == 0 else DARK))
        if square == E5:
            painter.fillRect(rect.adjusted(2, 2, -2, -2), QBrush(POWER))
            painter.setPen(QPen(QColor("#7a5c00")))
            font = QFont(painter.font())
            font.setPixelSize(max(6, int(rect.height() * 0.16)))
            painter.setFont(font)
            painter.drawText(
                rect.adjusted(0, 0, 0, -2),
                Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignBottom,
                # The game's own French name for e5, kept in every language.
                QCoreApplication.translate("ConsensusCanvas", "Pouvoir"),
            )
        tint = None
        if square in self.last:
            tint = QColor(HIGHLIGHT)
            tint.setAlpha(150)
        if square in self.selected:
            tint = QColor("#64b5f6")
            tint.setAlpha(170)
        if tint is not None:
            painter.fillRect(rect, QBrush(tint))

    def _paint_coordinates(self, painter: QPainter, left: float, top: float, cell: float) -> None:
        painter.setPen(QPen(QColor("#555555")))
        font = QFont(painter.font())
        font.setPixelSize(max(7, int(cell * 0.28)))
        painter.setFont(font)
        for index in range(SIZE):
            bottom = cell_to_square(index, SIZE - 1, self.turns)
            side = cell_to_square(0, index, self.turns)
            # Along an edge either the files or the ranks change; name what changes.
            file_changes = self.turns % 2 == 0
            bottom_label = SQUARE_NAMES[bottom][0] if file_changes else SQUARE_NAMES[bottom][1]
            side_label = SQUARE_NAMES[side][1] if file_changes else SQUARE_NAMES[side][0]
            painter.drawText(
                QRectF(left + index * cell, top + SIZE * cell + 3, cell, cell * 0.6),
                Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop,
                bottom_label,
            )
            painter.drawText(
                QRectF(left - cell * 0.6, top + index * cell, cell * 0.5, cell),
                Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter,
                side_label,
            )

    def _paint_piece(self, painter: QPainter, square: int, code: int) -> None:
        rect = self.square_rect(square)
        kind, seat, dead = code & 7, (code >> 3) & 7, bool(code & DEAD)
        disc = self.piece_disc(square, kind)
        letter = KIND_LETTERS[kind]
        font = QFont(painter.font())
        font.setBold(True)
        font.setPixelSize(max(7, int(disc.height() * 0.5)))
        painter.setFont(font)
        if dead:
            # A corpse: a dark grey tile crossed out, the piece it was written small.
            painter.setPen(QPen(QColor("#1b1b1b"), 1))
            painter.setBrush(QBrush(QColor(CORPSE)))
            painter.drawRoundedRect(disc, 3, 3)
            painter.setPen(QPen(QColor("#8a8a8a"), max(1.0, rect.width() * 0.05)))
            painter.drawLine(disc.topLeft(), disc.bottomRight())
            painter.drawLine(disc.topRight(), disc.bottomLeft())
            painter.setPen(QPen(seat_colour(seat).lighter(120)))
            painter.drawText(disc, Qt.AlignmentFlag.AlignCenter, letter.lower())
            self._paint_side_mark(painter, square, seat, seat_colour(seat), QColor("#d8d8d8"))
            return
        controller = self.controllers[seat - 1] if 0 < seat <= len(self.controllers) else seat
        if controller == 0:
            # Neutral (its player resigned): grey, dashed ring of the seat it was.
            painter.setPen(
                QPen(seat_colour(seat), max(1.5, rect.width() * 0.06), Qt.PenStyle.DashLine)
            )
            painter.setBrush(QBrush(QColor(NEUTRAL)))
            painter.drawEllipse(disc)
            painter.setPen(QPen(QColor("#333333")))
            painter.drawText(disc, Qt.AlignmentFlag.AlignCenter, letter)
            self._paint_side_mark(painter, square, seat, seat_colour(seat), QColor("#333333"))
            return
        fill = seat_colour(seat)
        if square == self.ruler_square:
            halo = rect.adjusted(2, 2, -2, -2)
            painter.setPen(QPen(QColor("#fff59d"), max(2.0, rect.width() * 0.08)))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawEllipse(halo)
        painter.setPen(QPen(fill.darker(170), max(1.0, rect.width() * 0.04)))
        painter.setBrush(QBrush(fill))
        painter.drawEllipse(disc)
        if kind == PRESIDENT:
            inner = disc.adjusted(
                disc.width() * 0.1, disc.width() * 0.1, -disc.width() * 0.1, -disc.width() * 0.1
            )
            painter.setPen(QPen(text_on(fill), max(1.0, rect.width() * 0.03)))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawEllipse(inner)
        painter.setPen(QPen(text_on(fill)))
        painter.drawText(disc, Qt.AlignmentFlag.AlignCenter, letter)
        self._paint_side_mark(painter, square, seat, text_on(fill), fill.darker(170))
        if controller != seat:
            # Taken over: a badge, the mark and colour of the player who now moves them.
            size = disc.width() * 0.17
            badge = QPointF(disc.right() - size, disc.top() + size)
            taker = seat_colour(controller)
            paint_mark(painter, "consensus", controller, badge, size, taker, QColor("#ffffff"))
        if square in self.movable and not self.selected:
            painter.setPen(QPen(QColor(TARGET), max(1.5, rect.width() * 0.05)))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawEllipse(disc.adjusted(-2, -2, 2, 2))

    def piece_disc(self, square: int, kind: int) -> QRectF:
        """The disc (or a corpse's tile) of a piece of ``kind`` on ``square``."""
        rect = self.square_rect(square)
        inset = rect.width() * (0.1 if kind == PRESIDENT else 0.16)
        return rect.adjusted(inset, inset, -inset, -inset)

    def mark_spot(self, square: int) -> tuple[QPointF, float]:
        """Where the side's shape of the piece on ``square`` goes, and its radius: on the
        ring, bottom left, clear of the piece's letter, of the badge of whoever took the side
        over (top right) and of the number of a recent ply (top left)."""
        disc = self.piece_disc(square, self.board[square] & 7)
        along = disc.width() * 0.31  # on the diagonal, about the ring's radius out
        return disc.center() + QPointF(-along, along), disc.width() * 0.19

    def _paint_side_mark(
        self, painter: QPainter, square: int, seat: int, fill: QColor, edge: QColor
    ) -> None:
        """The side's shape: no side is told by colour alone, a dead piece's neither."""
        centre, radius = self.mark_spot(square)
        paint_mark(painter, "consensus", seat, centre, radius, fill, edge)

    def _paint_target(self, painter: QPainter, square: int) -> None:
        rect = self.square_rect(square)
        colour = QColor(TARGET)
        if self.board[square]:
            painter.setPen(QPen(colour, max(2.0, rect.width() * 0.08)))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawRect(rect.adjusted(2, 2, -2, -2))
        else:
            colour.setAlpha(200)
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(QBrush(colour))
            radius = rect.width() * 0.14
            painter.drawEllipse(rect.center(), radius, radius)
