"""What a ply did, in a sentence ("Random 2's Syndicaliste killed your GIGN on e9"), for the
line under the board that tells the plies since this player's last move.

Consensus plies are told from the position before them (``PositionHistory``): which piece
moved, and whom it killed, pushed off or whose corpse it carried; a piece of this player's
is "your ...".  Other games, or a ply whose position is not known, read as their notation
(``ui.notation``).

Invariant: a ply this module cannot tell is given back as ``None``, never an error.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QCoreApplication

from engines.consensus_board import DEAD, FONCTIONNAIRE, HAUSSAIRE, KIND_NAMES, SQUARE_NAMES
from engines.consensus_moves import NO_KILL

__all__ = ["consensus_words"]


def consensus_words(
    before: Any, wire: tuple[int, ...], my_seat: int | None, name_of: Callable[[int], str]
) -> str | None:
    """The sentence for Consensus ply ``wire`` played on the position ``before``."""
    board = before.board
    if len(wire) < 2 or not all(0 <= square < len(board) for square in wire[:2]):
        return None
    origin, target, *further = wire
    piece = board[origin]
    if not piece or piece & DEAD:
        return None

    def whose(code: int) -> str:
        seat, kind = (code >> 3) & 7, KIND_NAMES[code & 7]
        if seat == my_seat:
            return QCoreApplication.translate("PlyWords", "your {piece}").format(piece=kind)
        return QCoreApplication.translate("PlyWords", "{name}'s {piece}").format(
            name=name_of(seat), piece=kind
        )

    mover, square = whose(piece), SQUARE_NAMES[target]
    victim = board[target]
    if piece & 7 == HAUSSAIRE:
        killed = further[0] if further and further[0] != NO_KILL else None
        if killed is not None and 0 <= killed < len(board) and board[killed]:
            return QCoreApplication.translate(
                "PlyWords", "{mover} went to {square} and killed {victim}"
            ).format(mover=mover, square=square, victim=whose(board[killed]))
    elif victim and victim & DEAD:
        return QCoreApplication.translate(
            "PlyWords", "{mover} carried the corpse off {square}"
        ).format(mover=mover, square=square)
    elif victim and piece & 7 == FONCTIONNAIRE:
        return QCoreApplication.translate(
            "PlyWords", "{mover} pushed {victim} off {square}"
        ).format(mover=mover, victim=whose(victim), square=square)
    elif victim:
        return QCoreApplication.translate("PlyWords", "{mover} killed {victim} on {square}").format(
            mover=mover, victim=whose(victim), square=square
        )
    return QCoreApplication.translate("PlyWords", "{mover} went from {origin} to {square}").format(
        mover=mover, origin=SQUARE_NAMES[origin], square=square
    )
