"""One profile, one process: the OS lock a profile is played under.

A profile is one player: one key, one game file per table, one list of known peers.  Two
processes playing with it at once sign two different records with the same key (the table
halts and convicts an honest player), append to the same game file and corrupt it, and one of
them signs a false END.  So ``palabre host`` and ``palabre join`` take the profile's lock
before they touch the network or a file, and the window takes it when it first hosts or joins
a table; every one of them holds it until the process exits.

Why the profile and not each game file: the game file of a table is only known after a
handshake with one of its peers (the table id comes from the table), and by then the second
process has already shown the table a second link with the player's key; the profile lock
refuses it before it connects or writes anything.  Read-only commands (``verify``, ``log``,
``id``) and a window that only replays games or plays alone take no lock, so they work beside
a running table.  One profile plays one table at a time; another table wants another
``--profile``.

The lock is ``filelock``'s: ``flock`` on POSIX, ``msvcrt.locking`` on Windows, both held by an
open file that the OS releases when the process ends, however it ends (a rejoin after SIGKILL
or a power cut is never refused).  Beside the lock, ``in-use.json`` says which process holds it
and what it does, so a refusal can name it; it is only a label: the lock decides.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

from filelock import FileLock, Timeout

from client.rules.errors import ProfileInUse
from net.identity import profile_dir
from net.private_files import make_private_dir

__all__ = ["HOLDER_FILE", "LOCK_FILE", "ProfileLock", "hold_profile"]

LOCK_FILE = "in-use.lock"
HOLDER_FILE = "in-use.json"
_MAX_HOLDER_FILE = 4096


@dataclass
class ProfileLock:
    """The lock of one profile, held by this process."""

    profile: str
    folder: Path
    lock: FileLock

    def release(self) -> None:
        """Let the profile go (tests; a process that exits lets it go by itself)."""
        _HELD.pop(self.folder, None)
        (self.folder / HOLDER_FILE).unlink(missing_ok=True)
        self.lock.release(force=True)


_HELD: dict[Path, ProfileLock] = {}
"""The profiles this process holds: holding one again (a rematch, the window's next table)
is not a second process."""


def hold_profile(profile: str, doing: str, home: Path | None = None) -> ProfileLock:
    """Take ``profile``'s lock for this process's life; ``ProfileInUse`` when another process
    holds it, ``OSError`` when the lock file cannot be made.  ``doing`` ("playing a table")
    is what a refused process will be told this one does."""
    folder = profile_dir(profile, home)
    make_private_dir(folder)
    folder = folder.resolve()  # one key per folder, however its path was spelt
    held = _HELD.get(folder)
    if held is not None:
        return held
    # thread_local=False: held by the process, whichever thread later asks or lets it go.
    lock = FileLock(folder / LOCK_FILE, mode=0o600, thread_local=False)
    try:
        lock.acquire(blocking=False)
    except Timeout:
        pid, label = _holder(folder)
        raise ProfileInUse(profile, pid, label) from None
    _write_holder(folder, doing)
    held = _HELD[folder] = ProfileLock(profile, folder, lock)
    return held


def _write_holder(folder: Path, doing: str) -> None:
    """Write who holds the lock, aside then renamed, so a reader sees all of it or nothing.
    Only a label: when it cannot be written (a full disk), the lock still holds."""
    aside = folder / f".{HOLDER_FILE}.{os.getpid()}.tmp"
    try:
        aside.write_text(json.dumps({"pid": os.getpid(), "doing": doing}), encoding="utf-8")
        os.replace(aside, folder / HOLDER_FILE)
    except OSError:
        aside.unlink(missing_ok=True)


def _holder(folder: Path) -> tuple[int, str]:
    """The holder's pid and what it does; ``(0, "")`` when that cannot be read (it may not have
    written it yet)."""
    try:
        with open(folder / HOLDER_FILE, encoding="utf-8") as file:
            data = json.loads(file.read(_MAX_HOLDER_FILE))
        pid, doing = data["pid"], data["doing"]
    except (OSError, ValueError, TypeError, KeyError):
        return 0, ""
    if not isinstance(pid, int) or not isinstance(doing, str) or pid <= 0:
        return 0, ""
    return pid, doing[:80] if doing.isprintable() else ""
