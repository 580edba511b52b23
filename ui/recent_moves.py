"""The plies played since this player's last move: what the board numbers and the line under
it tells ("since your move: 1. Bea: c3–c5 · 2. …").

A taken-back ply is no longer on the board, so it and its takeback drop out; resignations,
draws and removals are listed in words but have nothing to mark.  A spectator (no seat)
sees the last round, one ply per seat.  At most ``LIMIT`` plies, the newest.
"""

from __future__ import annotations

from client.sessions.session_api import PlyView, SessionSnapshot

__all__ = ["LIMIT", "plies_since_my_move"]

LIMIT = 8


def plies_since_my_move(snapshot: SessionSnapshot) -> list[PlyView]:
    plies = snapshot.plies
    mine = snapshot.my_seat
    if mine is None:
        start = max(0, len(plies) - max(1, len(snapshot.seats)))
    else:
        start = next(
            (index + 1 for index in range(len(plies) - 1, -1, -1) if plies[index].player == mine),
            0,
        )
    recent: list[PlyView] = []
    for ply in plies[start:]:
        if ply.kind == "takeback":
            if recent:
                recent.pop()
        else:
            recent.append(ply)
    return recent[-LIMIT:]
