"""A clocked log's clocks at one ply, in a line: ``Clocks: Ana 0:58 · Bruno 1:00``.

The replay's exports (the animation's caption strip and the replay page, which share
``ui.animation.caption_lines``) say every seat's time left once that ply is judged, as the
replay screen's players list shows it (``client.sessions.replay.Frame.clocks``); a log
without a clock gives no line.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from client.rules.clock import clock_face
from client.sessions.replay import Replay
from client.tabletop.table_clock import LOW_MS

__all__ = ["clocks_line"]


def clocks_line(replay: Replay, ply: int) -> str:
    """Every seat's clock after ply ``ply``, the one that runs next marked (empty without)."""
    frame = replay.frames[ply]
    if frame.clocks is None:
        return ""
    faces = []
    for seat, left in enumerate(frame.clocks, 1):
        mark = "▶ " if seat == frame.runs else ""
        faces.append(f"{mark}{replay.seat_name(seat, ply)} {clock_face(left, LOW_MS)}")
    return QCoreApplication.translate("ReplayClocks", "Clocks: {clocks}").format(
        clocks=" · ".join(faces)
    )
