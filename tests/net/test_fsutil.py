"""net/fsutil.py: what differs by system for writing files, each branch tested here where
its logic needs no other kernel."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from net.fsutil import NO_INHERIT, fsync_dir, seek_and_write, write_at


@pytest.mark.parametrize("write", [write_at, seek_and_write], ids=["this-system", "windows"])
def test_a_write_at_an_offset_lands_there_and_leaves_the_rest(
    tmp_path: Path, write: Callable[[int, bytes, int], int]
) -> None:
    path = tmp_path / "log"
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL | NO_INHERIT, 0o600)
    try:
        assert write(fd, b"MAGIC...", 0) == 8
        assert write(fd, b"record", 8) == 6
        assert write(fd, b"RE", 8) == 2  # over the start of the record, nothing else moves
        assert write(fd, b"tail", 14) == 4
    finally:
        os.close(fd)
    assert path.read_bytes() == b"MAGIC...REcordtail"


def test_the_descriptor_is_not_inherited_by_child_processes(tmp_path: Path) -> None:
    fd = os.open(tmp_path / "f", os.O_RDWR | os.O_CREAT | NO_INHERIT, 0o600)
    try:
        assert not os.get_inheritable(fd)
    finally:
        os.close(fd)


def test_a_new_entry_is_made_durable_and_a_missing_folder_says_so(tmp_path: Path) -> None:
    (tmp_path / "new").write_bytes(b"x")
    fsync_dir(tmp_path)  # no error: the folder could be opened and synced
    with pytest.raises(FileNotFoundError):
        fsync_dir(tmp_path / "gone")
