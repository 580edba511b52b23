"""Real key events on a board's cursor, shared by the keyboard tests: steer the cursor to a
spot with the arrows (reading where it stands, never placing it), then press Enter."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt

from ui.boards.board_cursor import BoardCursor

MAX_STEPS = 60


def steer(qtbot: Any, cursor: BoardCursor, target: int) -> int:
    """Arrow keys on the board until its cursor stands on ``target``; the keys pressed."""
    aim = cursor.mark_point(target)
    assert aim is not None
    pressed = 0
    while cursor.spot != target:
        assert pressed < MAX_STEPS, f"the cursor never reached {target} (at {cursor.spot})"
        here = cursor.mark_point(cursor.spot) if cursor.spot is not None else None
        assert here is not None
        dx, dy = aim.x() - here.x(), aim.y() - here.y()
        tolerance = cursor.mark_size() * 0.3
        if abs(dx) > tolerance:
            key = Qt.Key.Key_Right if dx > 0 else Qt.Key.Key_Left
        else:
            key = Qt.Key.Key_Down if dy > 0 else Qt.Key.Key_Up
        qtbot.keyClick(cursor.board, key)
        pressed += 1
    return pressed


def press_at(qtbot: Any, cursor: BoardCursor, target: int) -> int:
    """Steer to ``target`` and press Enter there; the keys pressed."""
    pressed = steer(qtbot, cursor, target)
    qtbot.keyClick(cursor.board, Qt.Key.Key_Return)
    return pressed + 1
