"""Issue 20: a peer that never gets every END says so, in words and in its exit code.

The joiner drops every END the host signs (``deaf_to_ends``, at the one door records come in
by), so however long it waits its game file lacks one: it must not leave as if all were well.
The host, which holds both ENDs, ends normally.
"""

from __future__ import annotations

import pytest

from tests.e2e.tables import Table, verify_game_file

pytestmark = pytest.mark.e2e

INCOMPLETE = 5
"""``palabre join``'s exit code when the game ended but not every END reached this peer."""


def test_a_peer_that_never_gets_every_end_says_so_and_exits_5(table: Table) -> None:
    table.host("discorder", "--bot", "--bot-delay", "5", faults="resign_at=3")  # a short game
    table.join("P2", "--bot", "--bot-delay", "5", faults="deaf_to_ends=1")
    codes = table.finish()
    host, deaf = table.procs
    assert codes == [0, INCOMPLETE], table.outputs()
    assert "every player's palabre signed it" in host.output
    assert "NOT every END came" in deaf.output
    assert "the game file here is incomplete" in deaf.output, deaf.output
    assert "Traceback" not in deaf.output
    assert table.invite is not None
    table_id = table.invite.table_id
    assert verify_game_file(table.home, "p2", table_id).returncode == 3  # valid, incomplete
    assert verify_game_file(table.home, "host", table_id).returncode == 0
