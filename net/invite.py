"""Invites and addresses: what a host prints and a joiner pastes.

An invite is one line::

    palabre://192.168.1.23,10.0.0.5:7000/mfrggzdfmztwq2lknnwg23tpoa#K3QF-7XZA-M2PQ-RT5V-ABCD-EFGH
    palabre://192.168.1.23:7000/mfrggzdfmztwq2lknnwg23tpoa?s=4tkd2xq7vbn3mpl5ae6rcwy4hu#K3QF-...

* after ``palabre://``: one or more addresses separated by commas (IPv4, ``[IPv6]``, or a
  host name), tried in order by the joiner;
* ``:PORT`` (1-65535), shared by every address;
* ``/TABLE``: the 16-byte table id in base32, 26 characters, no padding;
* ``?s=SECRET`` (optional): the table secret, percent-encoded (RFC 3986); a joiner proves it
  knows it in the handshake (``net.handshake``) without sending it;
* ``#FINGERPRINT``: the host's fingerprint (``net.identity``).

Parsing is strict (any case is accepted for the base32 parts; dashes in the fingerprint are
optional) and every error says which part is wrong.  The joiner refuses a host whose key
does not have that fingerprint, and a host refuses a joiner that names another table.
``parse_address`` reads the plain ``HOST[:PORT]`` form of ``palabre join``.

A table secret is 8 to 64 printable characters (``check_secret``); ``new_secret`` makes one of
128 random bits.  An invite with a secret is for the invited only: ``Invite.public()`` is the
same invite without it, for anything broadcast (a LAN announcement).
"""

from __future__ import annotations

import base64
import binascii
import ipaddress
import re
import secrets
import unicodedata
from dataclasses import dataclass, replace
from urllib.parse import quote, unquote

from net.errors import InviteError
from net.identity import parse_fingerprint

__all__ = [
    "DEFAULT_PORT",
    "SCHEME",
    "SECRET_MAX",
    "SECRET_MIN",
    "Invite",
    "check_secret",
    "format_table_id",
    "new_secret",
    "parse_address",
    "parse_invite",
    "parse_table_id",
]

SCHEME = "palabre://"
DEFAULT_PORT = 7000
MAX_ADDRESSES = 8
SECRET_MIN = 8
SECRET_MAX = 64
_LABEL = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
_HOSTNAME = re.compile(rf"(?=.{{1,253}}$){_LABEL}(?:\.{_LABEL})*\.?")


@dataclass(frozen=True)
class Invite:
    addresses: tuple[str, ...]
    port: int
    table_id: bytes
    fingerprint: str
    secret: str | None = None
    """The table secret joiners must prove they know (None: the table has none)."""

    def __str__(self) -> str:
        hosts = ",".join(f"[{a}]" if ":" in a else a for a in self.addresses)
        query = "" if self.secret is None else f"?s={quote(self.secret, safe='')}"
        table = format_table_id(self.table_id)
        return f"{SCHEME}{hosts}:{self.port}/{table}{query}#{self.fingerprint}"

    def public(self) -> Invite:
        """This invite without its secret: what may be shown to anyone on the LAN."""
        return replace(self, secret=None)


def new_secret() -> str:
    """A fresh table secret: 128 random bits as 26 lower-case base32 characters."""
    return format_table_id(secrets.token_bytes(16))


def check_secret(text: str) -> str:
    """A table secret as typed, in Unicode normal form C; ``InviteError`` saying why not."""
    secret = unicodedata.normalize("NFC", text)
    if not SECRET_MIN <= len(secret) <= SECRET_MAX:
        raise InviteError(
            f"a table secret has {SECRET_MIN} to {SECRET_MAX} characters (this one has "
            f"{len(secret)}); without --secret TEXT, palabre makes a strong one"
        )
    if not secret.isprintable() or secret != secret.strip():
        raise InviteError("a table secret is printable characters, without spaces at either end")
    return secret


def format_table_id(table_id: bytes) -> str:
    return base64.b32encode(table_id).decode("ascii").rstrip("=").lower()


def parse_table_id(text: str) -> bytes:
    """A table id from its base32 form; ``InviteError`` unless it is 26 base32 characters."""
    if not re.fullmatch(r"[A-Za-z2-7]{26}", text):
        raise InviteError(f"the table id {_show(text)} is not 26 letters and digits 2-7 (base32)")
    try:
        decoded = base64.b32decode(text.upper() + "======")
    except binascii.Error as error:
        raise InviteError(f"the table id {_show(text)} is not valid base32") from error
    if format_table_id(decoded) != text.lower():
        raise InviteError(f"the table id {_show(text)} is not valid base32 (bad last letter)")
    return decoded


