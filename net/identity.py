"""Identities: one Ed25519 key per profile, one per bot seat, and their fingerprints.

Invariants:

* Keys live under ``palabre_home()`` (``$PALABRE_HOME`` when set, else platformdirs' user
  data directory): ``profiles/NAME/identity.key`` and ``profiles/NAME/bots/BOT.key``, PEM
  PKCS#8, mode 0600, in directories of mode 0700.
* A key is created on first use and never replaced: it is written to a private temporary
  file (``O_EXCL``, 0600, fsynced) then hard-linked to its name, which fails if another run
  got there first (that run's key is then loaded).  No reader ever sees half a key.
* A key file that cannot be read, is corrupt, is not Ed25519, that other users may read or
  change, is not a regular file (a FIFO: never waited on) or is a symbolic link to nothing is
  an ``IdentityError`` saying what to do; the file is left as it is.  What differs by system
  (modes on POSIX, the per-user folder's ACL on Windows) is ``net.private_files``'s.
* ``profile_warnings``: a key reached through a link, or folders others may change, still
  work but are named to the player.
* The fingerprint is BLAKE2b (15-byte digest) over ``b"palabre/1/fingerprint\\0"`` and the
  32-byte public key, in base32, as six groups of four: ``K3QF-7XZA-M2PQ-RT5V-ABCD-EFGH``.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import os
import re
import secrets
from pathlib import Path

import platformdirs
from cryptography.exceptions import UnsupportedAlgorithm
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from net import ed25519
from net.errors import IdentityError
from net.fsutil import fsync_dir, os_reason
from net.private_files import (
    PrivateFileError,
    folder_warning,
    link_warning,
    make_private_dir,
    read_private,
    write_private,
)
from net.safe_names import is_safe_file_name

__all__ = [
    "ENV_HOME",
    "Identity",
    "bot_key_path",
    "fingerprint",
    "identity_path",
    "load_bot_identity",
    "load_or_create_key",
    "load_profile_identity",
    "palabre_home",
    "parse_fingerprint",
    "profile_dir",
    "profile_warnings",
    "short_fingerprint",
]

ENV_HOME = "PALABRE_HOME"
KEY_SIZE = 32
_FINGERPRINT_TAG = b"palabre/1/fingerprint\0"
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")
_MAX_KEY_FILE = 4096


class Identity:
    """An Ed25519 signing key with its public key and fingerprint."""

    __slots__ = ("_private", "_secret", "fingerprint", "public_key")

    def __init__(self, private: Ed25519PrivateKey) -> None:
        self._private = private
        # libsodium signs (net/ed25519.py: faster, the same bytes); the key stays cryptography's.
        self._secret = ed25519.secret_key(
            private.private_bytes(
                serialization.Encoding.Raw,
                serialization.PrivateFormat.Raw,
                serialization.NoEncryption(),
            )
        )
        self.public_key: bytes = private.public_key().public_bytes(
            serialization.Encoding.Raw, serialization.PublicFormat.Raw
        )
        self.fingerprint: str = fingerprint(self.public_key)

    @classmethod
    def generate(cls) -> Identity:
        """A fresh key held only in memory (tests, one-off tools)."""
        return cls(Ed25519PrivateKey.generate())

    def sign(self, message: bytes) -> bytes:
        """The 64-byte Ed25519 signature of ``message`` (callers add the domain tag)."""
        return ed25519.sign(self._secret, message)

    def to_pem(self) -> bytes:
        return self._private.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )

    def __repr__(self) -> str:
        return f"Identity({self.fingerprint})"


@functools.lru_cache(maxsize=1024)  # a few dozen keys, named in messages for every record
def fingerprint(public_key: bytes) -> str:
    """The printable fingerprint of a 32-byte public key."""
    digest = hashlib.blake2b(_FINGERPRINT_TAG + public_key, digest_size=15).digest()
    text = base64.b32encode(digest).decode("ascii")
    return "-".join(text[i : i + 4] for i in range(0, len(text), 4))


def short_fingerprint(public_key: bytes) -> str:
    """The first two groups, for messages ("peer K3QF-7XZA… sent ...")."""
    return fingerprint(public_key)[:9] + "…"


def parse_fingerprint(text: str) -> str:
    """The canonical form of a typed fingerprint (any case, dashes optional); ``ValueError``."""
    compact = text.strip().replace("-", "").upper()
    if len(compact) != 24 or not re.fullmatch(r"[A-Z2-7]{24}", compact):
        raise ValueError(
            f"{text!r} is not a fingerprint (six groups of four letters A-Z and digits 2-7, "
            "like K3QF-7XZA-M2PQ-RT5V-ABCD-EFGH)"
        )
    return "-".join(compact[i : i + 4] for i in range(0, 24, 4))


def palabre_home() -> Path:
    """Where profiles live: ``$PALABRE_HOME`` or the platform's user data directory."""
    override = os.environ.get(ENV_HOME)
    if override:
        return Path(override)
    return Path(platformdirs.user_data_dir("palabre", appauthor=False))


