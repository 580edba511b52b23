"""Drawing the Les Forbans world map: ports, routes, stacks, highlights; clicks to ports.

The canvas draws what it is given (the signed board of ``engines.forbans_board``, highlights,
the ports of threatened groups) on the layout of ``ui.boards.forbans_layout``, and maps a
click or a hover back to the nearest port; it knows no rules.

Scale: the map window keeps its aspect ratio and is centred in the widget; one map unit is
``scale`` pixels, and every size (discs, pens, fonts) follows it, so the picture is the same
at any widget size.  Labels are placed greedily where they overlap no disc and no other
label (recomputed only when the size changes); a port without room for its label still
names itself on hover.
"""

from __future__ import annotations

from PySide6.QtCore import (
    QCoreApplication,
    QEvent,
    QLineF,
    QPoint,
    QPointF,
    QRectF,
    QSize,
    Qt,
    Signal,
)
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QFontMetricsF,
    QMouseEvent,
    QPainter,
    QPaintEvent,
    QPen,
    QPolygonF,
)
from PySide6.QtWidgets import QSizePolicy, QWidget

from engines.forbans_map import ForbansMap, default_map
from ui.boards.forbans_layout import DISC, PERIOD, SEPARATION, K, positions, short_name, window
from ui.side_marks import paint_mark
from ui.side_palette import FORBANS_SIDES
from ui.theme import HIGHLIGHT

SEA = QColor("#e9f1f2")
FRAME = QColor("#6b5637")
GRID = QColor("#cbdadc")
SEA_ROUTE = QColor("#3d5a75")
ROAD = QColor("#8b5a2b")
PORT = QColor("#2b2b2b")
DANGER = QColor("#d32f2f")
LABEL = QColor("#333333")
CHOICE = QColor("#ff8f00")  # orange: neither side's colour, nor the last move's yellow
SIDE_COLOURS = {side: QColor(colour) for side, colour in FORBANS_SIDES.items()}
SIDE_LETTERS = {1: "B", 2: "V"}
OCEANS = (
    ("Océan Atlantique", -38, 24),
    ("Océan Pacifique", -146, 36),
    ("Océan Indien", 78, -22),
)


def side_of_count(count: int) -> int:
    """The side whose pieces a signed count stands for (1 Bleu, 2 Vert); 0 for none."""
    return 1 if count > 0 else 2 if count < 0 else 0


