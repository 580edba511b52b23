"""Each player's clock beside their name in the table's players list.

The players list is a list of text lines (``ui.screens.table_parts.PlayersPanel``); a clocked
table draws a clock at the right end of each line, in a box of one fixed width (the widest
face, ``0:00:00``), so nothing moves as the figures change or as tenths appear.  The running
clock's box is highlighted; a running clock under 10 s shows tenths and turns red.

``clock_faces`` turns the table's ``ClockDisplay`` (``client.tabletop.table_clock``: the chain's
figures, the running one measured here since it started) into what each line shows; the
table screen repaints them from a timer, so they tick without a single message on the
network.  A clock this peer cannot know (it restarted while that clock ran) shows ``?``
until the next verdict, as the table's core says.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRect, QSize, Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPainter
from PySide6.QtWidgets import QListWidget, QStyledItemDelegate, QStyleOptionViewItem, QWidget

from client.rules.clock import clock_face
from client.tabletop.table_clock import ClockDisplay
from ui.theme import ERROR, HIGHLIGHT

__all__ = ["CLOCK_ROLE", "ClockDelegate", "ClockFace", "clock_faces", "show_clock_faces"]

CLOCK_ROLE = int(Qt.ItemDataRole.UserRole) + 1
"""The item data that holds a line's ``ClockFace`` (None: no clock on that line)."""

WIDEST = "0:00:00"
"""The widest face a clock shows (a day at most): the box is always this wide."""

LOW_BACKGROUND = "#ffd6d6"


@dataclass(frozen=True)
class ClockFace:
    """One seat's clock as its line shows it."""

    text: str
    """``4:07``, ``9.8`` under 10 s, ``?`` when not known here."""
    running: bool
    low: bool
    """Under 10 s: tenths, in red."""


def clock_faces(display: ClockDisplay, seats: tuple[int, ...]) -> dict[int, ClockFace]:
    """The face of each of ``seats`` at the moment ``display`` was read."""
    faces = {}
    for seat in seats:
        left = display.of(seat)
        running = seat == display.running
        if left is None:
            faces[seat] = ClockFace("?", running, low=False)
            continue
        faces[seat] = ClockFace(clock_face(left, display.low_ms), running, left < display.low_ms)
    return faces


def show_clock_faces(lines: QListWidget, display: ClockDisplay | None) -> None:
    """Give each line of ``lines`` (its seat in ``UserRole``) its clock as ``display`` has
    it, or none; only a face that changed is set again, so a tick repaints one line."""
    seats = tuple(lines.item(row).data(Qt.ItemDataRole.UserRole) for row in range(lines.count()))
    faces = {} if display is None else clock_faces(display, seats)
    for row, seat in enumerate(seats):
        item = lines.item(row)
        face = faces.get(seat)
        if item.data(CLOCK_ROLE) != face:
            item.setData(CLOCK_ROLE, face)


class ClockDelegate(QStyledItemDelegate):
    """Draws a line's text, then its clock in a fixed box at the right end."""

    MARGIN = 6

    def clock_font(self, base: QFont) -> QFont:
        font = QFont(base)
        font.setBold(True)
        font.setPointSizeF(base.pointSizeF() * 1.1 if base.pointSizeF() > 0 else 10)
        return font

    def box_width(self, base: QFont) -> int:
        """The width of every clock's box: the widest face and a margin each side."""
        return QFontMetrics(self.clock_font(base)).horizontalAdvance(WIDEST) + 2 * self.MARGIN

    def _face(self, index: QModelIndex | QPersistentModelIndex) -> ClockFace | None:
        face = index.data(CLOCK_ROLE)
        return face if isinstance(face, ClockFace) else None

    def _text_option(
        self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
    ) -> QStyleOptionViewItem:
        """The line's own option, its text kept clear of the clock's box."""
        shown = QStyleOptionViewItem(option)
        if self._face(index) is not None:
            rect = QRect(shown.rect)
            rect.setRight(rect.right() - self.box_width(option.font) - self.MARGIN)
            shown.rect = rect
        return shown

    def paint(
        self,
        painter: QPainter,
        option: QStyleOptionViewItem,
        index: QModelIndex | QPersistentModelIndex,
    ) -> None:
        super().paint(painter, self._text_option(option, index), index)
        face = self._face(index)
        if face is None:
            return
        line = QRect(option.rect)
        width = self.box_width(option.font)
        box = QRect(line.right() - width, line.top() + 2, width, line.height() - 4)
        painter.save()
        if face.running:
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(QColor(LOW_BACKGROUND if face.low else HIGHLIGHT))
            painter.drawRoundedRect(box, 4, 4)
        painter.setFont(self.clock_font(option.font))
        painter.setPen(QColor(ERROR) if face.low else QColor("#111111"))
        inner = box.adjusted(self.MARGIN, 0, -self.MARGIN, 0)
        painter.drawText(
            inner, int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter), face.text
        )
        painter.restore()

    def sizeHint(
        self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
    ) -> QSize:
        size = super().sizeHint(self._text_option(option, index), index)
        if self._face(index) is None:
            return size
        height = QFontMetrics(self.clock_font(option.font)).height() + 6
        return QSize(size.width() + self.box_width(option.font), max(size.height(), height))

    def clock_box(self, widget: QWidget, row_rect: QRect) -> QRect:
        """Where the clock of a line drawn in ``row_rect`` sits (tests, screenshots)."""
        width = self.box_width(widget.font())
        return QRect(row_rect.right() - width, row_rect.top() + 2, width, row_rect.height() - 4)
