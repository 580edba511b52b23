"""What a hosted table says about itself on the LAN (DNS-SD TXT properties), and back.

A host announces each table whose lobby is open as one DNS-SD service of type
``_palabre._tcp.local.`` (``client.runtime.mdns`` does the multicast).  The service's address and
port are where to dial; its TXT properties say what the table is:

=========  ==========================================================================
``proto``  the table protocol version (``net.handshake.PROTOCOL_VERSION``)
``game``   the game's name (``consensus``)
``rules``  the ruleset id (``consensus/1``)
``host``   the host player's name
``free``   seats still free
``seats``  seats in all
``table``  the table id, base32 as in invites
``fp``     the host key's fingerprint
=========  ==========================================================================

Invariants: :func:`ad_properties` and :func:`read_properties` round-trip; anything on the LAN
can announce anything, so :func:`read_properties` checks every property (type, length,
characters, range) and raises ``BadAd`` saying what is wrong — a browser skips such a table
and never crashes on it.  Nothing announced is trusted: joining a table found this way
dials its invite, so the handshake still checks the host's key against the fingerprint and
the table id (DESIGN.md section 4).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from client.node.lobby_wire import Roster
from client.rules.errors import BadAd
from net.errors import InviteError
from net.handshake import PROTOCOL_VERSION
from net.identity import parse_fingerprint
from net.invite import Invite, format_table_id, parse_table_id

__all__ = [
    "SERVICE_TYPE",
    "FoundTable",
    "TableAd",
    "ad_for_roster",
    "ad_properties",
    "read_properties",
    "service_name",
    "table_line",
]

SERVICE_TYPE = "_palabre._tcp.local."
MAX_SEATS = 64
_GAME = re.compile(r"[a-z0-9][a-z0-9_.-]{0,31}")
_RULESET = re.compile(r"[a-z0-9][a-z0-9_./-]{0,63}")
_KEYS = ("proto", "game", "rules", "host", "free", "seats", "table", "fp")


@dataclass(frozen=True)
class TableAd:
    """A table as its host announces it."""

    game: str
    ruleset: str
    host_name: str
    seats_free: int
    seats: int
    table_id: bytes
    fingerprint: str
    protocol: int = PROTOCOL_VERSION


def ad_for_roster(roster: Roster, table_id: bytes, fingerprint: str) -> TableAd:
    """The announcement of a lobby as its host's roster shows it."""
    free = sum(1 for seat in roster.seats if seat.key is None)
    return TableAd(
        game=roster.game,
        ruleset=roster.ruleset,
        host_name=roster.peers[0].name,
        seats_free=free,
        seats=len(roster.seats),
        table_id=table_id,
        fingerprint=fingerprint,
    )


def service_name(ad: TableAd) -> str:
    """The service instance name: unique per table, readable in other DNS-SD browsers."""
    return f"palabre {ad.game} {format_table_id(ad.table_id)[:10]}.{SERVICE_TYPE}"


def ad_properties(ad: TableAd) -> dict[str, str]:
    """The TXT properties announcing ``ad``."""
    return {
        "proto": str(ad.protocol),
        "game": ad.game,
        "rules": ad.ruleset,
        "host": ad.host_name,
        "free": str(ad.seats_free),
        "seats": str(ad.seats),
        "table": format_table_id(ad.table_id),
        "fp": ad.fingerprint,
    }


def read_properties(properties: Mapping[bytes, bytes | None]) -> TableAd:
    """The table a service's TXT properties describe; ``BadAd`` saying what is wrong."""
    texts: dict[str, str] = {}
    for key in _KEYS:
        value = properties.get(key.encode("ascii"))
        if value is None:
            raise BadAd(f"the announcement has no {key!r} property")
        try:
            text = value.decode("utf-8")
        except UnicodeDecodeError:
            raise BadAd(f"the {key!r} property is not UTF-8 text") from None
        if not text.isprintable():
            raise BadAd(f"the {key!r} property holds unprintable characters")
        texts[key] = text
    protocol = _number(texts, "proto", 1, 1 << 16)
    seats = _number(texts, "seats", 1, MAX_SEATS)
    free = _number(texts, "free", 0, seats)
    if not _GAME.fullmatch(texts["game"]):
        raise BadAd(f"{texts['game'][:40]!r} is not a game name")
    if not _RULESET.fullmatch(texts["rules"]):
        raise BadAd(f"{texts['rules'][:40]!r} is not a ruleset id")
    host = texts["host"].strip()
    if not 1 <= len(host) <= 40:
        raise BadAd("the host name must be 1 to 40 characters")
    try:
        table_id = parse_table_id(texts["table"])
        fingerprint = parse_fingerprint(texts["fp"])
    except (InviteError, ValueError) as error:
        raise BadAd(str(error)) from None
    return TableAd(
        texts["game"], texts["rules"], host, free, seats, table_id, fingerprint, protocol
    )


def _number(texts: Mapping[str, str], key: str, low: int, high: int) -> int:
    text = texts[key]
    if not re.fullmatch(r"[0-9]{1,5}", text) or not low <= int(text) <= high:
        raise BadAd(f"the {key!r} property must be a number from {low} to {high}")
    return int(text)


@dataclass(frozen=True)
class FoundTable:
    """A table heard on the LAN: what it says, and where to dial it."""

    ad: TableAd
    addresses: tuple[str, ...]
    port: int

    @property
    def address(self) -> str:
        """``ADDRESS:PORT`` of the first address (what a player would type)."""
        return f"{self.addresses[0]}:{self.port}"

    @property
    def invite(self) -> Invite:
        """The invite to join with: the handshake checks the announced host key and table."""
        return Invite(self.addresses, self.port, self.ad.table_id, self.ad.fingerprint)

    @property
    def compatible(self) -> bool:
        """The table speaks this palabre's protocol."""
        return self.ad.protocol == PROTOCOL_VERSION


def table_line(table: FoundTable, *, known: Mapping[str, str] | None = None) -> str:
    """One line of ``palabre tables``: address:port, game, host name, seats free, invite.

    ``known`` maps the games this palabre plays to their ruleset; a table it cannot play
    says why at the end of its line."""
    ad = table.ad
    free = f"{ad.seats_free} of {ad.seats} seat{'' if ad.seats == 1 else 's'} free"
    line = f"{table.address:<21} {ad.game:<10} {ad.host_name!r:<18} {free:<18} {table.invite}"
    if not table.compatible:
        line += f"  (another palabre: protocol {ad.protocol})"
    elif known is not None and ad.game not in known:
        line += "  (a game this palabre does not know)"
    elif known is not None and known[ad.game] != ad.ruleset:
        line += f"  (ruleset {ad.ruleset}; this palabre plays {known[ad.game]})"
    return line
