"""The lobby screen: seats, fingerprints, ready marks, the invite to copy, start.

It shows a ``LobbyModel`` (client/node/lobby_model.py) and re-reads it on every change; the
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

from client.node.lobby_model import LobbyIntents, LobbyModel, LobbySeat
from ui.bot_names import shown_bot_name
from ui.control_names import name_screen
from ui.game_names import game_name
from ui.option_words import titled_game
from ui.text_size import heading
from ui.theme import ERROR, side_icon
from ui.window_words import window_words

# What each kind of failed join means for the player (client.node.joining.JOIN_FAILURE_KINDS);
# the words of whoever ended the join follow it.
FAILURES = {
    "refused": QT_TRANSLATE_NOOP("LobbyScreen", "The host refused to seat you."),
    "unreachable": QT_TRANSLATE_NOOP(
        "LobbyScreen",
        "Nobody answered at that address: check it, and that the host's palabre is running.",
    ),
    "wrong-host-key": QT_TRANSLATE_NOOP(
        "LobbyScreen",
        "The host's key does not match the invite: this is not the table you were invited to.",
    ),
    "version-mismatch": QT_TRANSLATE_NOOP(
        "LobbyScreen", "The host runs another version of palabre or of the game's rules."
    ),
    "table-full": QT_TRANSLATE_NOOP(
        "LobbyScreen", "Every seat at that table is taken. You can still watch the game."
    ),
    "wrong-secret": QT_TRANSLATE_NOOP(
        "LobbyScreen",
        "This table admits only players with its invite: ask the host for it and paste it.",
    ),
    "lost": QT_TRANSLATE_NOOP("LobbyScreen", "The host left before the game started."),
}

WATCHABLE = frozenset({"table-full"})
"""The failed joins after which the table can still be watched (the lobby offers *Watch*)."""

COLUMNS = (
    QT_TRANSLATE_NOOP("LobbyScreen", "Seat"),
    QT_TRANSLATE_NOOP("LobbyScreen", "Name"),
    QT_TRANSLATE_NOOP("LobbyScreen", "Fingerprint"),
    QT_TRANSLATE_NOOP("LobbyScreen", "Kind"),
    QT_TRANSLATE_NOOP("LobbyScreen", "Ready"),
)


class LobbyScreen(QWidget):
    leaveRequested = Signal()
    watchRequested = Signal()  # join the same table again, to watch it without a seat

    def __init__(self) -> None:
        super().__init__()
        self.model: LobbyModel | None = None
        self.intents: LobbyIntents | None = None
        self._unsubscribe = lambda: None

        self.title = QLabel()
        heading(self.title, 1.3)
        self.failure = QLabel()
        self.failure.setWordWrap(True)
        self.failure.setStyleSheet(
            f"color: {ERROR}; border: 1px solid {ERROR}; padding: 6px; font-weight: bold;"
        )
        self.failure.hide()
        self.warnings = QLabel()
        self.warnings.setWordWrap(True)
        self.warnings.setStyleSheet(f"color: {ERROR}; padding: 6px;")
        self.warnings.hide()
        # The table's clock, and at two machines what such a clock cannot do.
        self.clock = QLabel()
        self.clock.setWordWrap(True)
        self.clock.setStyleSheet("background: #eef4ff; border: 1px solid #9bb4e0; padding: 6px;")
        self.clock.hide()
        self.invite = QLineEdit()
        self.invite.setReadOnly(True)
        self.copy_invite = QPushButton(self.tr("Copy invite"))
        # The invite is the host's to give: a joiner's lobby has none to show, so no empty box.
        self.invite_row = QWidget()
        invite_row = QHBoxLayout(self.invite_row)
        invite_row.setContentsMargins(0, 0, 0, 0)
        invite_row.addWidget(QLabel(self.tr("Invite")))
        invite_row.addWidget(self.invite, 1)
        invite_row.addWidget(self.copy_invite)
        # What a host checks when nobody gets in: the first table hosted on Windows or macOS
        # meets the system's firewall, which asks once whether palabre may accept connections.
        self.reach_hint = QLabel(
            self.tr(
                "Nobody can join? They must be on the same network as you and paste the whole "
                "invite. Your firewall must let palabre accept connections: Windows and macOS "
                "ask the first time you host a table; answer Allow (for a private network)."
            )
        )
        self.reach_hint.setWordWrap(True)
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
        self.remove_player = QPushButton(self.tr("Send player away"))
        self.remove_player.setToolTip(
            self.tr("The selected player leaves the table and cannot come back to it.")
        )
        self.start = QPushButton(self.tr("Start the game"))
        self.leave = QPushButton(self.tr("Leave"))
        self.watch = QPushButton(self.tr("Watch"))
        self.watch.setToolTip(self.tr("Follow the game without a seat, as a spectator."))
        self.watch.hide()
        buttons = QHBoxLayout()
        for button in (
            self.watch,
            self.ready,
            self.add_bot,
            self.remove_bot,
            self.remove_player,
            self.start,
            self.leave,
        ):
            buttons.addWidget(button)
        self.status = QLabel()
        layout = QVBoxLayout(self)
        layout.addWidget(self.title)
        layout.addWidget(self.failure)
        layout.addWidget(self.warnings)
        layout.addWidget(self.clock)
        layout.addWidget(self.invite_row)
        layout.addWidget(self.reach_hint)
        layout.addWidget(self.seats, 1)
        layout.addLayout(buttons)
        layout.addWidget(self.status)

        self.copy_invite.clicked.connect(self._copy_invite)
        self.ready.toggled.connect(lambda on: self.intents and self.intents.set_ready(on))
        self.add_bot.clicked.connect(lambda: self.intents and self.intents.add_bot())
        self.remove_bot.clicked.connect(self._remove_bot)
        self.remove_player.clicked.connect(self._remove_player)
        self.start.clicked.connect(lambda: self.intents and self.intents.start())
        self.leave.clicked.connect(self._leave)
        self.watch.clicked.connect(self.watchRequested)
        name_screen(self)

    def set_model(self, model: LobbyModel, intents: LobbyIntents | None) -> None:
        self._unsubscribe()
        self.model, self.intents = model, intents
        self._unsubscribe = model.subscribe(self.refresh)
        self.refresh()

    def refresh(self) -> None:
        if self.model is None:
            return
        view = self.model.view
        game = titled_game(game_name(view.game), view.options)
        if view.is_host and view.failure:
            self.title.setText(self.tr("Your table could not be opened"))
        elif view.is_host and not view.invite:  # not open until it listens: it may not
            self.title.setText(self.tr("Opening your table…"))
        elif view.is_host:
            self.title.setText(self.tr("You host this table: {game}").format(game=game))
        elif view.host_name:
            self.title.setText(
                self.tr("{host}'s table: {game}").format(host=view.host_name, game=game)
            )
        elif view.game:
            self.title.setText(self.tr("Table: {game}").format(game=game))
        elif view.failure:
            self.title.setText(self.tr("Could not join the table"))
        else:
            self.title.setText(self.tr("Joining the table…"))
        self.clock.setText(self.clock_text(view.clock, view.machines))
        self.clock.setVisible(bool(view.clock))
        self.invite.setText(view.invite)
        self.copy_invite.setEnabled(bool(view.invite))
        self.invite_row.setVisible(bool(view.invite) and not view.failure)
        open_seat = any(not seat.taken for seat in view.seats)  # someone may still try to join
        self.reach_hint.setVisible(
            view.is_host and bool(view.invite) and not view.failure and open_seat
        )
        self.failure.setText(self.failure_text(view.failure_kind, view.failure))
        self.failure.setVisible(bool(view.failure))
        warnings = "\n".join(self.tr("Careful: {warning}").format(warning=w) for w in view.warnings)
        self.warnings.setText(warnings)
        self.warnings.setVisible(bool(view.warnings))
        self.seats.setRowCount(len(view.seats))
        for row, seat in enumerate(view.seats):
            if not seat.taken:
                name = self.tr("— free —")
            elif seat.is_bot and seat.runner:
                name = shown_bot_name(seat.seat, seat.runner, seat.level)
            else:
                name = seat.name
            if seat.is_mine and not seat.is_bot:
                name += self.tr(" (you)")
            kind = (self.tr("bot") if seat.is_bot else self.tr("person")) if seat.taken else ""
            cells = (str(seat.seat), name, seat.fingerprint, kind, "✓" if seat.ready else "")
            for column, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if column == 0:
                    item.setIcon(side_icon(view.game, seat.seat))
                self.seats.setItem(row, column, item)
        mine = view.my_seat
        live = self.intents is not None and not view.failure
        self.ready.setEnabled(mine is not None and live)
        self.ready.blockSignals(True)
        self.ready.setChecked(bool(mine and mine.ready))
        self.ready.blockSignals(False)
        has_free = any(not seat.taken for seat in view.seats)
        self.add_bot.setEnabled(has_free and live and mine is not None)
        self.remove_bot.setEnabled(
            live and any(_removable_bot(s) and s.is_mine for s in view.seats)
        )
        self.remove_player.setEnabled(view.is_host and live)
        self.start.setEnabled(view.can_start and live)
        self.start.setVisible(view.is_host)
        self.leave.setText(self.tr("Back") if view.failure else self.tr("Leave"))
        self.watch.setVisible(view.failure_kind in WATCHABLE)
        self.status.setText(window_words(view.status))

    def clock_text(self, clock: str, machines: int) -> str:
        """``Clock: 5 min + 3 s a move for each player.`` and, when only two machines are
        at the table, why neither can make the other lose on time ("" without a clock)."""
        if not clock:
            return ""
        minutes, _plus, seconds = clock.partition("+")
        said = self.tr("Clock: {minutes} min + {seconds} s a move for each player.").format(
            minutes=minutes, seconds=seconds
        )
        if machines == 2:
            said += "\n" + self.tr(
                "Only two computers are at this table, so neither can make the other's "
                "player lose on time: each palabre stops its own player at zero. The game's "
                "record marks as disputed every move the two computers timed differently."
            )
        return said

    def failure_text(self, kind: str, reason: str) -> str:
        """The failure explained for the player, then in the words of whoever ended it."""
        reason = window_words(reason)  # no command-line option to use in a window
        meaning = FAILURES.get(kind)
        if meaning is None:
            return reason
        return self.tr(str(meaning)) + "\n" + reason

    def _copy_invite(self) -> None:
        QGuiApplication.clipboard().setText(self.invite.text())
        self.status.setText(self.tr("Invite copied: send it to the other players."))

    def _remove_bot(self) -> None:
        if self.model is None or self.intents is None:
            return
        row = self.seats.currentRow()
        seats = self.model.view.seats
        if 0 <= row < len(seats) and _removable_bot(seats[row]):
            self.intents.remove_bot(seats[row].seat)
        else:
            self.status.setText(self.tr("Select a bot's seat to remove it."))

    def _remove_player(self) -> None:
        if self.model is None or self.intents is None:
            return
        row = self.seats.currentRow()
        seats = self.model.view.seats
        if 0 <= row < len(seats) and seats[row].taken and not _removable_bot(seats[row]):
            self.intents.remove_player(seats[row].seat)
        else:
            self.status.setText(self.tr("Select a player's seat to send them away."))

    def _leave(self) -> None:
        if self.intents is not None:
            self.intents.leave()
        self.leaveRequested.emit()


def _removable_bot(seat: LobbySeat) -> bool:
    """A bot a player added (*Remove bot* takes it off); a player's own seat their palabre's
    bot plays (``--bot``) is shown as a bot but is that player's: *Remove player* sends it
    away."""
    return seat.is_bot and not seat.own_bot
