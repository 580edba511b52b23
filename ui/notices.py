"""The table's notices in the player's language.

The client makes each notice as a key and plain parameters (``client.sessions.notices``) with its
English text.  Here each key has the same sentence marked for lupdate; the shown text is its
translation with the parameters put in as they are (names, ply numbers, paths, and free text
from an engine or a peer such as an outcome summary or a refusal reason stay as given).

Invariants: a chat entry without a notice, a key not listed here, or a translation that names
a placeholder the notice lacks, shows the client's English text, never an error; a
notice whose text is only free text (``host-says``) is not listed.
"""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication

from client.sessions.session_api import ChatEntry

__all__ = ["NOTICES", "notice_text"]

# QT_TRANSLATE_NOOP only marks the text for lupdate (its stub returns ``object``); each
# source is the client's English sentence for that key (tests/ui/test_notices.py checks).
NOTICES: dict[str, object] = {
    "draw-offered": QT_TRANSLATE_NOOP("Notice", "{name} offers a draw."),
    "bots-accept-draw": QT_TRANSLATE_NOOP("Notice", "The bots accept the draw."),
    "bots-decline-draw": QT_TRANSLATE_NOOP("Notice", "The bots decline the draw; play goes on."),
    "takeback-asked": QT_TRANSLATE_NOOP("Notice", "{name} asks to take back ply {ply}."),
    "takeback-consented": QT_TRANSLATE_NOOP("Notice", "{name} consents to take back ply {ply}."),
    "bots-consent-takeback": QT_TRANSLATE_NOOP("Notice", "The bots consent."),
    "bot-declines-takeback": QT_TRANSLATE_NOOP("Notice", "{name} declines the takeback: {reason}."),
    "takeback-lapsed": QT_TRANSLATE_NOOP(
        "Notice", "The takeback of ply {ply} lapsed: the game moved on."
    ),
    "resign-pending": QT_TRANSLATE_NOOP(
        "Notice", "You resign; it takes effect when your turn comes."
    ),
    "game-over": QT_TRANSLATE_NOOP("Notice", "Game over: {summary}"),
    "lost-on-time": QT_TRANSLATE_NOOP("Notice", "{name} lost on time."),
    "player-away": QT_TRANSLATE_NOOP("Notice", "{name} is away."),
    "player-back": QT_TRANSLATE_NOOP("Notice", "{name} is back."),
    "player-left-table": QT_TRANSLATE_NOOP("Notice", "{name} left the table."),
    "vote-remove": QT_TRANSLATE_NOOP(
        "Notice", "{name} votes to remove {names}; bots will take their seats."
    ),
    "voted-off": QT_TRANSLATE_NOOP(
        "Notice",
        "You were voted off the table (away or idle past its timeout): "
        "bots play your seats now, and you stay on to watch.",
    ),
    "left-watching": QT_TRANSLATE_NOOP(
        "Notice", "You left this table: bots play your seats now, and you stay on to watch."
    ),
    "ply-dropped": QT_TRANSLATE_NOOP("Notice", "Ply {ply} ({label}) was dropped: its player left."),
    "player-left": QT_TRANSLATE_NOOP(
        "Notice", "{name} left the table ({reason}): the game cannot go on."
    ),
    "refused": QT_TRANSLATE_NOOP("Notice", "Refused: {reason}"),
    "warning": QT_TRANSLATE_NOOP("Notice", "Warning: {text}"),
    "evidence-written": QT_TRANSLATE_NOOP("Notice", "Evidence written to {path}"),
    "halted": QT_TRANSLATE_NOOP("Notice", "The table halted at ply {ply}: {message}"),
    "halt-claim": QT_TRANSLATE_NOOP(
        "Notice",
        "{name}'s palabre stopped the table at ply {ply}, saying: “{claim}”. "
        "That is its claim, not what your palabre found: the verdict above is.",
    ),
    "flood-chat": QT_TRANSLATE_NOOP(
        "Notice", "{name} is flooding the table; {count} lines dropped."
    ),
    "flood-point": QT_TRANSLATE_NOOP(
        "Notice", "{name} is flooding the table; {count} pointings dropped."
    ),
    "flood-other": QT_TRANSLATE_NOOP(
        "Notice", "{name} is flooding the table; {count} records dropped."
    ),
}


def notice_text(entry: ChatEntry) -> str:
    """The text of a chat entry, a notice translated into the interface's language."""
    said = entry.notice
    source = NOTICES.get(said.key) if said is not None else None
    if said is None or source is None:
        return entry.text
    template = QCoreApplication.translate("Notice", str(source))
    try:
        return template.format_map(said.values())
    except (KeyError, IndexError, ValueError):  # a translation with a bad placeholder
        return entry.text
