"""Private files (the keys): made for this user only, and checked before every use.

This is the one place where what differs by system for private files is decided.

* **POSIX** (Linux, macOS): a private file is mode 0600 in folders of mode 0700, set with
  ``fchmod`` whatever the umask; one that other users may read or change (``st_mode & 0o077``)
  is refused, since anyone who can read the key can sign as its player.
* **Windows**: ``os.stat`` makes the mode bits up from the read-only attribute (every file
  reads 0o666 or 0o444), so the POSIX check would refuse every key.  What protects a key there
  is its folder: the per-user data folder (``%LOCALAPPDATA%``), whose inherited ACL lets only
  the user, SYSTEM and the administrators in; palabre keeps the key there and does not look
  at mode bits.  No ``fchmod`` (it does not exist), ``O_BINARY`` so no byte is translated,
  ``O_NOINHERIT`` for what ``O_CLOEXEC`` does elsewhere.

Everywhere, reading never waits and never follows a link to nowhere: the path is looked at
with ``lstat`` first (a symbolic link is named, and an error when it points to nothing; a FIFO,
a device or a folder is refused before it is opened), then opened with ``O_NONBLOCK`` on POSIX
so a FIFO swapped in meanwhile cannot hang the open, and checked again on the open file.
Folders that other users may change, and keys reached through a link, are warnings: they
still work, but whoever can change them can change which key signs.

The Windows branch is chosen by ``sys.platform`` (so ``mypy --platform win32`` checks it);
its rules that need no Windows kernel are functions of a ``windows`` flag, tested here.
"""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path

__all__ = [
    "WINDOWS",
    "PrivateFileError",
    "folder_warning",
    "link_warning",
    "make_private_dir",
    "mode_problem",
    "read_private",
    "write_private",
]

WINDOWS = sys.platform == "win32"

if sys.platform == "win32":
    _READ = os.O_RDONLY | os.O_BINARY | os.O_NOINHERIT
    _CREATE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_BINARY | os.O_NOINHERIT
else:
    # O_NONBLOCK: opening a FIFO for reading waits for a writer; O_NOCTTY: a terminal device
    # swapped in must not become ours.  Neither matters once the file is known regular.
    _READ = os.O_RDONLY | os.O_CLOEXEC | os.O_NONBLOCK | os.O_NOCTTY
    _CREATE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC | os.O_NOFOLLOW


class PrivateFileError(Exception):
    """A private file cannot be used as it is; the message says what is wrong and what to
    do.  The file is left as it is."""


def make_private_dir(directory: Path) -> None:
    """Create ``directory`` and each missing parent for this user only (``mkdir(parents=True)``
    would give the parents the umask's mode: 0775 where the umask is 002); ``OSError``."""
    missing: list[Path] = []
    path = directory
    while not path.is_dir() and path.parent != path:
        missing.append(path)
        path = path.parent
    for path in reversed(missing):
        try:
            path.mkdir(mode=0o700)
        except FileExistsError:
            if not path.is_dir():
                raise


def write_private(path: Path, data: bytes) -> None:
    """Create ``path`` (it must not exist) holding ``data``, private and fsynced."""
    fd = os.open(path, _CREATE, 0o600)
    try:
        if sys.platform != "win32":
            os.fchmod(fd, 0o600)  # whatever the umask
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
        os.fsync(fd)
    finally:
        os.close(fd)


def mode_problem(mode: int, windows: bool = WINDOWS) -> str | None:
    """Why a file of ``mode`` (``st_mode``) is not private; None when it is, and always on
    Windows, where mode bits say nothing about who may read."""
    if windows or not mode & 0o077:
        return None
    return f"can be read or changed by other users (mode {stat.S_IMODE(mode):o})"


def _kind(mode: int) -> str:
    for test, name in (
        (stat.S_ISDIR, "a folder"),
        (stat.S_ISFIFO, "a FIFO (named pipe)"),
        (stat.S_ISSOCK, "a socket"),
        (stat.S_ISCHR, "a device"),
        (stat.S_ISBLK, "a device"),
    ):
        if test(mode):
            return name
    return "of another kind"


