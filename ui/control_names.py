"""The accessible names of each screen's controls that Qt cannot find by itself.

Each screen calls ``name_screen(self)`` at the end of its ``__init__``: the controls a
screen reader would otherwise announce without a name (a list, a field outside a form, a
button with only a symbol) get a name and a description from ``NAMES``, looked up by the
screen's class and translated in its context when the screen is built, so in the player's
language.  ``ui.accessible_names`` does the naming and the checking.
"""

from __future__ import annotations

from operator import attrgetter

from PySide6.QtCore import QT_TRANSLATE_NOOP
from PySide6.QtWidgets import QWidget

from ui.accessible_names import name_controls

__all__ = ["NAMES", "name_screen"]

NAMES: dict[str, tuple[tuple[str, str, str], ...]] = {
    # screen class: (the control, from the screen ("" the screen itself), name, description)
    "StartScreen": (
        (
            "language",
            QT_TRANSLATE_NOOP("StartScreen", "Language"),
            QT_TRANSLATE_NOOP("StartScreen", "The language of the window"),
        ),
        ("local_game", QT_TRANSLATE_NOOP("StartScreen", "Game to play against bots"), ""),
        (
            "host_bots",
            QT_TRANSLATE_NOOP("StartScreen", "Bots at the hosted table"),
            QT_TRANSLATE_NOOP("StartScreen", "How many seats bots take"),
        ),
        ("host_bot_kind", QT_TRANSLATE_NOOP("StartScreen", "How well the host's bots play"), ""),
        (
            "join_target",
            QT_TRANSLATE_NOOP("StartScreen", "Table to join"),
            QT_TRANSLATE_NOOP(
                "StartScreen", "Its address (host:port) or an invite pasted from its host"
            ),
        ),
        (
            "recent",
            QT_TRANSLATE_NOOP("StartScreen", "Recent tables"),
            QT_TRANSLATE_NOOP(
                "StartScreen", "The tables you sat at; Rejoin goes back to the selected one"
            ),
        ),
        ("found.table", QT_TRANSLATE_NOOP("StartScreen", "Tables heard on the LAN"), ""),
    ),
    "LobbyScreen": (
        (
            "invite",
            QT_TRANSLATE_NOOP("LobbyScreen", "Invite"),
            QT_TRANSLATE_NOOP("LobbyScreen", "Send it to the other players so they can join"),
        ),
        (
            "seats",
            QT_TRANSLATE_NOOP("LobbyScreen", "Seats"),
            QT_TRANSLATE_NOOP("LobbyScreen", "Each seat: its player, key, kind and readiness"),
        ),
    ),
    "TableScreen": (
        (
            "players",
            QT_TRANSLATE_NOOP("TableScreen", "Players"),
            QT_TRANSLATE_NOOP("TableScreen", "Who plays each seat, and who is to move"),
        ),
        (
            "moves",
            QT_TRANSLATE_NOOP("TableScreen", "Moves"),
            QT_TRANSLATE_NOOP("TableScreen", "Every ply; choose one to see its position"),
        ),
        (
            "chat.lines",
            QT_TRANSLATE_NOOP("TableScreen", "Chat"),
            QT_TRANSLATE_NOOP("TableScreen", "What the players said and the table's notices"),
        ),
        (
            "chat.field",
            QT_TRANSLATE_NOOP("TableScreen", "Chat message"),
            QT_TRANSLATE_NOOP("TableScreen", "Enter sends it to the table"),
        ),
        ("browser.previous_button", QT_TRANSLATE_NOOP("TableScreen", "Previous ply"), ""),
        ("browser.next_button", QT_TRANSLATE_NOOP("TableScreen", "Next ply"), ""),
    ),
    "ReplayScreen": (
        (
            "",
            QT_TRANSLATE_NOOP("ReplayScreen", "Replay"),
            QT_TRANSLATE_NOOP(
                "ReplayScreen", "Home, Left, Right, End and Space step through the game"
            ),
        ),
        ("first_button", QT_TRANSLATE_NOOP("ReplayScreen", "First position"), ""),
        ("previous_button", QT_TRANSLATE_NOOP("ReplayScreen", "Previous ply"), ""),
        ("play_button", QT_TRANSLATE_NOOP("ReplayScreen", "Play or pause"), ""),
        ("next_button", QT_TRANSLATE_NOOP("ReplayScreen", "Next ply"), ""),
        ("last_button", QT_TRANSLATE_NOOP("ReplayScreen", "Last ply"), ""),
        (
            "slider",
            QT_TRANSLATE_NOOP("ReplayScreen", "Ply shown"),
            QT_TRANSLATE_NOOP("ReplayScreen", "Drag to go to any ply of the game"),
        ),
        ("players", QT_TRANSLATE_NOOP("ReplayScreen", "Players"), ""),
        (
            "record",
            QT_TRANSLATE_NOOP("ReplayScreen", "Moves and chat"),
            QT_TRANSLATE_NOOP("ReplayScreen", "Choose a line to see its position"),
        ),
        ("problems", QT_TRANSLATE_NOOP("ReplayScreen", "Problems found by the verifier"), ""),
    ),
    "RulesDialog": (
        (
            "choice",
            QT_TRANSLATE_NOOP("RulesDialog", "Game"),
            QT_TRANSLATE_NOOP("RulesDialog", "The game whose rules are shown"),
        ),
        ("page", QT_TRANSLATE_NOOP("RulesDialog", "Rules"), ""),
    ),
}


def name_screen(screen: QWidget) -> None:
    """Name ``screen``'s controls listed in ``NAMES``, in the player's language (``tr``
    translates in the screen's class, the context ``NAMES`` marks them in)."""

    def tr(text: str) -> str:
        return screen.tr(text) if text else ""

    name_controls(
        screen,
        {
            (attrgetter(path)(screen) if path else screen): (tr(name), tr(description))
            for path, name, description in NAMES.get(type(screen).__name__, ())
        },
    )
