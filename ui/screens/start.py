"""The start screen: your name and fingerprint, play alone against bots, host a table, join
one (by address or invite, or with one click among the tables heard on the LAN), replay a
game file.

Every action goes through the ``Launcher`` (client/commands/launcher.py).  What it refuses is shown
in the message line, in the launcher's words; a local game it creates is handed on with
``sessionReady`` and the window switches to the table; a networked table (hosted or joined)
with ``tableReady``, and the window shows its lobby; a game file with ``replayRequested``.
Every table the player sat at is remembered among the recent tables (a hosted one once it
listens, a joined one once its host let the player in or the table was taken up again), with
every address its players listen at; *Rejoin* tries them in turn, and a full table's lobby
offers to watch it (``watch``).  Each says when, who sat and how it stands
(``recent_words``); a finished one offers *Replay* (its game file) instead of *Rejoin*.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFileDialog,
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

from client.bots import BOT_KINDS, level_of_kind
from client.commands.launcher import (
    DEFAULT_PORT,
    HostRequest,
    JoinRequest,
    Launcher,
    LocalRequest,
    parse_options,
)
from client.logs.table_facts import read_table_facts
from client.node.lobby_model import LobbyModel
from client.profile.settings import RecentTable, SettingsStore
from client.profile.table_files import TableFiles
from client.rules.errors import LaunchError
from client.runtime.mdns import TableFinder
from client.runtime.peer import game_dir
from client.sessions.net_session import NetSession
from client.sessions.session_api import GameSession
from ui.bot_names import level_word
from ui.control_names import name_screen
from ui.game_names import game_name
from ui.i18n import LANGUAGE_NAMES, LanguagePreference, resolve_language
from ui.screens.bot_speed import BotSpeedBox
from ui.screens.found_tables import FoundTablesBox
from ui.screens.recent_words import recent_words
from ui.screens.rules import RulesDialog
from ui.screens.start_keyboard import order_start
from ui.screens.time_control import TimeControlBox
from ui.scrolled import scrolled
from ui.text_size import heading
from ui.theme import ERROR
from ui.window_words import host_failure

RECENT_ROLE = Qt.ItemDataRole.UserRole + 1
"""A recent-tables item's ``RecentTable``."""
RECENT_FILE_ROLE = Qt.ItemDataRole.UserRole + 2
"""A recent-tables item's game file when that table is over (empty while it goes on)."""


