#!/usr/bin/env python3
"""Count the repository files whose functions run for one incoming MOVE, socket to screen.

Usage: scripts/move_files_run.py [--functions]

It runs the window test
``tests/ui/test_network_window.py::test_two_windows_fill_a_table_chat_and_play_consensus_by_clicks``
(offscreen, mDNS off) with a profile hook (``sys.setprofile``) set on the host's runtime
from the moment its link reader hands the first MOVE another peer signed to
``Peer.from_link`` until that call returns.  The node, the table, the session, the bridge
and the table screen's redraw all run inside that call, so the hook sees every file the
one record makes work; files holding only dataclasses are not seen (their methods are
generated), nor the bots' thinking thread.  It prints the count by top folder, then the
files (``--functions``: with the functions that ran in each).  docs/ARCHITECTURE.md quotes
its numbers.  Exit codes: 0 measured, 1 the test failed or no MOVE was seen.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from types import FrameType

ROOT = Path(__file__).resolve().parent.parent
TEST = (
    "tests/ui/test_network_window.py"
    "::test_two_windows_fill_a_table_chat_and_play_consensus_by_clicks"
)
_PREFIX = str(ROOT) + os.sep
_ran: dict[str, set[str]] = {}
_measured: list[bool] = []


def _hook(frame: FrameType, what: str, _arg: object) -> None:
    if what == "call":
        name = frame.f_code.co_filename
        if name.startswith(_PREFIX) and os.sep + ".venv" + os.sep not in name:
            _ran.setdefault(name[len(_PREFIX) :], set()).add(frame.f_code.co_name)


class _MoveProfile:
    """A pytest plugin: wraps ``Peer.from_link`` before any peer is made."""

    def pytest_configure(self) -> None:
        from client.runtime import peer as runtime
        from net.events import RecordReceived
        from net.records import Kind

        original = runtime.Peer.from_link

        def from_link(peer: runtime.Peer, link: object, event: object) -> None:
            first = (
                not _measured
                and peer.node.host is not None
                and isinstance(event, RecordReceived)
                and event.record.kind is Kind.MOVE
                and event.record.author != peer.me
            )
            if not first:
                original(peer, link, event)  # type: ignore[arg-type]
                return
            _measured.append(True)
            sys.setprofile(_hook)
            try:
                original(peer, link, event)  # type: ignore[arg-type]
            finally:
                sys.setprofile(None)

        runtime.Peer.from_link = from_link  # type: ignore[method-assign]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--functions", action="store_true", help="name the functions too")
    args = parser.parse_args()
    import pytest

    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    os.environ["PALABRE_MDNS"] = "off"
    os.chdir(ROOT)
    sys.path.insert(0, str(ROOT))
    code = pytest.main(["-q", "-p", "no:xdist", "-p", "no:cacheprovider", TEST], [_MoveProfile()])
    if code != 0 or not _measured:
        print("the test failed or no MOVE reached the host", file=sys.stderr)
        return 1
    files = sorted(_ran)
    folders: dict[str, list[str]] = {}
    for name in files:
        folders.setdefault(name.split(os.sep)[0], []).append(name)
    print(f"{len(files)} files: " + ", ".join(f"{len(v)} in {k}/" for k, v in folders.items()))
    for name in files:
        functions = " ".join(sorted(_ran[name])) if args.functions else ""
        print(f"  {name} {functions}".rstrip())
    return 0


if __name__ == "__main__":
    sys.exit(main())
