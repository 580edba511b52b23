"""A listener's slots under a flood (issue 19, lockout and file descriptors), against real
processes over loopback TCP: 1,000 spectators at a host limited to 256 file descriptors,
and 1,000 idle or trickling connections from one address while real players join, rejoin
and watch from another."""

from __future__ import annotations

import contextlib
import re
import resource
import signal
import subprocess
import sys
import time

import pytest
import trio

from client.node.peer_admission import MAX_SPECTATORS
from tests.e2e.tables import ROOT, Table, verify_game_file
from tests.net import outsider

pytestmark = pytest.mark.e2e

FDS = 256
REDIAL = 1.0
"""How soon the flood dials again each connection the listener closed (see SECURITY.md)."""


async def _spectators(table: Table, count: int, pid: int) -> dict[str, int]:
    """``count`` spectators from 127.0.0.2-9 in the lobby, each kept open until the host
    closes it; once every attempt is answered, a player joins and the game is played with
    them watching.  How many were refused for the caps, how many watched to the end ("the
    game is over"), how many else failed, the host's peak fds and memory meanwhile."""
    assert table.invite is not None
    port, table_id = table.invite.port, table.invite.table_id
    got = {"refused": 0, "to_the_end": 0, "failed": 0, "fds": 0, "rss": 0}
    answered = 0
    all_answered = trio.Event()

    async def ignore(event: object) -> None:
        pass

    def answer() -> None:
        nonlocal answered
        answered += 1
        if answered == count:
            all_answered.set()

    async def one(n: int) -> None:
        link = None
        with trio.move_on_after(30), contextlib.suppress(OSError):
            link = await outsider.spectator(port, table_id, source=f"127.0.0.{2 + n % 8}")
        if link is None:
            got["failed"] += 1
            answer()
            return
        waited = False

        async def five_seconds() -> None:  # a refusal comes at once; a watcher stays
            nonlocal waited
            await trio.sleep(5)
            waited = True
            answer()

        async with trio.open_nursery() as timer:
            timer.start_soon(five_seconds)
            closed = await link.run(ignore)
            timer.cancel_scope.cancel()
        if waited:  # it watched, until the game was over
            got["to_the_end" if closed.reason == "the game is over" else "failed"] += 1
        else:
            answer()
            refused = "try again later" in closed.reason  # the caps' reasons
            got["refused" if refused else "failed"] += 1

    async def watch() -> None:
        while True:
            got["fds"] = max(got["fds"], outsider.open_fds(pid))
            got["rss"] = max(got["rss"], outsider.resident_kib(pid))
            await trio.sleep(0.05)

    with trio.fail_after(180):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(watch)
            async with trio.open_nursery() as attempts:
                for n in range(count):
                    attempts.start_soon(one, n)
                    if n % 20 == 19:
                        await trio.sleep(0.01)
                await all_answered.wait()
                table.join("P2", "--bot", "--bot-delay", "50")  # the game can start
            nursery.cancel_scope.cancel()
    return got


def test_a_thousand_spectators_at_a_host_with_256_file_descriptors(table: Table) -> None:
    """1,000 spectators in the lobby of a host that may open 256 files: the links are
    capped below that, the excess is refused with the reason; then a player joins, the game
    is played to the end with the 64 watching, no traceback, the host's file verifies."""
    host = table.host("consensus", "--bots", "2", "--bot", "--bot-delay", "50")
    resource.prlimit(host.process.pid, resource.RLIMIT_NOFILE, (FDS, FDS))
    before = outsider.open_fds(host.process.pid), outsider.resident_kib(host.process.pid)
    got = trio.run(_spectators, table, 1000, host.process.pid)
    print(f"host before: {before[0]} fds, {before[1]} KiB; during: {got}")
    assert table.finish() == [0, 0], table.outputs()
    # the cap held; a watcher this busy test process starves may be cut off (send timeout)
    assert MAX_SPECTATORS // 2 <= got["to_the_end"] <= MAX_SPECTATORS, got
    assert sum(got[k] for k in ("refused", "to_the_end", "failed")) == 1000, got
    # past the cap, a spectator that got through its handshake is refused with the reason;
    # how many get that far before the waiting slots evict them depends on the machine's load
    # (92 to 133 of the 1,000 seen), so the test asks for refusals, not for a number of them
    assert got["refused"] > 0, got
    assert got["fds"] < FDS, got
    assert "Traceback" not in host.output and "Errno 24" not in host.output
    assert table.invite is not None
    checked = verify_game_file(table.home, "host", table.invite.table_id)
    assert checked.returncode == 0, checked.stdout + checked.stderr


