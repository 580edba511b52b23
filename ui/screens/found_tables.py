"""The start screen's list of the tables heard on the LAN, each joined with one click.

A ``TableFinder`` (client/runtime/mdns.py) browses mDNS in the window's nursery; this box reads it
every ``POLL_MS`` and rebuilds its rows when the finder's ``generation`` changed, so the
list follows hosts as they announce, fill and withdraw their tables.  Each row shows the
game, the host's name, ADDRESS:PORT and the seats free, and a Join button that hands the
table's invite (which names the host's key and the table) to ``joinRequested``.
"""

from __future__ import annotations

from PySide6.QtCore import QTimer, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QGroupBox,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
)

from client.node.discovery import FoundTable
from client.runtime.mdns import TableFinder
from ui.game_names import game_name

__all__ = ["POLL_MS", "FoundTablesBox"]

POLL_MS = 400


class FoundTablesBox(QGroupBox):
    joinRequested = Signal(str)  # the invite of the table to join

    def __init__(self, finder: TableFinder | None, known_games: tuple[str, ...]) -> None:
        super().__init__(self.tr("Tables on the LAN"))
        self.finder = finder
        self.known_games = known_games
        self.shown: tuple[FoundTable, ...] = ()
        self._generation = -1
        self.table = QTableWidget(0, 5)
        self.table.setHorizontalHeaderLabels(
            [self.tr("Game"), self.tr("Host"), self.tr("Address"), self.tr("Seats free"), ""]
        )
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        self.table.setMaximumHeight(180)
        self.note = QLabel()
        self.note.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.addWidget(self.table)
        layout.addWidget(self.note)
        self.timer = QTimer(self)
        self.timer.setInterval(POLL_MS)
        self.timer.timeout.connect(self.refresh)
        self.timer.start()
        self.refresh()

    def refresh(self) -> None:
        """Show what the finder heard, if anything changed since the last look."""
        finder = self.finder
        if finder is None:
            self.note.setText(self.tr("Tables on the LAN are not listened for in this window."))
            return
        if finder.generation == self._generation:
            return
        self._generation = finder.generation
        self.shown = finder.tables()
        self.table.setRowCount(len(self.shown))
        for row, found in enumerate(self.shown):
            ad = found.ad
            free = self.tr("{free} of {seats}").format(free=ad.seats_free, seats=ad.seats)
            for column, text in enumerate((game_name(ad.game), ad.host_name, found.address, free)):
                self.table.setItem(row, column, QTableWidgetItem(text))
            button = QPushButton(self.tr("Join"))
            playable = found.compatible and ad.game in self.known_games and ad.seats_free > 0
            button.setEnabled(playable)
            if not found.compatible:
                button.setToolTip(self.tr("This table runs another version of palabre."))
            elif ad.game not in self.known_games:
                button.setToolTip(self.tr("This palabre does not have that game."))
            elif ad.seats_free == 0:
                button.setToolTip(self.tr("Every seat is taken."))
            else:
                button.setToolTip(self.tr("Join this table, checking the host's key"))
            button.clicked.connect(lambda _=False, invite=str(found.invite): self._join(invite))
            self.table.setCellWidget(row, 4, button)
        if finder.problem is not None:
            self.note.setText(finder.problem)
        elif not self.shown:
            self.note.setText(self.tr("Listening for tables on the LAN… none heard yet."))
        else:
            count = len(self.shown)
            self.note.setText(self.tr("%n table(s) heard on the LAN.", "", count))

    def _join(self, invite: str) -> None:
        self.joinRequested.emit(invite)