def game_box(games: tuple[str, ...]) -> QComboBox:
    """A choice of game, each shown by its name (``game_name``) and holding its engine's."""
    box = QComboBox()
    for game in games:
        box.addItem(game_name(game), game)
    return box


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
    languageChosen = Signal(str)  # "en" or "fr": the language to switch the window to
    replayRequested = Signal(object)  # the Path of a game file to replay
    hostFailed = Signal()  # the hosted table could not open: back here, with the reason said

    def __init__(
        self, launcher: Launcher, store: SettingsStore, finder: TableFinder | None = None
    ) -> None:
        super().__init__()
        self.launcher = launcher
        self.store = store
        self.rules_dialog: RulesDialog | None = None
        self.language_preference = LanguagePreference(Path(store.path).parent)
        games = launcher.games()

        title = QLabel("palabre")
        heading(title, 2.3)
        subtitle = QLabel(self.tr("Board games on your LAN, argued over, signed by every player."))
        self.language = QComboBox()
        self.language.addItem(self.tr("Automatic (system)"), "")
        for code, language_name in LANGUAGE_NAMES.items():
            self.language.addItem(language_name, code)
        self.language.setCurrentIndex(
            max(0, self.language.findData(self.language_preference.load()))
        )
        title_row = QHBoxLayout()
        title_row.addWidget(title)
        title_row.addStretch(1)
        title_row.addWidget(QLabel(self.tr("Language")))
        title_row.addWidget(self.language)
        self.last_join: JoinRequest | None = None
        """The last table joined (to watch it when every seat is taken)."""
        self.last_local: LocalRequest | None = None
        """The settings of the last local game started (to play it again)."""
        self.name = QLineEdit(store.settings.name)
        self.name.setMaxLength(32)
        self.fingerprint = QLabel()
        self.fingerprint.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.fingerprint.setToolTip(
            self.tr(
                "Your key's fingerprint: the other players see it next to your name, and a "
                "host's fingerprint is in its invite."
            )
        )
        self.show_fingerprint()
        who = QFormLayout()
        who.addRow(self.tr("Your name"), self.name)
        who.addRow("", self.fingerprint)

        # Play alone against bots
        self.local_game = game_box(games)
        self.local_seats = SeatsBox()
        self.local_my_seat = QSpinBox()
        self.rules_button = QPushButton(self.tr("Rules…"))
        self.rules_button.setToolTip(self.tr("Read the rules of this game, with drawings"))
        local_game_row = QHBoxLayout()
        local_game_row.addWidget(self.local_game, 1)
        local_game_row.addWidget(self.rules_button)
        self.local_bot_kind = self._bot_kind_box()
        self.local_pace = BotSpeedBox()
        self.local_play = QPushButton(self.tr("Play against bots"))
        local_form = QFormLayout()
        local_form.addRow(self.tr("Game"), local_game_row)
        local_form.addRow(self.tr("Seats"), self.local_seats)
        local_form.addRow(self.tr("Your seat"), self.local_my_seat)
        local_form.addRow(self.tr("Bots"), self.local_bot_kind)
        local_form.addRow(self.tr("Bot speed"), self.local_pace)
        local_form.addRow(self.local_play)
        local_box = QGroupBox(self.tr("Play alone against bots"))
        local_box.setLayout(local_form)

        # Host a table
        self.host_game = game_box(games)
        self.host_options = QLineEdit(placeholderText=self.tr("key=value, …"))
        self.host_seats = SeatsBox()
        self.host_bots = QSpinBox()
        self.host_bot_kind = self._bot_kind_box()  # the level of the bots this host runs
        host_bots_row = QHBoxLayout()
        host_bots_row.addWidget(self.host_bots)
        host_bots_row.addWidget(self.host_bot_kind, 1)
        self.host_pace = BotSpeedBox()  # how long the bots this host runs wait to move
        self.host_clock = TimeControlBox()  # what START pins, as --clock does
        self.host_port = QSpinBox()
        self.host_port.setRange(1, 65535)
        self.host_port.setValue(DEFAULT_PORT)
        self.host_secret = QCheckBox(self.tr("Only players with the invite"))
        self.host_secret.setToolTip(
            self.tr(
                "The invite carries a secret: players who only know the address are refused. "
                "Send the invite to your players only."
            )
        )
        self.host_button = QPushButton(self.tr("Host a table"))
        host_form = QFormLayout()
        host_form.addRow(self.tr("Game"), self.host_game)
        host_form.addRow(self.tr("Options"), self.host_options)
        host_form.addRow(self.tr("Seats"), self.host_seats)
        host_form.addRow(self.tr("Bots"), host_bots_row)
        host_form.addRow(self.tr("Bot speed"), self.host_pace)
        host_form.addRow(self.tr("Clock"), self.host_clock)
        host_form.addRow(self.tr("Port"), self.host_port)
        host_form.addRow(self.host_secret)
        host_form.addRow(self.host_button)
        host_box = QGroupBox(self.tr("Host a table on the LAN"))
        host_box.setLayout(host_form)

        # Join a table
        self.join_target = QLineEdit(placeholderText=self.tr("host:port or a pasted invite"))
        self.join_button = QPushButton(self.tr("Join"))
        self.recent = QListWidget()
        self.rejoin_button = QPushButton(self.tr("Rejoin"))
        self.rejoin_button.setToolTip(
            self.tr(
                "Go back to the selected table through any of its players still there, one "
                "address after another until one answers."
            )
        )
        self.rejoin_button.setEnabled(False)
        join_row = QHBoxLayout()
        join_row.addWidget(self.join_target, 1)
        join_row.addWidget(self.join_button)
        recent_row = QHBoxLayout()
        recent_row.addWidget(QLabel(self.tr("Recent tables")), 1)
        recent_row.addWidget(self.rejoin_button)
        join_layout = QVBoxLayout()
        join_layout.addLayout(join_row)
        join_layout.addLayout(recent_row)
        join_layout.addWidget(self.recent)
        join_box = QGroupBox(self.tr("Join a table"))
        join_box.setLayout(join_layout)

        self.found = FoundTablesBox(finder, games)
        self.found.joinRequested.connect(self.join_found)

        self.open_file = QPushButton(self.tr("Open a game file…"))
        self.message = QLabel()
        self.message.setWordWrap(True)

        self.recent.setMaximumHeight(160)
        self.recent.setWordWrap(True)  # a table's addresses wrap rather than run off
        self.recent.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        files = QVBoxLayout()
        files.addWidget(QLabel(self.tr("Replay a finished game or check its signatures.")))
        files.addWidget(self.open_file)
        files.addStretch(1)
        files_box = QGroupBox(self.tr("Game files"))
        files_box.setLayout(files)

        grid = QGridLayout()
        grid.addWidget(local_box, 0, 0)
        grid.addWidget(host_box, 0, 1)
        grid.addWidget(join_box, 0, 2)
        grid.addWidget(files_box, 1, 0)
        grid.addWidget(self.found, 1, 1, 1, 2)
        for column in range(3):
            grid.setColumnStretch(column, 1)
        self.name.setMaximumWidth(320)
        layout = QVBoxLayout(scrolled(self))  # big system text: scroll, never clip
        layout.setContentsMargins(24, 16, 24, 16)
        layout.addLayout(title_row)
        layout.addWidget(subtitle)
        layout.addSpacing(8)
        layout.addLayout(who)
        layout.addSpacing(8)
        layout.addLayout(grid)
        layout.addWidget(self.message)
        layout.addStretch(1)

        self.name.editingFinished.connect(self._save_name)
        self.local_game.currentIndexChanged.connect(
            lambda _index: self._local_game_changed(self.local_game.currentData() or "")
        )
        self.local_seats.valueChanged.connect(lambda n: self.local_my_seat.setRange(1, n))
        self.host_game.currentIndexChanged.connect(
            lambda _index: self._host_game_changed(self.host_game.currentData() or "")
        )
        self.host_seats.valueChanged.connect(lambda n: self.host_bots.setRange(0, n - 1))
        self.local_play.clicked.connect(self.play_local)
        self.host_button.clicked.connect(self.host)
        self.join_button.clicked.connect(self.join)
        self.join_target.returnPressed.connect(self.join)
        self.recent.itemClicked.connect(self._recent_clicked)
        self.recent.currentItemChanged.connect(lambda item, _before: self._recent_chosen(item))
        self.recent.itemDoubleClicked.connect(lambda _item: self.rejoin())
        self.rejoin_button.clicked.connect(self.rejoin)
        self.open_file.clicked.connect(self.choose_game_file)
        self.rules_button.clicked.connect(lambda: self.show_rules(self.local_game.currentData()))
        self.language.activated.connect(self._language_activated)
        self._local_game_changed(self.local_game.currentData() or "")
        self._host_game_changed(self.host_game.currentData() or "")
        self.show_recent()
        order_start(self)
        name_screen(self)
        warnings = launcher.warnings()
        if store.problem:
            self.say(store.problem, error=True)
        elif warnings:  # the key still works: said, not refused (English, as LaunchError's)
            self.say(" ".join(text[:1].upper() + text[1:] + "." for text in warnings), error=True)
        elif not games:
            self.say(self.tr("No game is installed."), error=True)

    # --- showing ----------------------------------------------------------------------
    def say(self, text: str, *, error: bool = False) -> None:
        self.message.setStyleSheet(f"color: {ERROR};" if error else "")
        self.message.setText(text)

    def show_fingerprint(self) -> None:
        try:
            mine = self.launcher.fingerprint()
        except LaunchError as error:
            self.fingerprint.setText(self.tr("No fingerprint: {problem}").format(problem=error))
            return
        self.fingerprint.setText(
            self.tr("Your fingerprint: {fingerprint}").format(fingerprint=mine)
        )

    def show_recent(self) -> None:
        """The recent tables, each told apart by when, who sat and how it stands (its game
        file's words, ``recent_words``), with every address its players listen at while it
        goes on; a finished table offers *Replay* instead of *Rejoin*."""
        self.recent.clear()
        games = TableFiles(game_dir(self.launcher.profile))
        for table in self.store.settings.recent:
            facts, path = None, None
            if table.table_id:
                path = games.path(bytes.fromhex(table.table_id))
                facts = read_table_facts(path) if path.exists() else None
            item = QListWidgetItem(recent_words(table, facts))
            item.setData(Qt.ItemDataRole.UserRole, table.address)
            item.setData(RECENT_ROLE, table)
            over = path is not None and facts is not None and facts.over
            item.setData(RECENT_FILE_ROLE, str(path) if over else "")
            item.setToolTip("\n".join((table.address, *table.addresses)))
            self.recent.addItem(item)
        self._recent_chosen(self.recent.currentItem())

    def _recent_chosen(self, item: QListWidgetItem | None) -> None:
        """*Rejoin* a table that goes on, *Replay* one that is over."""
        over = item is not None and bool(item.data(RECENT_FILE_ROLE))
        self.rejoin_button.setText(self.tr("Replay") if over else self.tr("Rejoin"))
        self.rejoin_button.setEnabled(item is not None)

    def choose_game_file(self) -> None:
        """Ask for a game file (this profile's games first) and replay it."""
        games = game_dir(self.launcher.profile)
        name, _ = QFileDialog.getOpenFileName(
            self,
            self.tr("Open a game file"),
            str(games if games.is_dir() else Path.home()),
            self.tr("palabre game files (*.palabre-log *.palabre);;All files (*)"),
        )
        if name:
            self.replayRequested.emit(Path(name))

    def show_rules(self, game: str) -> RulesDialog:
        """Open (or bring forward) the rules window on ``game``."""
        if self.rules_dialog is None:
            self.rules_dialog = RulesDialog(self)
        self.rules_dialog.show_game(game)
        return self.rules_dialog

    def _language_activated(self, _index: int) -> None:
        choice = self.language.currentData()
        self.language_preference.save(choice)
        self.languageChosen.emit(choice or resolve_language(None))

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
        game = self.local_game.currentData()
        request = LocalRequest(
            game=game,
            seats=self.local_seats.value() if self.local_seats.isEnabled() else None,
            my_seat=self.local_my_seat.value(),
            bot_kind=self.local_bot_kind.currentData(),
            player_name=self.store.settings.name,
            bot_delay=self.local_pace.value() / 1000,
        )
        self._launch_local(request)

    def play_local_again(self) -> None:
        """The last local game again, with the same settings (the game-over summary)."""
        if self.last_local is not None:
            self._launch_local(self.last_local)

    def _launch_local(self, request: LocalRequest) -> None:
        try:
            session: GameSession = self.launcher.play_local(request)
        except LaunchError as error:
            self.say(str(error), error=True)
            return
        self.last_local = request
        self.say("")
        self.sessionReady.emit(session)

    def _bot_kind_box(self) -> QComboBox:
        """How well bots play, in the words their names say (``Bot 2 of Ana (normal)``):
        easy, normal (the default) or strong."""
        box = QComboBox()
        for kind in BOT_KINDS:
            box.addItem(level_word(level_of_kind(kind)), kind)
        box.setCurrentIndex(max(0, box.findData("sensible")))
        return box

    def host(self) -> None:
        try:
            request = HostRequest(
                game=self.host_game.currentData(),
                seats=self.host_seats.value() if self.host_seats.isEnabled() else None,
                bots=self.host_bots.value(),
                bot_kind=self.host_bot_kind.currentData(),
                bot_delay=self.host_pace.value() / 1000,
                port=self.host_port.value(),
                options=parse_options(self.host_options.text()),
                secret=self.host_secret.isChecked(),
                clock=self.host_clock.spec(),
            )
            session = self.launcher.host(request, self.store.settings.name)
        except (LaunchError, ValueError) as error:
            self.say(str(error), error=True)
            return
        self.say("")
        self._back_if_not_open(session.lobby, request.port)
        self._keep_in_recent("", session)
        self.tableReady.emit(session)

    def _back_if_not_open(self, lobby: LobbyModel, port: int) -> None:
        """A hosted table that cannot listen (its port taken, say) never was a table: say
        why here and come back (``hostFailed``) instead of leaving a lobby titled as if it
        were open."""

        def check() -> None:
            view = lobby.view
            if view.invite:
                unsubscribe()
            elif view.failure_kind.startswith("listen:"):
                unsubscribe()
                self.say(host_failure(view.failure_kind, view.failure, port), error=True)
                self.hostFailed.emit()

        unsubscribe = lobby.subscribe(check)

    def join_found(self, invite: str) -> None:
        """Join a table heard on the LAN, by its invite (one click in the list)."""
        self.join_target.setText(invite)
        self.join()

    def join(self) -> None:
        self._join(JoinRequest(self.join_target.text().strip()))

    def rejoin(self) -> None:
        """Go back to the selected recent table: each address its players listen at, in
        turn, until one answers (a crashed host's own port is gone; the others' are not)."""
        item = self.recent.currentItem()
        if item is None:
            self.say(self.tr("Choose a table in the list of recent tables."), error=True)
            return
        finished = item.data(RECENT_FILE_ROLE)
        if finished:  # nobody is at a finished table: its game file is what is left
            self.replayRequested.emit(Path(finished))
            return
        table: RecentTable = item.data(RECENT_ROLE)
        first, *others = table.addresses
        self.join_target.setText(first)
        self._join(JoinRequest(first, also=tuple(others), port=table.port))

    def watch(self) -> None:
        """Watch the table of the last join (which was refused: every seat is taken)."""
        if self.last_join is not None:
            self._join(replace(self.last_join, watch=True))

    def _join(self, request: JoinRequest) -> None:
        try:
            session = self.launcher.join(request, self.store.settings.name)
        except LaunchError as error:
            self.say(str(error), error=True)
            return
        self.last_join = request
        self.say("")
        self._keep_in_recent(request.target, session)
        self.tableReady.emit(session)

    def _keep_in_recent(self, target: str, session: NetSession) -> None:
        """Put this table first among the recent tables once it is open (hosted) or its
        host let this player in (joined), and keep its players' addresses up to date there,
        each change saved at once: a crash must find them in the profile.  A join that fails
        is not remembered."""
        kept: list[RecentTable] = []

        def check(_event: object = None) -> None:
            view = session.lobby.view
            if view.failure and not kept:
                stop()
                return
            if not (view.invite or view.host_name or session.started):
                return  # a rejoin after START gets no roster: its table is the sign
            table_id = "" if session.peer.table_id is None else session.peer.table_id.hex()
            before = next(
                (t for t in self.store.settings.recent if table_id and t.table_id == table_id),
                RecentTable(""),
            )
            table = RecentTable(
                target or view.invite,
                view.game or before.game,
                view.host_name or before.label,
                session.addresses(),
                table_id,
                before.when or datetime.now().strftime("%Y-%m-%d %H:%M"),
                session.peer.port or before.port,
            )
            if not kept or kept[-1] != table:
                kept[:] = [table]
                self.store.remember_table(table)
                self.show_recent()

        stop_lobby = session.lobby.subscribe(check)
        stop_events = session.subscribe(check)

        def stop() -> None:
            stop_lobby()
            stop_events()
