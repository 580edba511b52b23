"""``python -m client COMMAND ...``: the ``palabre`` subcommands without the Qt entry point
(the demo starts its peer processes this way)."""

from __future__ import annotations

import sys

from client.cli import main

sys.exit(main())
