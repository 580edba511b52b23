"""The replay screen: a game file, verified, stepped through ply by ply.

Opening a file starts the verifier (``client.logs.verifier.verify_file``) in a worker thread, with
its progress shown; the window stays responsive.  When it is done the screen shows the
verdict (valid and complete, incomplete, invalid — with every problem and its ply) and the
game as ``client.sessions.replay.Replay`` lays it out: the board after the chosen ply, drawn by the
game's own board widget as a spectator sees it, with the pointing made on that position; the
players; the record (plies with their finality and problems, chat and draw offers in the
place they hold in the file).

Stepping: first / previous / play-pause / next / last, a slider, the keyboard (← → Home End,
Space plays), or a click on a line of the record or a problem.  Exports: the board shown, as
a PNG file or to the clipboard; the whole game as a GIF, animated PNG or animated WebP
(``ui.animation``), drawn a frame per event-loop turn so the window keeps answering; the
replay page (``ui.replay_page``); and the moves, one line per ply, to the clipboard.

Invariants: nothing here judges the log — verdicts and problems are the verifier's words;
only the thread that runs the verifier touches the file; everything shown comes from one
``Replay``, which never changes once built.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from html import escape
from pathlib import Path

from PySide6.QtCore import QObject, Qt, QTimer, Signal, SignalInstance
from PySide6.QtGui import QBrush, QColor, QFont, QIcon, QImage, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QApplication,
    QFileDialog,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QProgressBar,
    QPushButton,
    QSlider,
    QSplitter,
    QStyle,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from client.logs.verifier import Verification, verify_file
from client.logs.verify_report import Problem
from client.rules.clock import clock_face
from client.rules.clock_history import ClockedPly
from client.rules.errors import ReplayUnavailable
from client.rules.records import DRAW, REMOVE, RESIGN, TAKEBACK
from client.sessions.replay import Frame, Line, Replay
from client.tabletop.table_clock import LOW_MS, ClockDisplay
from ui.animated_file import format_of, write_bytes
from ui.animation import AnimationTooLarge, Animator
from ui.board_render import BoardRenderer, png_bytes
from ui.boards import BoardWidget, make_board
from ui.boards.pointing import ShownMarks
from ui.bot_names import shown_bot_name
from ui.control_names import name_screen
from ui.game_names import game_name
from ui.move_list import move_lines
from ui.notation import readable_notation
from ui.outcomes import reason_text
from ui.removal_words import removed_words
from ui.replay_page import PageBuilder, file_date
from ui.screens.player_clocks import ClockDelegate, show_clock_faces
from ui.stepped_export import SteppedExport
from ui.text_size import heading
from ui.theme import ERROR, NEUTRAL, neutral_icon, side_colour, side_icon

__all__ = ["EXPORT_SIZE", "ReplayScreen", "VerifyWorker"]

EXPORT_SIZE = 800
ANIMATION_SIZES = (EXPORT_SIZE, 600, 400, 300, 200)
"""The sizes an animation is drawn at: the first one ``ui.animation`` allows for the game."""
PLAY_MS = 900
VERDICT_COLOURS = {0: "#2e7d32", 3: "#b26a00", 1: ERROR, 2: ERROR}


def _tool_button(icon: QIcon) -> QToolButton:
    button = QToolButton()
    button.setIcon(icon)
    return button


class VerifyWorker(QObject):
    """Runs the verifier on a file in a thread of its own; reports back on the Qt thread."""

    progress = Signal(int, int)
    finished = Signal(object)  # Verification

    def start(self, path: Path) -> None:
        threading.Thread(target=self._run, args=(path,), daemon=True).start()

    def _run(self, path: Path) -> None:
        shown = [-1]

        def progress(done: int, total: int) -> None:
            percent = 100 * done // total if total else 100
            if percent != shown[0]:  # a signal per percent, not per record
                shown[0] = percent
                self.progress.emit(done, total)

        # Signals emitted here are queued to the receivers on the Qt thread.
        self.finished.emit(verify_file(path, progress))


class ReplayScreen(QWidget):
    closed = Signal()
    animationSaved = Signal(str)
    """The path of an animation, once written (or an empty string when it failed)."""
    pageSaved = Signal(str)
    """The path of a replay page, once written (or an empty string when it failed)."""

    def __init__(self) -> None:
        super().__init__()
        self.replay: Replay | None = None
        self.path: Path | None = None
        self.ply = 0
        self.board: BoardWidget | None = None
        self.worker: VerifyWorker | None = None
        self._running: set[VerifyWorker] = set()
        """Every worker not finished yet, the current one and those a newer file replaced:
        held here so that none is collected before its result is delivered (its lambdas
        alone would leave it in a cycle the garbage collector may take)."""
        self.animation_job: SteppedExport | None = None
        self.page_job: SteppedExport | None = None

        self.title = QLabel()
        heading(self.title, 1.3)
        self.verdict = QLabel()
        self.verdict.setWordWrap(True)
        self.verdict.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.progress = QProgressBar()
        self.progress.hide()

        self.board_frame = QFrame()
        self.board_layout = QVBoxLayout(self.board_frame)
        self.board_layout.setContentsMargins(0, 0, 0, 0)
        icons = self.style()
        Pixmap = QStyle.StandardPixmap
        self.play_icon = icons.standardIcon(Pixmap.SP_MediaPlay)
        self.pause_icon = icons.standardIcon(Pixmap.SP_MediaPause)
        self.first_button = _tool_button(icons.standardIcon(Pixmap.SP_MediaSkipBackward))
        self.previous_button = _tool_button(icons.standardIcon(Pixmap.SP_MediaSeekBackward))
        self.play_button = _tool_button(self.play_icon)
        self.next_button = _tool_button(icons.standardIcon(Pixmap.SP_MediaSeekForward))
        self.last_button = _tool_button(icons.standardIcon(Pixmap.SP_MediaSkipForward))
        self.first_button.setToolTip(self.tr("First: the start (Home)"))
        self.previous_button.setToolTip(self.tr("Previous ply (←)"))
        self.play_button.setToolTip(self.tr("Play / pause (Space)"))
        self.next_button.setToolTip(self.tr("Next ply (→)"))
        self.last_button.setToolTip(self.tr("Last ply (End)"))
        self.play_button.setCheckable(True)
        self.slider = QSlider(Qt.Orientation.Horizontal)
        self.slider.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.position = QLabel()
        controls = QHBoxLayout()
        for button in (
            self.first_button,
            self.previous_button,
            self.play_button,
            self.next_button,
            self.last_button,
        ):
            button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            controls.addWidget(button)
        controls.addWidget(self.slider, 1)
        controls.addWidget(self.position)
        self.frame_text = QLabel()
        self.frame_text.setWordWrap(True)
        self.frame_text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        left = QWidget()
        left_layout = QVBoxLayout(left)
        left_layout.setContentsMargins(0, 0, 0, 0)
        left_layout.addWidget(self.board_frame, 1)
        left_layout.addLayout(controls)
        left_layout.addWidget(self.frame_text)

        self.players = QListWidget()
        self.players.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.players.setItemDelegate(ClockDelegate(self.players))  # a clocked log's clocks
        self.record = QListWidget()
        self.record.setWordWrap(True)
        self.record.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.problems = QListWidget()
        self.problems.setWordWrap(True)
        self.problems.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.problems_label = QLabel(self.tr("Problems found by the verifier"))
        self.copy_button = QPushButton(self.tr("Copy image"))
        self.image_button = QPushButton(self.tr("Save image…"))
        self.animation_button = QPushButton(self.tr("Save animation…"))
        self.page_button = QPushButton(self.tr("Save replay page…"))
        self.moves_button = QPushButton(self.tr("Copy the moves"))
        self.back_button = QPushButton(self.tr("Back"))
        self.export_status = QLabel()
        self.export_status.setWordWrap(True)
        side = QWidget()
        side_layout = QVBoxLayout(side)
        side_layout.setContentsMargins(0, 0, 0, 0)
        side_layout.addWidget(QLabel(self.tr("Players")))
        side_layout.addWidget(self.players, 1)
        side_layout.addWidget(QLabel(self.tr("Moves and chat")))
        side_layout.addWidget(self.record, 4)
        side_layout.addWidget(self.problems_label)
        side_layout.addWidget(self.problems, 1)
        exports = QGridLayout()
        exports.addWidget(self.copy_button, 0, 0)
        exports.addWidget(self.image_button, 0, 1)
        exports.addWidget(self.animation_button, 1, 0)
        exports.addWidget(self.page_button, 1, 1)
        exports.addWidget(self.moves_button, 2, 0)
        exports.addWidget(self.back_button, 2, 1)
        side_layout.addLayout(exports)
        side_layout.addWidget(self.export_status)

        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(left)
        splitter.addWidget(side)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 2)
        splitter.setSizes([700, 460])
        splitter.setChildrenCollapsible(False)
        side.setMinimumWidth(340)
        self.body = splitter

        layout = QVBoxLayout(self)
        layout.addWidget(self.title)
        layout.addWidget(self.verdict)
        layout.addWidget(self.progress)
        layout.addWidget(splitter, 1)

        self.timer = QTimer(self)
        self.timer.setInterval(PLAY_MS)
        self.timer.timeout.connect(self._tick)

        self.first_button.clicked.connect(lambda: self.go_to(0))
        self.previous_button.clicked.connect(lambda: self.go_to(self.ply - 1))
        self.next_button.clicked.connect(lambda: self.go_to(self.ply + 1))
        self.last_button.clicked.connect(lambda: self.go_to(self.last_ply))
        self.play_button.toggled.connect(self._play)
        self.slider.valueChanged.connect(self.go_to)
        self.record.itemClicked.connect(self._line_clicked)
        self.problems.itemClicked.connect(self._line_clicked)
        self.copy_button.clicked.connect(self.copy_image)
        self.image_button.clicked.connect(self._choose_image)
        self.animation_button.clicked.connect(self._choose_animation)
        self.page_button.clicked.connect(self._choose_page)
        self.moves_button.clicked.connect(self.copy_moves)
        self.back_button.clicked.connect(self._back)
        keys = (
            (Qt.Key.Key_Left, lambda: self.go_to(self.ply - 1)),
            (Qt.Key.Key_Right, lambda: self.go_to(self.ply + 1)),
            (Qt.Key.Key_Home, lambda: self.go_to(0)),
            (Qt.Key.Key_End, lambda: self.go_to(self.last_ply)),
            (Qt.Key.Key_Space, self.play_button.toggle),
        )
        for key, action in keys:
            shortcut = QShortcut(QKeySequence(key), self)
            shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            shortcut.activated.connect(action)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self._set_enabled(False)
        name_screen(self)

    # --- opening ------------------------------------------------------------------------
    @property
    def last_ply(self) -> int:
        return self.replay.plies if self.replay is not None else 0

    @property
    def verifying(self) -> int:
        """How many verifications have not delivered their result yet (the current one and
        any that a newer file or Back replaced)."""
        return len(self._running)

    def open_file(self, path: Path) -> None:
        """Verify ``path`` in a worker thread, then show it (``worker.finished``)."""
        self.clear()
        self.path = path
        self.title.setText(path.name)
        self.verdict.setStyleSheet("")
        self.verdict.setText(self.tr("Verifying every signature and replaying every ply…"))
        self.progress.setRange(0, 0)
        self.progress.show()
        worker = self.worker = VerifyWorker()
        # A verification still running when another file is opened (or Back is clicked)
        # reports to nobody: only the current worker's results are shown.
        worker.progress.connect(lambda done, total: self._progress(worker, done, total))
        worker.finished.connect(lambda result: self._verified(worker, result))
        self._running.add(worker)
        worker.start(path)

    def _progress(self, worker: VerifyWorker, done: int, total: int) -> None:
        if worker is self.worker:
            self.progress.setRange(0, max(total, 1))
            self.progress.setValue(done)

    def _verified(self, worker: VerifyWorker, verification: Verification) -> None:
        self._running.discard(worker)
        if worker is self.worker:
            self.show_verification(verification)

    def show_verification(self, verification: Verification) -> None:
        self.progress.hide()
        self.worker = None
        report = verification.report
        try:
            replay = Replay.build(verification, shown_bot_name)
        except ReplayUnavailable as error:
            self.verdict.setStyleSheet(f"color: {ERROR}; font-weight: bold;")
            self.verdict.setText(
                self.tr("This file cannot be replayed: {reason}").format(reason=str(error))
            )
            self._show_problems(report.problems)
            return
        self.replay = replay
        self.title.setText(
            self.tr("{game} — {file}").format(
                game=game_name(replay.engine.name), file=Path(replay.name).name
            )
        )
        self.verdict.setStyleSheet(
            f"color: {VERDICT_COLOURS.get(report.exit_code, ERROR)}; font-weight: bold;"
        )
        self.verdict.setText(self._verdict_text(replay))
        self.board = make_board(replay.engine, game_name(replay.engine.name))
        self.board_layout.addWidget(self.board)
        self._show_players(replay)
        self._show_record(replay)
        self._show_problems(report.problems)
        self.slider.blockSignals(True)
        self.slider.setRange(0, replay.plies)
        self.slider.blockSignals(False)
        self._set_enabled(True)
        self.setFocus()
        self.go_to(0)

    def _verdict_text(self, replay: Replay) -> str:
        report = replay.report
        final = (
            self.tr("every ply final")
            if report.final >= replay.plies
            else self.tr("final up to ply {ply}").format(ply=max(report.final, 0))
        )
        found = len(report.problems)  # lupdate reads no call in the plural argument
        counts = self.tr("%n problem(s)", "", found)
        words = {
            0: self.tr("Valid and complete"),
            3: self.tr("Valid but incomplete"),
            1: self.tr("Invalid"),
        }.get(report.exit_code, self.tr("Unreadable"))
        text = self.tr("{verdict}: {plies} plies, {final}, {problems}.").format(
            verdict=words, plies=replay.plies, final=final, problems=counts
        )
        if report.result is not None:  # in the table's words: players by name, no key
            names = {player.key: player.name for player in report.players}
            absent = [names.get(key, "?") for key in report.absent]
            left = bool(report.absent) and all(key in report.left for key in report.absent)

            def holder(seat: int) -> str:  # whoever held the seat at the end: a bot, maybe
                return replay.seat_name(seat, replay.plies)

            summary = reason_text(replay.engine.name, report.result, absent, left, holder)
            text += " " + self.tr("Result: {summary}").format(summary=summary)
        return text

    def clear(self) -> None:
        self.play_button.setChecked(False)
        self._stop_animation()
        self._stop_page()
        if self.board is not None:
            self.board.setParent(None)
            self.board.deleteLater()
        self.board = self.replay = self.worker = None
        self.progress.hide()
        self.ply = 0
        for widget in (self.players, self.record, self.problems):
            widget.clear()
        self.frame_text.clear()
        self.position.clear()
        self.export_status.clear()
        self._set_enabled(False)

    def _set_enabled(self, enabled: bool) -> None:
        for widget in (
            self.first_button,
            self.previous_button,
            self.play_button,
            self.next_button,
            self.last_button,
            self.slider,
            self.copy_button,
            self.image_button,
            self.animation_button,
            self.page_button,
            self.moves_button,
        ):
            widget.setEnabled(enabled)

    # --- the panels ---------------------------------------------------------------------
    def _show_players(self, replay: Replay) -> None:
        for player in replay.players:
            since = (
                self.tr(" (from ply {ply})").format(ply=player.since_ply)
                if player.since_ply
                else ""
            )
            text = self.tr("Seat {seat}: {name}").format(seat=player.seat, name=player.name)
            item = QListWidgetItem(side_icon(replay.engine.name, player.seat), text + since)
            item.setData(Qt.ItemDataRole.UserRole, player.seat)
            self.players.addItem(item)

    def _show_record(self, replay: Replay) -> None:
        start = QListWidgetItem("  0. " + self.tr("the start"))
        start.setData(Qt.ItemDataRole.UserRole, 0)
        self.record.addItem(start)
        for line in replay.lines:
            self.record.addItem(self._record_item(replay, line))

    def _record_item(self, replay: Replay, line: Line) -> QListWidgetItem:
        if line.kind == "ply":
            frame = replay.frames[line.ply]
            mark = "✓" if frame.final else "…"
            if any(p.severity == "invalid" for p in frame.problems):
                mark = "✗"
            move = self._ply_text(replay, frame)
            author = "" if frame.state.record.kind == REMOVE else f"{line.author}  "
            text = f"{line.ply:>3}. {move}   {author}{mark}"
            game = replay.engine.name
            icon = side_icon(game, line.seat) if line.seat else neutral_icon()
            item = QListWidgetItem(icon, text)
            font = QFont(item.font())
            font.setStrikeOut(line.undone)  # the move a takeback undid, struck through
            item.setFont(font)
        else:
            if line.kind == "chat":
                text = self.tr("{author}: {text}").format(author=line.author, text=line.text)
            elif line.kind == "offer":
                text = self.tr("{author} offers a draw").format(author=line.author)
            elif line.kind == "accept":
                text = self.tr("{author} accepts a draw").format(author=line.author)
            elif line.kind == "takeback-ask":
                text = self.tr("{author} asks to take back ply {ply}").format(
                    author=line.author, ply=line.about
                )
            elif line.kind == "takeback-consent":
                text = self.tr("{author} consents to take back ply {ply}").format(
                    author=line.author, ply=line.about
                )
            elif line.kind == "halt":
                text = f"{line.author} {line.text}"
            else:
                text = line.text
            item = QListWidgetItem("      " + text)
            font = QFont(item.font())
            font.setItalic(True)
            item.setFont(font)
            if line.kind in ("problem", "halt"):
                item.setForeground(QBrush(QColor(ERROR)))
            elif line.seat:
                item.setForeground(QBrush(side_colour(replay.engine.name, line.seat).darker(130)))
                item.setIcon(side_icon(replay.engine.name, line.seat))
            else:
                item.setForeground(QBrush(QColor(NEUTRAL).darker(140)))
        item.setData(Qt.ItemDataRole.UserRole, line.ply)
        return item

    def _show_problems(self, problems: Sequence[Problem]) -> None:
        self.problems.clear()
        listed = list(problems)
        for problem in listed:
            item = QListWidgetItem(problem.line())
            item.setForeground(
                QBrush(QColor(ERROR if problem.severity == "invalid" else "#b26a00"))
            )
            item.setData(Qt.ItemDataRole.UserRole, problem.ply)
            self.problems.addItem(item)
        self.problems.setVisible(bool(listed))
        self.problems_label.setVisible(bool(listed))

    # --- stepping -----------------------------------------------------------------------
    def go_to(self, ply: int) -> None:
        replay, board = self.replay, self.board
        if replay is None or board is None:
            return
        ply = max(0, min(ply, replay.plies))
        self.ply = ply
        frame = replay.frames[ply]
        board.show_position(
            replay.engine,
            frame.engine_state,
            last_move=frame.last_move,
            my_seat=None,
            interactive=False,
        )
        board.show_marks([ShownMarks(marks) for marks in frame.marks])
        if self.slider.value() != ply:
            self.slider.blockSignals(True)
            self.slider.setValue(ply)
            self.slider.blockSignals(False)
        self.position.setText(f"{ply}/{replay.plies}")
        clocks = None if frame.clocks is None else ClockDisplay(frame.clocks, frame.runs, LOW_MS)
        show_clock_faces(self.players, clocks)
        self.frame_text.setText(self._frame_words(replay, frame))
        self._select_line(ply)
        self.first_button.setEnabled(ply > 0)
        self.previous_button.setEnabled(ply > 0)
        self.next_button.setEnabled(ply < replay.plies)
        self.last_button.setEnabled(ply < replay.plies)

    def _ply_text(self, replay: Replay, frame: Frame) -> str:
        """The ply as a player reads it: the move's readable notation, or what happened in
        words where the log's label is for the terminal ("seat 1 resigns", key labels)."""
        kind = frame.state.record.kind
        clocked = frame.clocked
        if clocked is not None and clocked.verdict.late:  # no effect: the seat resigned
            name = replay.seat_name(clocked.seat, frame.ply)
            return self.tr("{name} lost on time").format(name=name)
        if kind == RESIGN:
            return self.tr("{name} resigns").format(name=frame.by)
        if kind == DRAW:
            return self.tr("draw agreed")
        if kind == TAKEBACK:
            return self.tr("ply {ply} taken back").format(ply=frame.ply - 1)
        if kind == REMOVE:
            before = replay.frames[frame.ply - 1].state
            gone = [key for key in before.peers if key not in frame.state.peers]
            return removed_words([replay.start.player_name(key) for key in gone])
        return readable_notation(replay.engine, frame.label)

    def _frame_words(self, replay: Replay, frame: Frame) -> str:
        """What the board shows, in words (rich text: the problems in their colour)."""
        if frame.ply == 0:
            text = self.tr("The start.")
        else:
            seat = frame.player or frame.seat
            who = replay.seat_name(seat, frame.ply) if seat else frame.by
            text = self.tr("Ply {ply}: {move}, played by {who}.").format(
                ply=frame.ply, move=self._ply_text(replay, frame), who=who
            )
            if frame.by != who:  # the key of a bot that replaced its player, say
                text += " " + self.tr("Signed by {signer}.").format(signer=frame.by)
            text += " " + (
                self.tr("Final: every player at the table acknowledged it.")
                if frame.final
                else self.tr("Not final: not every player acknowledged it yet.")
            )
        clocked = frame.clocked
        if clocked is not None:
            text += " " + self._clock_words(replay, clocked)
        note = (
            self.board.status_note(
                replay.engine,
                frame.engine_state,
                name_of=lambda seat: replay.seat_name(seat, frame.ply),
            )
            if self.board
            else ""
        )
        if note:
            text += " " + note + "."
        parts = [escape(text)]
        for problem in frame.problems:
            colour = ERROR if problem.severity == "invalid" else "#b26a00"
            parts.append(f'<span style="color:{colour}">⚠ {escape(problem.line())}</span>')
        if frame.marks:
            names = ", ".join(marks.author for marks in frame.marks)
            line = self.tr("Pointing on this position: {names}.").format(names=names)
            parts.append(escape(line))
        return "<br>".join(parts)

    def _clock_words(self, replay: Replay, clocked: ClockedPly) -> str:
        """What the clock made of a ply: the time charged, or the time running out."""
        name = replay.seat_name(clocked.seat, clocked.ply)
        if clocked.verdict.late:
            said = self.tr("{name} ran out of time: the ply had no effect, {name} lost on time.")
        else:
            said = self.tr("{name}'s clock: {seconds} s for this ply.")
        said = said.format(name=name, seconds=clock_face(clocked.verdict.charge, 86_400_000))
        if clocked.verdict.disputed:
            said += " " + self.tr(
                "Disputed: the two computers timed this ply on both sides of the limit."
            )
        return said

    def _select_line(self, ply: int) -> None:
        for row in range(self.record.count()):
            item = self.record.item(row)
            is_ply = item.data(Qt.ItemDataRole.UserRole) == ply and (
                row == 0 or not item.text().startswith("      ")
            )
            if is_ply:
                self.record.setCurrentRow(row)
                self.record.scrollToItem(item)
                return

    def _line_clicked(self, item: QListWidgetItem) -> None:
        ply = item.data(Qt.ItemDataRole.UserRole)
        if isinstance(ply, int):
            self.go_to(ply)

    def _play(self, on: bool) -> None:
        if on:
            if self.ply >= self.last_ply:
                self.go_to(0)
            self.play_button.setIcon(self.pause_icon)
            self.timer.start()
        else:
            self.play_button.setIcon(self.play_icon)
            self.timer.stop()

    def _tick(self) -> None:
        if self.ply >= self.last_ply:
            self.play_button.setChecked(False)
            return
        self.go_to(self.ply + 1)

    def _back(self) -> None:
        self.clear()
        self.closed.emit()

    # --- exports ------------------------------------------------------------------------
    def image(self) -> QImage | None:
        """The board shown, as an ``EXPORT_SIZE`` picture, or None before a game is shown."""
        replay = self.replay
        if replay is None:
            return None
        frame = replay.frames[self.ply]
        renderer = BoardRenderer(replay.engine, EXPORT_SIZE)
        try:
            return renderer.grab(frame.engine_state, frame.last_move, frame.marks)
        finally:
            renderer.close()

    def copy_image(self) -> None:
        image = self.image()
        if image is not None:
            QApplication.clipboard().setImage(image)
            self.export_status.setText(
                self.tr("The board after ply {ply} is in the clipboard.").format(ply=self.ply)
            )

    def save_image(self, path: Path) -> bool:
        image = self.image()
        if image is None:
            return False
        try:
            write_bytes(path, png_bytes(image))
        except OSError as error:
            self._could_not_write(path, error)
            return False
        self.export_status.setText(
            self.tr("Saved the board after ply {ply} to {path}.").format(ply=self.ply, path=path)
        )
        return True

    def _could_not_write(self, path: Path, error: OSError) -> None:
        self.export_status.setText(
            self.tr("Could not write {path}: {reason}").format(
                path=path, reason=error.strerror or str(error)
            )
        )

    def copy_moves(self) -> None:
        """The game's notation on the clipboard: one line per ply, with who played it."""
        if self.replay is None:
            return
        QApplication.clipboard().setText("\n".join(move_lines(self.replay)) + "\n")
        self.export_status.setText(
            self.tr("The {plies} moves are in the clipboard.").format(plies=self.replay.plies)
        )

    def save_page(self, path: Path) -> None:
        """Write the replay page of the game into ``path``, a board per event-loop turn;
        ``pageSaved`` says when it is written."""
        replay = self.replay
        if replay is None:
            return
        self._stop_page()
        page = PageBuilder(replay, EXPORT_SIZE, file_date(Path(replay.name)))
        job = self.page_job = SteppedExport(
            page, lambda: write_bytes(path, page.text().encode("utf-8")), self
        )
        job.progressed.connect(
            lambda done, total: self.export_status.setText(
                self.tr("Drawing the replay page: board {done} of {total}…").format(
                    done=done, total=total
                )
            )
        )
        saved = self.tr("Saved the replay page to {path}: it opens in any web browser.")
        self._run(job, self.page_button, path, self.pageSaved, lambda size: saved.format(path=path))

    def _stop_page(self) -> None:
        if self.page_job is not None:
            self.page_job.stop()
            self.page_job = None

    def save_animation(self, path: Path, fmt: str | None = None) -> None:
        """Draw the whole game into ``path`` (a GIF, animated PNG or WebP, as its suffix or
        ``fmt`` says), a frame per event-loop turn; ``animationSaved`` says when it is
        written."""
        if self.replay is None:
            return
        self._stop_animation()
        animator = None
        for size in ANIMATION_SIZES:  # a long game is drawn smaller rather than refused
            try:
                animator = Animator(self.replay, size)
                break
            except AnimationTooLarge:
                continue
        if animator is None:
            self.export_status.setText(
                self.tr("This game is too long for one animation ({plies} plies).").format(
                    plies=self.replay.plies
                )
            )
            self.animationSaved.emit("")
            return
        kind = format_of(path) or fmt or "gif"
        job = self.animation_job = SteppedExport(
            animator, lambda: animator.finish(path, kind), self
        )
        job.progressed.connect(
            lambda done, total: self.export_status.setText(
                self.tr("Drawing the animation: frame {done} of {total}…").format(
                    done=done, total=total
                )
            )
        )
        saved = self.tr("Saved {frames} frames to {path} ({size} KiB).")
        self._run(
            job,
            self.animation_button,
            path,
            self.animationSaved,
            lambda size: saved.format(frames=animator.total, path=path, size=(size + 1023) // 1024),
        )

    def _stop_animation(self) -> None:
        if self.animation_job is not None:
            self.animation_job.stop()
            self.animation_job = None

    def _run(
        self,
        job: SteppedExport,
        button: QPushButton,
        path: Path,
        saved: SignalInstance,
        words: Callable[[int], str],
    ) -> None:
        """Start ``job``: ``button`` waits for it; the status and ``saved`` say how it went."""

        def written(size: int) -> None:
            button.setEnabled(self.replay is not None)
            self.export_status.setText(words(size))
            saved.emit(str(path))

        def failed(error: OSError) -> None:
            button.setEnabled(self.replay is not None)
            self._could_not_write(path, error)
            saved.emit("")

        job.written.connect(written)
        job.failed.connect(failed)
        button.setEnabled(False)
        job.start()

    def _default_name(self, suffix: str) -> str:
        stem = self.path.stem if self.path is not None else "game"
        directory = self.path.parent if self.path is not None else Path.home()
        return str(directory / f"{stem}{suffix}")

    def _choose_image(self) -> None:
        name, _ = QFileDialog.getSaveFileName(
            self,
            self.tr("Save the board as a picture"),
            self._default_name(f"-ply{self.ply}.png"),
            self.tr("PNG pictures (*.png)"),
        )
        if name:
            self.save_image(Path(name))

    def _choose_animation(self) -> None:
        kinds = {
            self.tr("GIF animation (*.gif)"): ("gif", ".gif"),
            self.tr("Animated PNG (*.png *.apng)"): ("apng", ".png"),
            self.tr("Animated WebP (*.webp)"): ("webp", ".webp"),
        }
        name, chosen = QFileDialog.getSaveFileName(
            self,
            self.tr("Save the game as an animation"),
            self._default_name(".gif"),
            ";;".join(kinds),
        )
        if not name:
            return
        fmt, suffix = kinds.get(chosen, ("gif", ".gif"))
        path = Path(name)
        if format_of(path) is None:  # no suffix, or another one: the kind chosen names it
            path = path.with_name(path.name + suffix)
        self.save_animation(path, fmt)

    def _choose_page(self) -> None:
        name, _ = QFileDialog.getSaveFileName(
            self,
            self.tr("Save the replay page"),
            self._default_name(".html"),
            self.tr("Web pages (*.html)"),
        )
        if name:
            path = Path(name)
            if path.suffix.lower() not in (".html", ".htm"):
                path = path.with_name(path.name + ".html")
            self.save_page(path)
