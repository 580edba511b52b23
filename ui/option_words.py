"""A table's options as a player reads them: ``Consensus — 4 seats``, never ``(seats=4)``.

The session hands the host's options on as ``key=value`` pairs (``seats=4, coins=8``); the
lobby's title says the seat count in words and any other option as ``key value``, translated.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

__all__ = ["titled_game"]


def titled_game(game: str, options: str) -> str:
    """``Consensus — 4 seats``; the game's name alone without options."""
    words = [option_words(item) for item in options.split(",") if item.strip()]
    if not words:
        return game
    return QCoreApplication.translate("OptionWords", "{game} — {options}").format(
        game=game, options=", ".join(words)
    )


def option_words(item: str) -> str:
    key, _, value = item.strip().partition("=")
    if key == "seats":
        return QCoreApplication.translate("OptionWords", "{count} seats").format(count=value)
    return f"{key.replace('_', ' ')} {value}"
