"""Admission of links: one link per peer, who may join after START, the limits per link.

A part of the peer node with no I/O: it decides, and the caller closes or admits the links
it names.  Rules:

* the mesh keeps **one link per peer**: of two open links with one peer both ends keep the
  same one (``Mesh.keeps_first``); the other is closed, and a new link that loses is not
  admitted;
* at most ``MAX_SPECTATORS`` spectators at once (in the lobby or after START), so watchers
  never fill the listener's links (``net.slots``) and keep a player out;
* after START a ``join`` is answered by any peer: a peer of START rejoins, a spectator
  watches, anyone else is told the game has started;
* past ``MAX_REFUSED_PER_LINK`` records ``net`` refused on one link, the link is closed;
* a link closed by this side for bad bytes, a bad signature or silence (``FAULTS``) is the
  other side's fault, and is shown as such.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from client.node.mesh import Mesh
from net.errors import CloseCode
from net.events import LinkClosed

__all__ = [
    "FAULTS",
    "MAX_REFUSED_PER_LINK",
    "MAX_SPECTATORS",
    "Admission",
    "Refusal",
]

MAX_REFUSED_PER_LINK = 32
"""Records ``net`` refuses on one link (author not at the table, another table) before the
link is closed: a race in a mesh (a new bot's record before the vote naming it) makes a few,
a flood makes thousands."""
MAX_SPECTATORS = 64
"""Spectators a peer takes at once (one more is told why not): half of what a listener
holds (``net.slots.MAX_LINKS``), so watchers never keep a player or a peer out."""
FAULTS = frozenset({CloseCode.PROTOCOL, CloseCode.CRYPTO, CloseCode.TIMEOUT})
"""Why a link closed when it is the peer's fault (reported)."""
SECOND_LINK = "a second link with this peer: the other one stays"


@dataclass(frozen=True)
class Refusal:
    """Close the link with this reason and code."""

    reason: str
    code: CloseCode = CloseCode.REFUSED


class AdmittedLink(Protocol):
    @property
    def key(self) -> bytes: ...

    @property
    def spectator(self) -> bool: ...

    @property
    def closing(self) -> bool: ...

    @property
    def dialed_by(self) -> bytes: ...

    refused: int


L = TypeVar("L", bound=AdmittedLink)


class Admission(Generic[L]):
    """One peer's admission of links (see the module docstring)."""

    def __init__(self, mesh: Mesh) -> None:
        self.mesh = mesh

    @staticmethod
    def spectator_refusal(links: Sequence[L]) -> Refusal | None:
        """Why one more spectator is refused (None: it may watch)."""
        if sum(1 for other in links if other.spectator) < MAX_SPECTATORS:
            return None
        return Refusal(f"{MAX_SPECTATORS} people watch this table already; try again later")

    def second_links(self, link: L, links: Sequence[L]) -> list[L]:
        """The links to close (``SECOND_LINK``) now that ``link`` is up: the other open link
        with its peer, or ``link`` itself when the other one stays (then it is last)."""
        losers = []
        for other in links:
            if other is not link and other.key == link.key and not other.closing:
                keep_other = self.mesh.keeps_first(other.dialed_by, link.dialed_by)
                losers.append(link if keep_other else other)
                if keep_other:
                    break
        return losers

    @staticmethod
    def join_after_start(key: bytes, watch: bool, peers: Sequence[bytes]) -> str | Refusal:
        """A ``join`` once the game started: ``rejoin`` (a peer of START), ``watch``, or a
        refusal (the spectator limit is the caller's: ``spectator_refusal``)."""
        if key in peers and not watch:
            return "rejoin"
        if watch:
            return "watch"
        # every seat is taken for good: said as a full table, so a window offers to watch
        return Refusal(
            "the game has already started; join with --watch to follow it", CloseCode.FULL
        )

    @staticmethod
    def refused_record(link: L) -> Refusal | None:
        """Count a record ``net`` refused on ``link``; the refusal once past the limit."""
        link.refused += 1
        if link.refused <= MAX_REFUSED_PER_LINK:
            return None
        return Refusal(
            f"too many records refused on this link ({link.refused})", CloseCode.PROTOCOL
        )

    @staticmethod
    def is_fault(closed: LinkClosed) -> bool:
        """Whether this side closed the link for the other side's fault."""
        return not closed.by_peer and closed.code in FAULTS
