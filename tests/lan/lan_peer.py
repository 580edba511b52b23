"""A palabre peer for the LAN scenarios, with test-only additions (never used by palabre).

    python -m tests.lan.lan_peer [--profile P] host|join ARGS...   (palabre's own arguments)

* ``PALABRE_TEST_DELAY=MS[:JITTER_MS]``: every link of this peer is delayed
  (``tests.lan.delay``): what it sends reaches the wire MS ± JITTER_MS milliseconds later;
* ``PALABRE_TEST_FAULTS``: the faults of ``tests.e2e.faulty_peer`` (which then runs it);
* otherwise it is exactly ``python -m client``.
"""

from __future__ import annotations

import os
import sys

from client.commands.cli import main as palabre
from tests.e2e import faulty_peer
from tests.lan.delay import install, parse_delay


def main(argv: list[str]) -> int:
    wanted = os.environ.get("PALABRE_TEST_DELAY", "")
    if wanted:
        delay, jitter = parse_delay(wanted)
        install(delay, jitter, seed=os.getpid())
    if os.environ.get("PALABRE_TEST_FAULTS"):
        return faulty_peer.main(argv)
    return palabre(argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
