"""``palabre log export FILE --ply N (--png|--svg) OUT``: the board at a ply, drawn by Qt.

The log is replayed by the verifier (``client.verifier``), the position after ply N is
taken from the replayed chain, and the game's own board widget (``ui.boards``, the one the
Qt client shows) draws it as a spectator sees it — seat 1 at the bottom, nothing to click —
at ``size`` × ``size`` pixels (drawn at the widget's minimum size when that is larger, then
scaled).  PNG comes from ``QWidget.grab``, SVG from rendering the same
widget into a ``QSvgGenerator``.  No display is needed: without one Qt runs offscreen.

Exit codes: 0 written; 1 the log's START is invalid; 2 the log cannot be read or replayed,
the ply is not in it, or the file cannot be written.  A log that replays but has problems is
still drawn, with a warning on stderr.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TextIO

from client.log_commands import load_for_show
from client.log_show import board_at
from client.records import MOVE

__all__ = ["export_board"]


def export_board(
    log: Path, ply: int, out: Path, fmt: str, size: int, err: TextIO | None = None
) -> int:
    """Draw the board after ``ply`` of ``log`` into ``out`` (``fmt``: ``png`` or ``svg``)."""
    err = err or sys.stderr
    verification = load_for_show(log, err)
    engine = verification.engine
    if verification.chain is None or engine is None:
        return verification.report.exit_code
    try:
        state = board_at(verification, ply)
    except IndexError as error:
        print(f"palabre: {error}", file=err)
        return 2
    if verification.report.problems:
        print(
            f"palabre: warning: {log} is {verification.report.status}; "
            "`palabre verify` lists its problems",
            file=err,
        )
    if not any(os.environ.get(name) for name in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")):
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
    from PySide6.QtCore import QRect, QSize, Qt
    from PySide6.QtSvg import QSvgGenerator
    from PySide6.QtWidgets import QApplication

    from ui.boards import make_board

    app = QApplication.instance() or QApplication([])
    board = make_board(engine)
    last = state.record.body.get("move") if state.record.kind == MOVE else None
    board.show_position(
        engine,
        state.engine_state,
        last_move=None if last is None else tuple(last),
        my_seat=None,
        interactive=False,
    )
    # A board has a minimum size (its labels need room): draw it at least that big, square,
    # and scale the picture to the size asked for.
    least = board.minimumSizeHint().expandedTo(board.minimumSize())
    side = max(size, least.width(), least.height())
    board.resize(side, side)
    layout = board.layout()
    if layout is not None:
        layout.activate()  # lay the hidden widget out at its size before drawing it
    app.processEvents()
    if fmt == "png":
        picture = board.grab()
        if side != size:
            picture = picture.scaled(
                size,
                size,
                Qt.AspectRatioMode.IgnoreAspectRatio,
                Qt.TransformationMode.SmoothTransformation,
            )
        written = picture.save(str(out), "PNG")
    else:
        generator = QSvgGenerator()
        generator.setFileName(str(out))
        generator.setSize(QSize(size, size))
        generator.setResolution(96)  # CSS pixels: a browser shows it at ``size`` pixels
        generator.setViewBox(QRect(0, 0, side, side))
        generator.setTitle(f"{engine.ruleset}, position after ply {ply}")
        board.render(generator)
        del generator  # finishes the file
        written = out.exists() and out.stat().st_size > 0
    board.close()
    board.deleteLater()
    if not written:
        print(f"palabre: cannot write {out}", file=err)
        return 2
    print(f"palabre: wrote the board after ply {ply} to {out}", file=err)
    return 0
