"""A game as an animation: an optional first card, one frame per ply, a last card.

``Animator`` draws the frames of a ``client.sessions.replay.Replay`` one at a time with the game's
own board widget (``ui.board_render``): each position with its ply marked (the last move) and
the arrows and rings drawn on it in their authors' colours, over a caption strip naming the
ply and who played it, followed by the chat lines written at that ply.  Around them, the
cards of ``ui.cards``: the first (optional) says the game, the players, the file's date and
what the verifier found; the last lists the players and the result, never clipped.  Pillow
writes the file (``ui.animated_file``: GIF, animated PNG or WebP).  ``step`` draws one
frame, so the command line can report progress and the replay screen stays responsive.

Timing: every ply is shown ``delay_ms``; the first shown ply twice as long, the last ply
twice, each card four times (the viewer reads them before the animation loops).

Invariants: every frame has the same size (``size`` wide, the board and a caption strip
high); the plies are ``first`` to ``last`` in chain order; the file is written whole by
``finish`` (nothing is left behind when an export is abandoned).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from PIL import Image
from PySide6.QtCore import QCoreApplication, QRect
from PySide6.QtGui import QColor, QImage, QPainter

from client.sessions.replay import Frame, Replay
from ui.animated_file import write_animation
from ui.board_render import BoardRenderer
from ui.cards import result_card, result_words, title_card
from ui.game_names import game_name
from ui.move_list import player_of
from ui.replay_clocks import clocks_line
from ui.text_fit import draw_fitted

__all__ = [
    "DEFAULT_DELAY_MS",
    "MAX_ANIMATION_PIXELS",
    "AnimationTooLarge",
    "Animator",
    "Shot",
    "caption_lines",
    "frame_caption",
    "strip_height",
    "to_pillow",
]

DEFAULT_DELAY_MS = 700
MAX_ANIMATION_PIXELS = 400_000_000
"""Pixels an animation may hold (its frames are kept until Pillow writes the file: about 4
bytes a pixel, 1.6 GB at most).  A 100-ply game at 600 pixels is 39 million
(docs/BENCHMARKS.md); more plies or a bigger size than the bound allows are refused with
what to change, before anything is drawn: a log file may hold any number of plies."""
MAX_CHAT_ROWS = 2
"""Rows of the caption strip kept for chat (more chat at one ply is made smaller)."""


def frame_caption(replay: Replay, frame: Frame) -> str:
    """The first caption line: the game, the ply and who played what."""
    game = game_name(replay.engine.name)
    if frame.ply == 0:
        return QCoreApplication.translate("Animation", "{game} · the start").format(game=game)
    return QCoreApplication.translate(
        "Animation", "{game} · ply {ply}/{plies} · {who}: {move}"
    ).format(
        game=game, ply=frame.ply, plies=replay.plies, who=player_of(replay, frame), move=frame.label
    )


def caption_lines(replay: Replay, ply: int) -> list[str]:
    """The caption of ply ``ply``: the ply, the clocks after it (a clocked log), the chat said
    at it, the result after the last."""
    lines = [frame_caption(replay, replay.frames[ply])]
    clocks = clocks_line(replay, ply)
    if clocks:
        lines.append(clocks)
    for line in replay.lines:
        if line.kind == "chat" and line.ply == ply:
            lines.append(
                QCoreApplication.translate("Animation", "{author}: {text}").format(
                    author=line.author, text=line.text
                )
            )
    if ply == replay.plies and replay.report.result is not None:
        lines.append(result_words(replay))
    return lines


def row_height(size: int) -> int:
    return max(18, size // 18)


def strip_height(replay: Replay, size: int, first: int, last: int) -> int:
    """The caption strip: a row for the ply and room for the most lines any ply has."""
    most = max(len(caption_lines(replay, ply)) for ply in range(first, last + 1))
    return row_height(size) * min(1 + MAX_CHAT_ROWS, most)


def to_pillow(image: QImage) -> Image.Image:
    rgb = image.convertToFormat(QImage.Format.Format_RGB888)
    data = bytes(rgb.constBits())
    return Image.frombuffer(
        "RGB", (rgb.width(), rgb.height()), data, "raw", "RGB", rgb.bytesPerLine(), 1
    ).copy()


class AnimationTooLarge(ValueError):
    """More frames × pixels than ``MAX_ANIMATION_PIXELS``."""

    def __init__(self, frames: int, width: int, height: int) -> None:
        super().__init__(
            f"{frames} frames of {width} × {height} pixels are more than an animation may hold "
            f"({MAX_ANIMATION_PIXELS // 1_000_000} million pixels)"
        )
        self.frames, self.width, self.height = frames, width, height


@dataclass(frozen=True)
class Shot:
    """One frame to draw: a ply, or a card (``title`` or ``result``)."""

    kind: str
    ply: int = 0


class Animator:
    """Draws ``replay`` frame by frame; see the module docstring."""

    def __init__(
        self,
        replay: Replay,
        size: int,
        delay_ms: int = DEFAULT_DELAY_MS,
        first: int = 0,
        last: int | None = None,
        title: str | None = None,
    ) -> None:
        """``title``: the date line of a first card (None: no first card)."""
        self.replay, self.size, self.delay_ms = replay, size, delay_ms
        self.first = first
        self.last = replay.plies if last is None else last
        if not 0 <= self.first <= self.last <= replay.plies:
            raise ValueError(f"plies {first} to {last} are not in 0 to {replay.plies}")
        self.title = title
        self.strip = strip_height(replay, size, self.first, self.last)
        self.height = size + self.strip
        self.shots = [Shot("ply", ply) for ply in range(self.first, self.last + 1)]
        if title is not None:
            self.shots.insert(0, Shot("title"))
        self.shots.append(Shot("result"))
        if len(self.shots) * size * self.height > MAX_ANIMATION_PIXELS:
            raise AnimationTooLarge(len(self.shots), size, self.height)
        self.renderer = BoardRenderer(replay.engine, size)
        self.frames: list[Image.Image] = []
        self.delays: list[int] = []

    @property
    def total(self) -> int:
        return len(self.shots)

    @property
    def done(self) -> int:
        return len(self.frames)

    @property
    def finished(self) -> bool:
        return self.done >= self.total

    def draw(self, shot: Shot) -> QImage:
        """The picture of one frame."""
        if shot.kind == "title":
            return title_card(self.replay, self.size, self.height, self.title or "")
        if shot.kind == "result":
            return result_card(self.replay, self.size, self.height)
        frame = self.replay.frames[shot.ply]
        board = self.renderer.grab(frame.engine_state, frame.last_move, frame.marks)
        picture = QImage(self.size, self.height, QImage.Format.Format_RGB32)
        picture.fill(QColor("#fafafa"))
        painter = QPainter(picture)
        painter.drawImage(0, 0, board)
        painter.setPen(QColor("#222222"))
        margin = 6
        box = QRect(margin, self.size, self.size - 2 * margin, self.strip)
        draw_fitted(
            painter,
            box,
            "\n".join(caption_lines(self.replay, shot.ply)),
            row_height(self.size) * 11 // 20,
        )
        painter.end()
        return picture

    def delay(self, shot: Shot) -> int:
        if shot.kind != "ply":
            return self.delay_ms * 4
        if shot.ply in (self.first, self.last):
            return self.delay_ms * 2
        return self.delay_ms

    def step(self) -> None:
        """Draw the next frame."""
        shot = self.shots[self.done]
        self.frames.append(to_pillow(self.draw(shot)))
        self.delays.append(self.delay(shot))

    def finish(self, out: Path, fmt: str) -> int:
        """Draw what is left, write ``out`` as ``fmt`` (``OSError`` if it cannot be); its size
        in bytes."""
        while not self.finished:
            self.step()
        self.renderer.close()
        return write_animation(self.frames, self.delays, out, fmt)

    def close(self) -> None:
        """Done with it (written, or abandoned): the board widget goes."""
        self.renderer.close()
        self.frames.clear()
