"""Private files and the profile's folders, with real files: links, FIFOs, modes, folders that
others may change, and the rules of the Windows branch that need no Windows kernel.

Issue 20: a dangling symlink as key file gave a traceback and a FIFO there hung ``palabre``
silently; issue 19: a symlinked key and a profile folder others may write went unsaid;
issue 28: the mode check must not refuse every key on Windows."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from net.errors import IdentityError
from net.identity import (
    ENV_HOME,
    identity_path,
    load_or_create_key,
    load_profile_identity,
    profile_dir,
    profile_warnings,
)
from net.private_files import (
    PrivateFileError,
    folder_warning,
    mode_problem,
    read_private,
    write_private,
)

ROOT = Path(__file__).resolve().parents[2]


def palabre(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """A real ``palabre`` process; a hang is a failure after 30 s, not a stuck suite."""
    return subprocess.run(
        [sys.executable, "-m", "client", *args],
        cwd=ROOT,
        env={**os.environ, ENV_HOME: str(home)},
        capture_output=True,
        text=True,
        timeout=30,
    )


def test_a_dangling_symlink_as_key_file_is_a_clear_error_and_is_left_as_it_is(
    tmp_path: Path,
) -> None:
    path = identity_path("default", tmp_path)
    path.parent.mkdir(parents=True, mode=0o700)
    gone = tmp_path / "usb-stick" / "identity.key"
    path.symlink_to(gone)
    with pytest.raises(IdentityError, match=r"is a symbolic link to .*usb-stick.*does not exist"):
        load_or_create_key(path)
    assert path.is_symlink() and not gone.exists()  # no key made behind the link's back
    run = palabre(tmp_path, "id")
    assert run.returncode == 1, run.stderr
    assert run.stderr.startswith("palabre: the key file") and "does not exist" in run.stderr
    assert "Traceback" not in run.stderr and run.stdout == ""


@pytest.mark.parametrize("through_a_link", [False, True], ids=["fifo", "link-to-fifo"])
def test_a_fifo_as_key_file_is_refused_at_once(tmp_path: Path, through_a_link: bool) -> None:
    path = identity_path("default", tmp_path)
    path.parent.mkdir(parents=True, mode=0o700)
    if through_a_link:
        os.mkfifo(tmp_path / "pipe", 0o600)
        path.symlink_to(tmp_path / "pipe")
    else:
        os.mkfifo(path, 0o600)
    with pytest.raises(IdentityError, match=r"not a regular file \(a FIFO \(named pipe\)\)"):
        load_or_create_key(path)
    run = palabre(tmp_path, "id")  # hung for ever before: open() waited for a writer
    assert run.returncode == 1, run.stderr
    assert "not a regular file (a FIFO (named pipe)); move it away" in run.stderr
    assert "Traceback" not in run.stderr


def test_a_symlinked_key_works_and_is_named_in_a_warning(tmp_path: Path) -> None:
    kept = tmp_path / "elsewhere" / "my.key"
    identity, _created = load_or_create_key(kept)
    path = identity_path("default", tmp_path)
    path.parent.mkdir(parents=True, mode=0o700)
    path.symlink_to(kept)
    assert load_profile_identity("default", tmp_path).fingerprint == identity.fingerprint
    [warning] = profile_warnings("default", tmp_path)
    assert warning.startswith(f"the key file {path} is a symbolic link to {kept}")
    run = palabre(tmp_path, "id")
    assert run.returncode == 0 and run.stdout.strip() == identity.fingerprint
    assert f"palabre: warning: the key file {path} is a symbolic link" in run.stderr


@pytest.mark.parametrize("where", ["home", "profiles", "profile"])
def test_a_folder_others_may_change_is_named_in_a_warning(tmp_path: Path, where: str) -> None:
    home = tmp_path / "home"
    identity, _ = load_or_create_key(identity_path("default", home))
    folder = {"home": home, "profiles": home / "profiles", "profile": profile_dir("default", home)}
    folder[where].chmod(0o777)
    [warning] = profile_warnings("default", home)
    assert warning == (
        f"the folder {folder[where]} can be changed by other users (mode 777): they could swap "
        f"your key or game files; run `chmod go-w {folder[where]}`"
    )
    run = palabre(home, "id")
    assert run.returncode == 0 and run.stdout.strip() == identity.fingerprint  # a warning only
    assert f"palabre: warning: the folder {folder[where]} can be changed" in run.stderr
    folder[where].chmod(0o700)
    assert profile_warnings("default", home) == []


def test_a_sticky_shared_folder_is_still_a_warning(tmp_path: Path) -> None:
    """/tmp-like (1777): others cannot remove our files but can create the names we will use."""
    tmp_path.chmod(0o1777)
    assert "can be changed by other users (mode 1777)" in (folder_warning(tmp_path) or "")


def test_private_files_are_written_0600_and_read_back(tmp_path: Path) -> None:
    path = tmp_path / "secret"
    write_private(path, b"x" * 10)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert read_private(path, 4) == b"xxxxx"  # at most limit + 1: the caller sees it is long
    with pytest.raises(FileExistsError):
        write_private(path, b"again")  # never replaces a key
    path.chmod(0o640)
    with pytest.raises(PrivateFileError, match=r"other users \(mode 640\); run `chmod 600"):
        read_private(path, 4, "the key file")


def test_write_private_never_follows_a_link(tmp_path: Path) -> None:
    (tmp_path / "link").symlink_to(tmp_path / "target")
    with pytest.raises(FileExistsError):
        write_private(tmp_path / "link", b"key")
    assert not (tmp_path / "target").exists()


def test_nothing_at_the_path_is_file_not_found(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        read_private(tmp_path / "absent", 10)


@pytest.mark.parametrize("mode", [0o100600, 0o100666, 0o100444, 0o100777])
def test_the_windows_rules_never_refuse_a_key_for_its_made_up_mode_bits(mode: int) -> None:
    """On Windows os.stat makes 0o666 / 0o444 up from the read-only flag: the ACL of the
    per-user folder protects the key, so mode bits must not refuse it (issue 28)."""
    assert mode_problem(mode, windows=True) is None
    assert (mode_problem(mode, windows=False) is None) == (mode == 0o100600)


def test_the_windows_rules_do_not_judge_folders_by_mode_bits(tmp_path: Path) -> None:
    tmp_path.chmod(0o777)
    assert folder_warning(tmp_path, windows=True) is None
    assert folder_warning(tmp_path, windows=False) is not None


def test_folders_are_made_private_whatever_the_umask(tmp_path: Path) -> None:
    """With the umask 002 many systems give users, mkdir(parents=True) made 0775 parents:
    a new home would then warn at every run."""
    old = os.umask(0o002)
    try:
        load_or_create_key(identity_path("default", tmp_path / "new" / "home"))
    finally:
        os.umask(old)
    for folder in (
        tmp_path / "new",
        tmp_path / "new" / "home",
        tmp_path / "new" / "home" / "profiles",
    ):
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700, folder
    assert profile_warnings("default", tmp_path / "new" / "home") == []


def test_a_group_writable_folder_warns_unless_the_group_is_the_users_own(tmp_path: Path) -> None:
    """A user's private group (same name, no other member) writing is the user writing."""
    import grp
    import pwd

    me = pwd.getpwuid(os.geteuid())
    own = grp.getgrgid(me.pw_gid)
    assert own.gr_name == me.pw_name and not own.gr_mem  # these machines: root's own group
    tmp_path.chmod(0o770)
    assert folder_warning(tmp_path) is None
    os.chown(tmp_path, -1, 54321)  # a group nobody here can name: anyone may be in it
    assert "can be changed by other users (mode 770)" in (folder_warning(tmp_path) or "")
