"""The table screen: the board, the players, the move list, the chat, the status line.

It holds one ``GameSession`` at a time and re-reads its snapshot on every event.  Player
actions go out as the session's intents only: a complete move from the board, a chat line,
resign (after an inline confirmation), offer or accept a draw, take back the last ply (when
it is this player's own move), consent to or refuse another player's takeback, leave.
"""

from __future__ import annotations

import time
from pathlib import Path

from PySide6.QtCore import QCoreApplication, Qt, QTimer, Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QApplication,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from client.profile.settings import SettingsStore
from client.sessions.session_api import GameSession, PlyView, SessionSnapshot
from engines import Outcome
from ui.accessible_board import TableReader
from ui.announcer import LiveAnnouncer
from ui.boards import BoardWidget, make_board
from ui.boards.recent_plies import RecentMark
from ui.bridge import SessionBridge
from ui.control_names import name_screen
from ui.game_names import game_name
from ui.notation import readable_notation
from ui.outcomes import reason_text
from ui.ply_words import consensus_words
from ui.pointing import PointingController
from ui.position_history import PositionHistory
from ui.recent_moves import plies_since_my_move
from ui.removal_words import removal_words
from ui.screens.game_summary import GameSummary
from ui.screens.keys_help import KeysHelp
from ui.screens.ply_browser import PlyBrowser
from ui.screens.recent_line import RecentLine
from ui.screens.rules import RulesDialog
from ui.screens.table_keyboard import TableKeyboard
from ui.screens.table_parts import ChatPanel, MoveList, PlayersPanel
from ui.screens.watching import follow_watching
from ui.table_alerts import alerts_between
from ui.text_size import heading
from ui.theme import ERROR, side_colour


def on_time_words(snapshot: SessionSnapshot) -> str:
    """``Ana lost on time.`` for each seat whose clock ran out (empty if none did)."""
    return " ".join(
        QCoreApplication.translate("TableScreen", "{name} lost on time.").format(
            name=snapshot.seat_name(seat)
        )
        for seat, _ply in snapshot.lost_on_time
    )


def describe_outcome(snapshot: SessionSnapshot, outcome: Outcome) -> str:
    """The result and the reason, in words: every way a game or its table ends."""
    reason = reason_text(
        snapshot.engine.name,
        outcome,
        absent=snapshot.absent,
        left=snapshot.absent_left,
        name_of=snapshot.seat_name,
    )
    timed_out = on_time_words(snapshot)
    if timed_out:
        last_late = snapshot.lost_on_time[-1][1]
        # A resignation the clock made: the clock is the reason, not a player's choice.
        ended_by_clock = outcome.reason == "resignation" and last_late == snapshot.ply
        reason = timed_out if ended_by_clock else f"{reason} {timed_out}"
    if outcome.draw:
        return QCoreApplication.translate("TableScreen", "Game over — draw. {reason}").format(
            reason=reason
        )
    if not outcome.winners:  # the table ended before the game did (abandoned)
        return QCoreApplication.translate("TableScreen", "Game over — no winner. {reason}").format(
            reason=reason
        )
    names = ", ".join(snapshot.seat_name(seat) for seat in outcome.winners)
    if snapshot.my_seat in outcome.winners:
        won = QCoreApplication.translate("TableScreen", "You win!")
    else:
        won = QCoreApplication.translate("TableScreen", "{names} won.").format(names=names)
    return QCoreApplication.translate("TableScreen", "Game over — {won} {reason}").format(
        won=won, reason=reason
    )


def game_file_of(session: GameSession) -> Path | None:
    """The game file of the game: a local game's (``LocalGame.game_file``), else the one a
    networked table's peer writes (None for a game without one)."""
    local = getattr(session, "game_file", None)
    if isinstance(local, Path):
        return local if local.exists() else None
    peer = getattr(session, "peer", None)
    table_id = getattr(peer, "table_id", None)
    if peer is None or table_id is None:
        return None
    path = peer.game_path(table_id)
    return path if isinstance(path, Path) and path.exists() else None


