"""Identities: key files, their modes and failures, fingerprints, and ``palabre id``."""

from __future__ import annotations

import base64
import hashlib
import os
import re
import stat
import threading
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from client.commands import cli
from net.errors import IdentityError
from net.identity import (
    ENV_HOME,
    Identity,
    bot_key_path,
    fingerprint,
    identity_path,
    load_bot_identity,
    load_or_create_key,
    load_profile_identity,
    palabre_home,
    parse_fingerprint,
    short_fingerprint,
)

FINGERPRINT = re.compile(r"([A-Z2-7]{4}-){5}[A-Z2-7]{4}")


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_key_created_on_first_use_private_and_stable(tmp_path: Path) -> None:
    path = identity_path("default", tmp_path)
    identity, created = load_or_create_key(path)
    assert created
    assert _mode(path) == 0o600
    assert _mode(path.parent) == 0o700
    again, created_again = load_or_create_key(path)
    assert not created_again
    assert again.public_key == identity.public_key
    assert FINGERPRINT.fullmatch(identity.fingerprint)
    assert [p.name for p in path.parent.iterdir()] == ["identity.key"]  # no temporary left


def test_key_is_created_private_whatever_the_umask(tmp_path: Path) -> None:
    previous = os.umask(0)
    try:
        path = identity_path("p", tmp_path)
        load_or_create_key(path)
    finally:
        os.umask(previous)
    assert _mode(path) == 0o600


def test_profiles_and_bots_have_their_own_keys(tmp_path: Path) -> None:
    alice = load_profile_identity("alice", tmp_path)
    bob = load_profile_identity("bob", tmp_path)
    bot1 = load_bot_identity("alice", "table-seat1", tmp_path)
    bot2 = load_bot_identity("alice", "table-seat2", tmp_path)
    keys = {alice.public_key, bob.public_key, bot1.public_key, bot2.public_key}
    assert len(keys) == 4
    assert load_bot_identity("alice", "table-seat1", tmp_path).public_key == bot1.public_key
    assert _mode(bot_key_path("alice", "table-seat1", tmp_path)) == 0o600


def test_racing_creators_end_with_one_key(tmp_path: Path) -> None:
    path = identity_path("race", tmp_path)
    results: list[bytes] = []
    barrier = threading.Barrier(8)

    def create() -> None:
        barrier.wait()
        results.append(load_or_create_key(path)[0].public_key)

    threads = [threading.Thread(target=create) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(set(results)) == 1
    assert load_or_create_key(path)[0].public_key == results[0]
    assert [p.name for p in path.parent.iterdir()] == ["identity.key"]


@pytest.mark.parametrize("mode", [0o644, 0o640, 0o604, 0o620])
def test_key_readable_or_writable_by_others_is_refused_and_kept(tmp_path: Path, mode: int) -> None:
    path = identity_path("default", tmp_path)
    load_or_create_key(path)
    before = path.read_bytes()
    path.chmod(mode)
    with pytest.raises(IdentityError, match=r"other users \(mode 6\d\d\); run `chmod 600"):
        load_or_create_key(path)
    assert path.read_bytes() == before


@pytest.mark.parametrize(
    "content",
    [b"", b"garbage\n", b"-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n"],
)
def test_corrupt_key_is_an_error_never_replaced(tmp_path: Path, content: bytes) -> None:
    path = identity_path("default", tmp_path)
    path.parent.mkdir(parents=True)
    path.write_bytes(content)
    path.chmod(0o600)
    with pytest.raises(IdentityError, match=r"is corrupt .*left as it is"):
        load_or_create_key(path)
    assert path.read_bytes() == content


def test_a_key_that_is_not_ed25519_is_refused(tmp_path: Path) -> None:
    path = identity_path("default", tmp_path)
    path.parent.mkdir(parents=True)
    pem = ec.generate_private_key(ec.SECP256R1()).private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    path.write_bytes(pem)
    path.chmod(0o600)
    with pytest.raises(IdentityError, match="does not hold an Ed25519 key"):
        load_or_create_key(path)


def test_unreadable_key_path_is_an_error(tmp_path: Path) -> None:
    path = identity_path("default", tmp_path)
    path.mkdir(parents=True, mode=0o700)  # a directory where the key should be
    with pytest.raises(IdentityError, match="not a regular file"):
        load_or_create_key(path)
    assert path.is_dir()


def test_unwritable_profile_directory_is_an_error(tmp_path: Path) -> None:
    blocker = tmp_path / "profiles"
    blocker.write_text("a file where the profiles directory should be")
    with pytest.raises(IdentityError, match=r"cannot read the key file .*: Not a directory"):
        load_profile_identity("default", tmp_path)


@pytest.mark.parametrize("name", ["", "..", "../x", "a/b", ".hidden", "x" * 65, "é"])
def test_bad_profile_names_are_refused(tmp_path: Path, name: str) -> None:
    with pytest.raises(IdentityError, match=r"profile name .* is not allowed"):
        identity_path(name, tmp_path)


@pytest.mark.parametrize("name", ["con", "NUL", "aux.old", "com1", "Lpt9.x", "ana.", "ana.."])
def test_profile_names_windows_cannot_keep_are_refused(tmp_path: Path, name: str) -> None:
    """Issue 28: a profile folder named ``con`` or ``ana.`` is made on Linux, but Windows opens
    a device for the first and drops the dot of the second; the profile must move between
    systems, so neither is a profile name anywhere."""
    with pytest.raises(IdentityError, match=r"profile name .* is not allowed.*devices"):
        load_profile_identity(name, tmp_path)
    assert not (tmp_path / "profiles").exists()


def test_home_comes_from_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENV_HOME, str(tmp_path))
    assert palabre_home() == tmp_path
    monkeypatch.delenv(ENV_HOME)
    assert palabre_home() != tmp_path


