"""Pointing at a live table: the player's gestures become POINT intents, everyone's marks are
drawn on the board.

``PointingController`` joins one board, one session and its bridge:

* a gesture on the board (``BoardWidget.pointed``: an arrow, or a mark when both ends are
  equal) toggles that mark in the player's *current* marks — those still visible on the
  board — and sends the whole set with the session's ``point`` intent (a POINT replaces its
  author's earlier marks; docs/PROTOCOL.md).  "Clear my marks" sends none;
* every ``Pointed`` event (the player's own included: the table echoes what it signed) about
  the position on the board replaces that author's marks; one about another ply is stale
  and dropped;
* when a ply is played, every mark is cleared: they were about the position before it;
* marks fade out by themselves (``ui.boards.pointing.FADE_AFTER``).

Its ``toolbar`` (a *Point* toggle for the left button, *Clear my marks*, a hint) sits under
the board.  Only a seated player at a table that has not halted can point.

Invariant: the controller holds only what is drawn; the session is the only way marks leave
this window.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QWidget

from client.sessions.session_api import GameSession, Pointed
from client.tabletop.outside import MAX_ARROWS, MAX_SQUARES
from ui.boards.base import BoardWidget
from ui.boards.pointing import ShownMarks, fade
from ui.bridge import SessionBridge

__all__ = ["PointingController", "toggled"]


def toggled(
    arrows: Sequence[tuple[int, int]], squares: Sequence[int], start: int, end: int
) -> tuple[tuple[tuple[int, int], ...], tuple[int, ...]]:
    """The marks with the arrow ``start``→``end`` (or the square, when equal) added, or
    removed if it was there; the oldest go first when a POINT could not hold them all."""
    arrow_list, square_list = list(arrows), list(squares)
    if start == end:
        if start in square_list:
            square_list.remove(start)
        else:
            square_list = [*square_list, start][-MAX_SQUARES:]
    elif (start, end) in arrow_list:
        arrow_list.remove((start, end))
    else:
        arrow_list = [*arrow_list, (start, end)][-MAX_ARROWS:]
    return tuple(arrow_list), tuple(square_list)


class PointingController(QObject):
    def __init__(self, board: BoardWidget, session: GameSession, bridge: SessionBridge) -> None:
        super().__init__(board)
        self.board, self.session = board, session
        self.clock: Callable[[], float] = time.monotonic
        self.marks: dict[object, ShownMarks] = {}
        self.ply = session.snapshot.ply

        self.toolbar = QWidget()
        row = QHBoxLayout(self.toolbar)
        row.setContentsMargins(0, 0, 0, 0)
        self.mode_button = QPushButton(self.tr("Point"))
        self.mode_button.setCheckable(True)
        self.mode_button.setToolTip(
            self.tr("While on, the left button points instead of moving pieces.")
        )
        self.clear_button = QPushButton(self.tr("Clear my marks"))
        self.hint = QLabel(
            self.tr(
                "Right-drag on the board: an arrow; right click: a highlight. Everyone at the "
                "table sees them until the next move."
            )
        )
        self.hint.setWordWrap(True)
        self.hint.setStyleSheet("color: #666666;")
        row.addWidget(self.mode_button)
        row.addWidget(self.clear_button)
        row.addWidget(self.hint, 1)
        if board.pointing is None:
            self.toolbar.hide()  # a board that cannot point (the generic move list)

        board.pointed.connect(self.gesture)
        bridge.pointed.connect(self.receive)
        bridge.stateChanged.connect(lambda _event: self.follow())
        bridge.playersChanged.connect(self.follow)
        bridge.halted.connect(lambda _event: self.follow())
        self.mode_button.toggled.connect(lambda _on: self.follow())
        self.clear_button.clicked.connect(lambda: self.session.point([], []))
        self.follow()

    def detach(self) -> None:
        self.toolbar.setParent(None)
        self.toolbar.deleteLater()

    # --- the session --------------------------------------------------------------------
    def follow(self) -> None:
        """Clear the marks when a ply was played; who may point now."""
        snapshot = self.session.snapshot
        if snapshot.ply != self.ply:
            self.ply = snapshot.ply
            self.marks.clear()
            self._show()
        allowed = snapshot.my_seat is not None and snapshot.halted is None
        self.mode_button.setEnabled(allowed)
        self.clear_button.setEnabled(allowed)
        self.board.set_pointing(
            enabled=allowed, my_seat=snapshot.my_seat, mode=self.mode_button.isChecked()
        )

    def receive(self, marks: Pointed) -> None:
        if marks.ply != self.session.snapshot.ply:
            return  # about a position no longer on the board
        key = marks.seat if marks.seat is not None else marks.author
        if marks.arrows or marks.squares:
            self.marks[key] = ShownMarks(marks, self.clock())
        else:
            self.marks.pop(key, None)
        self._show()

    def _show(self) -> None:
        self.board.show_marks(list(self.marks.values()))

    # --- the player ---------------------------------------------------------------------
    def mine(self) -> tuple[tuple[tuple[int, int], ...], tuple[int, ...]]:
        """This player's marks still visible on the board."""
        seat = self.session.snapshot.my_seat
        shown = self.marks.get(seat)
        if shown is None or fade(shown.since, self.clock()) <= 0:
            return (), ()
        return shown.marks.arrows, shown.marks.squares

    def gesture(self, start: int, end: int) -> None:
        arrows, squares = toggled(*self.mine(), start, end)
        self.session.point(arrows, squares)
