"""scripts/netlab makes hosts that reach each other over TCP, cuts, heals, loses, cleans up."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.netlab import Lab, open_lab, remove_stale_labs, require_root

pytestmark = pytest.mark.netns

# A listener that accepts forever, and a client that says whether it got through in 1.5 s.
LISTEN = (
    "import socket,sys\n"
    "s=socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)\n"
    "s.bind((sys.argv[1], 9000)); s.listen(64); print('listening', flush=True)\n"
    "while True: s.accept()[0].close()\n"
)
DIAL = (
    "import socket,sys\n"
    "s=socket.socket(); s.settimeout(1.5)\n"
    "try:\n s.connect((sys.argv[1], 9000)); print('reached')\n"
    "except OSError as e: print('unreachable', e)\n"
)


def _dial(lab: Lab, index: int, target: str) -> str:
    return lab.run("exec", str(index), sys.executable, "-c", DIAL, target).stdout.strip()


def test_hosts_reach_each_other_and_faults_take_effect() -> None:
    with open_lab(3) as lab:
        assert len(lab.namespaces()) == 4  # the bridge and three hosts
        target = lab.address(3)
        # the with closes the pipe: left to the collector, it warned in a later test
        with lab.popen(3, sys.executable, "-c", LISTEN, target, stdout=subprocess.PIPE) as listener:
            try:
                assert listener.stdout is not None and listener.stdout.readline() == "listening\n"
                assert _dial(lab, 1, target) == "reached"
                lab.run("cut", "3")
                assert _dial(lab, 1, target).startswith("unreachable")
                lab.run("heal", "3")
                assert _dial(lab, 2, target) == "reached"
                lab.run("loss", "3", "100")
                assert _dial(lab, 1, target).startswith("unreachable")
                lab.run("loss", "3", "0")
                assert _dial(lab, 1, target) == "reached"
                # The lab's hosts have no way out: no default route, only their own /24.
                routes = lab.run("exec", "1", "ip", "route").stdout
                assert "default" not in routes and "10.77.0.0/24" in routes
            finally:
                listener.kill()
        name = lab.name
    assert Lab(name).namespaces() == []


def test_down_is_idempotent_and_bad_requests_are_explained() -> None:
    with open_lab(1) as lab:
        assert "already up" in lab.run("up", "2", check=False).stderr
        assert "no host 5" in lab.run("cut", "5", check=False).stderr
        assert "0 to 100" in lab.run("loss", "1", "150", check=False).stderr
        lab.run("down")
        lab.run("down")
        assert lab.namespaces() == []


def test_the_labs_of_dead_test_processes_are_removed_and_live_ones_kept() -> None:
    require_root()
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()  # its pid names a lab no process will take down
    stale, live = Lab(f"pt{dead.pid % 100000}"), Lab(f"pt{os.getpid() % 100000}")
    try:
        stale.run("up", "1")
        live.run("up", "1")
        assert stale.name in remove_stale_labs()
        assert stale.namespaces() == []
        assert live.namespaces() == [f"{live.name}-br", f"{live.name}-h1"]
    finally:
        stale.run("down")
        live.run("down")
