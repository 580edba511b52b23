"""Two real processes on loopback complete the handshake by invite (issue 6, "Done when")."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from net.handshake import APP_VERSION
from net.identity import fingerprint, load_profile_identity
from net.invite import parse_invite
from net.logfile import read_log
from net.records import Kind, open_record

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.e2e


def _start_host(home: Path) -> tuple[subprocess.Popen[str], str]:
    host = subprocess.Popen(
        [sys.executable, "-m", "tests.net.link_peer", "host", "--home", str(home)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert host.stdout is not None
    invite = host.stdout.readline().strip()
    assert invite.startswith("palabre://127.0.0.1:"), host.stderr and host.stderr.read()
    return host, invite


def _join(home: Path, invite: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tests.net.link_peer", "join", invite, "--home", str(home)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_two_processes_link_by_invite_and_exchange_signed_records(tmp_path: Path) -> None:
    joiner_fp = load_profile_identity("default", tmp_path / "j").fingerprint
    host, invite = _start_host(tmp_path / "h")
    host_fp = parse_invite(invite).fingerprint
    joiner = _join(tmp_path / "j", invite)
    host_out, host_err = host.communicate(timeout=60)
    assert (joiner.returncode, host.returncode) == (0, 0), (joiner, host_out, host_err)
    assert joiner.stdout.splitlines() == [
        f"joiner: linked with host {host_fp}",
        f"joiner: chat from {host_fp}: bonjour from the host",
        "joiner: link closed: goodbye",
    ]
    assert host_out.splitlines() == [  # after the invite line, read above
        f"host: linked with {joiner_fp}",
        f"host: chat from {joiner_fp}: bonjour from the joiner",
        "host: link closed: goodbye",
    ]
    # each log holds its own record (written ahead of sending) and the other's
    for side, first, second in (("h", host_fp, joiner_fp), ("j", joiner_fp, host_fp)):
        records = [open_record(data) for data in read_log(tmp_path / side / "link.log").records]
        assert [(r.kind, r.seq) for r in records] == [(Kind.CHAT, 1), (Kind.CHAT, 1)]
        assert [fingerprint(r.author) for r in records] == [first, second]


def test_a_joiner_refuses_a_host_the_invite_does_not_name(tmp_path: Path) -> None:
    host, invite = _start_host(tmp_path / "h")
    real = parse_invite(invite).fingerprint
    other = load_profile_identity("other", tmp_path).fingerprint
    joiner = _join(tmp_path / "j", invite.replace(real, other))
    host_out, _ = host.communicate(timeout=60)
    assert (joiner.returncode, host.returncode) == (4, 4)
    reason = f"the host's key {real} is not the one the invite names ({other})"
    assert joiner.stdout.startswith(f"joiner: refused the host: {reason}")
    assert re.search(rf"host: no link with 127\.0\.0\.1:\d+: {re.escape(reason)}", host_out)
    assert joiner.stderr == "" and "Traceback" not in host_out


def test_app_version_matches_the_package() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["version"] == APP_VERSION
