"""The profile lock with real files and real processes: held once per process, refused to
another process with its pid and what it does, let go when the holder dies or releases it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from client.profile.profile_lock import HOLDER_FILE, hold_profile
from net.identity import profile_dir

ROOT = Path(__file__).resolve().parents[2]


def try_from_another_process(home: Path, profile: str = "alice") -> str:
    """What another process gets when it asks for ``profile``: "held" or the refusal."""
    script = (
        "from pathlib import Path\n"
        "from client.rules.errors import ProfileInUse\n"
        "from client.profile.profile_lock import hold_profile\n"
        "try:\n"
        f"    hold_profile({profile!r}, 'hosting a table', Path({str(home)!r}))\n"
        "    print('held')\n"
        "except ProfileInUse as error:\n"
        "    print(error)\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert run.returncode == 0, run.stderr
    return run.stdout.strip()


def test_the_holder_is_named_to_another_process_and_the_profile_is_free_after(
    tmp_path: Path,
) -> None:
    lock = hold_profile("alice", "playing a table", tmp_path)
    assert hold_profile("alice", "playing a table", tmp_path) is lock  # a rematch: same process
    (tmp_path / "sub").mkdir()
    assert hold_profile("alice", "playing a table", tmp_path / "sub" / "..") is lock
    folder = profile_dir("alice", tmp_path)
    holder = json.loads((folder / HOLDER_FILE).read_text())
    assert holder == {"pid": os.getpid(), "doing": "playing a table"}
    refusal = f"this profile (alice) is already playing a table in process {os.getpid()}"
    assert try_from_another_process(tmp_path) == refusal
    assert try_from_another_process(tmp_path, "bob") == "held"  # another profile is free
    lock.release()
    assert not (folder / HOLDER_FILE).exists()
    assert try_from_another_process(tmp_path) == "held"  # and it let go when it exited


@pytest.mark.parametrize("label", ["not json", '{"pid": "x", "doing": 1}'])
def test_an_unreadable_holder_label_still_refuses(tmp_path: Path, label: str) -> None:
    """The lock decides, the label only names: a torn or foreign label is "another process"."""
    lock = hold_profile("alice", "playing a table", tmp_path)
    try:
        (profile_dir("alice", tmp_path) / HOLDER_FILE).write_text(label)
        refusal = try_from_another_process(tmp_path)
        assert refusal == "this profile (alice) is already in use in another process"
    finally:
        lock.release()


def test_a_bad_profile_name_is_refused_before_any_file(tmp_path: Path) -> None:
    from net.errors import IdentityError

    with pytest.raises(IdentityError, match="is not allowed"):
        hold_profile("../escape", "playing a table", tmp_path)
    assert list(tmp_path.iterdir()) == []
