"""An outsider floods a real host's lobby (before START, a table without a secret) with
records of almost 64 KiB by a key not at the table: nothing is written, the link is closed
past a few, and the terminal sums the refusals up (issue 19, evidence flood)."""

from __future__ import annotations

import pytest
import trio

from client.commands.repeats import REPEATS_SHOWN
from client.node.peer_admission import MAX_REFUSED_PER_LINK
from net.envelope import RECORD_TAG, seal
from net.events import Connected, LinkClosed
from net.handshake import APP_VERSION, Role
from net.identity import Identity
from net.linkspec import AllowedKeys, LinkSpec
from net.protocol import Connection
from tests.e2e.liar import BIG_TEXT, _exchange, _send_until_closed
from tests.e2e.tables import Table
from tests.e2e.test_table import FAST

pytestmark = pytest.mark.e2e

SENT = 500


async def flood(port: int, table_id: bytes) -> tuple[int, LinkClosed | None]:
    """A valid handshake with a fresh key, then ``SENT`` envelopes by another fresh key."""
    spec = LinkSpec(Identity.generate(), APP_VERSION, AllowedKeys(), table_id)
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    connection = Connection(Role.INITIATOR, spec, trio.current_time())
    assert await _exchange(stream, connection, until=Connected) is not None
    outsider = Identity.generate()
    envelopes = [seal(outsider, RECORD_TAG, b"%06d" % n + b"x" * BIG_TEXT) for n in range(SENT)]
    try:
        return await _send_until_closed(stream, connection, envelopes)
    finally:
        await stream.aclose()


def test_an_outsider_flooding_the_lobby_writes_nothing_and_is_cut_off(table: Table) -> None:
    host = table.host("consensus", *FAST)
    assert table.invite is not None
    before = len(host.output.splitlines())
    sent, closed = trio.run(flood, table.invite.port, table.invite.table_id)
    print(f"{sent} of {SENT} records sent before the host closed the link: {closed}")
    assert closed is not None and "too many records refused" in closed.reason
    assert sent < SENT
    games = table.home / "profiles" / "host" / "games"
    written = list(games.glob("*")) if games.exists() else []
    assert written == [], written  # no evidence file (and no game file before START)
    found = host.wait_for(r"^\S+: ([\d,]+) records refused on its links in the last", timeout=30)
    assert int(found[1].replace(",", "")) == MAX_REFUSED_PER_LINK + 1
    lines = host.output.splitlines()[before:]
    refused = [line for line in lines if line.startswith("REJECTED: ")]
    assert len(refused) == REPEATS_SHOWN, lines
    assert "Traceback" not in host.output
