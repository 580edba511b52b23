"""Real key events on a board's cursor, shared by the keyboard tests: steer the cursor to a
spot with the arrows (reading where the spots are drawn, never placing the cursor), then
press Enter."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QPointF, Qt

from ui.boards.board_cursor import ARROWS, BoardCursor, step_towards


def arrow_path(cursor: BoardCursor, target: int) -> list[Qt.Key]:
    """The fewest arrows that lead the cursor from where it stands to ``target``."""
    points: dict[int, QPointF] = {}
    for spot in cursor.game.spots():
        point = cursor.mark_point(spot)
        if point is not None:
            points[spot] = point
    start = cursor.spot
    assert start is not None and target in points
    paths: dict[int, list[Qt.Key]] = {start: []}
    frontier = [start]
    while frontier and target not in paths:
        following = []
        for here in frontier:
            for key, direction in ARROWS.items():
                there = step_towards(points, here, direction)
                if there is not None and there not in paths:
                    paths[there] = [*paths[here], key]
                    following.append(there)
        frontier = following
    assert target in paths, f"no arrows lead from {start} to {target}"
    return paths[target]


def steer(qtbot: Any, cursor: BoardCursor, target: int) -> int:
    """Arrow keys on the board until its cursor stands on ``target``; the keys pressed."""
    keys = arrow_path(cursor, target)
    for key in keys:
        qtbot.keyClick(cursor.board, key)
    assert cursor.spot == target
    return len(keys)


def press_at(qtbot: Any, cursor: BoardCursor, target: int) -> int:
    """Steer to ``target`` and press Enter there; the keys pressed."""
    pressed = steer(qtbot, cursor, target)
    qtbot.keyClick(cursor.board, Qt.Key.Key_Return)
    return pressed + 1
