"""A bot's name, the same wherever it is shown: ``Bot 3 of Ann (strong)``.

A bot has no name of its own in START, only a seat, the peer that runs it and (since levels)
its level; its name is made of those three, so the lobby, the table, the replay, ``palabre
verify`` and ``palabre log show`` all say the same words for it, and two bots of one peer
never share a name (their seats differ).  The window shows the same name translated: it
gives the sessions and the replay its own ``BotNamer`` (``ui.bot_names``); everything else
uses the English ``bot_name``.
"""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["BotNamer", "bot_name"]

BotNamer = Callable[[int, str, "str | None"], str]
"""``(seat, runner's name, level or None) -> the bot's name``."""


def bot_name(seat: int, runner: str, level: str | None = None) -> str:
    """``Bot 3 of Ann (strong)``; ``Bot 3 of Ann`` when the level is not known (a START
    from before levels)."""
    name = f"Bot {seat} of {runner or '?'}"
    return f"{name} ({level})" if level else name
