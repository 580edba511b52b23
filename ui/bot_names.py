"""A bot's name in the player's language: ``Bot 3 of Ann (strong)``, ``Robot 3 d'Ann (fort)``.

The same three parts as ``client.rules.bot_names.bot_name`` (seat, the player whose palabre
runs it, its level), so every screen names a bot as the log does, only translated.  The
window hands ``shown_bot_name`` to the sessions and replays it builds (a ``BotNamer``), so
the lobby, the players list, the move list, notices and the replay all say the same.
"""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication

__all__ = ["level_word", "shown_bot_name"]

# QT_TRANSLATE_NOOP only marks the text for lupdate (its stub returns ``object``).
LEVELS: dict[str, object] = {
    "easy": QT_TRANSLATE_NOOP("BotName", "easy"),
    "normal": QT_TRANSLATE_NOOP("BotName", "normal"),
    "strong": QT_TRANSLATE_NOOP("BotName", "strong"),
}


def shown_bot_name(seat: int, runner: str, level: str | None = None) -> str:
    """The bot's name, translated; a level this client does not know is shown as it is."""
    name = QCoreApplication.translate("BotName", "Bot {seat} of {name}").format(
        seat=seat, name=runner or "?"
    )
    if not level:
        return name
    return QCoreApplication.translate("BotName", "{name} ({level})").format(
        name=name, level=level_word(level)
    )


def level_word(level: str) -> str:
    """A level in the player's language, as a bot's name says it (the host form's choices
    use the same words); a level this client does not know is shown as it is."""
    return QCoreApplication.translate("BotName", str(LEVELS[level])) if level in LEVELS else level
