"""The table screen of a spectator: it says so, and shows no control a watcher cannot use.

A watcher (joined to watch, or a player voted off who follows the game to its end) has no
seat: resigning, draws, takebacks, the move box, pointing (and, for a spectator, the chat's
field) would only sit there greyed as if they might work.  The title says plainly whom it
watches: ``Watching — Ana, Bea, … play Consensus``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication

from client.sessions.session_api import SessionSnapshot
from ui.game_names import game_name

if TYPE_CHECKING:
    from ui.screens.table import TableScreen

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


def follow_watching(screen: TableScreen, snapshot: SessionSnapshot) -> bool:
    """Title and controls for a watcher (True) or a seated player (False, left as they are
    but for the buttons a watcher hid, which come back)."""
    watching = snapshot.my_seat is None
    if watching and snapshot.seats:
        screen.title.setText(watching_title(snapshot))
    move_box = screen.keyboard.move_box
    controls = (
        screen.resign_button,
        screen.offer_button,
        screen.accept_button,
        screen.takeback_button,
        *(() if move_box is None else (move_box,)),
    )
    # A spectator signs nothing, and chat lines are signed: it reads the chat only (a player
    # voted off keeps its key and its say).
    chat = (screen.chat.field, screen.chat.button)
    if not snapshot.removed:
        controls = (*controls, *chat)
    for control in controls:
        control.setVisible(not watching)
    if watching and screen.pointing is not None:  # marks are for the players to show
        screen.pointing.toolbar.hide()
    return watching