def test_fingerprint_is_fixed_for_a_key() -> None:
    key = Ed25519PrivateKey.from_private_bytes(bytes(range(32)))
    identity = Identity(key)
    # Golden value: fingerprints are shown to people and must never change for a key.
    assert identity.fingerprint == fingerprint(identity.public_key)
    assert identity.fingerprint == "DXU5-N2BZ-2ZJA-ANHQ-YYJ7-EQM6"
    assert short_fingerprint(identity.public_key) == "DXU5-N2BZ…"
    # As docs/PROTOCOL.md words it: BLAKE2b, 15-byte digest, over the tag and the key.
    digest = hashlib.blake2b(b"palabre/1/fingerprint\0" + identity.public_key, digest_size=15)
    assert identity.fingerprint.replace("-", "") == base64.b32encode(digest.digest()).decode()


def test_parse_fingerprint() -> None:
    canonical = "HRXC-PGGL-3EYW-E6PK-5LKN-4QXI"
    assert parse_fingerprint("hrxcpggl3eywe6pk5lkn4qxi") == canonical
    assert parse_fingerprint(f"  {canonical.lower()} ") == canonical
    for bad in ["HRXC-PGGL", canonical + "A", canonical.replace("H", "1"), ""]:
        with pytest.raises(ValueError, match="is not a fingerprint"):
            parse_fingerprint(bad)


def test_sign_uses_the_key() -> None:
    identity = Identity.generate()
    public = Ed25519PrivateKey.from_private_bytes(bytes(32)).public_key()
    signature = identity.sign(b"message")
    assert len(signature) == 64
    with pytest.raises(Exception):  # noqa: B017 - another key's verify rejects it
        public.verify(signature, b"message")


def test_palabre_id_prints_the_fingerprint(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv(ENV_HOME, str(tmp_path))
    assert cli.main(["--profile", "carol", "id"]) == 0
    first = capsys.readouterr()
    assert FINGERPRINT.fullmatch(first.out.strip())
    assert "created a new key for profile 'carol'" in first.err
    assert cli.main(["--profile", "carol", "id"]) == 0
    second = capsys.readouterr()
    assert second.out == first.out
    assert second.err == ""
    assert first.out.strip() == load_profile_identity("carol", tmp_path).fingerprint


def test_palabre_id_reports_a_bad_key_without_traceback(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv(ENV_HOME, str(tmp_path))
    path = identity_path("default", tmp_path)
    load_or_create_key(path)
    path.chmod(0o644)
    assert cli.main(["id"]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("palabre: the key file") and "chmod 600" in captured.err
