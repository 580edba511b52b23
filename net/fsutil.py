"""Small file-system helpers shared by the key store and the log writer.

This is the one place where opening a file by descriptor, writing at an offset and making a
directory entry durable differ by system (private files are net/private_files.py):

* ``NO_INHERIT``: the flag that keeps a descriptor out of child processes, ``O_CLOEXEC`` on
  POSIX, ``O_NOINHERIT`` on Windows (with ``O_BINARY``, so no byte is ever translated).
* ``write_at``: ``os.pwrite`` on POSIX; Windows has none, so a seek then a write (the log
  writer holds its descriptor alone, under one task, so nothing moves the offset between).
* ``fsync_dir``: a directory cannot be opened on Windows, where NTFS journals its entries.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

__all__ = ["NO_INHERIT", "fsync_dir", "os_reason", "seek_and_write", "write_at"]

if sys.platform == "win32":
    NO_INHERIT = os.O_NOINHERIT | os.O_BINARY
else:
    NO_INHERIT = os.O_CLOEXEC


def write_at(fd: int, data: bytes, offset: int) -> int:
    """Write ``data`` at ``offset`` of the file; the number of bytes written."""
    if sys.platform == "win32":
        return seek_and_write(fd, data, offset)
    return os.pwrite(fd, data, offset)


def seek_and_write(fd: int, data: bytes, offset: int) -> int:
    """Windows' write at an offset (it has no ``pwrite``); plain POSIX calls, so its test
    runs on every system."""
    os.lseek(fd, offset, os.SEEK_SET)
    return os.write(fd, data)


def fsync_dir(directory: Path) -> None:
    """Make a new directory entry durable (a created or linked file survives a crash)."""
    if sys.platform == "win32":
        return  # a folder cannot be opened there; NTFS journals its entries itself
    fd = os.open(directory, os.O_RDONLY | NO_INHERIT)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def os_reason(error: OSError) -> str:
    """The OS's words for an error ("Permission denied"), without errno noise."""
    return error.strerror or str(error)
