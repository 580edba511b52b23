"""The Qt client: trio in guest mode on the Qt thread, one window with stacked screens.

``run_app`` builds the QApplication and runs ``main`` with qtrio, which drives trio as a
guest of Qt's event loop: trio code and Qt callbacks share one thread, so sessions call the
screens' slots directly and screens call the sessions' synchronous intents directly.  The
window owns a nursery in which each session's ``serve`` loop runs; closing the window cancels
it.

``PALABRE_QUIT_AFTER_MS`` (tests, scripts): when set, the window closes itself that many
milliseconds after it is shown, and says so on stderr.

Language (``ui.i18n``): the first window installs the translators before it builds a screen.
Choosing another language on the start screen installs its translators and rebuilds the
window (same size and place), since every screen sets its texts when it is built; the start
screen is the only place to choose, so no game is open at that moment.
"""

from __future__ import annotations

import linecache
import os
import sys
from pathlib import Path

import qtrio
import trio
from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import QApplication, QMainWindow, QStackedWidget

from client.commands.launcher import Launcher
from client.node.lobby_model import LobbyIntents, LobbyModel
from client.profile.settings import SettingsStore
from client.runtime.mdns import TableFinder
from client.sessions.net_session import NetSession
from client.sessions.session_api import GameSession, NextTable, SessionEvent
from ui.bot_names import shown_bot_name
from ui.i18n import (
    LanguagePreference,
    current_language,
    ensure_language,
    install_language,
)
from ui.screens.lobby import LobbyScreen
from ui.screens.replay import ReplayScreen
from ui.screens.start import StartScreen
from ui.screens.table import TableScreen

__all__ = ["MainWindow", "main", "run_app"]


class MainWindow(QMainWindow):
    def __init__(
        self,
        nursery: trio.Nursery,
        launcher: Launcher | None = None,
        store: SettingsStore | None = None,
        finder: TableFinder | None = None,
    ) -> None:
        super().__init__()
        self.setWindowTitle("palabre")
        self.nursery = nursery
        self.launcher = launcher or Launcher()
        self.launcher.bot_namer = shown_bot_name  # bots named in the player's language
        self.store = store or SettingsStore()
        # Before any screen is built: screens set their texts once, in the language in use.
        ensure_language(LanguagePreference(self.store.path.parent).load())
        self.session: GameSession | None = None
        self.closed = trio.Event()
        self.reopen = False
        """Set when the window closed to come back in another language."""

        self.stack = QStackedWidget()
        self.start = StartScreen(self.launcher, self.store, finder)
        self.lobby = LobbyScreen()
        self.table = TableScreen(self.store)
        self.replay = ReplayScreen()
        for screen in (self.start, self.lobby, self.table, self.replay):
            self.stack.addWidget(screen)
        self.setCentralWidget(self.stack)
        self.resize(1200, 800)
        self.setMinimumSize(800, 600)  # the whole table, its board still large enough to play

        self.start.sessionReady.connect(self.open_session)
        self.start.tableReady.connect(self.open_table)
        self.start.hostFailed.connect(self.leave_table)
        self.table.leaveRequested.connect(self.leave_table)
        self.table.againRequested.connect(self.start.play_local_again)
        self.table.replayRequested.connect(self.replay_table)
        self.lobby.leaveRequested.connect(self.leave_table)
        self.lobby.watchRequested.connect(self.start.watch)
        self.start.languageChosen.connect(self.switch_language)
        self.start.replayRequested.connect(self.open_replay)
        self.replay.closed.connect(self.show_start)

    def show_start(self) -> None:
        # PySide6's import hook reads the source of every module imported after it (to see
        # whether it uses PySide6), which leaves all of it in ``linecache``: over 10 MB once
        # the screens and a game's board are imported.  Nothing here needs it kept; a
        # traceback reads the lines it shows again.
        linecache.clearcache()
        self.start.show_recent()
        self.stack.setCurrentWidget(self.start)

    def show_lobby(self, model: LobbyModel, intents: LobbyIntents | None) -> None:
        self.lobby.set_model(model, intents)
        self.stack.setCurrentWidget(self.lobby)

    def open_session(self, session: GameSession) -> None:
        """Run ``session`` in the window's nursery and show its table."""
        self.leave_table()
        self.session = session
        self.nursery.start_soon(session.serve)
        self.table.set_session(session)
        self.stack.setCurrentWidget(self.table)

    def open_table(self, session: NetSession) -> None:
        """Show a networked table's lobby, run it, and show its table once it starts."""
        self.leave_table()
        self.session = session
        self.show_lobby(session.lobby, session)
        self.nursery.start_soon(session.serve)

        def follow(_event: SessionEvent) -> None:
            if isinstance(_event, NextTable) and self.session is session:
                self.open_table(_event.session)  # everyone plays again: the new table's lobby
                return
            lobby_shown = self.stack.currentWidget() is self.lobby
            if self.session is session and session.started and lobby_shown:
                self.table.set_session(session)
                self.stack.setCurrentWidget(self.table)

        session.subscribe(follow)

    def open_replay(self, path: Path) -> None:
        """Verify the game file at ``path`` and step through it."""
        self.replay.open_file(path)
        self.stack.setCurrentWidget(self.replay)

    def replay_table(self, path: Path) -> None:
        """Leave the ended table and replay its game file."""
        self.leave_table()
        self.open_replay(path)

    def leave_table(self) -> None:
        if self.session is not None:
            self.session.leave()
            self.session = None
        self.table.clear_session()
        self.show_start()

    def switch_language(self, language: str) -> None:
        """Install ``language`` and close, asking ``main`` for a new window in it."""
        install_language(language)
        self.reopen = True
        self.close()

    def closeEvent(self, event: QCloseEvent) -> None:
        self.leave_table()
        self.closed.set()
        super().closeEvent(event)


async def _close_after(shown: list[MainWindow], milliseconds: int) -> None:
    await trio.sleep(milliseconds / 1000)
    window = shown[-1]
    size = window.size()
    print(
        f"palabre: window shown ({size.width()}x{size.height()}), closing after {milliseconds} ms"
        f" (language: {current_language()})",
        file=sys.stderr,
    )
    window.close()


async def main(profile: str = "default", quit_after_ms: int = 0) -> None:
    """Open the window and return when it is closed (not when it reopens in a new language)."""
    async with trio.open_nursery() as nursery:
        finder = TableFinder()  # one for every window: a new language keeps what it heard
        nursery.start_soon(finder.serve)
        # Only the window on screen is held: a window closed for another language is let go
        # (it and its screens would otherwise stay in memory, a few MB per switch).
        shown: list[MainWindow] = []
        geometry = None
        while True:
            window = MainWindow(nursery, Launcher(profile=profile), SettingsStore(profile), finder)
            if geometry is not None:
                window.setGeometry(geometry)
            window.show()
            first = not shown
            shown[:] = [window]
            if quit_after_ms > 0 and first:
                nursery.start_soon(_close_after, shown, quit_after_ms)
            await window.closed.wait()
            if not window.reopen:
                break
            geometry = window.geometry()
            del window  # the next window replaces it in ``shown``; nothing else holds it
        nursery.cancel_scope.cancel()


def run_app(profile: str = "default") -> int:
    """Run the client until its window closes; the process exit code."""
    quit_after = os.environ.get("PALABRE_QUIT_AFTER_MS", "")
    quit_after_ms = int(quit_after) if quit_after.isdigit() else 0
    application = QApplication.instance() or QApplication([sys.argv[0]])
    application.setApplicationName("palabre")
    qtrio.run(main, profile, quit_after_ms)  # raises what ``main`` raised
    return 0
