"""Finding tables on a LAN: a host announces over mDNS in one network namespace, ``palabre
tables`` in another hears it, a player joins with the invite it printed, the seats free
follow the lobby, and START withdraws the announcement.

The lab (tests/netlab.py) is a bridge and a few namespaces with addresses 10.77.0.N and no
default route, like a LAN without internet; the processes run palabre itself.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from net.invite import parse_invite
from tests.e2e.tables import ROOT
from tests.netlab import Lab, open_lab

pytestmark = [pytest.mark.netns, pytest.mark.e2e]


def _env(home: Path) -> dict[str, str]:
    env = {**os.environ, "PALABRE_HOME": str(home), "PYTHONUNBUFFERED": "1"}
    env["PALABRE_MDNS"] = "on"  # the suite turns it off; here it multicasts inside the lab only
    env["PYTHONPATH"] = str(ROOT)
    return env


class Peers:
    def __init__(self, lab: Lab, home: Path) -> None:
        self.lab, self.home = lab, home
        self.procs: list[tuple[subprocess.Popen[str], Path]] = []

    def start(self, index: int, profile: str, *args: str) -> tuple[subprocess.Popen[str], Path]:
        out = self.home / f"{profile}.out"
        with open(out, "w") as sink:
            process = self.lab.popen(
                index,
                sys.executable,
                "-m",
                "client",
                "--profile",
                profile,
                *args,
                cwd=ROOT,
                env=_env(self.home),
                stdin=subprocess.PIPE,
                stdout=sink,
                stderr=subprocess.STDOUT,
            )
        self.procs.append((process, out))
        return process, out

    def tables(self, index: int, wait: float = 3.0) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, str(ROOT / "scripts" / "netlab"), "--lab", self.lab.name, "exec",
             str(index), sys.executable, "-m", "client", "tables", "--wait", str(wait)],
            capture_output=True, text=True, timeout=60, cwd=ROOT, env=_env(self.home),
        )  # fmt: skip

    def kill(self) -> None:
        for process, _out in self.procs:
            if process.poll() is None:
                process.kill()
            process.wait()
            if process.stdin is not None:  # left to the collector, it warned in a later test
                process.stdin.close()


@contextmanager
def peers_in(lab: Lab, home: Path) -> Iterator[Peers]:
    peers = Peers(lab, home)
    try:
        yield peers
    finally:
        peers.kill()


def wait_for(out: Path, pattern: str, timeout: float = 30.0) -> re.Match[str]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = re.search(pattern, out.read_text(), re.MULTILINE)
        if found:
            return found
        time.sleep(0.05)
    raise AssertionError(f"no {pattern!r} within {timeout} s in {out.name}:\n{out.read_text()}")


def heard(peers: Peers, index: int, expect: str, tries: int = 3) -> list[str]:
    """``palabre tables`` lines at host ``index``, asking again (bounded) until ``expect``
    shows up in one of them: multicast makes no promise about the first query."""
    lines: list[str] = []
    for _ in range(tries):
        result = peers.tables(index)
        assert result.returncode == 0, result.stderr
        lines = result.stdout.splitlines()
        if any(expect in line for line in lines):
            return lines
    raise AssertionError(f"no table line with {expect!r}: {lines}")


def test_a_table_is_found_joined_followed_and_withdrawn_across_namespaces(
    tmp_path: Path,
) -> None:
    with open_lab(3) as lab, peers_in(lab, tmp_path) as peers:
        host_address = lab.address(1)
        # The host's own seat is typed in its terminal: the game waits there after START.
        host, host_out = peers.start(
            1, "host", "host", "--game", "cognes", "--seats", "3", "--headless", "--name", "Ann"
        )
        wait_for(host_out, rf"^mdns: announced on the LAN at {re.escape(host_address)}:7000$")

        lines = heard(peers, 2, f"{host_address}:7000")
        assert len(lines) == 1, lines
        line = lines[0]
        assert line.startswith(f"{host_address}:7000 ")
        assert " cognes " in line and "'Ann'" in line and "2 of 3 seats free" in line
        invite = parse_invite(re.search(r"palabre://\S+", line).group(0))  # type: ignore[union-attr]
        assert invite.addresses == (host_address,) and invite.port == 7000
        fingerprint = wait_for(host_out, r"host key (\S+)").group(1)
        assert invite.fingerprint == fingerprint

        # Host 2 joins with the invite it heard; the announcement follows the lobby.
        _bob, bob_out = peers.start(
            2, "bob", "join", str(invite), "--headless", "--bot", "--bot-delay", "0",
            "--name", "Bob",
        )  # fmt: skip
        wait_for(bob_out, rf"^Linked with {re.escape(host_address)}:7000")
        assert "1 of 3 seats free" in heard(peers, 3, "1 of 3 seats free")[0]

        # The third player fills the table: START, and the table is no longer announced.
        _cat, cat_out = peers.start(
            3, "cat", "join", f"{host_address}", "--headless", "--bot", "--name", "Cat"
        )
        wait_for(cat_out, r"^Start: cognes, ")
        wait_for(host_out, r"^mdns: the table is no longer announced \(it started\)$")
        after = peers.tables(2)
        assert after.returncode == 0 and after.stdout == "", after.stdout
        assert "no table heard on the LAN" in after.stderr
        assert host.poll() is None  # the game goes on: withdrawing is not leaving


def test_tables_says_when_nothing_is_heard(tmp_path: Path) -> None:
    with open_lab(2) as lab, peers_in(lab, tmp_path) as peers:
        result = peers.tables(2, wait=1.0)
        assert result.returncode == 0
        assert result.stdout == ""
        assert result.stderr.strip() == "palabre: no table heard on the LAN in 1 s"
