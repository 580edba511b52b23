"""Drawing the Discorder board: tiles, pegs on the sites between cells, runs, the supply.

The canvas draws what it is given (the board and pegs of ``engines.discorder``, the runs of
``run_views``, highlights) and maps a click back to a cell or a peg site; it knows no rules.

A cell is ``row * 8 + col`` (a1 = 0); the peg site above cell ``c`` is site ``c`` (rows 1-6).
Seat 2 sits across the table: its view is the standard one turned half a turn, so columns stay
vertical and a peg still lies between two vertically adjacent cells.  A click within a fifth of
a cell of a horizontal grid line means the site on that line; anywhere else in a cell, the
cell.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QPoint, QPointF, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont, QMouseEvent, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

from engines.discorder import (
    CELLS,
    GIVEN_AWAY,
    HEIGHT,
    PEGS,
    SECURED,
    TILES_PER_PLAYER,
    WIDTH,
    RunView,
)
from ui.side_marks import paint_mark
from ui.side_palette import DISCORDER_SIDES
from ui.theme import HIGHLIGHT

TILE_COLOURS = {colour: QColor(name) for colour, name in DISCORDER_SIDES.items()}
TILE_NAMES = {1: "Jaune", 2: "Noir"}
BOARD = QColor("#d9c7a3")
CELL = QColor("#efe4cc")
FRAME = QColor("#6b5637")
PEG = QColor("#8d4f1e")
CHOICE = QColor("#ff8f00")
RUN_PENS = {SECURED: QColor("#2e7d32"), "pending": QColor("#1e88e5"), GIVEN_AWAY: QColor("#c62828")}
SITE_BAND = 0.2
"""How close to a grid line (in cells) a click must be to mean the peg site on it."""


class DiscorderCanvas(QWidget):
    """Paints a position; emits ``cellClicked``/``siteClicked`` and ``hovered`` (a wire or None)."""

    cellClicked = Signal(int)
    siteClicked = Signal(int)
    hovered = Signal(object)

    def __init__(self) -> None:
        super().__init__()
        self.board: tuple[int, ...] = (0,) * CELLS
        self.pegs: tuple[bool, ...] = (False,) * (CELLS - WIDTH)
        self.tiles_left: tuple[int, int] = (TILES_PER_PLAYER, TILES_PER_PLAYER)
        self.pegs_left = PEGS
        self.flipped = False
        self.runs: tuple[RunView, ...] = ()
        self.last_cell: int | None = None
        self.last_site: int | None = None
        self.cell_choices: frozenset[int] = frozenset()
        self.site_choices: frozenset[int] = frozenset()
        self.ghost_colour = 0  # the colour a hovered legal cell would take
        self.hover_cell: int | None = None
        self.hover_site: int | None = None
        self.setMinimumSize(200, 200)  # small: room for the lines around it at big text
        self.setSizePolicy(QSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding))
        self.setMouseTracking(True)

    def sizeHint(self) -> QSize:
        return QSize(640, 640)

    # --- geometry -----------------------------------------------------------------------
    def _layout(self) -> tuple[float, float, float]:
        """(left, top, cell) of the grid; room is left for coordinates and the supply tray."""
        cell = min(self.width() / (WIDTH + 0.9), self.height() / (HEIGHT + 2.3))
        left = (self.width() - cell * WIDTH) / 2 + cell * 0.25
        top = (self.height() - cell * (HEIGHT + 1.8)) / 2
        return left, top, cell

    def display(self, cell: int) -> tuple[int, int]:
        """(column, row from the top) where ``cell`` is drawn."""
        col, row = cell % WIDTH, cell // WIDTH
        if self.flipped:
            return WIDTH - 1 - col, row
        return col, HEIGHT - 1 - row

    def cell_from_display(self, column: int, row: int) -> int:
        if self.flipped:
            return row * WIDTH + (WIDTH - 1 - column)
        return (HEIGHT - 1 - row) * WIDTH + column

    def cell_rect(self, cell: int) -> QRectF:
        left, top, size = self._layout()
        column, row = self.display(cell)
        return QRectF(left + column * size, top + row * size, size, size)

    def cell_center(self, cell: int) -> QPoint:
        return self.cell_rect(cell).center().toPoint()

    def site_center(self, site: int) -> QPoint:
        """The middle of the grid line between cell ``site`` and the cell above it."""
        low, high = self.cell_rect(site).center(), self.cell_rect(site + WIDTH).center()
        return ((low + high) / 2).toPoint()

    def target_at(self, point: QPointF) -> tuple[str, int] | None:
        """("cell", n) or ("site", n) under ``point``, or None outside the board."""
        left, top, size = self._layout()
        fx, fy = (point.x() - left) / size, (point.y() - top) / size
        column, row = int(fx // 1), int(fy // 1)
        if not (0 <= column < WIDTH and 0 <= row < HEIGHT):
            return None
        within = fy - row
        if within < SITE_BAND and row > 0:
            row_above, row_below = row - 1, row
        elif within > 1 - SITE_BAND and row < HEIGHT - 1:
            row_above, row_below = row, row + 1
        else:
            return "cell", self.cell_from_display(column, row)
        a = self.cell_from_display(column, row_above)
        b = self.cell_from_display(column, row_below)
        return "site", min(a, b)

    # --- input --------------------------------------------------------------------------
    def mousePressEvent(self, event: QMouseEvent) -> None:
        if event.button() != Qt.MouseButton.LeftButton:
            return
        target = self.target_at(event.position())
        if target is None:
            return
        kind, number = target
        if kind == "cell":
            self.cellClicked.emit(number)
        else:
            self.siteClicked.emit(number)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        target = self.target_at(event.position())
        cell = target[1] if target is not None and target[0] == "cell" else None
        site = target[1] if target is not None and target[0] == "site" else None
        if (cell, site) != (self.hover_cell, self.hover_site):
            self.hover_cell, self.hover_site = cell, site
            self.update()

    def leaveEvent(self, _event: object) -> None:
        self.hover_cell = self.hover_site = None
        self.update()

    # --- painting -----------------------------------------------------------------------
    def paintEvent(self, _event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        left, top, size = self._layout()
        grid = QRectF(left, top, size * WIDTH, size * HEIGHT)
        painter.fillRect(grid.adjusted(-4, -4, 4, 4), QBrush(FRAME))
        painter.fillRect(grid, QBrush(BOARD))
        for cell in range(CELLS):
            self._paint_cell(painter, cell, size)
        self._paint_coordinates(painter, left, top, size)
        for run in self.runs:
            self._paint_run(painter, run, size)
        for site, pegged in enumerate(self.pegs):
            if pegged:
                self._paint_peg(painter, site, size, 255)
            elif site in self.site_choices:
                self._paint_site_choice(painter, site, size)
        if self.hover_site is not None and self.hover_site in self.site_choices:
            self._paint_peg(painter, self.hover_site, size, 120)
        self._paint_tray(painter, left, top + size * (HEIGHT + 0.55), size)
        painter.end()

    def _paint_cell(self, painter: QPainter, cell: int, size: float) -> None:
        rect = self.cell_rect(cell)
        inner = rect.adjusted(size * 0.04, size * 0.04, -size * 0.04, -size * 0.04)
        painter.fillRect(inner, QBrush(CELL))
        if cell == self.last_cell:
            tint = QColor(HIGHLIGHT)
            painter.fillRect(inner, QBrush(tint))
        colour = self.board[cell]
        tile = inner.adjusted(size * 0.08, size * 0.08, -size * 0.08, -size * 0.08)
        if colour:
            self._paint_tile(painter, tile, colour, 255)
        elif cell in self.cell_choices:
            if cell == self.hover_cell and self.ghost_colour:
                self._paint_tile(painter, tile, self.ghost_colour, 110)
            else:
                painter.setPen(Qt.PenStyle.NoPen)
                painter.setBrush(QBrush(CHOICE))
                painter.drawEllipse(inner.center(), size * 0.07, size * 0.07)

    def _paint_tile(self, painter: QPainter, rect: QRectF, colour: int, alpha: int) -> None:
        fill = QColor(TILE_COLOURS[colour])
        fill.setAlpha(alpha)
        edge = QColor("#7a5c00" if colour == 1 else "#000000")
        edge.setAlpha(alpha)
        painter.setPen(QPen(edge, max(1.0, rect.width() * 0.04)))
        painter.setBrush(QBrush(fill))
        painter.drawRoundedRect(rect, rect.width() * 0.14, rect.width() * 0.14)
        # The side's shape in the middle: Jaune and Noir apart by more than their colours.
        shape = QColor("#7a5c00" if colour == 1 else "#bdbdbd")
        shape.setAlpha(alpha)
        paint_mark(painter, "discorder", colour, rect.center(), rect.width() * 0.2, shape)

    def _paint_coordinates(self, painter: QPainter, left: float, top: float, size: float) -> None:
        painter.setPen(QPen(QColor("#555555")))
        font = QFont(painter.font())
        font.setPixelSize(max(8, int(size * 0.26)))
        painter.setFont(font)
        for column in range(WIDTH):
            cell = self.cell_from_display(column, HEIGHT - 1)
            painter.drawText(
                QRectF(left + column * size, top + HEIGHT * size + 4, size, size * 0.4),
                Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop,
                "abcdefgh"[cell % WIDTH],
            )
        for row in range(HEIGHT):
            cell = self.cell_from_display(0, row)
            painter.drawText(
                QRectF(left - size * 0.45, top + row * size, size * 0.35, size),
                Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter,
                str(cell // WIDTH + 1),
            )

    def _peg_rect(self, site: int, size: float) -> QRectF:
        centre = QPointF(self.site_center(site))
        return QRectF(centre.x() - size * 0.36, centre.y() - size * 0.07, size * 0.72, size * 0.14)

    def _paint_peg(self, painter: QPainter, site: int, size: float, alpha: int) -> None:
        rect = self._peg_rect(site, size)
        if site == self.last_site:
            glow = rect.adjusted(-size * 0.06, -size * 0.06, size * 0.06, size * 0.06)
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(QBrush(QColor(HIGHLIGHT)))
            painter.drawRoundedRect(glow, glow.height() / 2, glow.height() / 2)
        fill = QColor(PEG)
        fill.setAlpha(alpha)
        painter.setPen(QPen(QColor(0, 0, 0, alpha), 1))
        painter.setBrush(QBrush(fill))
        painter.drawRoundedRect(rect, rect.height() / 2, rect.height() / 2)

    def _paint_site_choice(self, painter: QPainter, site: int, size: float) -> None:
        rect = self._peg_rect(site, size)
        pen = QPen(CHOICE, max(1.5, size * 0.035), Qt.PenStyle.DashLine)
        painter.setPen(pen)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawRoundedRect(rect, rect.height() / 2, rect.height() / 2)

    def _paint_run(self, painter: QPainter, run: RunView, size: float) -> None:
        # A bar through the run's tiles (rows and columns cross rather than overlap), and a
        # badge at its end naming whom it scores for as things stand ("?" while pending).
        start = self.cell_rect(run.cells[0]).center()
        end = self.cell_rect(run.cells[-1]).center()
        colour = RUN_PENS[run.status]
        pen = QPen(colour, max(2.0, size * 0.08))
        pen.setCapStyle(Qt.PenCapStyle.RoundCap)
        if run.status == "pending":
            pen.setStyle(Qt.PenStyle.DashLine)
        painter.setPen(pen)
        painter.drawLine(start, end)
        scorer = run.scorer
        badge = QRectF(0, 0, size * 0.34, size * 0.34)
        # The badge sits by the run's right end (a row) or top end (a column) as the player
        # sees the board, toward the cell's lower or upper right corner, so a row's badge and
        # a column's never cover each other, nor a peg on the grid line.
        if abs(end.x() - start.x()) > abs(end.y() - start.y()):
            tip = end if end.x() > start.x() else start
            badge.moveCenter(tip + QPointF(size * 0.3, size * 0.28))
        else:
            tip = end if end.y() < start.y() else start
            badge.moveCenter(tip + QPointF(size * 0.3, -size * 0.28))
        painter.setPen(QPen(colour, max(1.5, size * 0.045)))
        painter.setBrush(QBrush(QColor("#ffffff")))
        painter.drawEllipse(badge)
        font = QFont(painter.font())
        font.setBold(True)
        font.setPixelSize(max(7, int(size * 0.21)))
        painter.setFont(font)
        text = "?" if scorer is None else TILE_NAMES[scorer][0]
        painter.setPen(QPen(colour))
        painter.drawText(badge, Qt.AlignmentFlag.AlignCenter, text)

    def _paint_tray(self, painter: QPainter, left: float, top: float, size: float) -> None:
        """The supply: the pegs not yet placed, and each player's tiles in hand."""
        font = QFont(painter.font())
        font.setPixelSize(max(8, int(size * 0.24)))
        painter.setFont(font)
        painter.setPen(QPen(QColor("#333333")))
        label = QRectF(left, top, size * 1.5, size * 0.5)
        painter.drawText(
            label,
            Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft,
            QCoreApplication.translate("DiscorderCanvas", "Pegs"),
        )
        for index in range(PEGS):
            rect = QRectF(left + size * (1.1 + index * 0.36), top + size * 0.08, size * 0.14, 0)
            rect.setHeight(size * 0.34)
            if index < self.pegs_left:
                painter.setPen(QPen(QColor("#000000"), 1))
                painter.setBrush(QBrush(PEG))
            else:
                painter.setPen(QPen(QColor("#aaaaaa"), 1, Qt.PenStyle.DotLine))
                painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawRoundedRect(rect, rect.width() / 2, rect.width() / 2)
        x = left + size * 4.9
        for seat in (1, 2):
            tile = QRectF(x, top + size * 0.1, size * 0.3, size * 0.3)
            self._paint_tile(painter, tile, seat, 255)
            painter.setPen(QPen(QColor("#333333")))
            painter.drawText(
                QRectF(x + size * 0.38, top, size * 1.2, size * 0.5),
                Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft,
                f"× {self.tiles_left[seat - 1]}",
            )
            x += size * 1.55
