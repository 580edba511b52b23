"""One profile, one process (issue 19): a second ``palabre`` with the profile of a seated
player is refused before it touches the table or the profile, and the lock does not outlive a
killed process.

Real ``palabre host`` / ``join`` processes on loopback; the second process is started at a ply
number read from the first's output, never after a sleep.
"""

from __future__ import annotations

import re
import signal
from pathlib import Path

import pytest

from tests.e2e.tables import Proc, Table
from tests.e2e.test_mesh import (
    DELAY,
    assert_one_chain,
    game_file,
    kill,
    listening_port,
    verify,
    wait_for_ply,
)

pytestmark = pytest.mark.e2e

SLOW = "2000"
"""P3's bot thinks this long (ms) before each move until it is killed: the game lasts well
past the checks made while P3 plays (some 17 more moves of P3 after ply 6, 30 s or more),
and no check waits on the clock."""


def join_as_p3(table: Table, run: str, target: str | None = None, delay: str = DELAY) -> Proc:
    """``palabre join`` with P3's profile (at the host, or ``target``)."""
    options = ("--seat", "3", "--bot", "--bot-delay", delay)
    return table.join("P3", *options, target=target, profile="p3", run=run)


def profile_files(table: Table, profile: str) -> dict[Path, int]:
    """Every file of the profile but its game files (which the running peer appends to) and
    the lock's own two files: each with its size."""
    folder = table.home / "profiles" / profile
    return {
        path: path.stat().st_size
        for path in folder.rglob("*")
        if path.is_file() and path.suffix != ".palabre-log" and not path.name.startswith("in-use")
    }


def test_a_second_process_of_a_seated_profile_is_refused_and_a_killed_one_rejoins(
    table: Table,
) -> None:
    """While P3 plays, ``palabre join`` with P3's profile exits 4 naming P3's process, and
    neither the table nor the profile sees it (a second ``host`` on the host's profile too);
    P3 killed, the same join takes its seat up again and every game file verifies."""
    host = table.host("consensus", "--bot", "--bot-delay", DELAY)
    p2 = table.join("P2", "--seat", "2", "--bot", "--bot-delay", DELAY)
    p3 = join_as_p3(table, "p3", delay=SLOW)
    p4 = table.join("P4", "--seat", "4", "--bot", "--bot-delay", DELAY)
    at_p2 = f"127.0.0.1:{listening_port(p2)}"
    wait_for_ply(p3, 6)
    before = profile_files(table, "p3")
    twice = join_as_p3(table, "p3-twice", at_p2)
    assert twice.process.wait(timeout=60) == 4, table.outputs()
    twice.code = 4
    assert re.search(
        rf"^palabre: this profile \(p3\) is already playing a table in process {p3.process.pid}",
        twice.output,
        re.M,
    ), twice.output
    assert "Traceback" not in twice.output
    assert "Linked with" not in twice.output  # it never reached a peer
    assert profile_files(table, "p3") == before  # nor wrote a file of the profile
    assert p3.process.poll() is None, p3.output  # the first plays on
    hosting = table.spawn(
        "host-twice", ["host", "--game", "consensus", "--headless"], profile="host"
    )
    assert hosting.process.wait(timeout=60) == 4, hosting.output
    hosting.code = 4
    assert hosting.output.startswith(
        f"palabre: this profile (host) is already hosting a table in process {host.process.pid}"
    ), hosting.output
    checked = verify(game_file(table, "p3"))  # read-only commands take no lock
    assert checked.returncode == 3, checked.stdout + checked.stderr  # valid, not over yet
    wait_for_ply(p3, 12)
    kill(p3)
    again = join_as_p3(table, "p3-again", at_p2)
    codes = table.finish()
    assert codes == [0, 0, -signal.SIGKILL, 0, 4, 4, 0], table.outputs()
    assert re.search(r"^Rejoined: took the table up again", again.output, re.M), again.output
    assert_one_chain(table, ["host", "p2", "p3", "p4"], [host, p2, p4, again])