def _check_name(name: str, what: str) -> str:
    # A profile's folder is copied between systems: a name Windows cannot keep (``con``,
    # ``ana.``) is refused everywhere (net.safe_names), not made here and lost there.
    if not _NAME.fullmatch(name) or not is_safe_file_name(name):
        raise IdentityError(
            f"{what} name {name!r} is not allowed: use up to 64 letters, digits, '.', '_' "
            "or '-', starting with a letter or digit, not ending with '.', and not a name "
            "Windows keeps for devices (CON, PRN, AUX, NUL, COM1-9, LPT1-9)"
        )
    return name


def profile_dir(profile: str, home: Path | None = None) -> Path:
    """The directory of one profile (``IdentityError`` on a bad name)."""
    base = palabre_home() if home is None else home
    return base / "profiles" / _check_name(profile, "profile")


def identity_path(profile: str, home: Path | None = None) -> Path:
    return profile_dir(profile, home) / "identity.key"


def bot_key_path(profile: str, bot: str, home: Path | None = None) -> Path:
    return profile_dir(profile, home) / "bots" / f"{_check_name(bot, 'bot')}.key"


def load_profile_identity(profile: str = "default", home: Path | None = None) -> Identity:
    """The profile's player key, created on first use."""
    return load_or_create_key(identity_path(profile, home))[0]


def load_bot_identity(profile: str, bot: str, home: Path | None = None) -> Identity:
    """The key of one bot seat run by this profile (e.g. ``bot`` = table id and seat)."""
    return load_or_create_key(bot_key_path(profile, bot, home))[0]


def load_or_create_key(path: Path) -> tuple[Identity, bool]:
    """The key at ``path`` and whether it was just created; ``IdentityError`` if unusable."""
    try:
        return _read_key(path), False
    except FileNotFoundError:
        pass
    _make_private_dir(path.parent)
    identity = Identity.generate()
    if _publish_new_key(path, identity.to_pem()):
        return identity, True
    return _read_key(path), False  # another run created it first: use that one


def _make_private_dir(directory: Path) -> None:
    try:
        make_private_dir(directory)
    except OSError as error:
        raise IdentityError(
            f"cannot create the directory {directory}: {os_reason(error)}"
        ) from error


def _publish_new_key(path: Path, pem: bytes) -> bool:
    """Write ``pem`` to ``path`` unless it exists; True if ours is the one published."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    try:
        write_private(temporary, pem)
        try:
            os.link(temporary, path)
            published = True
        except FileExistsError:
            published = False
        except OSError:
            # Filesystems without hard links: create the final name exclusively instead.
            try:
                write_private(path, pem)
                published = True
            except FileExistsError:
                published = False
        finally:
            temporary.unlink(missing_ok=True)
        fsync_dir(path.parent)
    except OSError as error:
        raise IdentityError(f"cannot create the key file {path}: {os_reason(error)}") from error
    return published


def _read_key(path: Path) -> Identity:
    """Load a key file; ``FileNotFoundError`` if absent, ``IdentityError`` if unusable."""
    try:
        data = read_private(path, _MAX_KEY_FILE, "the key file")
    except FileNotFoundError:
        raise
    except PrivateFileError as error:
        raise IdentityError(str(error)) from error
    except OSError as error:
        raise IdentityError(
            f"cannot read the key file {path}: {os_reason(error)}; it was left as it is"
        ) from error
    return Identity(_parse_pem(path, data))


def profile_warnings(profile: str, home: Path | None = None) -> list[str]:
    """What makes the profile's key less private than it looks, to show as warnings: a key
    reached through a symbolic link, folders on its way that other users may change."""
    folder = profile_dir(profile, home)
    base = palabre_home() if home is None else home
    warnings = [link_warning(identity_path(profile, home), "the key file")]
    warnings += [folder_warning(path) for path in (base, base / "profiles", folder)]
    return [text for text in warnings if text is not None]


def _parse_pem(path: Path, data: bytes) -> Ed25519PrivateKey:
    hint = (
        "it was left as it is; restore it from a backup, or move it away to create a new "
        "identity (other players will then see a new fingerprint)"
    )
    if len(data) > _MAX_KEY_FILE:
        raise IdentityError(f"the key file {path} is corrupt (far too long); {hint}")
    try:
        key = serialization.load_pem_private_key(data, password=None)
    except (ValueError, TypeError, UnsupportedAlgorithm) as error:
        reason = str(error).splitlines()[0] if str(error) else type(error).__name__
        raise IdentityError(f"the key file {path} is corrupt ({reason}); {hint}") from error
    if not isinstance(key, Ed25519PrivateKey):
        raise IdentityError(f"the key file {path} does not hold an Ed25519 key; {hint}")
    return key
