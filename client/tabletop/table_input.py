"""What goes into a table: the one argument of ``Table.handle``.

Every input is a frozen value carrying ``now``, the driver's clock (the table reads none):

* ``Begin`` accepts START and signs the genesis ACK; ``Restore`` begins again from this
  peer's own log after a restart (instead of ``Begin``);
* ``Received`` is a record ``net`` verified; ``HeardFrom`` says something arrived from a
  linked peer (a heartbeat, any frame); ``PresenceReport`` is a linked peer's word on whom
  it hears (``client.node.mesh``); ``Tick`` lets time pass (bots move, absent peers are voted
  off) and is due at ``Table.next_deadline()``;
* an ``Intent`` is this peer's player asking for something (``client.tabletop.table_intents``): a
  refused one raises ``IntentRefused`` with a sentence for the player, nothing signed.

Invariants: no input is handled before ``Begin`` or ``Restore`` except ``Received``, whose
records wait in the inbox; a peer's record never makes ``handle`` raise.
"""

from __future__ import annotations

from dataclasses import dataclass

from client.rules.records import SignedRecord

__all__ = [
    "AcceptDraw",
    "AskTakeback",
    "Begin",
    "Chat",
    "ConsentTakeback",
    "HeardFrom",
    "Intent",
    "LeaveTable",
    "OfferDraw",
    "PlayMove",
    "Point",
    "PresenceReport",
    "Received",
    "Resign",
    "Restore",
    "TableInput",
    "Tick",
]


@dataclass(frozen=True)
class Begin:
    """Accept START and sign the genesis ACK; once, before anything else."""

    now: float


@dataclass(frozen=True)
class Restore:
    """Begin again from this peer's own log (``records``: the log in order, START first)."""

    records: tuple[SignedRecord, ...]
    now: float


@dataclass(frozen=True)
class Received:
    """One record ``net`` verified (signature checked, payload decoded)."""

    record: SignedRecord
    now: float


@dataclass(frozen=True)
class HeardFrom:
    """Something arrived from peer ``key`` on a link to it (a heartbeat, any frame)."""

    key: bytes
    now: float


@dataclass(frozen=True)
class PresenceReport:
    """Linked peer ``sender`` heard each key directly ``ago_ms`` ago (``client.node.mesh``)."""

    sender: bytes
    entries: tuple[tuple[bytes, int], ...]
    now: float


@dataclass(frozen=True)
class Tick:
    """Time passed: bots whose delay is over move, absent peers are voted off."""

    now: float


@dataclass(frozen=True)
class PlayMove:
    """Sign ``move`` (the engine's move value) for the seat to move."""

    move: object
    now: float


@dataclass(frozen=True)
class Resign:
    """Resign this peer's seat (``seat`` when it holds several); sent at its own turn."""

    now: float
    seat: int | None = None


@dataclass(frozen=True)
class OfferDraw:
    """Offer a draw in the current position (with this peer's own acceptance)."""

    now: float


@dataclass(frozen=True)
class AcceptDraw:
    """Accept the draw offered in the current position."""

    now: float


@dataclass(frozen=True)
class AskTakeback:
    """Ask to take back the last ply, this player's own move (with this peer's consent)."""

    now: float


@dataclass(frozen=True)
class ConsentTakeback:
    """Consent to take back the last ply, as another peer asked."""

    now: float


@dataclass(frozen=True)
class Chat:
    """Send a line of chat to the table."""

    text: str
    now: float


@dataclass(frozen=True)
class Point:
    """Show arrows and highlighted squares (the engine's square numbers) to everyone; none
    of either clears this peer's marks."""

    arrows: tuple[tuple[int, int], ...]
    squares: tuple[int, ...]
    now: float


@dataclass(frozen=True)
class LeaveTable:
    """Leave the table on purpose: sign LEAVE on the head (``client.tabletop.table_leaving``);
    this peer signs nothing at the table after it."""

    now: float


Intent = (
    PlayMove
    | Resign
    | OfferDraw
    | AcceptDraw
    | AskTakeback
    | ConsentTakeback
    | Chat
    | Point
    | LeaveTable
)
"""What this peer's player asks for (``client.tabletop.table_intents``)."""

TableInput = Begin | Restore | Received | HeardFrom | PresenceReport | Tick | Intent
"""The one argument of ``Table.handle``."""
