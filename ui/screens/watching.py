"""The table screen of a spectator: it says so, and shows no control a watcher cannot use.

A watcher (joined to watch, or a player voted off who follows the game to its end) has no
seat: resigning, draws, takebacks, the move box, pointing (and, for a spectator, the chat's
field) would only sit there greyed as if they might work.  The title says plainly whom it
watches: ``Watching — Ana, Bea, … play Consensus``.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QLabel, QWidget

from client.sessions.session_api import SessionSnapshot
from ui.game_names import game_name

__all__ = ["follow_watching", "watching_title"]

NAMED = 4
"""The players named in the title; more are said as ``…`` (the players list has them all)."""


def watching_title(snapshot: SessionSnapshot) -> str:
    """``Watching — Ana, Bot 2 of Ana (normal), Bea play Consensus``."""
    names = [seat.name for seat in sorted(snapshot.seats, key=lambda seat: seat.seat)]
    shown = ", ".join(names[:NAMED]) + (", …" if len(names) > NAMED else "")
    return QCoreApplication.translate("Watching", "Watching — {players} play {game}").format(
        players=shown, game=game_name(snapshot.engine.name)
    )


def follow_watching(
    snapshot: SessionSnapshot,
    title: QLabel,
    playing: Sequence[QWidget],
    speaking: Sequence[QWidget],
    session_parts: Sequence[QWidget | None],
) -> bool:
    """For a watcher (True): the title says so, the ``playing`` buttons (resign, draws,
    takeback) are hidden, and for a spectator the chat's ``speaking`` field and button too: it
    signs nothing, and chat lines are signed (a player voted off keeps its key and its say).
    These belong to the screen and come back for the next session a player sits at; the
    ``session_parts`` (move box, pointing) come with each session and are only hidden."""
    watching = snapshot.my_seat is None
    if watching and snapshot.seats:
        title.setText(watching_title(snapshot))
    for control in (*playing, *speaking):
        control.setVisible(not watching or (snapshot.removed and control in speaking))
    for part in session_parts:
        if watching and part is not None:
            part.hide()
    return watching
