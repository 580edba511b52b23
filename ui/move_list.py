"""The game's notation as people read it: one line per ply, with who played it.

``move_lines`` gives ``1. Ann: e2e4`` ... (the player's name, or the signer's words for a
ply signed by a bot that replaced a player), what the replay screen's "Copy the moves" puts
on the clipboard and the replay page lists.
"""

from __future__ import annotations

from client.sessions.replay import Frame, Replay

__all__ = ["move_line", "move_lines", "player_of"]


def player_of(replay: Replay, frame: Frame) -> str:
    """Who played ``frame``'s ply, by name; for a TAKEBACK, who asked for it (the player of
    the ply it undid), not whoever appended it."""
    if frame.is_takeback:
        frame = replay.frames[frame.ply - 1]
    seat = frame.player or frame.seat
    return replay.seat_name(seat, frame.ply) if seat else frame.by


def move_line(replay: Replay, frame: Frame) -> str:
    return f"{frame.ply}. {player_of(replay, frame)}: {frame.label}"


def move_lines(replay: Replay) -> list[str]:
    return [move_line(replay, frame) for frame in replay.frames[1:]]
