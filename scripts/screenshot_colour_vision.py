"""Draw the Consensus board as people with each common kind of colour blindness see it.

    python scripts/screenshot_colour_vision.py [--out docs/img] [--size 420]

One position (a seeded game played at random until it holds corpses of several sides) is
drawn by the client's own board widget, offscreen, twice: with today's palette and marks
(``<out>/colour-vision-after.png``), and with the palette the board had before, red #d1495b,
blue #2e86de, green #3aa655 and amber #f2a93b, without marks (``colour-vision-before.png``).
Each picture is four panels: normal vision, then the picture passed pixel by pixel through
the Machado et al. 2009 simulations of protanopia, deuteranopia and tritanopia.  The same
seed gives the same pictures.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QRect, Qt  # noqa: E402
from PySide6.QtGui import QColor, QFont, QImage, QPainter  # noqa: E402

from engines import find_engine  # noqa: E402
from engines.consensus_board import DEAD  # noqa: E402
from tests.colour_vision import VISIONS, simulate_rgb_bytes  # noqa: E402
from ui import theme  # noqa: E402
from ui.board_render import BoardRenderer, ensure_offscreen, rgb_bytes  # noqa: E402
from ui.boards import consensus_canvas  # noqa: E402

BEFORE = ("#d1495b", "#2e86de", "#3aa655", "#f2a93b")
CAPTIONS = {
    "normal": "Normal vision",
    "protanopia": "Protanopia",
    "deuteranopia": "Deuteranopia",
    "tritanopia": "Tritanopia",
}


def position(seed: int) -> Any:
    """A position of a random game holding corpses of at least three sides."""
    engine = find_engine("consensus")
    rng = random.Random(seed)
    while True:
        state = engine.initial_state({"seats": 4})
        for _ in range(400):
            dead = {(code >> 3) & 7 for code in state.board if code & DEAD}
            if len(dead) >= 3 or engine.outcome(state) is not None:
                break
            state = engine.apply(state, rng.choice(engine.legal_moves(state)))
        if len(dead) >= 3 and engine.outcome(state) is None:
            return state


def seen(image: QImage, vision: str) -> QImage:
    """``image`` as someone with ``vision`` sees it."""
    data = simulate_rgb_bytes(rgb_bytes(image), vision)
    width, height = image.width(), image.height()
    return QImage(data, width, height, width * 3, QImage.Format.Format_RGB888).copy()


def panels(board: QImage) -> QImage:
    """The board under each vision, two by two, each with its caption."""
    side, caption = board.width(), 28
    sheet = QImage(side * 2, (side + caption) * 2, QImage.Format.Format_RGB888)
    sheet.fill(QColor("#ffffff"))
    painter = QPainter(sheet)
    font = QFont(painter.font())
    font.setPixelSize(18)
    font.setBold(True)
    painter.setFont(font)
    painter.setPen(QColor("#222222"))
    for index, vision in enumerate(VISIONS):
        left, top = (index % 2) * side, (index // 2) * (side + caption)
        painter.drawText(
            QRect(left, top, side, caption), Qt.AlignmentFlag.AlignCenter, CAPTIONS[vision]
        )
        painter.drawImage(left, top + caption, seen(board, vision))
    painter.end()
    return sheet


def draw(state: Any, size: int, before: bool) -> QImage:
    """The board as it is drawn now, or (``before``) with the old colours and no marks."""
    saved = theme.SEAT_COLOURS, consensus_canvas.ConsensusCanvas._paint_side_mark
    if before:
        # The old look, for comparison only: its colours, and no shapes on the pieces.
        theme.SEAT_COLOURS = BEFORE  # type: ignore[misc]
        consensus_canvas.ConsensusCanvas._paint_side_mark = lambda *_args: None  # type: ignore[method-assign]
    try:
        renderer = BoardRenderer(find_engine("consensus"), size)
        picture = renderer.grab(state, None)
        renderer.close()
    finally:
        theme.SEAT_COLOURS, consensus_canvas.ConsensusCanvas._paint_side_mark = saved  # type: ignore[misc,method-assign]
    return picture


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "img")
    parser.add_argument("--size", type=int, default=420)
    parser.add_argument("--seed", type=int, default=7)
    options = parser.parse_args()
    ensure_offscreen()
    state = position(options.seed)
    options.out.mkdir(parents=True, exist_ok=True)
    for name, before in (("before", True), ("after", False)):
        path = options.out / f"colour-vision-{name}.png"
        if not panels(draw(state, options.size, before)).save(str(path)):
            print(f"could not write {path}", file=sys.stderr)
            return 1
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
