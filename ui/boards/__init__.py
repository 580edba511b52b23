"""Board widgets, one module per game; games without one get the generic move list.

``make_board(engine, name)`` picks the widget: the module listed in ``_BOARDS`` for the
engine's name exposes a ``Board`` class (a ``BoardWidget``); the generic one shows ``name``,
the game's name as the player reads it.
"""

from __future__ import annotations

import importlib

from engines import AnyEngine
from ui.boards.base import BoardWidget
from ui.boards.generic import GenericBoard

__all__ = ["BoardWidget", "GenericBoard", "make_board"]

_BOARDS: dict[str, str] = {
    "cognes": "ui.boards.cognes",
    "consensus": "ui.boards.consensus",
    "discorder": "ui.boards.discorder",
    "forbans": "ui.boards.forbans",
}


def make_board(engine: AnyEngine, name: str) -> BoardWidget:
    module_name = _BOARDS.get(engine.name)
    if module_name is None:
        return GenericBoard(name)
    board: BoardWidget = importlib.import_module(module_name).Board()
    return board