class TableScreen(QWidget):
    leaveRequested = Signal()
    againRequested = Signal()
    """Play this local game again (a networked table plays again through its session)."""
    replayRequested = Signal(Path)
    """Replay the game file at this path."""

    def __init__(self, store: SettingsStore | None = None) -> None:
        super().__init__()
        self.store = store
        self.session: GameSession | None = None
        self.last_live: SessionSnapshot | None = None
        """The snapshot the alerts compare the next one with."""
        self.alerted: list[str] = []
        """The words of the last alert raised (window alert and beep; the line may say less)."""
        self.bridge: SessionBridge | None = None
        self.board: BoardWidget | None = None
        self.rules_dialog: RulesDialog | None = None
        self.pointing: PointingController | None = None
        # A screen reader's view of the table: the board as text, each ply and line said.
        self.announcer = LiveAnnouncer()
        self.reader = TableReader(self.announcer)

        self.title = QLabel()
        heading(self.title, 1.3)
        self.banner = QLabel()
        self.banner.setWordWrap(True)
        self.banner.setStyleSheet(
            "background: #fff3c4; border: 1px solid #c9a227; padding: 6px; font-weight: bold;"
        )
        self.banner.hide()
        # What changed that a player looking away must not miss (ui.table_alerts).
        self.alert_line = QLabel()
        self.alert_line.setWordWrap(True)
        self.alert_line.setStyleSheet(
            "background: #ffe0d0; border: 1px solid #c0582a; padding: 6px; font-weight: bold;"
        )
        self.alert_line.hide()
        # The clocks tick between events: a repaint from the table's own clock display,
        # ten times a second (tenths show under 10 s), while a clock runs.
        self.clock_timer = QTimer(self)
        self.clock_timer.setInterval(100)
        self.clock_timer.timeout.connect(self._tick_clocks)
        self.clock_warned: int | None = None
        """The ply at which this player was told its clock runs low (once per turn)."""
        self.sound_button = QPushButton(self.tr("Sound"))
        self.sound_button.setCheckable(True)
        self.sound_button.setToolTip(self.tr("A sound with the table's alerts"))
        self.sound_button.setChecked(store is None or not store.settings.muted)
        self.sound_button.toggled.connect(self._keep_sound)
        self.summary = GameSummary()
        self.watched_since = time.monotonic()
        self.ended_after: int | None = None
        self.came_in: int | None = None
        """How many plies were played when this screen first saw the game (0: from its
        start): a player who rejoined or watches late cannot know the game's length."""
        """Seconds from the table's screen opening to its ending (once it ended)."""
        # Playing again (networked tables): who accepted, and the button.
        self.rematch = QWidget()
        rematch_row = QHBoxLayout(self.rematch)
        rematch_row.setContentsMargins(0, 0, 0, 0)
        self.rematch_status = QLabel()
        self.rematch_status.setWordWrap(True)
        # The summary's button: at a networked table it answers the rematch.
        self.again_button = self.summary.again_button
        self.again_button.setToolTip(
            self.tr("A new table with the same players; the seats move round so another starts")
        )
        rematch_row.addWidget(self.rematch_status, 1)
        self.rematch.hide()
        self.divergence = QLabel()
        self.divergence.setWordWrap(True)
        self.divergence.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.divergence.setStyleSheet(f"background: {ERROR}; color: white; padding: 10px;")
        heading(self.divergence, 1.25)
        self.divergence.hide()
        self.board_frame = QFrame()
        self.board_layout = QVBoxLayout(self.board_frame)
        self.board_layout.setContentsMargins(0, 0, 0, 0)
        self.history: PositionHistory | None = None
        self.browser = PlyBrowser()
        self.browser.changed.connect(self.refresh)
        self.board_layout.addWidget(self.browser)
        # What happened since this player's last move, in a line under the board (the
        # board numbers the same plies).
        self.recent_line = RecentLine()

        self.players = PlayersPanel()
        self.moves = MoveList()
        self.chat = ChatPanel()
        self.resign_button = QPushButton(self.tr("Resign…"))
        self.offer_button = QPushButton(self.tr("Offer draw"))
        self.accept_button = QPushButton(self.tr("Accept draw"))
        self.takeback_button = QPushButton(self.tr("Take back"))
        self.takeback_button.setToolTip(
            self.tr("Ask the other players to undo your last move; each of them must agree.")
        )
        self.leave_button = QPushButton(self.tr("Leave table"))
        self.rules_button = QPushButton(self.tr("Rules…"))
        self.confirm = QWidget()
        confirm_row = QHBoxLayout(self.confirm)
        confirm_row.setContentsMargins(0, 0, 0, 0)
        confirm_row.addWidget(QLabel(self.tr("Resign this game?")), 1)
        self.confirm_yes = QPushButton(self.tr("Resign"))
        self.confirm_no = QPushButton(self.tr("Cancel"))
        confirm_row.addWidget(self.confirm_yes)
        confirm_row.addWidget(self.confirm_no)
        self.confirm.hide()
        # Leaving mid-game is for good (the others are told and go on without this player),
        # so it is asked first, inline like resigning: no dialog to lose behind the window.
        self.leave_confirm = QWidget()
        leave_confirm_row = QHBoxLayout(self.leave_confirm)
        leave_confirm_row.setContentsMargins(0, 0, 0, 0)
        self.leave_question = QLabel(
            self.tr("Leave this game? The others go on without you, and you cannot play it again.")
        )
        self.leave_question.setWordWrap(True)
        leave_confirm_row.addWidget(self.leave_question, 1)
        self.leave_yes = QPushButton(self.tr("Leave"))
        self.leave_no = QPushButton(self.tr("Stay"))
        leave_confirm_row.addWidget(self.leave_yes)
        leave_confirm_row.addWidget(self.leave_no)
        self.leave_confirm.hide()
        self.takeback_prompt = QWidget()
        prompt_row = QHBoxLayout(self.takeback_prompt)
        prompt_row.setContentsMargins(0, 0, 0, 0)
        self.takeback_question = QLabel()
        self.takeback_question.setWordWrap(True)
        prompt_row.addWidget(self.takeback_question, 1)
        self.takeback_yes = QPushButton(self.tr("Consent"))
        self.takeback_no = QPushButton(self.tr("Refuse"))
        prompt_row.addWidget(self.takeback_yes)
        prompt_row.addWidget(self.takeback_no)
        self.takeback_prompt.hide()

        side = QWidget()
        side_layout = QVBoxLayout(side)
        side_layout.setContentsMargins(0, 0, 0, 0)
        # The banners sit above the lists, which give them room: the board and the buttons
        # stay where they are when one appears.
        side_layout.addWidget(self.banner)
        side_layout.addWidget(self.alert_line)
        side_layout.addWidget(QLabel(self.tr("Players")))
        side_layout.addWidget(self.players, 2)
        side_layout.addWidget(QLabel(self.tr("Moves")))
        side_layout.addWidget(self.moves, 3)
        side_layout.addWidget(QLabel(self.tr("Chat")))
        side_layout.addWidget(self.chat, 3)
        buttons = QHBoxLayout()
        for button in (
            self.resign_button,
            self.offer_button,
            self.accept_button,
            self.takeback_button,
        ):
            buttons.addWidget(button)
        side_layout.addLayout(buttons)
        leave_row = QHBoxLayout()
        leave_row.addWidget(self.rules_button)
        leave_row.addWidget(self.leave_button, 1)
        side_layout.addLayout(leave_row)
        # The questions (resign? leave? a takeback asked) come in a room kept under every
        # button, so no button moves when one is asked: a question that pushed the buttons
        # up put its own Leave where Leave table was, and a double click left unasked.
        prompts = QWidget()
        prompts_layout = QVBoxLayout(prompts)
        prompts_layout.setContentsMargins(0, 0, 0, 0)
        for prompt in (self.confirm, self.takeback_prompt, self.leave_confirm):
            prompts_layout.addWidget(prompt)
        prompts_layout.addStretch(1)
        line = self.leave_question.fontMetrics().lineSpacing()
        prompts.setMinimumHeight(max(2 * line + 4, self.leave_yes.sizeHint().height()))
        side_layout.addWidget(prompts)

        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(self.board_frame)
        splitter.addWidget(side)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 2)
        splitter.setSizes([700, 460])
        splitter.setChildrenCollapsible(False)
        side.setMinimumWidth(max(340, side.minimumSizeHint().width()))  # big text: its buttons

        self.status = QLabel()
        self.status.setWordWrap(True)
        # The table's bookkeeping (plies every player's palabre agreed on, connections, the
        # position's digest) stays out of the status line, behind a button.
        self.details = QLabel()
        self.details.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.details.hide()
        self.details_button = QPushButton(self.tr("Details"))
        self.details_button.setCheckable(True)
        self.details_button.setToolTip(self.tr("Show the table's bookkeeping"))
        self.details_button.toggled.connect(self.details.setVisible)
        self.help_button = QPushButton(self.tr("Keys (F1)"))
        self.help_button.setToolTip(self.tr("The keys at the table"))
        status_row = QHBoxLayout()
        status_row.addWidget(self.status, 1)
        status_row.addWidget(self.sound_button)
        status_row.addWidget(self.details_button)
        status_row.addWidget(self.help_button)
        self.error = QLabel()
        self.error.setStyleSheet(f"color: {ERROR};")
        self.error.setWordWrap(True)
        # Room for a status on two lines and an error on one, kept when they are short or
        # empty: the board above does not move as they change.
        line = self.status.fontMetrics().lineSpacing()
        self.status.setMinimumHeight(2 * line + 2)
        self.error.setMinimumHeight(line + 2)
        layout = QVBoxLayout(self)
        layout.addWidget(self.title)
        layout.addWidget(self.divergence)
        layout.addWidget(self.summary)
        layout.addWidget(self.rematch)
        layout.addWidget(splitter, 1)
        layout.addWidget(self.error)
        layout.addLayout(status_row)
        layout.addWidget(self.details)
        layout.addWidget(self.announcer)
        name_screen(self)

        self.chat.send.connect(lambda text: self.session and self.session.chat(text))
        self.resign_button.clicked.connect(self.confirm.show)
        self.confirm_no.clicked.connect(self.confirm.hide)
        self.confirm_yes.clicked.connect(self._resign)
        self.offer_button.clicked.connect(lambda: self.session and self.session.offer_draw())
        self.accept_button.clicked.connect(lambda: self.session and self.session.accept_draw())
        self.takeback_button.clicked.connect(lambda: self.session and self.session.take_back())
        self.takeback_yes.clicked.connect(lambda: self.session and self.session.consent_takeback())
        self.takeback_no.clicked.connect(self._refuse_takeback)
        self.leave_button.clicked.connect(self._ask_leave)
        self.leave_no.clicked.connect(self.leave_confirm.hide)
        self.leave_yes.clicked.connect(self._leave)
        self.rules_button.clicked.connect(self.show_rules)
        self.moves.itemClicked.connect(lambda _item: self.browser.view(self.moves.currentRow() + 1))
        self.keys_help = KeysHelp(self)
        self.help_button.clicked.connect(self._toggle_help)
        self._shortcuts()
        self.keyboard = TableKeyboard(self)
        self.summary.againRequested.connect(self._play_again)
        self.summary.replayRequested.connect(self._replay)
        self.summary.exportRequested.connect(self._copy_moves)

    def _shortcuts(self) -> None:
        """Keys that work anywhere on the table screen (a text field keeps its own)."""
        context = Qt.ShortcutContext.WidgetWithChildrenShortcut
        for key, action in (
            (Qt.Key.Key_Left, lambda: self.browser.step(-1)),
            (Qt.Key.Key_Right, lambda: self.browser.step(1)),
        ):
            shortcut = QShortcut(QKeySequence(key), self)
            shortcut.setContext(context)
            shortcut.activated.connect(action)
        for sequence, action in (
            (QKeySequence(QKeySequence.StandardKey.Undo), self._ask_takeback),  # Ctrl+Z
            (QKeySequence(Qt.Key.Key_Return), self._enter),
            (QKeySequence(Qt.Key.Key_Enter), self._enter),
            (QKeySequence(Qt.Key.Key_F1), self._toggle_help),
            (QKeySequence("?"), self._toggle_help),
        ):
            shortcut = QShortcut(sequence, self)
            shortcut.setContext(context)
            shortcut.activated.connect(action)
        # Esc closes the keys' list or goes back to live while an older ply is viewed; else
        # it is the board's (a step back while building a move).
        self.live_shortcut = QShortcut(QKeySequence(Qt.Key.Key_Escape), self)
        self.live_shortcut.setContext(context)
        self.live_shortcut.activated.connect(self._escape)
        self.live_shortcut.setEnabled(False)

    def _enter(self) -> None:
        """Enter: to the chat field, where Enter again sends the line (as on BGA)."""
        self.chat.field.setFocus()

    def _escape(self) -> None:
        if self.keys_help.isVisible():
            self._toggle_help()
        else:
            self.browser.view(None)

    def _toggle_help(self) -> None:
        self.keys_help.toggle()
        self._arm_escape()

    def _arm_escape(self) -> None:
        self.live_shortcut.setEnabled(
            self.keys_help.isVisible() or self.browser.viewing is not None
        )

    def _ask_takeback(self) -> None:
        """Ctrl+Z: ask to take back my last move, or say why it cannot be now."""
        if self.takeback_button.isEnabled():
            self.takeback_button.click()
        elif self.session is not None:
            self.error.setText(
                self.tr("Nothing to take back now: only your own last move, before the next ply.")
            )

    def show_rules(self) -> RulesDialog:
        """Open (or bring forward) the rules of the game on the table."""
        if self.rules_dialog is None:
            self.rules_dialog = RulesDialog(self)
        game = self.session.snapshot.engine.name if self.session is not None else ""
        self.rules_dialog.show_game(game)
        return self.rules_dialog

    # --- the session --------------------------------------------------------------------
    def set_session(self, session: GameSession) -> None:
        self.clear_session()
        self.session = session
        snapshot = session.snapshot
        self.board = make_board(snapshot.engine, game_name(snapshot.engine.name))
        self.watched_since, self.ended_after, self.came_in = time.monotonic(), None, None
        self.history = PositionHistory(snapshot.engine)
        self.last_live = None
        self.alert_line.hide()
        self.browser.view(None)
        self.board.moveChosen.connect(self._move)
        self.board_layout.addWidget(self.board, 1)
        self.board_layout.addWidget(self.recent_line)
        self.bridge = SessionBridge(session)
        self.bridge.stateChanged.connect(self._on_state)
        self.bridge.playersChanged.connect(self.refresh)
        self.bridge.chatLine.connect(self.chat.add)
        self.bridge.chatLine.connect(self.reader.chat_line)
        self.reader.reset()
        self.bridge.ended.connect(lambda _outcome: self.refresh())
        self.bridge.error.connect(self.error.setText)
        self.bridge.halted.connect(lambda _halted: self.refresh())
        self.pointing = PointingController(self.board, session, self.bridge)
        self.board_layout.addWidget(self.pointing.toolbar)
        self.keyboard.attach(session, self.bridge)
        self.title.setText(self._title(snapshot))
        self.moves.clear()
        self.chat.game = snapshot.engine.name
        self.chat.ending = self._ending_words
        self.chat.show_chat(snapshot.chat)
        self.error.clear()
        self.refresh()

    def clear_session(self) -> None:
        self.clock_timer.stop()
        self.clock_warned = None
        if self.bridge is not None:
            self.bridge.detach()
            self.bridge.deleteLater()
        if self.pointing is not None:
            self.pointing.detach()
            self.pointing = None
        self.keyboard.detach()
        if self.board is not None:
            self.board.setParent(None)
            self.board.deleteLater()
        self.session = self.bridge = self.board = None
        self.confirm.hide()
        self.takeback_prompt.hide()
        self.banner.hide()
        self.summary.hide()
        self.rematch.hide()
        self.divergence.hide()

    def _on_state(self, _event: object) -> None:
        self.error.clear()
        self.refresh()

    def refresh(self) -> None:
        if self.session is None or self.board is None:
            return
        snapshot = self.session.snapshot
        engine, state = snapshot.engine, snapshot.state
        last = snapshot.last_move
        halted = snapshot.halted
        self._alert(snapshot)
        assert self.history is not None
        self.history.observe(snapshot)
        if self.came_in is None and not snapshot.starting:
            self.came_in = snapshot.ply
        self.browser.set_plies(snapshot.ply)
        viewing = self.browser.viewing
        past = None if viewing is None else self.history.position(viewing)
        if viewing is not None and past is None:  # a position this window never saw
            self.error.setText(
                self.tr("The position after ply {ply} is not known here.").format(ply=viewing)
            )
            self.browser.view(None)
            return
        self._arm_escape()
        if viewing is not None:
            shown = snapshot.plies[viewing - 1] if viewing else None
            self.board.show_position(
                engine,
                past,
                last_move=shown.wire if shown is not None and shown.kind == "move" else None,
                my_seat=snapshot.my_seat,
                interactive=False,
            )
        else:
            self.board.show_position(
                engine,
                state,
                last_move=None if last is None else last.wire,
                my_seat=snapshot.my_seat,
                interactive=snapshot.my_turn and not snapshot.resign_pending and halted is None,
            )
        self._show_recent(snapshot, live=viewing is None)
        self.players.show_players(snapshot, self.board.seat_notes(engine, state))
        self._tick_clocks()
        self.moves.show_plies(snapshot, viewing)
        over = snapshot.outcome is not None or halted is not None or bool(snapshot.stopped)
        playing = not over and not snapshot.starting and snapshot.my_seat is not None
        for button in (self.resign_button, self.offer_button, self.accept_button):
            button.setEnabled(playing)
        out_of_it = snapshot.i_resigned  # the game goes on without them (Consensus)
        self.resign_button.setEnabled(
            self.resign_button.isEnabled() and not snapshot.resign_pending and not out_of_it
        )
        self.offer_button.setEnabled(self.offer_button.isEnabled() and not out_of_it)
        self.accept_button.setEnabled(
            self.accept_button.isEnabled()
            and any(seat != snapshot.my_seat for seat in snapshot.draw_offered_by)
        )
        self.takeback_button.setEnabled(not over and snapshot.can_take_back)
        follow_watching(  # a spectator is told so, and shown no control it cannot use
            snapshot,
            self.title,
            (self.resign_button, self.offer_button, self.accept_button, self.takeback_button),
            (self.chat.field, self.chat.button),
            (self.keyboard.move_box, self.pointing and self.pointing.toolbar),
        )
        asked = snapshot.takeback
        if asked is not None and not over and not (asked.mine or asked.consented or asked.refused):
            self.takeback_question.setText(
                self.tr("{name} asks to take back ply {ply}. Do you agree?").format(
                    name=asked.asker, ply=asked.ply
                )
            )
            self.takeback_prompt.show()
        else:
            self.takeback_prompt.hide()
        if halted is not None:
            who = (
                self.tr("{peer} disagrees with the others").format(peer=halted.peer)
                if halted.peer
                else self.tr("no majority agrees")
            )
            evidence = halted.evidence or self.tr("being written…")
            self.divergence.setText(
                self.tr(
                    "The table halted at ply {ply}: {who}.\n{message}\n"
                    "The board shows the last position every player agreed on. "
                    "Evidence: {evidence}"
                ).format(ply=halted.ply, who=who, message=halted.message, evidence=evidence)
            )
            self.divergence.show()
        if snapshot.outcome is not None:
            self.banner.setText(describe_outcome(snapshot, snapshot.outcome))
            self.banner.show()
            self.confirm.hide()
        elif snapshot.stopped:
            self.banner.setText(
                self.tr("The game cannot go on: {why}.").format(why=snapshot.stopped)
            )
            self.banner.show()
            self.confirm.hide()
        elif snapshot.removed:  # the game goes on, without this player: its own ending
            self.banner.setText(
                self.tr(
                    "You left this table: bots play your seats now, and you watch the game "
                    "to its end."
                )
                if snapshot.left
                else self.tr(
                    "You were voted off the table (away or idle past its timeout): "
                    "bots play your seats now, and you watch the game to its end."
                )
            )
            self.banner.show()
            self.confirm.hide()
        if not self._mid_game(snapshot):
            self.leave_confirm.hide()
        self._show_summary(snapshot)
        self._show_rematch(snapshot)
        self.status.setText(self._status_text(snapshot))
        self.details.setText(self._details_text(snapshot))
        self.reader.follow(
            snapshot,
            self.board,
            state if viewing is None else past,
            position=self.history.position,
            status=self.status.text(),
            recent=self.recent_line.text(),
            ending="" if self.banner.isHidden() else self.banner.text(),
        )

    def _alert(self, snapshot: SessionSnapshot) -> None:
        """A banner, the window's alert and a sound for what the player must not miss."""
        before, self.last_live = self.last_live, snapshot
        said = alerts_between(before, snapshot)
        if not said:
            return
        self.alerted = said
        # The end of the game has its own banner and summary: the alert line would only say
        # it again under them, so at the end it keeps to what else happened on that ply (the
        # end's words come last).
        ended = before is not None and before.outcome is None and snapshot.outcome is not None
        shown = said[:-1] if ended else said
        self.alert_line.setText(" ".join(shown))
        self.alert_line.setVisible(bool(shown))
        self._draw_attention()

    def _draw_attention(self) -> None:
        """The system's attention to the window, and a sound unless the player muted it."""
        QApplication.alert(self.window())
        if self.sound_button.isChecked():
            QApplication.beep()

    def _tick_clocks(self) -> None:
        """Repaint the clocks (the timer runs while one does) and warn this player once a
        turn when its own clock runs low."""
        display = None if self.session is None else self.session.clocks()
        self.players.show_clocks(display)
        if self.session is None or display is None:
            self.clock_timer.stop()
            return
        snapshot = self.session.snapshot
        over = snapshot.outcome is not None or snapshot.halted is not None or snapshot.stopped
        if over:
            self.clock_timer.stop()
            return
        if not self.clock_timer.isActive():
            self.clock_timer.start()
        mine = snapshot.my_seat
        left = None if mine is None or display.running != mine else display.of(mine)
        if left is None or left >= display.low_ms or self.clock_warned == snapshot.ply:
            return
        self.clock_warned = snapshot.ply
        said = self.tr("Under 10 seconds on your clock!")
        self.alerted = [said]
        self.alert_line.setText(said)
        self.alert_line.show()
        self._draw_attention()

    def _keep_sound(self, on: bool) -> None:
        if self.store is not None:
            self.store.set_muted(not on)

    def _show_recent(self, snapshot: SessionSnapshot, *, live: bool) -> None:
        """Number the plies since this player's move on the board and say them in a line
        (none while an older ply is viewed: the numbers are about the live position)."""
        assert self.board is not None
        recent = plies_since_my_move(snapshot) if live else []
        game = snapshot.engine.name
        self.board.show_recent(
            [
                RecentMark(
                    number,
                    self.board.ply_marks(ply.wire),
                    side_colour(game, ply.seat),
                    ply.seat or 0,
                )
                for number, ply in enumerate(recent, 1)
                if ply.wire
            ]
        )
        said = [self._ply_said(snapshot, number, ply) for number, ply in enumerate(recent, 1)]
        if snapshot.my_seat is None:
            heading = self.tr("Last round:")
        elif any(ply.player == snapshot.my_seat for ply in snapshot.plies):
            heading = self.tr("Since your move:")
        else:
            heading = self.tr("Since the start:")
        self.recent_line.tell(heading, said)

    def _show_summary(self, snapshot: SessionSnapshot) -> None:
        """However the table ended, the same summary (``ui.screens.game_summary``)."""
        if snapshot.outcome is not None:
            headline = describe_outcome(snapshot, snapshot.outcome)
        elif snapshot.halted is not None:
            headline = self.tr("The table halted at ply {ply}: nothing more can be played.").format(
                ply=snapshot.halted.ply
            )
        elif snapshot.stopped:
            headline = self.tr("The game cannot go on: {why}.").format(why=snapshot.stopped)
        else:
            self.summary.hide()
            return
        if self.ended_after is None:
            self.ended_after = round(time.monotonic() - self.watched_since)
        rematch = snapshot.rematch
        if getattr(self.session, "play_again", None) is None:
            can_play_again = snapshot.outcome is not None  # a local game: the same again
        else:
            can_play_again = rematch is not None and rematch.mine is None and not rematch.declined
        assert self.session is not None
        path = game_file_of(self.session)
        self.summary.show_ending(
            snapshot,
            headline,
            None if self.came_in or getattr(self.session, "came_back", False) else self.ended_after,
            can_play_again=can_play_again,
            game_file="" if path is None else str(path),
        )
        # A watcher, or a player who left or was voted off, has no seat to play again with.
        local = getattr(self.session, "play_again", None) is None
        self.again_button.setVisible(local or rematch is not None)

    def _ending_words(self) -> str:
        """How the game ended, in the player's words ("" while it goes on)."""
        if self.session is None:
            return ""
        snapshot = self.session.snapshot
        outcome = snapshot.outcome
        return "" if outcome is None else describe_outcome(snapshot, outcome)

    def _title(self, snapshot: SessionSnapshot) -> str:
        """The session names the game by its engine's code, in English ("Forbans against
        bots"): the window says the name its rules give it, in the player's language."""
        code = snapshot.engine.name.capitalize()
        game = game_name(snapshot.engine.name)
        if snapshot.title == f"{code} against bots":
            return self.tr("{game} against bots").format(game=game)
        if snapshot.title == f"{code} at a networked table":
            return self.tr("{game} at a networked table").format(game=game)
        return snapshot.title.replace(code, game, 1)

    def _replay(self) -> None:
        path = None if self.session is None else game_file_of(self.session)
        if path is not None:
            self.replayRequested.emit(path)

    def _copy_moves(self) -> None:
        """The game's notation on the clipboard, one ply a line with who played it."""
        if self.session is None:
            return
        snapshot = self.session.snapshot
        lines = [
            f"{ply.ply}. {snapshot.player_name(ply)}: {ply.notation}" for ply in snapshot.plies
        ]
        QApplication.clipboard().setText("\n".join(lines) + "\n")
        self.summary.say(
            self.tr("The {plies} moves are in the clipboard.").format(plies=len(lines))
        )

    def _ply_said(self, snapshot: SessionSnapshot, number: int, ply: PlyView) -> str:
        """``2. Bea's GIGN killed your Syndicaliste on e4`` (Consensus, from the position
        before the ply), else ``2. Bea: Ge6xe4``."""
        before = None if self.history is None else self.history.position(ply.ply - 1)
        if snapshot.engine.name == "consensus" and ply.kind == "move" and before is not None:
            words = consensus_words(before, ply.wire, snapshot.my_seat, snapshot.names_at(ply))
            if words is not None:
                return f"{number}. {words}"
        if ply.kind == "remove":
            return f"{number}. {removal_words(ply)}"
        late = {at: seat for seat, at in snapshot.lost_on_time}
        if ply.ply in late:  # the ply had no effect: its seat resigned instead, on time
            return self.tr("{number}. {name} lost on time").format(
                number=number, name=snapshot.seat_name(late[ply.ply])
            )
        return self.tr("{number}. {who}: {move}").format(
            number=number,
            who=snapshot.names_at(ply)(ply.seat),
            move=readable_notation(snapshot.engine, ply.notation),
        )

    def _show_rematch(self, snapshot: SessionSnapshot) -> None:
        rematch = snapshot.rematch
        if rematch is None or snapshot.outcome is None:
            self.rematch.hide()
            return
        if rematch.declined:
            text = self.tr("{names} will not play again.").format(names=", ".join(rematch.declined))
        elif rematch.mine and rematch.waiting:
            text = self.tr("You will play again; waiting for {names}…").format(
                names=", ".join(rematch.waiting)
            )
        elif rematch.mine:
            text = self.tr("Everyone plays again: opening the new table…")
        elif rematch.accepted:
            text = self.tr("{names} would like to play again.").format(
                names=", ".join(rematch.accepted)
            )
        else:
            text = self.tr("Play again with the same players?")
        self.rematch_status.setText(text)
        self.again_button.setVisible(not rematch.declined)
        self.again_button.setEnabled(rematch.mine is None and not rematch.declined)
        self.rematch.show()

    def _status_text(self, snapshot: SessionSnapshot) -> str:
        assert self.board is not None
        if snapshot.halted is not None:
            turn = self.tr("Halted.")
        elif snapshot.outcome is not None:
            turn = self.tr("Game over.")
        elif snapshot.stopped:
            turn = self.tr("Stopped.")
        elif snapshot.starting:
            turn = self.tr("Waiting for every player to confirm the start…")
        elif snapshot.resign_pending:
            turn = self.tr("You resign at your next turn.")
        elif snapshot.my_turn:
            turn = self.tr("Your move.")
        else:
            mover = snapshot.mover
            turn = (
                self.tr("{name} to move.").format(name=snapshot.seat_name(mover))
                if mover is not None
                else ""
            )
        parts = [turn]
        note = self.board.status_note(snapshot.engine, snapshot.state, snapshot.seat_name)
        if note:
            parts.insert(1, note)
        asked = snapshot.takeback
        if asked is not None and (asked.mine or asked.consented) and asked.waiting_for:
            parts.insert(
                1,
                self.tr("Takeback of ply {ply}: waiting for {names}.").format(
                    ply=asked.ply, names=", ".join(asked.waiting_for)
                ),
            )
        return " · ".join(part for part in parts if part)

    def _details_text(self, snapshot: SessionSnapshot) -> str:
        """The table's bookkeeping, for the curious (the Details button), never the status."""
        return " · ".join(
            (
                self.tr("Ply {final}/{ply} final").format(
                    final=snapshot.final_ply, ply=snapshot.ply
                ),
                self.tr("%n peer(s)", "", snapshot.peers),
                self.tr("digest {digest}").format(digest=snapshot.digest[:4].hex()),
            )
        )

    # --- intents ------------------------------------------------------------------------
    def _move(self, wire: tuple[int, ...]) -> None:
        if self.session is not None:
            self.session.move(list(wire))

    def _refuse_takeback(self) -> None:
        if self.session is None:
            return
        asked = self.session.snapshot.takeback
        self.session.refuse_takeback()
        if asked is not None:  # nothing is signed for a refusal: the chat says it
            self.session.chat(
                self.tr("I would rather not take back ply {ply}.").format(ply=asked.ply)
            )

    def _play_again(self) -> None:
        play_again = getattr(self.session, "play_again", None)
        if play_again is not None:
            play_again()
        elif self.session is not None:
            self.againRequested.emit()

    def _ask_leave(self) -> None:
        """Mid-game, ask first; once the game is over (or only watched), leave at once."""
        if self.session is not None and self._mid_game(self.session.snapshot):
            self.leave_confirm.show()
        else:
            self.leaveRequested.emit()

    def _leave(self) -> None:
        self.leave_confirm.hide()
        self.leaveRequested.emit()

    @staticmethod
    def _mid_game(snapshot: SessionSnapshot) -> bool:
        """Whether this player still plays a game that goes on (leaving then is for good)."""
        return (
            snapshot.my_seat is not None
            and snapshot.outcome is None
            and not snapshot.stopped
            and snapshot.halted is None
        )

    def _resign(self) -> None:
        self.confirm.hide()
        if self.session is not None:
            self.session.resign()
