"""What a click does on a board that builds a move step by step (Consensus, Les Forbans).

The engine's step view (``engine.next_choices``) offers ``choices`` for the next step.  A
click on one of them is taken; while only the piece is chosen, a click on another piece
that could start a move chooses that one instead; any other click is refused in words (the
board's ``why_not``) and keeps what was chosen so far (the prompt shows the refusal until
the next choice).  Cognes, which aims by dragging, says why on its own.
"""

from __future__ import annotations

from typing import Protocol

__all__ = ["StepBoard", "click_step"]


class StepBoard(Protocol):
    partial: list[int]
    choices: tuple[int, ...]
    refusal: str

    def starts(self) -> tuple[int, ...]:
        """The choices that begin a move (``next_choices`` of nothing chosen)."""

    def choose(self, choice: int) -> None: ...

    def why_not(self, choice: int) -> str: ...

    def redraw(self) -> None: ...


def click_step(board: StepBoard, choice: int) -> None:
    if choice in board.choices:
        board.choose(choice)
        return
    if len(board.partial) == 1 and choice in board.starts():
        board.partial = []  # another of my pieces: start again from there
        board.redraw()
        board.choose(choice)
        return
    board.refusal = board.why_not(choice)
    board.redraw()
