"""The beat: when a peer says where it stands — presence reports, the address book, being alone.

A part of the peer node with no I/O and no clock (``now`` is given); what it decides comes
back as data (message bodies, a yes or no) for the caller to carry out.  Rules:

* every ``HEARTBEAT`` seconds, and at once when the links changed (a link admitted or lost,
  the table started), each admitted link gets this peer's presence report; the address book
  goes with it when it changed since the last beat;
* a report names the peers this peer has an open, admitted link with, in the order of its
  links, each with how long ago it last heard from it in milliseconds (at most 16, capped
  at 2^32 - 1); a spectator reports nobody (it hears nobody for the table);
* a peer with no peer link for ``ALONE_LIMIT`` seconds past the table's away timeout gives
  up (unless it ``stay``\\ s): the caller concludes with code 1.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable
from typing import Protocol

from client.node.mesh import (
    ADDRESSES,
    HEARTBEAT,
    PRESENCE,
    HeardEntry,
    Mesh,
    PresenceBody,
    addresses_body,
)
from net.events import SendMessage

__all__ = ["ALONE_LIMIT", "Beat", "Heard"]

ALONE_LIMIT = 30.0
"""With no link to any peer for this long past the away timeout, a headless peer gives up."""


class Heard(Protocol):
    """What the beat reads of the table's presence book (``client.tabletop.presence``)."""

    def tracks(self, key: bytes) -> bool: ...

    def silent_for(self, key: bytes, now: float) -> float: ...


class Beat:
    """One peer's beat (see the module docstring)."""

    def __init__(self, mesh: Mesh, *, stay: bool) -> None:
        self.mesh = mesh
        self.stay = stay
        self.next_report = -math.inf
        self._links_changed = False
        self._book_changed = False
        self._alone_since: float | None = None

    def links_changed(self) -> None:
        """A link was admitted or lost, or the table started: report at the next chance."""
        self._links_changed = True

    def learned(self, changed: bool) -> None:
        """The address book was told something (``changed``: it is different now)."""
        self._book_changed |= changed

    def linked(self) -> None:
        """A link with a peer is up: this peer is not alone."""
        self._alone_since = None

    def report_due(self, now: float) -> bool:
        """Whether to beat now; if so the next one is a ``HEARTBEAT`` away."""
        if now < self.next_report and not self._links_changed:
            return False
        self.next_report = now + HEARTBEAT
        self._links_changed = False
        return True

    def messages(
        self, me: bytes | None, heard: Heard, linked: Iterable[bytes], now: float
    ) -> list[SendMessage]:
        """What every admitted link gets at this beat: the presence report, then the book
        if it changed (``linked``: the keys of the open, admitted peer links)."""
        messages = [SendMessage(PRESENCE, self.report(me, heard, linked, now))]
        if self._book_changed:
            messages.append(SendMessage(ADDRESSES, addresses_body(self.mesh.book)))
        self._book_changed = False
        return messages

    @staticmethod
    def report(me: bytes | None, heard: Heard, linked: Iterable[bytes], now: float) -> PresenceBody:
        """This peer's presence report (so the others know which links it has:
        ``Mesh.passes_on``)."""
        if me is None:
            return {"heard": []}
        entries: list[HeardEntry] = [
            {"key": key, "ago": min(int(heard.silent_for(key, now) * 1000), 2**32 - 1)}
            for key in dict.fromkeys(linked)
            if heard.tracks(key)
        ]
        return {"heard": entries[:16]}

    def gives_up(
        self, peers_left: bool, away_ms: int, now: float, at_table: Collection[bytes]
    ) -> bool:
        """Whether a peer with (or without) peer links gives up now: alone too long.  A peer
        that is the table's only peer (``at_table``, the head's peers: its bots play every
        other seat, from START or since the others were removed) has nobody to reach: it
        plays on for as long as the game lasts."""
        if peers_left or self.stay or tuple(at_table) == (self.mesh.me,):
            return False
        self._alone_since = now if self._alone_since is None else self._alone_since
        return now - self._alone_since >= ALONE_LIMIT + away_ms / 1000
