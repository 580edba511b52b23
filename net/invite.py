"""Invites and addresses: what a host prints and a joiner pastes.

An invite is one line::

    palabre://192.168.1.23,10.0.0.5:7000/mfrggzdfmztwq2lknnwg23tpoa#K3QF-7XZA-M2PQ-RT5V-ABCD-EFGH

* after ``palabre://``: one or more addresses separated by commas (IPv4, ``[IPv6]``, or a
  host name), tried in order by the joiner;
* ``:PORT`` (1-65535), shared by every address;
* ``/TABLE``: the 16-byte table id in base32, 26 characters, no padding;
* ``#FINGERPRINT``: the host's fingerprint (``net.identity``).

Parsing is strict (any case is accepted for the base32 parts; dashes in the fingerprint are
optional) and every error says which part is wrong.  The joiner refuses a host whose key
does not have that fingerprint, and a host refuses a joiner that names another table.
``parse_address`` reads the plain ``HOST[:PORT]`` form of ``palabre join``.
"""

from __future__ import annotations

import base64
import binascii
import ipaddress
import re
from dataclasses import dataclass

from net.errors import InviteError
from net.identity import parse_fingerprint

__all__ = [
    "DEFAULT_PORT",
    "SCHEME",
    "Invite",
    "format_table_id",
    "parse_address",
    "parse_invite",
    "parse_table_id",
]

SCHEME = "palabre://"
DEFAULT_PORT = 7000
MAX_ADDRESSES = 8
_LABEL = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
_HOSTNAME = re.compile(rf"(?=.{{1,253}}$){_LABEL}(?:\.{_LABEL})*\.?")


@dataclass(frozen=True)
class Invite:
    addresses: tuple[str, ...]
    port: int
    table_id: bytes
    fingerprint: str

    def __str__(self) -> str:
        hosts = ",".join(f"[{a}]" if ":" in a else a for a in self.addresses)
        return f"{SCHEME}{hosts}:{self.port}/{format_table_id(self.table_id)}#{self.fingerprint}"


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
    return Invite(hosts, _parse_port(port_text), parse_table_id(table_text), fingerprint)


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
