"""Board widgets, one module per game; games without one get the generic move list.

``make_board(engine)`` picks the widget: the module listed in ``_BOARDS`` for the engine's
name exposes a ``Board`` class (a ``BoardWidget``).
"""

from __future__ import annotations

import importlib

from engines import AnyEngine
from ui.boards.base import BoardWidget
from ui.boards.generic import GenericBoard

__all__ = ["BoardWidget", "GenericBoard", "make_board"]

_BOARDS: dict[str, str] = {
    "consensus": "ui.boards.consensus",
}


def make_board(engine: AnyEngine) -> BoardWidget:
    module_name = _BOARDS.get(engine.name)
    if module_name is None:
        return GenericBoard()
    board: BoardWidget = importlib.import_module(module_name).Board()
    return board
