"""The summary a table shows when it ends, however it ends: the result and its reason,
the standings, the plies and the length of the game, and what to do next (play again,
replay the game file, export the moves).

It is filled from a ``SessionSnapshot`` by ``show_ending`` with the sentence the table
screen already says (``headline``) and how long the screen watched the game (no length
when it came in during the game: a rejoin, a late watcher); it holds no
game state of its own.  An ending is an outcome (won, drawn, resigned, abandoned), a
halt (a divergence) or a stop (a player left a table that cannot go on); a player voted
off watches on, so that is no ending until the game's own.

The buttons only emit: the window decides what playing again means (the same local game
again, or a networked table's rematch), where the game file is and what replaying it opens.
"""

from __future__ import annotations

from html import escape

from PySide6.QtCore import QCoreApplication, Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QVBoxLayout

from client.sessions.session_api import SessionSnapshot
from ui.side_marks import side_glyph
from ui.theme import side_colour

__all__ = ["GameSummary", "standings"]


def standings(snapshot: SessionSnapshot) -> list[tuple[int, str]]:
    """(seat, its result in words), winners first, with each seat's score when the outcome
    carries one per seat."""
    outcome = snapshot.outcome
    scores = outcome.scores if outcome is not None and outcome.scores else ()
    rows: list[tuple[int, int, str]] = []
    timed_out = {seat for seat, _ply in snapshot.lost_on_time}
    for view in snapshot.seats:
        if outcome is None or (not outcome.draw and not outcome.winners):
            said, rank = QCoreApplication.translate("GameSummary", "no result"), 1
        elif outcome.draw:
            said, rank = QCoreApplication.translate("GameSummary", "draw"), 1
        elif view.seat in outcome.winners:
            said, rank = QCoreApplication.translate("GameSummary", "won"), 0
        elif view.seat in timed_out:
            said, rank = QCoreApplication.translate("GameSummary", "lost on time"), 1
        else:
            said, rank = QCoreApplication.translate("GameSummary", "lost"), 1
        if len(scores) == len(snapshot.seats):
            said += " · " + QCoreApplication.translate("GameSummary", "{score} points").format(
                score=scores[view.seat - 1]
            )
        rows.append((rank, view.seat, said))
    rows.sort()
    return [(seat, said) for _rank, seat, said in rows]


class GameSummary(QFrame):
    againRequested = Signal()
    replayRequested = Signal()
    exportRequested = Signal()

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("GameSummary")
        self.setStyleSheet(
            "#GameSummary { background: #f5f5f5; border: 1px solid #bdbdbd; border-radius: 4px; }"
        )
        self.headline = QLabel()
        self.headline.setWordWrap(True)
        # The table screen's banner says the result and its reason right above: the
        # headline is kept (it is the same sentence) but not shown twice.
        self.headline.hide()
        self.standings = QLabel()
        self.standings.setWordWrap(True)
        self.facts = QLabel()
        self.note = QLabel()
        self.again_button = QPushButton(self.tr("Play again"))
        self.replay_button = QPushButton(self.tr("Replay"))
        self.export_button = QPushButton(self.tr("Copy the moves"))
        self.export_button.setToolTip(self.tr("The game's notation, one ply a line, to paste"))
        buttons = QHBoxLayout()
        buttons.addWidget(self.facts, 1)
        for button in (self.again_button, self.replay_button, self.export_button):
            buttons.addWidget(button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.headline)
        layout.addWidget(self.standings)
        layout.addLayout(buttons)
        layout.addWidget(self.note)
        self.note.hide()
        self.again_button.clicked.connect(self.againRequested.emit)
        self.replay_button.clicked.connect(self.replayRequested.emit)
        self.export_button.clicked.connect(self.exportRequested.emit)
        self.hide()

    def show_ending(
        self,
        snapshot: SessionSnapshot,
        headline: str,
        seconds: int | None,
        *,
        can_play_again: bool,
        game_file: str,
    ) -> None:
        if not self.isVisible():
            self.say("")
        self.headline.setText(headline)
        game = snapshot.engine.name
        rows = []
        for seat, said in standings(snapshot):
            colour = side_colour(game, seat).name()
            name = escape(snapshot.seat_name(seat))
            shape = side_glyph(game, seat)
            rows.append(
                f'<span style="color:{colour}">{shape}</span> <b>{name}</b>: {escape(said)}'
            )
        self.standings.setText(" &nbsp; ".join(rows))
        if seconds is None:  # this window came in during the game: its length is unknown
            facts = self.tr("{plies} plies · you came in during the game").format(
                plies=snapshot.ply
            )
        else:
            minutes, rest = divmod(max(0, seconds), 60)
            facts = self.tr("{plies} plies · {minutes} min {seconds} s").format(
                plies=snapshot.ply, minutes=minutes, seconds=rest
            )
        self.facts.setText(facts)
        self.again_button.setEnabled(can_play_again)
        self.replay_button.setEnabled(bool(game_file))
        self.replay_button.setToolTip(game_file or self.tr("This game has no game file to replay."))
        self.show()

    def say(self, text: str) -> None:
        """A line under the buttons (what the last button did)."""
        self.note.setText(text)
        self.note.setVisible(bool(text))
