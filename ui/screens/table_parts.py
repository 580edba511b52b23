"""The table screen's side panels: players, move list and chat.

Each panel is filled from a ``SessionSnapshot`` (and, for the players, the board's notes) and
holds no game state of its own beyond what it shows.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from client.sessions.session_api import ChatEntry, SessionSnapshot
from client.tabletop.table_clock import ClockDisplay
from ui.enter_keeper import keep_enter
from ui.notation import readable_notation
from ui.notices import notice_text
from ui.removal_words import removal_words
from ui.screens.player_clocks import CLOCK_ROLE, ClockDelegate, ClockFace, show_clock_faces
from ui.theme import NEUTRAL, side_colour, side_icon


class PlayersPanel(QListWidget):
    """One line per seat: colour, name, bot or you, to move, controlled by whom, notes; on a
    clocked table, the seat's clock at the end of its line (``ui.screens.player_clocks``)."""

    def __init__(self) -> None:
        super().__init__()
        self.setWordWrap(True)
        self.clock_delegate = ClockDelegate(self)
        self.setItemDelegate(self.clock_delegate)
        self._clocks: ClockDisplay | None = None

    def show_clocks(self, display: ClockDisplay | None) -> None:
        """Show every seat's clock as ``display`` has it (nothing without a clock)."""
        self._clocks = display
        show_clock_faces(self, display)

    def clock_of(self, row: int) -> ClockFace | None:
        """The clock the line ``row`` shows (None: no clock)."""
        face = self.item(row).data(CLOCK_ROLE)
        return face if isinstance(face, ClockFace) else None

    def show_players(self, snapshot: SessionSnapshot, notes: dict[int, str]) -> None:
        self.clear()
        game = snapshot.engine.name
        mover = snapshot.to_move
        for view in snapshot.seats:
            parts = [view.name]
            if view.is_mine and not view.is_bot:  # a bot this peer runs is not "you"
                parts.append(self.tr("(you)"))
            # A controller that is no seat (Consensus: 0) means nobody plays these pieces
            # any more; the board's note says why.
            taken_over = view.controller != view.seat
            if taken_over and any(other.seat == view.controller for other in snapshot.seats):
                parts.append(
                    self.tr("— played by {name}").format(name=snapshot.seat_name(view.controller))
                )
            if not view.present:
                parts.append(self.tr("— away"))
            if view.seat in snapshot.draw_offered_by:
                parts.append(self.tr("— offers a draw"))
            if view.seat in notes:
                parts.append(f"— {notes[view.seat]}")
            marker = "▶ " if view.seat == mover else "   "
            item = QListWidgetItem(side_icon(game, view.seat), marker + " ".join(parts))
            item.setData(Qt.ItemDataRole.UserRole, view.seat)
            if view.seat == mover:
                font = item.font()
                font.setBold(True)
                item.setFont(font)
            self.addItem(item)
        self.show_clocks(self._clocks)


def takeback_askers(snapshot: SessionSnapshot) -> dict[int, str]:
    """Who asked to take back each ply, by the table's notices (the last ask of a ply)."""
    askers: dict[int, str] = {}
    for entry in snapshot.chat:
        said = entry.notice
        if said is not None and said.key == "takeback-asked":
            values = said.values()
            if values.get("ply", "").isdigit() and "name" in values:
                askers[int(values["ply"])] = values["name"]
    return askers


