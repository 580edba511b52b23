"""The rules of each game as the client shows them: short texts in both languages, figures.

Each game has a module here exposing ``RULES`` (a ``GameRules``).  Texts are data, written
for players in both languages side by side (``Text(en=..., fr=...)``, simple HTML), so a
reader can check one against the other; they say what ``docs/rules/<game>.md`` says, shorter.
Figures are small widgets drawn from real engine positions by the ``*_figures`` modules:
each builder checks its position with the engine (the move is legal, the run has the
status named, the win happens), so a figure cannot show something the engine would refuse.

Invariants: every ``Text`` has both languages, non-empty; ``rules_for`` knows every game the
registry ships (a test checks it).
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from PySide6.QtWidgets import QWidget

__all__ = ["Figure", "GameRules", "Section", "Text", "rule_games", "rules_for"]


@dataclass(frozen=True)
class Text:
    en: str
    fr: str

    def get(self, language: str) -> str:
        text = self.fr if language == "fr" else self.en
        if language == "fr":
            # French spacing: a no-break space before : ; ? ! so they never start a line.
            text = re.sub(r" ([:;?!])", "\u00a0\\1", text)
        return re.sub(r"(\d) mm\b", "\\1\u00a0mm", text)  # "4.2 mm" stays on one line


@dataclass(frozen=True)
class Figure:
    caption: Text
    draw: Callable[[], QWidget]
    """Builds the drawing (a fresh widget each time the rules are shown)."""


@dataclass(frozen=True)
class Section:
    title: Text
    body: Text
    figures: tuple[Figure, ...] = field(default=())


@dataclass(frozen=True)
class GameRules:
    game: str
    name: Text
    intro: Text
    sections: tuple[Section, ...]


_MODULES = {
    "consensus": "ui.rules.consensus",
    "forbans": "ui.rules.forbans",
    "cognes": "ui.rules.cognes",
    "discorder": "ui.rules.discorder",
}


def rule_games() -> tuple[str, ...]:
    """The games whose rules the client can show, headline game first."""
    return tuple(_MODULES)


def rules_for(game: str) -> GameRules | None:
    module = _MODULES.get(game)
    if module is None:
        return None
    rules: GameRules = importlib.import_module(module).RULES
    return rules
