"""A removal ply (players voted off the table, bots in their seats) in the player's words.

The record's own label is the log's ("peer K3QF-7XZA… (Ana) removed; bots take seats [3]"):
a key label and a list are for the terminal and the log, so the window says the players'
names instead, in the move list and the line under the board alike.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QCoreApplication

from client.sessions.session_api import PlyView

__all__ = ["removal_words", "removed_words"]


def removal_words(ply: PlyView) -> str:
    """``Ana voted off the table`` for a ``"remove"`` ply."""
    return removed_words(ply.removed)


def removed_words(removed: Sequence[str]) -> str:
    """``Ana voted off the table``, for the players a removal took off, by name."""
    names = ", ".join(removed) or QCoreApplication.translate("RemovalWords", "A player")
    return QCoreApplication.translate("RemovalWords", "{names} voted off the table").format(
        names=names
    )
