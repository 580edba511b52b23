"""The errors client/ raises on purpose, in one place (``net.errors`` is the network's).

Each says what went wrong in a sentence a player can read (``str(error)``); the front ends
show it as it is.  Two kinds:

* a peer's or a file's fault, refused: ``Malformed`` (a record body), ``BadEnvelope`` (an
  embedded envelope), ``PlyRejected`` (a ply that must not be applied, with a ``code`` for
  programs), ``StartRefused`` (a table this peer will not play at), ``BadAd`` (an mDNS
  advertisement that is not a palabre table), ``ReplayUnavailable`` (a log with no chain to
  show);
* this machine or this user: ``IntentRefused`` (a player's intent the table cannot carry out
  now; nothing was signed), ``ProfileInUse``, ``LaunchError``, ``OptionError``,
  ``SecretInputError``; ``LocalTableError`` is this peer's own bug (it was about to break
  the protocol), never a peer's fault.

Still defined beside their code, in a file another branch owns this session: ``JoinRefused``
and ``TableFull`` (client.node.lobby).
"""

from __future__ import annotations

__all__ = [
    "BadAd",
    "BadEnvelope",
    "IntentRefused",
    "LaunchError",
    "LocalTableError",
    "Malformed",
    "OptionError",
    "PlyRejected",
    "ProfileInUse",
    "ReplayUnavailable",
    "SecretInputError",
    "StartRefused",
]


class Malformed(ValueError):
    """A body field is missing, of the wrong type or out of bounds."""


class BadEnvelope(ValueError):
    """Embedded envelope bytes that do not verify or decode; the message says why."""


class PlyRejected(Exception):
    """A ply record that must not be applied; ``str()`` is a sentence a player can read,
    ``code`` a stable word for programs (``palabre verify --json``, docs/LOG_FORMAT.md)."""

    def __init__(self, reason: str, *, code: str) -> None:
        super().__init__(reason)
        self.code = code


class StartRefused(ValueError):
    """This peer will not play at this table; the message says why."""


class BadAd(ValueError):
    """A service's TXT properties do not describe a palabre table; the message says why."""


class ReplayUnavailable(ValueError):
    """The log has no chain to show (unreadable, not a game log, or START invalid)."""


class LocalTableError(RuntimeError):
    """This peer was about to break the protocol: a bug here, not a peer's fault."""


class IntentRefused(Exception):
    """The player asked for something the table cannot do now; the message says why."""


class ProfileInUse(Exception):
    """Another process holds the profile; ``pid`` and ``doing`` as it wrote them (0 and ""
    when it had not written them yet, or the label cannot be read)."""

    def __init__(self, profile: str, pid: int, doing: str) -> None:
        self.profile, self.pid, self.doing = profile, pid, doing
        who = f"in process {pid}" if pid else "in another process"
        super().__init__(f"this profile ({profile}) is already {doing or 'in use'} {who}")


class LaunchError(Exception):
    """An intent of the start screen could not be carried out; the message says why."""


class OptionError(ValueError):
    """Options that do not go together; the message says what to type instead."""


class SecretInputError(Exception):
    """The secret or the invite could not be read; the message says why."""