class MoveList(QListWidget):
    """The plies in notation, each marked final (✓) or pending (…)."""

    def __init__(self) -> None:
        super().__init__()
        self.setWordWrap(True)

    def show_plies(self, snapshot: SessionSnapshot, viewing: int | None = None) -> None:
        """List the plies; ``viewing`` (a ply, 0 the start) is the one the board shows, else
        the list follows the game to its last ply."""
        if self.count() > len(snapshot.plies):
            self.clear()
        for ply in snapshot.plies[self.count() :]:
            # The colour of the pieces that moved (the seat's), as the board paints them.
            item = QListWidgetItem(side_icon(snapshot.engine.name, ply.seat), "")
            item.setData(Qt.ItemDataRole.UserRole, ply)
            self.addItem(item)
        askers = takeback_askers(snapshot)
        undone = {ply.ply - 1 for ply in snapshot.plies if ply.kind == "takeback"}
        late = {ply: seat for seat, ply in snapshot.lost_on_time}
        for row in range(self.count()):
            item = self.item(row)
            ply = item.data(Qt.ItemDataRole.UserRole)
            font = item.font()
            font.setStrikeOut(ply.ply in undone)  # the move a takeback undid, struck through
            item.setFont(font)
            who = snapshot.player_name(ply)
            if ply.kind == "takeback":  # the player who asked, not the one who appended it
                who = askers.get(ply.ply - 1, who)
                if ply.ply >= 2:  # in the colour of the move taken back: the asker's own
                    undone_seat = snapshot.plies[ply.ply - 2].seat
                    item.setIcon(side_icon(snapshot.engine.name, undone_seat))
            elif ply.player != ply.seat:
                who = self.tr("{player} for {seat}").format(
                    player=who, seat=snapshot.seat_name(ply.seat)
                )
            mark = "✓" if ply.ply <= snapshot.final_ply else "…"
            notation = readable_notation(snapshot.engine, ply.notation)
            if notation != ply.notation:
                item.setToolTip(ply.notation)
            if ply.kind == "takeback":
                notation = self.tr("ply {ply} taken back").format(ply=ply.ply - 1)
            elif ply.kind == "resign":  # the session's words are English ("Ana resigns")
                notation = self.tr("{name} resigns").format(name=snapshot.player_name(ply))
            elif ply.kind == "draw":
                notation = self.tr("draw agreed")
            elif ply.kind == "remove":  # the table's own ply: no player made it
                notation = removal_words(ply)
            if ply.ply in late:  # the ply had no effect: its seat resigned instead
                notation = self.tr("{name} lost on time").format(
                    name=snapshot.seat_name(late[ply.ply])
                )
            author = "" if ply.kind == "remove" else f"{who}  "
            item.setText(f"{ply.ply:>3}. {notation}   {author}{mark}")
        if viewing:
            self.setCurrentRow(viewing - 1)
            self.scrollToItem(self.item(viewing - 1))
        else:
            self.clearSelection()
            self.scrollToBottom()


class ChatPanel(QWidget):
    """The chat lines and a field to write one."""

    send = Signal(str)

    def __init__(self) -> None:
        super().__init__()
        self.game = ""
        """The game on the table: its authors' lines take their pieces' colour."""
        self.ending: Callable[[], str] = lambda: ""
        """The end of the game in the player's words, once it ended (the table's own
        summary, which the game-over notice carries, is the engine's English)."""
        self.lines = QListWidget()
        self.lines.setWordWrap(True)
        self.field = QLineEdit(placeholderText=self.tr("Say something to the table…"))
        self.field.setMaxLength(500)
        self.button = QPushButton(self.tr("Send"))
        row = QHBoxLayout()
        row.addWidget(self.field, 1)
        row.addWidget(self.button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.lines, 1)
        layout.addLayout(row)
        self.field.returnPressed.connect(self.send_line)
        keep_enter(self.field)  # Enter sends the line, never a screen shortcut
        self.button.clicked.connect(self.send_line)

    def send_line(self) -> None:
        text = self.field.text().strip()
        if text:
            self.send.emit(text)
            self.field.clear()

    def show_chat(self, entries: tuple[ChatEntry, ...]) -> None:
        self.lines.clear()
        for entry in entries:
            self.add(entry)

    def add(self, entry: ChatEntry) -> None:
        if entry.seat is None:
            said = entry.notice
            ending = self.ending() if said is not None and said.key == "game-over" else ""
            item = QListWidgetItem(ending or notice_text(entry))
            font = QFont(item.font())
            font.setItalic(True)
            item.setFont(font)
            item.setForeground(QBrush(QColor(NEUTRAL).darker(140)))
        else:
            item = QListWidgetItem(
                side_icon(self.game, entry.seat),
                self.tr("{author}: {text}").format(author=entry.author, text=entry.text),
            )
            item.setForeground(QBrush(side_colour(self.game, entry.seat).darker(130)))
        self.lines.addItem(item)
        self.lines.scrollToBottom()
