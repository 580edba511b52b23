"""``python -m client COMMAND ...``: the ``palabre`` subcommands without the Qt entry point
(the demo starts its peer processes this way)."""

from __future__ import annotations

import sys

from client.commands.cli import main
from client.commands.console import prepare_console
from client.commands.interrupts import break_like_ctrl_c

prepare_console()  # a character the console cannot show is written as ?
break_like_ctrl_c()  # Windows' Ctrl-Break leaves the table like Ctrl-C
sys.exit(main())