def parse_invite(text: str) -> Invite:
    """Read an invite; ``InviteError`` saying which part is wrong."""
    line = text.strip()
    if not line.lower().startswith(SCHEME):
        raise InviteError(f"an invite starts with {SCHEME} (got {_show(line)})")
    rest = line[len(SCHEME) :]
    location, hash_mark, fingerprint_text = rest.partition("#")
    if not hash_mark:
        raise InviteError("the invite has no #FINGERPRINT at its end (was it cut when copied?)")
    location, question, query = location.partition("?")
    secret = _parse_secret(query) if question else None
    authority, slash, table_text = location.partition("/")
    if not slash or not table_text:
        raise InviteError("the invite has no /TABLE after the port")
    hosts_text, colon, port_text = authority.rpartition(":")
    if not colon or not hosts_text:
        raise InviteError("the invite has no ADDRESS:PORT after palabre://")
    hosts = tuple(_parse_invite_host(part) for part in hosts_text.split(","))
    if len(hosts) > MAX_ADDRESSES:
        raise InviteError(f"the invite lists {len(hosts)} addresses; at most {MAX_ADDRESSES}")
    try:
        fingerprint = parse_fingerprint(fingerprint_text)
    except ValueError as error:
        raise InviteError(f"the host fingerprint in the invite: {error}") from error
    return Invite(hosts, _parse_port(port_text), parse_table_id(table_text), fingerprint, secret)


def _parse_secret(query: str) -> str:
    if not query.startswith("s=") or "&" in query:
        raise InviteError(f"after the table id an invite has only ?s=SECRET (got ?{_show(query)})")
    try:
        text = unquote(query[2:], errors="strict")
    except UnicodeDecodeError:
        raise InviteError("the invite's secret is not valid percent-encoded UTF-8") from None
    try:
        return check_secret(text)
    except InviteError as error:
        raise InviteError(f"the invite's secret: {error}") from None


def parse_address(text: str, default_port: int = DEFAULT_PORT) -> tuple[str, int]:
    """``HOST``, ``HOST:PORT``, ``[IPv6]:PORT`` or a bare IPv6 address; ``InviteError``."""
    line = text.strip()
    if not line:
        raise InviteError("no address was given")
    if line.startswith("["):
        close = line.find("]")
        if close < 0:
            raise InviteError(f"{_show(line)} opens a [ but does not close it")
        host, rest = _parse_host(line[: close + 1]), line[close + 1 :]
        if not rest:
            return host, default_port
        if not rest.startswith(":"):
            raise InviteError(f"{_show(line)}: expected :PORT after the ]")
        return host, _parse_port(rest[1:])
    if line.count(":") > 1:
        return _parse_host(line), default_port  # a bare IPv6 address
    host_text, colon, port_text = line.partition(":")
    return _parse_host(host_text), _parse_port(port_text) if colon else default_port


def _parse_invite_host(text: str) -> str:
    if ":" in text and not text.startswith("["):
        raise InviteError(f"{_show(text)}: an IPv6 address in an invite is written in [brackets]")
    return _parse_host(text)


def _parse_host(text: str) -> str:
    if text.startswith("[") and text.endswith("]"):
        try:
            return str(ipaddress.IPv6Address(text[1:-1]))
        except ValueError as error:
            raise InviteError(f"{_show(text)} is not an IPv6 address") from error
    if ":" in text:
        try:
            return str(ipaddress.IPv6Address(text))
        except ValueError as error:
            raise InviteError(f"{_show(text)} is not an address") from error
    if re.fullmatch(r"[0-9.]+", text):
        try:
            return str(ipaddress.IPv4Address(text))
        except ValueError as error:
            raise InviteError(f"{_show(text)} is not an IPv4 address") from error
    if not _HOSTNAME.fullmatch(text):
        raise InviteError(f"{_show(text)} is not an address or host name")
    return text.lower()


def _parse_port(text: str) -> int:
    if not re.fullmatch(r"[0-9]{1,5}", text) or not 1 <= int(text) <= 65535:
        raise InviteError(f"the port {_show(text)} is not a number from 1 to 65535")
    return int(text)


def _show(text: str) -> str:
    shown = "".join(ch if ch.isprintable() else "?" for ch in text)
    return repr(shown if len(shown) <= 60 else shown[:57] + "...")