class ForbansCanvas(QWidget):
    """Paints the map; emits ``portClicked`` (left button) and ``backClicked`` (right)."""

    portClicked = Signal(int)
    backClicked = Signal()
    portHovered = Signal(object)  # a port number or None

    def __init__(self, board_map: ForbansMap | None = None) -> None:
        super().__init__()
        self.map = board_map or default_map()
        self.points = positions(board_map)
        self.west, self.south, self.east, self.north = window(board_map)
        self.board: tuple[int, ...] = (0,) * len(self.map.ports)
        self.last: tuple[int, ...] = ()
        self.selected: int | None = None
        self.movable: tuple[int, ...] = ()
        self.targets: tuple[int, ...] = ()
        self.ghost: tuple[int, int] | None = None  # (port, side) of a placement under the mouse
        self.threatened: tuple[int, ...] = ()
        self.last_liberties: tuple[int, ...] = ()
        self.legend: tuple[str, ...] = ()
        self.hovered: int | None = None
        self._labels: dict[int, QRectF] = {}
        self._labels_for: tuple[int, int] = (-1, -1)
        self.setMinimumSize(360, 220)
        self.setSizePolicy(QSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding))
        self.setMouseTracking(True)

    def sizeHint(self) -> QSize:
        return QSize(900, 460)

    # --- geometry -----------------------------------------------------------------------
    def scale(self) -> float:
        """Pixels per map unit."""
        width, height = self.east - self.west, self.north - self.south
        return min((self.width() - 8) / width, (self.height() - 8) / height)

    def map_rect(self) -> QRectF:
        s = self.scale()
        width, height = (self.east - self.west) * s, (self.north - self.south) * s
        return QRectF((self.width() - width) / 2, (self.height() - height) / 2, width, height)

    def to_pixels(self, x: float, y: float) -> QPointF:
        rect, s = self.map_rect(), self.scale()
        return QPointF(rect.left() + (x - self.west) * s, rect.top() + (self.north - y) * s)

    def port_point(self, port: int) -> QPointF:
        return self.to_pixels(*self.points[port])

    def port_center(self, port: int) -> QPoint:
        """The widget point at the centre of ``port`` (tests click there)."""
        return self.port_point(port).toPoint()

    def port_at(self, point: QPointF) -> int | None:
        """The port whose click area (half the separation around it) holds ``point``."""
        reach = SEPARATION / 2 * self.scale()
        best, best_distance = None, reach
        for port in range(len(self.points)):
            distance = QLineF(point, self.port_point(port)).length()
            if distance <= best_distance:
                best, best_distance = port, distance
        return best

    # --- input --------------------------------------------------------------------------
    def mousePressEvent(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.RightButton:
            self.backClicked.emit()
        elif event.button() == Qt.MouseButton.LeftButton:
            port = self.port_at(event.position())
            if port is not None:
                self.portClicked.emit(port)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        port = self.port_at(event.position())
        if port != self.hovered:
            self.hovered = port
            # Qt shows the tooltip; it names the port even where its label found no room.
            self.setToolTip("" if port is None else self.describe(port))
            self.portHovered.emit(port)
            self.update()

    def leaveEvent(self, _event: QEvent) -> None:
        if self.hovered is not None:
            self.hovered = None
            self.portHovered.emit(None)
            self.update()

    def describe(self, port: int) -> str:
        """The port's full name and what stands on it, for the tooltip."""
        count = self.board[port]
        name = self.map.ports[port].name
        if not count:
            return name
        side = "Bleu" if count > 0 else "Vert"
        size = abs(count)  # lupdate reads no call in the plural argument
        return self.tr("{name}: %n {side} piece(s)", "", size).format(name=name, side=side)

    # --- painting -----------------------------------------------------------------------
    def paintEvent(self, _event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        rect = self.map_rect()
        painter.fillRect(rect.adjusted(-3, -3, 3, 3), QBrush(FRAME))
        painter.fillRect(rect, QBrush(SEA))
        painter.save()
        painter.setClipRect(rect)
        self._paint_grid(painter)
        self._paint_routes(painter)
        self._paint_last_move(painter)
        painter.restore()
        s = self.scale()
        for port in range(len(self.points)):
            self._paint_port(painter, port, s)
        self._paint_labels(painter, s)
        self._paint_legend(painter, rect, s)
        painter.end()

    def _paint_grid(self, painter: QPainter) -> None:
        s = self.scale()
        painter.setPen(QPen(GRID, 1))
        for lon in range(-180, 181, 30):
            x = self.to_pixels(lon * K, 0).x()
            painter.drawLine(QPointF(x, 0), QPointF(x, self.height()))
        for lat in range(-60, 61, 30):
            y = self.to_pixels(0, lat).y()
            painter.setPen(QPen(GRID, 2 if lat == 0 else 1))
            painter.drawLine(QPointF(0, y), QPointF(self.width(), y))
        font = QFont(painter.font())
        font.setItalic(True)
        font.setPixelSize(max(9, int(s * 3.2)))
        painter.setFont(font)
        painter.setPen(QPen(QColor("#9fb6ba")))
        for name, lon, lat in OCEANS:
            painter.drawText(self.to_pixels(lon * K, lat), name)

    def _route_pen(self, main: bool, land: bool, s: float) -> QPen:
        width = max(2.4, s * 0.75) if main else max(1.0, s * 0.3)
        pen = QPen(ROAD if land else SEA_ROUTE, width)
        pen.setCapStyle(Qt.PenCapStyle.FlatCap)
        if land:
            pen.setStyle(Qt.PenStyle.DashLine)
        return pen

    def _paint_routes(self, painter: QPainter) -> None:
        s = self.scale()
        for route in self.map.routes:
            painter.setPen(self._route_pen(route.kind == "main", route.land, s))
            for segment in self.route_segments(route.a, route.b, route.pacific):
                painter.drawLine(segment)

    def route_segments(self, a: int, b: int, pacific: bool) -> list[QLineF]:
        """The drawn segments of a route: one, or two leaving and entering the map's edges."""
        start, end = self.points[a], self.points[b]
        if not pacific:
            return [QLineF(self.to_pixels(*start), self.to_pixels(*end))]
        # The far end lies one globe-width away, across the edge nearest to each end.
        shift = PERIOD if start[0] < end[0] else -PERIOD
        return [
            QLineF(self.to_pixels(*start), self.to_pixels(end[0] - shift, end[1])),
            QLineF(self.to_pixels(*end), self.to_pixels(start[0] + shift, start[1])),
        ]

    def _paint_last_move(self, painter: QPainter) -> None:
        if len(self.last) != 2:
            return
        route = self.map.route_between(*self.last)
        pacific = route.pacific if route is not None else False
        s = self.scale()
        colour = QColor(HIGHLIGHT)
        pen = QPen(colour, max(4.0, s * 1.4))
        pen.setCapStyle(Qt.PenCapStyle.RoundCap)
        painter.setPen(pen)
        segments = self.route_segments(self.last[0], self.last[1], pacific)
        for segment in segments:
            painter.drawLine(segment)
        if not pacific:
            self._paint_arrow_head(painter, segments[0], colour, s)

    def _paint_arrow_head(self, painter: QPainter, line: QLineF, colour: QColor, s: float) -> None:
        # The head sits just outside the target's disc, pointing at it.
        length = line.length()
        if length <= 0:
            return
        back = (DISC + 0.6) * s
        tip = line.pointAt(max(0.0, 1 - back / length))
        unit = QPointF(line.dx() / length, line.dy() / length)
        side = QPointF(-unit.y(), unit.x())
        size = max(6.0, s * 2.2)
        base = tip - unit * size
        head = QPolygonF([tip, base + side * size * 0.6, base - side * size * 0.6])
        painter.setPen(QPen(colour.darker(130), 1))
        painter.setBrush(QBrush(colour.darker(115)))
        painter.drawPolygon(head)

    def _paint_port(self, painter: QPainter, port: int, s: float) -> None:
        centre = self.port_point(port)
        radius = DISC * s
        count = self.board[port]
        if port in self.last:
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(QBrush(QColor(HIGHLIGHT)))
            painter.drawEllipse(centre, radius * 1.35, radius * 1.35)
        if port in self.last_liberties:
            pen = QPen(DANGER, max(1.5, s * 0.45), Qt.PenStyle.DotLine)
            painter.setPen(pen)
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawEllipse(centre, radius * 0.85, radius * 0.85)
        if count:
            self._paint_stack(painter, centre, radius, side_of_count(count), abs(count), 255)
        elif self.ghost is not None and self.ghost[0] == port:
            self._paint_stack(painter, centre, radius, self.ghost[1], 1, 110)
        else:
            painter.setPen(QPen(QColor("#ffffff"), 1))
            painter.setBrush(QBrush(PORT))
            dot = max(2.5, s * 0.8)
            painter.drawEllipse(centre, dot, dot)
        if port in self.threatened:
            pen = QPen(DANGER, max(2.0, s * 0.6), Qt.PenStyle.DashLine)
            painter.setPen(pen)
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawEllipse(centre, radius * 1.25, radius * 1.25)
        ring = None
        if port == self.selected:
            ring = QColor("#64b5f6")
        elif port in self.targets or (port in self.movable and self.selected is None):
            ring = QColor(CHOICE)
        if ring is not None:
            painter.setPen(QPen(ring, max(2.0, s * 0.6)))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawEllipse(centre, radius * 1.12, radius * 1.12)
            if port in self.targets and not count:
                ring.setAlpha(170)
                painter.setPen(Qt.PenStyle.NoPen)
                painter.setBrush(QBrush(ring))
                painter.drawEllipse(centre, radius * 0.45, radius * 0.45)
        if port == self.hovered:
            painter.setPen(QPen(QColor("#222222"), 1, Qt.PenStyle.DotLine))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawEllipse(centre, radius * 1.2, radius * 1.2)

    def _paint_stack(
        self, painter: QPainter, centre: QPointF, radius: float, side: int, count: int, alpha: int
    ) -> None:
        fill = QColor(SIDE_COLOURS[side])
        fill.setAlpha(alpha)
        edge = QColor(fill.darker(160))
        edge.setAlpha(alpha)
        # A pile: one shadow disc under the top one per extra piece (two at most).
        for depth in range(min(count, 3) - 1, 0, -1):
            offset = QPointF(0, radius * 0.22 * depth)
            painter.setPen(QPen(edge, 1))
            painter.setBrush(QBrush(fill.darker(125)))
            painter.drawEllipse(centre + offset, radius, radius)
        painter.setPen(QPen(edge, max(1.0, radius * 0.12)))
        painter.setBrush(QBrush(fill))
        painter.drawEllipse(centre, radius, radius)
        font = QFont(painter.font())
        font.setBold(True)
        font.setPixelSize(max(7, int(radius * 1.15)))
        painter.setFont(font)
        text = QColor("#ffffff")
        text.setAlpha(alpha)
        painter.setPen(QPen(text))
        box = QRectF(centre.x() - radius, centre.y() - radius, 2 * radius, 2 * radius)
        painter.drawText(box, Qt.AlignmentFlag.AlignCenter, str(count))
        # The camp's shape on the ring, top right: Bleu and Vert apart without colour.
        along = radius * 0.68
        mark = centre + QPointF(along, -along)
        paint_mark(painter, "forbans", side, mark, radius * 0.42, text, edge)

    def _label_font(self, s: float) -> QFont:
        font = QFont(self.font())
        font.setPixelSize(max(7, min(13, int(s * 2.6))))
        return font

    def label_rects(self) -> dict[int, QRectF]:
        """Where each port's label goes (ports without room are left out)."""
        size = (self.width(), self.height())
        if size == self._labels_for:
            return self._labels
        s = self.scale()
        metrics = QFontMetricsF(self._label_font(s))
        radius = DISC * s * 1.1
        discs = [
            QRectF(p.x() - radius, p.y() - radius, 2 * radius, 2 * radius)
            for p in (self.port_point(port) for port in range(len(self.points)))
        ]
        bounds = self.map_rect()
        placed: dict[int, QRectF] = {}
        for port in range(len(self.points)):
            text = short_name(self.map.ports[port].name)
            width, height = metrics.horizontalAdvance(text) + 2, metrics.height()
            centre = self.port_point(port)
            gap = radius + 1
            candidates = (
                QRectF(centre.x() + gap, centre.y() - height / 2, width, height),
                QRectF(centre.x() - gap - width, centre.y() - height / 2, width, height),
                QRectF(centre.x() - width / 2, centre.y() - gap - height, width, height),
                QRectF(centre.x() - width / 2, centre.y() + gap, width, height),
            )
            for box in candidates:
                if not bounds.contains(box):
                    continue
                if any(box.intersects(disc) for disc in discs):
                    continue
                if any(box.intersects(other) for other in placed.values()):
                    continue
                placed[port] = box
                break
        self._labels, self._labels_for = placed, size
        return placed

    def _paint_labels(self, painter: QPainter, s: float) -> None:
        painter.setFont(self._label_font(s))
        halo = QColor(SEA)
        halo.setAlpha(190)
        for port, box in self.label_rects().items():
            painter.fillRect(box, halo)
            painter.setPen(QPen(LABEL))
            painter.drawText(
                box, Qt.AlignmentFlag.AlignCenter, short_name(self.map.ports[port].name)
            )

    def _legend_box(self, rect: QRectF, width: float, height: float, s: float) -> QRectF:
        """The first corner of the map where the legend covers no port (bottom-left if none)."""
        radius = DISC * s * 1.3
        corners = (
            QRectF(rect.left() + 6, rect.bottom() - 6 - height, width, height),
            QRectF(rect.right() - 6 - width, rect.top() + 6, width, height),
            QRectF(rect.right() - 6 - width, rect.bottom() - 6 - height, width, height),
            QRectF(rect.left() + 6, rect.top() + 6, width, height),
        )
        for box in corners:
            grown = box.adjusted(-radius, -radius, radius, radius)
            if not any(grown.contains(self.port_point(port)) for port in range(len(self.points))):
                return box
        return corners[0]

    def _paint_legend(self, painter: QPainter, rect: QRectF, s: float) -> None:
        """Route kinds, the danger mark, and the camps, in the empty south-east Pacific."""
        font = QFont(self.font())
        font.setPixelSize(max(8, min(12, int(s * 2.6))))
        painter.setFont(font)
        metrics = QFontMetricsF(font)
        line = metrics.height() * 1.15
        sample = metrics.height() * 2.2
        rows: list[tuple[str, str]] = [
            ("main", QCoreApplication.translate("ForbansCanvas", "main route")),
            ("sec", QCoreApplication.translate("ForbansCanvas", "route")),
            ("land", QCoreApplication.translate("ForbansCanvas", "road")),
            ("danger", QCoreApplication.translate("ForbansCanvas", "one free port left")),
        ]
        rows += [("", text) for text in self.legend]
        width = sample + 18 + max(metrics.horizontalAdvance(text) for _, text in rows)
        box = self._legend_box(rect, width, line * len(rows) + 6, s)
        fill = QColor("#ffffff")
        fill.setAlpha(200)
        painter.setPen(QPen(QColor("#b0bec5"), 1))
        painter.setBrush(QBrush(fill))
        painter.drawRoundedRect(box, 4, 4)
        y = box.top() + 3
        for kind, text in rows:
            mid = y + line / 2
            left = box.left() + 5
            if kind in ("main", "sec", "land"):
                painter.setPen(self._route_pen(kind == "main", kind == "land", s))
                painter.drawLine(QPointF(left, mid), QPointF(left + sample, mid))
            elif kind == "danger":
                painter.setPen(QPen(DANGER, 2, Qt.PenStyle.DashLine))
                painter.setBrush(Qt.BrushStyle.NoBrush)
                r = line * 0.36
                painter.drawEllipse(QPointF(left + sample / 2, mid), r, r)
            painter.setPen(QPen(LABEL))
            offset = 0.0 if not kind else sample + 6
            painter.drawText(
                QRectF(left + offset, y, box.width() - offset, line),
                Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft,
                text,
            )
            y += line
