"""Test-side access to scripts/netlab: a lab per test, always torn down."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NETLAB = ROOT / "scripts" / "netlab"


def require_root() -> None:
    if os.geteuid() != 0:
        pytest.skip("network namespaces need root; CI runs as root")


class Lab:
    def __init__(self, name: str) -> None:
        self.name = name

    def run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        """Run ``scripts/netlab``; on failure its own message is the error (a bare "exit
        status 1" would hide which tool is missing)."""
        result = subprocess.run(
            [sys.executable, str(NETLAB), "--lab", self.name, *args],
            capture_output=True, text=True, timeout=60,
        )  # fmt: skip
        if check and result.returncode != 0:
            raise RuntimeError(
                f"scripts/netlab {' '.join(args)} exited {result.returncode}: "
                f"{(result.stderr or result.stdout).strip()}"
            )
        return result

    def namespaces(self) -> list[str]:
        return self.run("status").stdout.split()

    def address(self, index: int) -> str:
        return self.run("addr", str(index)).stdout.strip()

    def popen(self, index: int, *cmd: str, **kwargs: object) -> subprocess.Popen[str]:
        return subprocess.Popen(
            [sys.executable, str(NETLAB), "--lab", self.name, "exec", str(index), *cmd],
            text=True, **kwargs,  # type: ignore[call-overload]
        )  # fmt: skip


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # alive, another user's
        pass
    return True


def remove_stale_labs() -> list[str]:
    """Delete the labs of test processes that died before their ``finally`` (a SIGKILLed
    pytest worker, a timeout): their namespaces would otherwise outlive them.  A lab whose
    process still runs is left alone (tests run side by side)."""
    listed = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout
    labs = {m[1] for m in re.finditer(r"^(pt(\d+))-", listed, re.M) if not _alive(int(m[2]))}
    for name in sorted(labs):
        Lab(name).run("down")
    return sorted(labs)


@contextmanager
def open_lab(hosts: int) -> Iterator[Lab]:
    """A lab of ``hosts`` namespaces named after this process, deleted even on failure
    (and the labs of dead test processes deleted first)."""
    require_root()
    remove_stale_labs()
    lab = Lab(f"pt{os.getpid() % 100000}")
    lab.run("down")
    lab.run("up", str(hosts))
    try:
        yield lab
    finally:
        lab.run("down")
