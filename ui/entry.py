"""The ``palabre`` console script.

With a subcommand it hands over to ``client.commands.cli`` and never imports Qt, except ``log
export``, which draws with the Qt boards: ``client.commands.cli`` parses it and calls back
``_export`` here, which imports ``ui.log_export`` (and Qt) only then.  With none it opens
the Qt client when a display exists (or ``QT_QPA_PLATFORM`` is set); with no display it says
so and runs the headless demo.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

from client.logs.export_request import ExportRequest

__all__ = ["has_display", "main"]


def has_display() -> bool:
    return any(os.environ.get(name) for name in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"))


def _has_subcommand(argv: Sequence[str]) -> bool:
    skip_value = False
    for token in argv:
        if skip_value:
            skip_value = False
        elif token == "--profile":
            skip_value = True
        elif not token.startswith("-") or token in ("-h", "--help"):
            return True
    return False


def _profile(argv: Sequence[str]) -> str:
    for index, token in enumerate(argv):
        if token == "--profile" and index + 1 < len(argv):
            return argv[index + 1]
        if token.startswith("--profile="):
            return token.partition("=")[2]
    return "default"


def _export(request: ExportRequest) -> int:
    from ui.log_export import export

    return export(request)


def main(argv: Sequence[str] | None = None) -> int:
    from client.commands import cli
    from client.commands.console import prepare_console
    from client.commands.interrupts import break_like_ctrl_c

    prepare_console()  # a character the console cannot show is written as ?
    break_like_ctrl_c()  # Windows' Ctrl-Break leaves the table like Ctrl-C
    args = list(sys.argv[1:] if argv is None else argv)
    if _has_subcommand(args):
        return cli.main(args, exporter=_export)
    if has_display():
        from ui.app import run_app

        return run_app(_profile(args))
    print(
        "palabre: no display found (DISPLAY is unset); running the headless demo.",
        file=sys.stderr,
    )
    return cli.main([*args, "demo"])


if __name__ == "__main__":
    sys.exit(main())