async def _handshake_time(port: int, table_id: bytes) -> float:
    began = trio.current_time()
    link = await outsider.spectator(port, table_id, source="127.0.0.1", tiny=False)
    assert link is not None
    took = trio.current_time() - began
    await link.close()
    return took


FLOOD = """
import sys, trio
from tests.net import outsider

async def flood(port):
    async with trio.open_nursery() as nursery:
        nursery.start_soon(lambda: outsider.hold_idle(port, ATTACKER, 700, redial=REDIAL))
        nursery.start_soon(
            lambda: outsider.hold_idle(port, ATTACKER, 300, trickle=True, redial=REDIAL)
        )

REDIAL = float(sys.argv[2])
ATTACKER = "127.0.0.9"
trio.run(flood, int(sys.argv[1]))
"""


PROCESS_BOUND = 40.0
"""Seconds a joiner, a rejoiner or a spectator process may take to get in under the flood,
its own start-up included (the slots' own bound is the in-test handshake's, 5 s)."""


def _flood(port: int) -> subprocess.Popen[bytes]:
    """1,000 connections from 127.0.0.9, 300 of them trickling, each reopened when closed
    (another process: the test's own handshakes do not share its interpreter)."""
    return subprocess.Popen([sys.executable, "-c", FLOOD, str(port), str(REDIAL)], cwd=ROOT)


def test_a_thousand_idle_connections_from_one_address_keep_nobody_else_out(
    table: Table,
) -> None:
    """Under 1,000 idle or trickling connections from 127.0.0.9, each dialed again a
    second after the listener closed it, a joiner, a rejoiner after a crash and a spectator from
    127.0.0.1 each get in (Linux dials 127.0.0.x from 127.0.0.1: palabre cannot be told
    its source address, so the flood takes another one)."""
    slow = ("--bot", "--bot-delay", "150")
    host = table.host("consensus", "--bots", "2", *slow)
    assert table.invite is not None
    port = table.invite.port
    flood = _flood(port)
    try:
        took = _get_in_under_flood(table, port)
    finally:
        flood.kill()
        flood.wait()
    print(f"time to get in (process start included): {took}")
    assert took["handshake"] < 5, took  # the slots; the processes also start Python
    # bounds, not speed: a process's own start-up takes 10 s and more on a loaded machine
    assert all(seconds < PROCESS_BOUND for seconds in took.values()), took
    codes = table.finish()
    assert codes == [0, -signal.SIGKILL, 0, 0], table.outputs()
    assert "Traceback" not in table.outputs()
    assert re.search(r"^Result: ", host.output, re.M)


def _get_in_under_flood(table: Table, port: int) -> dict[str, float]:
    assert table.invite is not None
    slow = ("--bot", "--bot-delay", "150")
    time.sleep(2)  # the flood is at full strength (1,000 connections opened)
    took = {}
    began = time.monotonic()
    p2 = table.join("P2", *slow, target=f"127.0.0.1:{port}")
    p2.wait_for(r"^Linked with ", timeout=PROCESS_BOUND)
    took["join"] = time.monotonic() - began
    p2.wait_for(r"^\s*6\. ", timeout=60)
    p2.process.send_signal(signal.SIGKILL)
    p2.code = p2.process.wait()
    began = time.monotonic()
    again = table.join("P2", *slow, target=f"127.0.0.1:{port}", profile="p2", run="p2-again")
    again.wait_for(r"^Rejoined: ", timeout=PROCESS_BOUND)
    took["rejoin"] = time.monotonic() - began
    began = time.monotonic()
    watcher = table.join("Ann", "--watch", target=f"127.0.0.1:{port}")
    watcher.wait_for(r"^Linked with ", timeout=PROCESS_BOUND)
    took["watch"] = time.monotonic() - began
    took["handshake"] = trio.run(_handshake_time, port, table.invite.table_id)
    return took
