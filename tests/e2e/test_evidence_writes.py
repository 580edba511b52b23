"""An evidence file the system will not write (issue 19: with no file descriptor left it
raised out of the peer): logged, and the game goes on.  Real processes on loopback."""

from __future__ import annotations

import re

import pytest

from net.invite import format_table_id
from tests.e2e.tables import Table, verify_game_file
from tests.e2e.test_table import FAST

pytestmark = pytest.mark.e2e


def test_an_evidence_file_that_cannot_be_written_is_logged_and_the_game_goes_on(
    table: Table,
) -> None:
    host = table.host("consensus", *FAST)
    assert table.invite is not None
    games = table.home / "profiles" / "host" / "games"
    table_name = format_table_id(table.invite.table_id)
    for n in range(1, 9):  # a directory where each evidence file would go: the rename fails
        (games / f"{table_name}.rejected-{n}.json").mkdir(parents=True)
    table.join("P2", "--seat", "2", *FAST)
    table.join("Liar", "--seat", "3", *FAST, lies="other_seat@5")
    table.join("P4", "--seat", "4", *FAST)
    assert table.finish() == [0, 0, 0, 0], table.outputs()
    assert re.search(
        rf"cannot write \S+{table_name}\.rejected-1\.json \(is a directory\); "
        "the game goes on",
        host.output,
    ), host.output
    assert "REJECTED" in host.output and "Traceback" not in table.outputs()
    checked = verify_game_file(table.home, "host", table.invite.table_id)
    # valid; incomplete only by the liar's refused record (its seq is missing)
    assert checked.returncode in (0, 3), checked.stdout + checked.stderr
    assert checked.returncode == 0 or "(Liar) are not in this log" in checked.stdout
