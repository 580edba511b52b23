"""Test-side access to scripts/netlab: a lab per test, always torn down."""

from __future__ import annotations

import os
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
        return subprocess.run(
            [sys.executable, str(NETLAB), "--lab", self.name, *args],
            capture_output=True, text=True, check=check, timeout=60,
        )  # fmt: skip

    def namespaces(self) -> list[str]:
        return self.run("status").stdout.split()

    def address(self, index: int) -> str:
        return self.run("addr", str(index)).stdout.strip()

    def popen(self, index: int, *cmd: str, **kwargs: object) -> subprocess.Popen[str]:
        return subprocess.Popen(
            [sys.executable, str(NETLAB), "--lab", self.name, "exec", str(index), *cmd],
            text=True, **kwargs,  # type: ignore[call-overload]
        )  # fmt: skip


@contextmanager
def open_lab(hosts: int) -> Iterator[Lab]:
    """A lab of ``hosts`` namespaces named after this process, deleted even on failure."""
    require_root()
    lab = Lab(f"pt{os.getpid() % 100000}")
    lab.run("down")
    lab.run("up", str(hosts))
    try:
        yield lab
    finally:
        lab.run("down")