def _not_regular(path: Path, what: str, mode: int) -> str:
    return f"{what} {path} is not a regular file ({_kind(mode)}); move it away"


def _check_path(path: Path, what: str) -> None:
    """Refuse what must not be opened: a link to nowhere, anything but a regular file.
    ``FileNotFoundError`` when nothing is there at all."""
    info = os.lstat(path)  # FileNotFoundError: absent
    if stat.S_ISLNK(info.st_mode):
        target = os.readlink(path)
        try:
            info = os.stat(path)
        except FileNotFoundError:
            raise PrivateFileError(
                f"{what} {path} is a symbolic link to {target}, which does not exist; "
                "put the file back there, or remove the link (a new key is then made, and "
                "other players see a new fingerprint)"
            ) from None
        except OSError as error:
            raise PrivateFileError(
                f"{what} {path} is a symbolic link to {target}, which cannot be followed "
                f"({error.strerror or error}); remove the link"
            ) from error
    if not stat.S_ISREG(info.st_mode):
        raise PrivateFileError(_not_regular(path, what, info.st_mode))


def read_private(path: Path, limit: int, what: str = "the file") -> bytes:
    """Up to ``limit + 1`` bytes of the private file at ``path``.

    ``FileNotFoundError`` when there is nothing at ``path`` (not even a link);
    ``PrivateFileError`` when what is there must not be used (``what`` names it: "the key
    file"); ``OSError`` when the system cannot read it."""
    _check_path(path, what)
    fd = os.open(path, _READ)  # FileNotFoundError when it went away meanwhile: absent
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):  # swapped in after the check
            raise PrivateFileError(_not_regular(path, what, info.st_mode))
        problem = mode_problem(info.st_mode)
        if problem is not None:
            raise PrivateFileError(f"{what} {path} {problem}; run `chmod 600 {path}` and try again")
        return os.read(fd, limit + 1)
    finally:
        os.close(fd)


def link_warning(path: Path, what: str = "the file") -> str | None:
    """A warning when ``path`` is a symbolic link: whoever can change the link, or the folder
    it points into, can change which file is used."""
    try:
        if not path.is_symlink():
            return None
        target = os.readlink(path)
    except OSError:
        return None
    return (
        f"{what} {path} is a symbolic link to {target}: whoever can change the link or that "
        "folder can change which key signs for you; keep the file itself there instead"
    )


def _shared_group(gid: int) -> bool:
    """Whether group ``gid`` may hold users other than this one: not this user's own private
    group (as Debian and others give each user, with a umask of 002 that makes folders
    group-writable for nobody else)."""
    if sys.platform == "win32":
        return False
    import grp
    import pwd

    try:
        group = grp.getgrgid(gid)
        own = pwd.getpwuid(os.geteuid())
    except KeyError:
        return True  # a group or user the system cannot name: assume the worst
    return gid != own.pw_gid or group.gr_name != own.pw_name or bool(group.gr_mem)


def folder_warning(directory: Path, windows: bool = WINDOWS) -> str | None:
    """A warning when other users may change ``directory`` (rename or swap the files in it),
    or when it belongs to another user; None when it is this user's own, or does not exist.
    On Windows, ACLs decide and the per-user data folder's keep others out: None."""
    if windows:
        return None
    try:
        info = directory.stat()
    except OSError:
        return None
    if info.st_mode & 0o002 or (info.st_mode & 0o020 and _shared_group(info.st_gid)):
        return (
            f"the folder {directory} can be changed by other users "
            f"(mode {stat.S_IMODE(info.st_mode):o}): they could swap your key or game files; "
            f"run `chmod go-w {directory}`"
        )
    if sys.platform != "win32" and info.st_uid != os.geteuid():
        return (
            f"the folder {directory} belongs to another user (uid {info.st_uid}), who could "
            "swap your key or game files"
        )
    return None
