"""Small file-system helpers shared by the key store and the log writer."""

from __future__ import annotations

import os
import sys
from pathlib import Path

__all__ = ["fsync_dir", "os_reason"]


def fsync_dir(directory: Path) -> None:
    """Make a new directory entry durable (a created or linked file survives a crash)."""
    if sys.platform == "win32":
        return  # a folder cannot be opened there; NTFS journals its entries itself
    fd = os.open(directory, os.O_RDONLY | os.O_CLOEXEC)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def os_reason(error: OSError) -> str:
    """The OS's words for an error ("Permission denied"), without errno noise."""
    return error.strerror or str(error)
