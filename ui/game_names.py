"""A game's name as its rules call it ("Les Forbans"), never the engine's code ("forbans").

The names live with the rules texts (``ui.rules``, both languages); a game without rules
there shows its code with a capital, as before.
"""

from __future__ import annotations

from ui.i18n import current_language
from ui.rules import rules_for

__all__ = ["game_name"]


def game_name(game: str) -> str:
    """The name a player reads for the game whose engine is called ``game``."""
    rules = rules_for(game)
    return game.capitalize() if rules is None else rules.name.get(current_language())
