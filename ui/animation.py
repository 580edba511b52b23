"""A whole game as an animated PNG: one frame for the start and one per ply.

``Animator`` draws the frames of a ``client.replay.Replay`` one at a time with the game's own
board widget (``ui.board_render``) — each position with its last move and the pointing made
on it, and a caption naming the ply, who played it and, on the last frame, the result — and
collects them in an ``ui.apng.ApngWriter``.  ``step`` draws one frame, so the command line
can report progress between frames and the replay screen can stay responsive.

Timing: every frame is shown ``delay_ms``; the start twice as long, the last frame four
times (the viewer reads the result before the animation loops).

Invariants: frames = plies + 1, in chain order; the file is written whole by ``finish``
(nothing is left behind when an export is abandoned).
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QCoreApplication

from client.replay import Frame, Replay
from ui.apng import ApngWriter
from ui.board_render import BoardRenderer, caption_height, rgb_bytes

__all__ = ["DEFAULT_DELAY_MS", "Animator", "frame_caption"]

DEFAULT_DELAY_MS = 700


def frame_caption(replay: Replay, frame: Frame) -> str:
    game = replay.engine.name.capitalize()
    if frame.ply == 0:
        text = QCoreApplication.translate("Animation", "{game} · the start").format(game=game)
    else:
        seat = frame.player or frame.seat or 0
        who = replay.seat_name(seat, frame.ply) if seat else frame.by
        text = QCoreApplication.translate(
            "Animation", "{game} · ply {ply}/{plies} · {who}: {move}"
        ).format(game=game, ply=frame.ply, plies=replay.plies, who=who, move=frame.label)
    result = replay.report.result
    if frame.ply == replay.plies and result is not None:
        text += " — " + result.summary
    return text


class Animator:
    """Draws ``replay`` frame by frame into an APNG; see the module docstring."""

    def __init__(self, replay: Replay, size: int, delay_ms: int = DEFAULT_DELAY_MS) -> None:
        self.replay, self.delay_ms = replay, delay_ms
        self.renderer = BoardRenderer(replay.engine, size)
        self.writer = ApngWriter(size, size + caption_height(size))
        self.done = 0

    @property
    def total(self) -> int:
        return len(self.replay.frames)

    @property
    def finished(self) -> bool:
        return self.done >= self.total

    def step(self) -> None:
        """Draw the next frame."""
        frame = self.replay.frames[self.done]
        image = self.renderer.grab(
            frame.engine_state, frame.last_move, frame.marks, frame_caption(self.replay, frame)
        )
        delay = self.delay_ms
        if frame.ply == 0:
            delay *= 2
        if frame.ply == self.replay.plies:
            delay *= 4
        self.writer.add(rgb_bytes(image), delay)
        self.done += 1

    def finish(self, out: Path) -> int:
        """Draw what is left, write ``out`` (``OSError`` if it cannot be); its size in bytes."""
        while not self.finished:
            self.step()
        self.renderer.close()
        self.writer.close(out)
        return out.stat().st_size

    def abandon(self) -> None:
        self.renderer.close()
