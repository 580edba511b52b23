"""A flood seen from a terminal: a real ``palabre host`` under a flood of failed handshakes
prints a few lines and a summary, not one line per failure (client/commands/repeats.py)."""

from __future__ import annotations

import re
import socket

import pytest

from client.commands.repeats import REPEATS_SHOWN
from tests.e2e.tables import Table
from tests.e2e.test_table import FAST

pytestmark = pytest.mark.e2e

FLOOD = 1000
"""Handshakes that fail, one after another, from 127.0.0.1."""
NOISE = b"\x00\x00\x00\x05" + b"\xffnois"
"""A frame of an unknown type where the handshake's first frame should be."""


def fail_a_handshake(port: int) -> None:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(NOISE)
        try:
            while sock.recv(4096):  # until the host closes: it has judged the noise
                pass
        except OSError:  # reset: judged all the same
            pass


def test_a_flood_of_failed_handshakes_prints_a_few_lines_and_a_summary(table: Table) -> None:
    host = table.host("consensus", *FAST)
    assert table.invite is not None
    port = table.invite.port
    before = len(host.output.splitlines())
    for _ in range(FLOOD):
        fail_a_handshake(port)
    summary = host.wait_for(
        r"^127\.0\.0\.1: ([\d,]+) refused handshakes in the last \d+ s \(([\d,]+) not shown\)$",
        timeout=60,
    )
    lines = host.output.splitlines()[before:]
    print(f"{FLOOD} failed handshakes: {len(lines)} lines printed")
    shown = [line for line in lines if re.match(r"^link: 127\.0\.0\.1:\d+: no link: ", line)]
    summaries = [
        int(found[1].replace(",", ""))
        for line in lines
        if (found := re.match(r"^127\.0\.0\.1: ([\d,]+) refused handshakes in the last", line))
    ]
    assert summary is not None and summaries
    assert len(shown) <= REPEATS_SHOWN * len(summaries) + REPEATS_SHOWN
    assert len(lines) < 100, "\n".join(lines)
    assert "Traceback" not in host.output
