"""The README's set-up on a machine that lacks something: each missing piece is named, with
what to run, never a bare exit status."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _tool_dir(tmp_path: Path, *tools: str) -> Path:
    """A PATH of only these commands (symlinks to the machine's): every other one is hidden."""
    folder = tmp_path / "bin"
    folder.mkdir()
    for tool in tools:
        found = shutil.which(tool)
        assert found is not None, tool
        (folder / tool).symlink_to(found)
    return folder


def _as_nobody() -> list[str]:
    """Run as an ordinary user: the not-root branch (setpriv is in util-linux, always there)."""
    return (
        [] if os.geteuid() != 0 else ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
    )


def test_a_missing_package_without_root_prints_the_one_sudo_line_and_stops() -> None:
    env = {**os.environ, "PALABRE_SYSTEM_PACKAGES": "bash palabre-no-such-package"}
    # The script comes on stdin: an ordinary user may not read the clone's folder.
    result = subprocess.run(
        [*_as_nobody(), "bash", "-s"], input=(ROOT / "scripts" / "system-packages").read_text(),
        capture_output=True, text=True, env=env, timeout=60, cwd="/",
    )  # fmt: skip
    assert result.returncode == 1
    # bash is installed: only the missing package is asked for.
    assert "    sudo apt-get install -y palabre-no-such-package" in result.stderr.splitlines()


def test_a_tool_missing_from_path_is_named_with_its_package(tmp_path: Path) -> None:
    path = _tool_dir(tmp_path, "bash", "dpkg", "dpkg-query", "grep", "id")
    env = {**os.environ, "PATH": str(path), "PALABRE_SYSTEM_PACKAGES": "bash"}
    result = subprocess.run(
        [str(ROOT / "scripts" / "system-packages")],
        capture_output=True, text=True, env=env, timeout=60,
    )  # fmt: skip
    assert result.returncode == 1
    assert "the command 'Xvfb' is not on PATH (package xvfb)" in result.stderr


def test_netlab_names_the_missing_ip_command(tmp_path: Path) -> None:
    path = _tool_dir(tmp_path)
    result = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "netlab"), "--lab", "nothere", "status"],
        capture_output=True, text=True, env={**os.environ, "PATH": str(path)}, timeout=60,
    )  # fmt: skip
    assert result.returncode == 1
    assert result.stderr.strip() == "netlab: the command 'ip' is missing (install iproute2)"
