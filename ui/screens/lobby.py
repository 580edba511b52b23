"""The lobby screen: seats, fingerprints, ready marks, the invite to copy, start.

It shows a ``LobbyModel`` (client/lobby_model.py) and re-reads it on every change; the
player's actions go to a ``LobbyIntents``.  The network table drives both; until then, the
screen can be shown with a model filled by hand (tests, screenshots).
"""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP, Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from client.lobby_model import LobbyIntents, LobbyModel
from ui.theme import ERROR, seat_icon

COLUMNS = (
    QT_TRANSLATE_NOOP("LobbyScreen", "Seat"),
    QT_TRANSLATE_NOOP("LobbyScreen", "Name"),
    QT_TRANSLATE_NOOP("LobbyScreen", "Fingerprint"),
    QT_TRANSLATE_NOOP("LobbyScreen", "Kind"),
    QT_TRANSLATE_NOOP("LobbyScreen", "Ready"),
)


class LobbyScreen(QWidget):
    leaveRequested = Signal()

    def __init__(self) -> None:
        super().__init__()
        self.model: LobbyModel | None = None
        self.intents: LobbyIntents | None = None
        self._unsubscribe = lambda: None

        self.title = QLabel()
        self.title.setStyleSheet("font-size: 16px; font-weight: bold;")
        self.failure = QLabel()
        self.failure.setWordWrap(True)
        self.failure.setStyleSheet(
            f"color: {ERROR}; border: 1px solid {ERROR}; padding: 6px; font-weight: bold;"
        )
        self.failure.hide()
        self.invite = QLineEdit()
        self.invite.setReadOnly(True)
        self.copy_invite = QPushButton(self.tr("Copy invite"))
        invite_row = QHBoxLayout()
        invite_row.addWidget(QLabel(self.tr("Invite")))
        invite_row.addWidget(self.invite, 1)
        invite_row.addWidget(self.copy_invite)
        self.seats = QTableWidget(0, len(COLUMNS))
        self.seats.setHorizontalHeaderLabels([self.tr(str(column)) for column in COLUMNS])
        self.seats.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.seats.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        header = self.seats.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        self.seats.verticalHeader().hide()
        self.ready = QPushButton(self.tr("I am ready"))
        self.ready.setCheckable(True)
        self.add_bot = QPushButton(self.tr("Add a bot"))
        self.remove_bot = QPushButton(self.tr("Remove bot"))
        self.start = QPushButton(self.tr("Start the game"))
        self.leave = QPushButton(self.tr("Leave"))
        buttons = QHBoxLayout()
        for button in (self.ready, self.add_bot, self.remove_bot, self.start, self.leave):
            buttons.addWidget(button)
        self.status = QLabel()
        layout = QVBoxLayout(self)
        layout.addWidget(self.title)
        layout.addWidget(self.failure)
        layout.addLayout(invite_row)
        layout.addWidget(self.seats, 1)
        layout.addLayout(buttons)
        layout.addWidget(self.status)

        self.copy_invite.clicked.connect(self._copy_invite)
        self.ready.toggled.connect(lambda on: self.intents and self.intents.set_ready(on))
        self.add_bot.clicked.connect(lambda: self.intents and self.intents.add_bot())
        self.remove_bot.clicked.connect(self._remove_bot)
        self.start.clicked.connect(lambda: self.intents and self.intents.start())
        self.leave.clicked.connect(self._leave)

    def set_model(self, model: LobbyModel, intents: LobbyIntents | None) -> None:
        self._unsubscribe()
        self.model, self.intents = model, intents
        self._unsubscribe = model.subscribe(self.refresh)
        self.refresh()

    def refresh(self) -> None:
        if self.model is None:
            return
        view = self.model.view
        game = view.game + (f" ({view.options})" if view.options else "")
        if view.is_host:
            self.title.setText(self.tr("You host this table: {game}").format(game=game))
        else:
            self.title.setText(self.tr("Table: {game}").format(game=game))
        self.invite.setText(view.invite)
        self.copy_invite.setEnabled(bool(view.invite))
        self.failure.setText(view.failure)
        self.failure.setVisible(bool(view.failure))
        self.seats.setRowCount(len(view.seats))
        for row, seat in enumerate(view.seats):
            you = self.tr(" (you)") if seat.is_mine else ""
            name = seat.name + you if seat.taken else self.tr("— free —")
            kind = (self.tr("bot") if seat.is_bot else self.tr("person")) if seat.taken else ""
            cells = (str(seat.seat), name, seat.fingerprint, kind, "✓" if seat.ready else "")
            for column, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if column == 0:
                    item.setIcon(seat_icon(seat.seat))
                self.seats.setItem(row, column, item)
        mine = view.my_seat
        self.ready.setEnabled(mine is not None and self.intents is not None)
        self.ready.blockSignals(True)
        self.ready.setChecked(bool(mine and mine.ready))
        self.ready.blockSignals(False)
        has_free = any(not seat.taken for seat in view.seats)
        self.add_bot.setEnabled(view.is_host and has_free and self.intents is not None)
        self.remove_bot.setEnabled(view.is_host and self.intents is not None)
        self.start.setEnabled(view.can_start and self.intents is not None)
        self.status.setText(view.status)

    def _copy_invite(self) -> None:
        QGuiApplication.clipboard().setText(self.invite.text())
        self.status.setText(self.tr("Invite copied: send it to the other players."))

    def _remove_bot(self) -> None:
        if self.model is None or self.intents is None:
            return
        row = self.seats.currentRow()
        seats = self.model.view.seats
        if 0 <= row < len(seats) and seats[row].is_bot:
            self.intents.remove_bot(seats[row].seat)
        else:
            self.status.setText(self.tr("Select a bot's seat to remove it."))

    def _leave(self) -> None:
        if self.intents is not None:
            self.intents.leave()
        self.leaveRequested.emit()
