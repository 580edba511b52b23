"""The start screen: your name, play alone against bots, host a table, join one.

Every action goes through the ``Launcher`` (client/launcher.py).  What it refuses is shown
in the message line, in the launcher's words; a local game it creates is handed on with
``sessionReady`` and the window switches to the table; a networked table (hosted or joined)
with ``tableReady``, and the window shows its lobby.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from client.bots import BOT_KINDS
from client.launcher import (
    DEFAULT_PORT,
    HostRequest,
    JoinRequest,
    Launcher,
    LaunchError,
    LocalRequest,
    parse_options,
)
from client.session_api import GameSession
from client.settings import RecentTable, SettingsStore
from ui.theme import ERROR


class SeatsBox(QSpinBox):
    """A seat count limited to what the chosen game allows."""

    def follow(self, launcher: Launcher, game: str) -> None:
        if not game:
            self.setEnabled(False)
            return
        engine = launcher.engine(game)
        default = engine.sample_params[0].get("seats") if engine.sample_params else None
        self.setRange(engine.min_seats, engine.max_seats)
        self.setValue(default if isinstance(default, int) else engine.max_seats)
        self.setEnabled(engine.min_seats != engine.max_seats)


class StartScreen(QWidget):
    sessionReady = Signal(object)  # a GameSession, not started yet
    tableReady = Signal(object)  # a NetSession in its lobby, not started yet

    def __init__(self, launcher: Launcher, store: SettingsStore) -> None:
        super().__init__()
        self.launcher = launcher
        self.store = store
        games = launcher.games()

        title = QLabel("palabre")
        title.setStyleSheet("font-size: 28px; font-weight: bold;")
        subtitle = QLabel("Board games on your LAN, argued over, signed by every player.")
        self.name = QLineEdit(store.settings.name)
        self.name.setMaxLength(32)
        self.fingerprint = QLabel("Fingerprint: made with your key when you first host or join.")
        self.fingerprint.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        who = QFormLayout()
        who.addRow("Your name", self.name)
        who.addRow("", self.fingerprint)

        # Play alone against bots
        self.local_game = QComboBox()
        self.local_game.addItems(games)
        self.local_seats = SeatsBox()
        self.local_my_seat = QSpinBox()
        self.local_bot_kind = QComboBox()
        self.local_bot_kind.addItems(BOT_KINDS)
        self.local_bot_kind.setCurrentText("sensible")
        self.local_pace = QSpinBox()
        self.local_pace.setRange(0, 5000)
        self.local_pace.setSingleStep(100)
        self.local_pace.setSuffix(" ms")
        self.local_pace.setValue(600)
        self.local_play = QPushButton("Play against bots")
        local_form = QFormLayout()
        local_form.addRow("Game", self.local_game)
        local_form.addRow("Seats", self.local_seats)
        local_form.addRow("Your seat", self.local_my_seat)
        local_form.addRow("Bots", self.local_bot_kind)
        local_form.addRow("Bots wait", self.local_pace)
        local_form.addRow(self.local_play)
        local_box = QGroupBox("Play alone against bots")
        local_box.setLayout(local_form)

        # Host a table
        self.host_game = QComboBox()
        self.host_game.addItems(games)
        self.host_options = QLineEdit(placeholderText="key=value, …")
        self.host_seats = SeatsBox()
        self.host_bots = QSpinBox()
        self.host_port = QSpinBox()
        self.host_port.setRange(1, 65535)
        self.host_port.setValue(DEFAULT_PORT)
        self.host_button = QPushButton("Host a table")
        host_form = QFormLayout()
        host_form.addRow("Game", self.host_game)
        host_form.addRow("Options", self.host_options)
        host_form.addRow("Seats", self.host_seats)
        host_form.addRow("Bots", self.host_bots)
        host_form.addRow("Port", self.host_port)
        host_form.addRow(self.host_button)
        host_box = QGroupBox("Host a table on the LAN")
        host_box.setLayout(host_form)

        # Join a table
        self.join_target = QLineEdit(placeholderText="host:port or a pasted invite")
        self.join_button = QPushButton("Join")
        self.recent = QListWidget()
        join_row = QHBoxLayout()
        join_row.addWidget(self.join_target, 1)
        join_row.addWidget(self.join_button)
        join_layout = QVBoxLayout()
        join_layout.addLayout(join_row)
        join_layout.addWidget(QLabel("Recent tables"))
        join_layout.addWidget(self.recent)
        join_box = QGroupBox("Join a table")
        join_box.setLayout(join_layout)

        self.open_file = QPushButton("Open a game file…")
        self.message = QLabel()
        self.message.setWordWrap(True)

        self.recent.setMaximumHeight(160)
        files = QVBoxLayout()
        files.addWidget(QLabel("Replay a finished game or check its signatures."))
        files.addWidget(self.open_file)
        files.addStretch(1)
        files_box = QGroupBox("Game files")
        files_box.setLayout(files)

        grid = QGridLayout()
        grid.addWidget(local_box, 0, 0)
        grid.addWidget(host_box, 0, 1)
        grid.addWidget(join_box, 0, 2)
        grid.addWidget(files_box, 1, 0)
        for column in range(3):
            grid.setColumnStretch(column, 1)
        self.name.setMaximumWidth(320)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(24, 16, 24, 16)
        layout.addWidget(title)
        layout.addWidget(subtitle)
        layout.addSpacing(8)
        layout.addLayout(who)
        layout.addSpacing(8)
        layout.addLayout(grid)
        layout.addWidget(self.message)
        layout.addStretch(1)

        self.name.editingFinished.connect(self._save_name)
        self.local_game.currentTextChanged.connect(self._local_game_changed)
        self.local_seats.valueChanged.connect(lambda n: self.local_my_seat.setRange(1, n))
        self.host_game.currentTextChanged.connect(self._host_game_changed)
        self.host_seats.valueChanged.connect(lambda n: self.host_bots.setRange(0, n - 1))
        self.local_play.clicked.connect(self.play_local)
        self.host_button.clicked.connect(self.host)
        self.join_button.clicked.connect(self.join)
        self.join_target.returnPressed.connect(self.join)
        self.recent.itemClicked.connect(self._recent_clicked)
        self.recent.itemDoubleClicked.connect(
            lambda item: (self._recent_clicked(item), self.join())
        )
        self.open_file.clicked.connect(
            lambda: self.say("Opening a game file arrives with the game log and replay.")
        )
        self._local_game_changed(self.local_game.currentText())
        self._host_game_changed(self.host_game.currentText())
        self.show_recent()
        if store.problem:
            self.say(store.problem, error=True)
        elif not games:
            self.say("No game is installed.", error=True)

    # --- showing ----------------------------------------------------------------------
    def say(self, text: str, *, error: bool = False) -> None:
        self.message.setStyleSheet(f"color: {ERROR};" if error else "")
        self.message.setText(text)

    def show_recent(self) -> None:
        self.recent.clear()
        for table in self.store.settings.recent:
            label = " — ".join(part for part in (table.address, table.game, table.label) if part)
            item = QListWidgetItem(label)
            item.setData(Qt.ItemDataRole.UserRole, table.address)
            self.recent.addItem(item)

    def _local_game_changed(self, game: str) -> None:
        self.local_seats.follow(self.launcher, game)
        self.local_my_seat.setRange(1, self.local_seats.value())

    def _host_game_changed(self, game: str) -> None:
        self.host_seats.follow(self.launcher, game)
        self.host_bots.setRange(0, self.host_seats.value() - 1)

    def _recent_clicked(self, item: QListWidgetItem) -> None:
        self.join_target.setText(item.data(Qt.ItemDataRole.UserRole))

    def _save_name(self) -> None:
        try:
            self.store.set_name(self.name.text())
        except ValueError as error:
            self.say(str(error), error=True)
            return
        self.name.setText(self.store.settings.name)

    # --- intents ----------------------------------------------------------------------
    def play_local(self) -> None:
        game = self.local_game.currentText()
        request = LocalRequest(
            game=game,
            seats=self.local_seats.value() if self.local_seats.isEnabled() else None,
            my_seat=self.local_my_seat.value(),
            bot_kind=self.local_bot_kind.currentText(),
            player_name=self.store.settings.name,
            bot_delay=self.local_pace.value() / 1000,
        )
        try:
            session: GameSession = self.launcher.play_local(request)
        except LaunchError as error:
            self.say(str(error), error=True)
            return
        self.say("")
        self.sessionReady.emit(session)

    def host(self) -> None:
        try:
            request = HostRequest(
                game=self.host_game.currentText(),
                seats=self.host_seats.value() if self.host_seats.isEnabled() else None,
                bots=self.host_bots.value(),
                port=self.host_port.value(),
                options=parse_options(self.host_options.text()),
            )
            session = self.launcher.host(request, self.store.settings.name)
        except LaunchError as error:
            self.say(str(error), error=True)
            return
        self.say("")
        self.tableReady.emit(session)

    def join(self) -> None:
        target = self.join_target.text().strip()
        try:
            session = self.launcher.join(JoinRequest(target), self.store.settings.name)
        except LaunchError as error:
            self.say(str(error), error=True)
            return
        self.say("")
        recent = self.store.settings.recent
        self.store.remember_table(
            next((t for t in recent if t.address == target), RecentTable(target))
        )
        self.tableReady.emit(session)
