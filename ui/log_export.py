"""``palabre log export FILE ...``: the game drawn by Qt, written by Pillow or as a page.

The log is replayed by the verifier (``client.logs.verifier``) and shown as the replay screen
shows it (``client.sessions.replay``): the position after a ply with its last move and the pointing
made on it, drawn by the game's own board widget (``ui.board_render``) as a spectator sees
it.  What ``client.logs.export_request`` checked decides the output:

* ``png`` / ``svg``: the board after ``--ply``, from ``QWidget.grab`` or rendered into a
  ``QSvgGenerator``;
* ``gif`` / ``apng`` / ``webp``: the game as an animation (``ui.animation``), one frame per
  ply from ``--from`` to ``--to``, a last card with the players and result, and with
  ``--title-card`` a first one;
* ``html``: the replay page (``ui.replay_page``).

Every file is encoded in memory and written whole (``ui.animated_file.write_bytes``), so a
failed write says why ("No such file or directory") and leaves nothing behind.  No display
is needed: without one Qt runs offscreen.

Exit codes: 0 written; 1 the log's START is invalid; 2 the log cannot be read or replayed,
a ply is not in it, or the file cannot be written.  A log that replays but has problems is
still drawn, with a warning on stderr.  Long exports show a progress bar on stderr when it
is a terminal (``client.logs.progress``).
"""

from __future__ import annotations

import sys
from typing import TextIO

from client.logs.export_request import ANIMATIONS, ExportRequest
from client.logs.log_commands import load_for_show
from client.logs.progress import ProgressBar
from client.rules.errors import ReplayUnavailable
from client.sessions.replay import Replay
from ui.animated_file import write_bytes
from ui.bot_names import shown_bot_name
from ui.replay_page import file_date

__all__ = ["export"]


def export(request: ExportRequest, err: TextIO | None = None) -> int:
    """Write what ``request`` asks for; the exit code."""
    err = err or sys.stderr
    verification = load_for_show(request.log, err)
    try:
        replay = Replay.build(verification, shown_bot_name)
    except ReplayUnavailable:
        return verification.report.exit_code  # load_for_show said why
    for ply, what in ((request.ply, "--ply"), (request.first, "--from"), (request.last, "--to")):
        if ply is not None and not 0 <= ply <= replay.plies:
            print(
                f"palabre: this log holds plies 0 to {replay.plies}: {what} {ply} is not in it",
                file=err,
            )
            return 2
    if verification.report.problems:
        print(
            f"palabre: warning: {request.log} is {verification.report.status}; "
            "`palabre verify` lists its problems",
            file=err,
        )
    try:
        said = _write(request, replay, err)
    except Refused as error:
        print(f"palabre: {error}", file=err)
        return 2
    except OSError as error:
        print(f"palabre: cannot write {request.out}: {error.strerror or error}", file=err)
        return 2
    print(f"palabre: wrote {said}", file=err)
    return 0


class Refused(Exception):
    """An export that is not made; the message says what to change."""


def _write(request: ExportRequest, replay: Replay, err: TextIO) -> str:
    out = request.out
    if request.kind in ANIMATIONS:
        return _animate(request, replay, err)
    if request.kind == "html":
        from ui.replay_page import replay_page

        bar = ProgressBar(err, f"drawing {out.name}")
        try:
            page = replay_page(replay, request.size, file_date(request.log), bar)
        finally:
            bar.close()
        size = write_bytes(out, page.encode("utf-8"))
        return f"the replay page of {replay.plies} plies to {out} ({_kib(size)})"
    assert request.ply is not None
    write_bytes(out, _picture(replay, request.ply, request.kind, request.size))
    return f"the board after ply {request.ply} to {out}"


def _picture(replay: Replay, ply: int, kind: str, size: int) -> bytes:
    from ui.board_render import BoardRenderer, png_bytes

    frame = replay.frames[ply]
    renderer = BoardRenderer(replay.engine, size)
    try:
        if kind == "svg":
            title = f"{replay.engine.ruleset}, position after ply {ply}"
            return renderer.svg(frame.engine_state, frame.last_move, frame.marks, title)
        return png_bytes(renderer.grab(frame.engine_state, frame.last_move, frame.marks))
    finally:
        renderer.close()


def _animate(request: ExportRequest, replay: Replay, err: TextIO) -> str:
    from ui.animation import DEFAULT_DELAY_MS, AnimationTooLarge, Animator

    try:
        animator = Animator(
            replay,
            request.size,
            DEFAULT_DELAY_MS if request.delay_ms is None else request.delay_ms,
            request.first,
            request.last,
            file_date(request.log) if request.title_card else None,
        )
    except AnimationTooLarge as error:
        raise Refused(
            f"{error}: choose fewer plies with --from/--to, or a smaller --size"
        ) from None
    bar = ProgressBar(err, f"drawing {request.out.name}")
    try:
        while not animator.finished:
            animator.step()
            bar(animator.done, animator.total)
    finally:
        bar.close()
    written = animator.finish(request.out, request.kind)
    return (
        f"{animator.total} frames (plies {animator.first} to {animator.last} and the cards) "
        f"to {request.out} ({_kib(written)})"
    )


def _kib(size: int) -> str:
    return f"{(size + 1023) // 1024} KiB"
