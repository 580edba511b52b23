"""The relay: what a peer does with the records it holds — dedupe, pass on, pull.

A part of the peer node with no I/O and no clock (``now`` is given).  It says which links a
record goes to and what a pull is answered with; the caller puts them on the links.  The
rules are ``client.node.mesh``'s (``Mesh.passes_on``, ``Held.answer``, ``stalled``), kept here in
the order a peer applies them:

* a record whose hash this peer holds is a duplicate: dropped before anything else (and
  before its signature is checked: ``TablePolicy.knows``);
* a record taken from a link goes on, before the table judges it, to the admitted links
  ``Mesh.passes_on`` names (never back to its source); if the table refuses it, it goes to
  every other admitted link too, so every peer sees the evidence;
* what this peer signs goes to every admitted link;
* a table stalled past ``STALL_AFTER`` pulls from one peer link at a time, in turn, at
  most once per ``STALL_AFTER``; a pull is answered at most once per ``PULL_SPACING`` per
  link, with ``Held.answer``.

Links are anything with ``key``, ``spectator`` and ``admitted``
(``client.runtime.peer_link.PeerLink`` at a peer, plain objects in tests).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Generic, Protocol, TypeVar

from client.node.mesh import STALL_AFTER, Held, Mesh, stalled
from client.node.peer_policy import TablePolicy
from client.rules.records import SignedRecord

__all__ = ["Relay", "RelayLink"]


class RelayLink(Protocol):
    @property
    def key(self) -> bytes: ...

    @property
    def spectator(self) -> bool: ...

    @property
    def admitted(self) -> bool: ...


L = TypeVar("L", bound=RelayLink)


class Relay(Generic[L]):
    """One peer's relay (see the module docstring)."""

    def __init__(self, mesh: Mesh, policy: TablePolicy) -> None:
        self.mesh = mesh
        self.policy = policy
        self.held = Held()
        """Every record this peer holds (signed or verified), in the order it took them."""
        self._pulled_at = -math.inf
        self._turn = 0

    def knows(self, record_hash: bytes) -> bool:
        """Whether a record with this hash is held (a copy that raced another link)."""
        return self.policy.knows(record_hash)

    def hold(self, record: SignedRecord) -> None:
        self.policy.seen.add(record.record_hash)
        self.held.add(record)

    def pass_on(
        self, record: SignedRecord, runner: bytes | None, source: L | None, links: Sequence[L]
    ) -> list[L]:
        """The links a record taken from ``source`` goes on to, before the table judges it
        (``runner``: who runs the author's seat, if a bot's)."""
        return [
            link
            for link in links
            if link is not source
            and link.admitted
            and self.mesh.passes_on(record, runner, link.key, link.spectator)
        ]

    def evidence(self, source: L | None, passed: Sequence[L], links: Sequence[L]) -> list[L]:
        """The links a record the table refused goes on to as well: every admitted one it
        has not gone to (nor come from)."""
        done = {id(link) for link in passed} | {id(source)}
        return [link for link in links if id(link) not in done and link.admitted]

    @staticmethod
    def everyone(links: Sequence[L]) -> list[L]:
        """The links what this peer signs goes to."""
        return [link for link in links if link.admitted]

    def pull_from(self, peers: Sequence[L], waiting_since: float | None, now: float) -> L | None:
        """The peer link to pull from now, in turn (None: not stalled, or pulled lately)."""
        if not (stalled(waiting_since, now) and peers and now - self._pulled_at >= STALL_AFTER):
            return None
        self._pulled_at = now
        self._turn += 1
        return peers[self._turn % len(peers)]

    def answer(self, link: L, now: float, ply: int, same_branch: bool) -> list[bytes]:
        """The envelopes a pull from ``ply`` on ``link`` is answered with (none when that link
        was answered less than ``PULL_SPACING`` ago)."""
        if not self.mesh.may_answer(link, now):
            return []
        return self.held.answer(ply, same_branch)
