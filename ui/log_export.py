"""``palabre log export FILE (--ply N (--png|--svg) | --apng) OUT``: the game drawn by Qt.

The log is replayed by the verifier (``client.verifier``) and shown as the replay screen
shows it (``client.replay``): the position after ply N with its last move and the pointing
made on it, drawn by the game's own board widget (``ui.board_render``) as a spectator sees
it, at ``size`` × ``size`` pixels.  PNG comes from ``QWidget.grab``, SVG from rendering the
same widget into a ``QSvgGenerator``, and ``--apng`` draws the whole game, one frame for the
start and one per ply, each with a caption (``ui.animation``).  No display is needed: without
one Qt runs offscreen.

Exit codes: 0 written; 1 the log's START is invalid; 2 the log cannot be read or replayed,
the ply is not in it, or the file cannot be written.  A log that replays but has problems is
still drawn, with a warning on stderr.  An animation of many plies shows a progress bar on
stderr when it is a terminal (``client.progress``).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TextIO

from client.log_commands import load_for_show
from client.progress import ProgressBar
from client.replay import Replay, ReplayUnavailable

__all__ = ["export_board"]


def export_board(
    log: Path,
    ply: int | None,
    out: Path,
    fmt: str,
    size: int,
    err: TextIO | None = None,
    delay_ms: int | None = None,
) -> int:
    """Draw ``log`` into ``out``: the board after ``ply`` (``fmt`` ``png`` or ``svg``) or the
    whole game (``apng``, each frame shown ``delay_ms``)."""
    err = err or sys.stderr
    verification = load_for_show(log, err)
    try:
        replay = Replay.build(verification)
    except ReplayUnavailable:
        return verification.report.exit_code  # load_for_show said why
    if fmt != "apng":
        assert ply is not None
        if not 0 <= ply <= replay.plies:
            print(f"palabre: this log holds plies 0 to {replay.plies}, not {ply}", file=err)
            return 2
    if verification.report.problems:
        print(
            f"palabre: warning: {log} is {verification.report.status}; "
            "`palabre verify` lists its problems",
            file=err,
        )
    try:
        if fmt == "apng":
            return _animate(replay, out, size, delay_ms, err)
        assert ply is not None
        written = _draw(replay, ply, out, fmt, size)
    except OSError as error:
        print(f"palabre: cannot write {out}: {error.strerror or error}", file=err)
        return 2
    if not written:
        print(f"palabre: cannot write {out}", file=err)
        return 2
    print(f"palabre: wrote the board after ply {ply} to {out}", file=err)
    return 0


def _draw(replay: Replay, ply: int, out: Path, fmt: str, size: int) -> bool:
    from PySide6.QtCore import QRect, QSize
    from PySide6.QtSvg import QSvgGenerator

    from ui.board_render import BoardRenderer

    frame = replay.frames[ply]
    renderer = BoardRenderer(replay.engine, size)
    try:
        if fmt == "png":
            image = renderer.grab(frame.engine_state, frame.last_move, frame.marks)
            return image.save(str(out), "PNG")  # type: ignore[call-overload,no-any-return]
        renderer.show(frame.engine_state, frame.last_move, frame.marks)
        generator = QSvgGenerator()
        generator.setFileName(str(out))
        generator.setSize(QSize(size, size))
        generator.setResolution(96)  # CSS pixels: a browser shows it at ``size`` pixels
        generator.setViewBox(QRect(0, 0, renderer.side, renderer.side))
        generator.setTitle(f"{replay.engine.ruleset}, position after ply {ply}")
        renderer.board.render(generator)
        del generator  # finishes the file
        return out.exists() and out.stat().st_size > 0
    finally:
        renderer.close()


def _animate(replay: Replay, out: Path, size: int, delay_ms: int | None, err: TextIO) -> int:
    from ui.animation import DEFAULT_DELAY_MS, Animator

    animator = Animator(replay, size, DEFAULT_DELAY_MS if delay_ms is None else delay_ms)
    bar = ProgressBar(err, f"drawing {out.name}")
    try:
        while not animator.finished:
            animator.step()
            bar(animator.done, animator.total)
    finally:
        bar.close()
    written = animator.finish(out)
    print(
        f"palabre: wrote {animator.total} frames (the start and {replay.plies} plies) to {out} "
        f"({(written + 1023) // 1024} KiB)",
        file=err,
    )
    return 0
