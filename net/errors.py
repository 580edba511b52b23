"""The errors of the network layer, sorted by whose fault they are.

* ``RemoteProtocolError`` (and its kinds ``FrameError``, ``DecodeError``, ``SignatureError``):
  what a peer sent breaks the protocol.  The sans-I/O core never lets one escape: it closes
  the link with the error's ``code`` and message instead (h11's "remote" errors).
* ``LocalProtocolError``: this program asked for something the protocol forbids (sending a
  record before the handshake, a frame over the cap).  It is a bug here, so it is raised.
* ``LinkError``: the trio driver could not listen or connect; the message is for the user
  ("port 7000 is already in use").  It is the only exception the driver raises.
* ``IdentityError``, ``InviteError``, ``LogFileError``: a key file, an invite or a log that
  cannot be used, each with a message saying what to do.

``CloseCode`` names why a link ended; it travels in REFUSE frames so both sides agree.
"""

from __future__ import annotations

from enum import StrEnum

__all__ = [
    "CloseCode",
    "DecodeError",
    "FrameError",
    "IdentityError",
    "InviteError",
    "LinkError",
    "LocalProtocolError",
    "LogFileError",
    "NetError",
    "RemoteProtocolError",
    "SignatureError",
]


class CloseCode(StrEnum):
    """Why a link was closed (sent in REFUSE frames; unknown codes read as ``REFUSED``)."""

    VERSION = "version"  # protocol or app versions do not match
    TABLE = "table"  # the peers are not at the same table
    FINGERPRINT = "fingerprint"  # the host's key is not the one the invite names
    SELF = "self"  # both ends hold the same key
    SECRET = "secret"  # the joiner did not prove it knows the table secret
    PROTOCOL = "protocol"  # malformed or unexpected input
    CRYPTO = "crypto"  # a signature or the link's integrity check failed
    TIMEOUT = "timeout"  # the handshake, a frame or the link went quiet for too long
    REFUSED = "refused"  # the application refused the peer (game started, seat taken, ...)
    FULL = "full"  # the application refused the peer because every seat is taken
    CLOSING = "closing"  # an ordinary goodbye
    LOST = "lost"  # the connection ended without a goodbye


class NetError(Exception):
    """Base of the errors raised on purpose by ``net``."""


class RemoteProtocolError(NetError):
    """A peer broke the protocol; the link is closed with ``code`` and this message."""

    def __init__(self, message: str, code: CloseCode = CloseCode.PROTOCOL) -> None:
        super().__init__(message)
        self.code = code


class FrameError(RemoteProtocolError):
    """A frame that cannot be accepted: over the size cap, or empty."""


class DecodeError(RemoteProtocolError):
    """Bytes that are not what the protocol allows: bad msgpack, wrong types, sizes, kinds."""


class SignatureError(RemoteProtocolError):
    """A signature, or the link's authenticated encryption, did not verify."""

    def __init__(self, message: str) -> None:
        super().__init__(message, CloseCode.CRYPTO)


class LocalProtocolError(NetError):
    """This program misused the protocol (a bug here, not the peer's fault)."""


class LinkError(NetError):
    """The driver could not listen, connect or finish a handshake; ``str()`` is for the user.

    ``refused`` is true when a peer (or this side) refused the link with a reason, as opposed
    to the network failing; ``code`` says how a handshake that was under way ended (None when
    no connection was made at all); ``problem`` names a failure to listen that a window
    explains in its own words (``"port-in-use"``, ``"port-needs-rights"``; empty otherwise),
    as ``str()`` tells a terminal user which option to change.
    """

    def __init__(
        self,
        message: str,
        *,
        refused: bool = False,
        code: CloseCode | None = None,
        problem: str = "",
    ) -> None:
        super().__init__(message)
        self.refused = refused
        self.code = code
        self.problem = problem


class IdentityError(NetError):
    """A key file that cannot be used (unreadable, corrupt, readable by others)."""


class InviteError(NetError, ValueError):
    """An invite or address that cannot be parsed; the message says which part is wrong."""


class LogFileError(NetError):
    """A log file that cannot be read or written."""
