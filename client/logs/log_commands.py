"""``palabre verify`` and ``palabre log show``: the commands around a game log file.

Both replay the log through the verifier.  ``verify`` prints every problem, then the
summary (or the JSON report with ``--json``), and exits with the verifier's code: 0 valid
and complete, 1 invalid, 2 unreadable or not a game log, 3 valid but incomplete.  ``log
show`` exits 0 when it could show the game (a last line says whether it verifies), 2 when
the file is not a log it can replay or the ply asked for is not in it, 1 when its START is
invalid.  Neither ever prints a traceback for anything a file holds.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import TextIO

from client.logs.log_show import game_lines, position_lines
from client.logs.progress import ProgressBar
from client.logs.verifier import Verification, verify_file

__all__ = ["load_for_show", "run_show", "run_verify"]

THREADS = 2 if (os.cpu_count() or 1) > 1 else 1
"""Signatures are checked on two threads when there is a second core to run one."""


def run_verify(
    path: Path, *, as_json: bool = False, out: TextIO | None = None, err: TextIO | None = None
) -> int:
    out = out or sys.stdout
    err = err or sys.stderr
    bar = ProgressBar(err, f"verifying {path.name}")
    try:
        verification = verify_file(path, bar, threads=THREADS)
    finally:
        bar.close()
    report = verification.report
    if as_json:
        _write(out, [json.dumps(report.to_json(), indent=2, ensure_ascii=False)])
    else:
        _write(out, report.lines())
    return report.exit_code


def load_for_show(path: Path, err: TextIO) -> Verification:
    """The replayed log; when it has no chain to show, says on ``err`` why."""
    bar = ProgressBar(err, f"reading {path.name}")
    try:
        verification = verify_file(path, bar, threads=THREADS)
    finally:
        bar.close()
    if verification.chain is None:
        report = verification.report
        for line in [problem.line() for problem in report.problems]:
            print(f"palabre: {line}", file=err)
        if report.unreadable:
            print(f"palabre: {path}: {report.unreadable}", file=err)
    return verification


def run_show(
    path: Path, ply: int | None, *, out: TextIO | None = None, err: TextIO | None = None
) -> int:
    out = out or sys.stdout
    err = err or sys.stderr
    verification = load_for_show(path, err)
    if verification.chain is None:
        return verification.report.exit_code
    if ply is None:
        lines = game_lines(verification)
    else:
        try:
            lines = position_lines(verification, ply)
        except IndexError as error:
            print(f"palabre: {error}", file=err)
            return 2
    _write(out, lines)
    return 0


def _write(out: TextIO, lines: list[str]) -> None:
    """Print ``lines``; a reader that went away (``| head``) ends the output quietly."""
    try:
        for line in lines:
            print(line, file=out)
        out.flush()
    except BrokenPipeError:
        # Python would complain again when flushing stdout at exit: point it at nothing.
        if out is sys.stdout:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            os.close(devnull)
