"""Playing again: a new table with the same players, seats rotated, once every peer accepts.

After its table ended, a peer says whether it plays again: ``rematch {yes}`` to the host
(unsigned lobby messages, ``client.node.lobby_wire``), and the host tells every peer who accepted
and who declined (``rematch_state``).  A peer that leaves declines.  Once its own table has
ended and every peer of START accepted, the **previous host** opens the rematch: it picks a
new table id, sends ``rematch_table {table, port}`` to every peer and leaves the old table;
each peer then leaves too and plays the new table (``client.node.peer_node.next_role``: the
runtime's ``Peer`` runs it):

* the host listens on the **same port** as before (a firewall opened for it stays right),
  and admits only the players of the last game; joiners dial the address they reached it at,
  with an invite naming the new table and the host's key, retrying while the old table
  closes and the new one opens;
* seats are **rotated**: the player at seat s sits at s − 1, seat 1's at the last seat, so
  the player who was at seat 2 starts (every palabre game starts with seat 1); each peer's
  bots move with the seat they played and get new keys;
* game, options and timeouts are those of the last START; everyone is ready at once.

Invariants: nobody plays again unless every peer of START accepted (a decline or a leave
ends the rematch for everyone); only START's host opens the rematch and only its messages
count; a peer's own answer is final once it said no.  ``Rematch`` is a part of the node
(``client.node.peer_node``), sans-I/O: it decides what the node sends and tells its front end
(``RematchChanged``, ``RematchReady``).  A headless peer with ``--rematch`` accepts by
itself and stays up to ``REMATCH_WAIT`` seconds for the others; a headless host without it
declines when asked.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Generic, Protocol, TypeVar

from client.node.lobby_wire import REMATCH, REMATCH_STATE, REMATCH_TABLE
from client.rules.clock import ClockSpec
from client.rules.start import TableStart
from client.tabletop.events import TableEnded
from net.events import MessageReceived, SendEvent, SendMessage
from net.identity import fingerprint
from net.invite import Invite

if TYPE_CHECKING:
    from client.tabletop.table import Table

__all__ = [
    "OPEN_RETRY",
    "REMATCH_WAIT",
    "Rematch",
    "RematchChanged",
    "RematchLink",
    "RematchPeer",
    "RematchPlan",
    "RematchReady",
    "plan_next",
    "rotated",
]

REMATCH_WAIT = 30.0
"""How long a headless peer that accepted waits for the others after the END."""
OPEN_RETRY = 15.0
"""How long the new table's host retries its port, and joiners their dial, while the old
table closes."""


def rotated(seat: int, count: int) -> int:
    """The seat the player at ``seat`` takes at the rematch (seat 2's player starts)."""
    return count if seat == 1 else seat - 1


@dataclass(frozen=True)
class RematchPlan:
    """What one peer needs to play the rematch."""

    table_id: bytes
    address: str
    """The host's address as this peer reached it (empty at the host)."""
    port: int
    host_fingerprint: str
    game: str
    params: Mapping[str, int | str]
    away_ms: int
    idle_ms: int
    seat: int
    """This peer's own seat at the new table."""
    bot_seats: tuple[int, ...]
    """The seats of the bots this peer runs at the new table."""
    players: frozenset[bytes]
    is_host: bool
    clock: ClockSpec | None = None
    """The same time control as the game before."""

    @property
    def invite(self) -> Invite:
        return Invite((self.address,), self.port, self.table_id, self.host_fingerprint)


def plan_next(
    start: TableStart, me: bytes, table_id: bytes, address: str, port: int
) -> RematchPlan:
    """The rematch of ``start`` as peer ``me`` plays it."""
    count = len(start.seats)
    mine = [s.seat for s in start.seats if s.key == me and s.runner is None]
    bots = tuple(sorted(rotated(s.seat, count) for s in start.seats if s.runner == me))
    if not mine:
        raise ValueError("this peer held no seat of its own")
    return RematchPlan(
        table_id=table_id,
        address=address,
        port=port,
        host_fingerprint=fingerprint(start.host),
        game=start.game,
        params=dict(start.params),
        away_ms=start.away_ms,
        idle_ms=start.idle_ms,
        clock=start.clock,
        seat=rotated(mine[0], count),
        bot_seats=bots,
        players=frozenset(start.peer_keys),
        is_host=start.host == me,
    )


@dataclass(frozen=True)
class RematchChanged:
    """Who accepted to play again, who declined, who is still to answer (names)."""

    accepted: tuple[str, ...]
    declined: tuple[str, ...]
    waiting: tuple[str, ...]
    mine: bool | None
    """This peer's own answer (None: not given)."""

    @property
    def off(self) -> bool:
        return bool(self.declined)


@dataclass(frozen=True)
class RematchReady:
    """Every peer accepted: ``next`` is this peer's part of the new table."""

    next: RematchPlan


class RematchLink(Protocol):
    """What ``Rematch`` reads of a link (``client.node.node_io.NodeLink`` is one): the peer at
    its end, and the address this peer reached it at."""

    @property
    def key(self) -> bytes: ...

    @property
    def address(self) -> str | None: ...


L = TypeVar("L", bound=RematchLink)
"""The node's own link type: ``Rematch`` hands back to ``send`` the links the node gave it,
so it names them by what it reads and stays below the node's modules (no import circle)."""


class RematchPeer(Protocol[L]):
    """What ``Rematch`` uses of the node it is part of (``client.node.peer_node.PeerNode``)."""

    me: bytes
    stay: bool
    port: int
    table: Table | None
    links: list[L]

    def peer_links(self) -> list[L]: ...

    def send(self, link: L, event: SendEvent) -> None: ...

    def notify(self, event: RematchChanged | RematchReady) -> None: ...

    def hold(self, seconds: float | None) -> None: ...

    def call_soon(self, callback: Callable[[], None]) -> None: ...

    def finish(self, code: int, reason: str = "goodbye") -> None: ...


class Rematch(Generic[L]):
    """One peer's part in playing again.  See the module docstring."""

    def __init__(self, peer: RematchPeer[L], *, auto: bool = False) -> None:
        self.peer = peer
        self.auto = auto
        self.yes: set[bytes] = set()
        self.no: set[bytes] = set()
        self.mine: bool | None = None
        self.next: RematchPlan | None = None

    # --- what it knows ----------------------------------------------------------------------
    @property
    def start(self) -> TableStart | None:
        table = self.peer.table
        return None if table is None else table.start

    @property
    def hosting(self) -> bool:
        start = self.start
        return start is not None and start.host == self.peer.me

    @property
    def ended(self) -> bool:
        table = self.peer.table
        return table is not None and table.ended and not table.halted

    @property
    def off(self) -> bool:
        return bool(self.no)

    def view(self) -> RematchChanged:
        start = self.start
        names = {} if start is None else {p.key: p.name for p in start.peers}
        ordered = list(names)
        return RematchChanged(
            accepted=tuple(names[k] for k in ordered if k in self.yes),
            declined=tuple(names[k] for k in ordered if k in self.no),
            waiting=tuple(names[k] for k in ordered if k not in self.yes | self.no),
            mine=self.mine,
        )

    # --- intents ----------------------------------------------------------------------------
    def answer(self, yes: bool) -> bool:
        """This peer's player plays again (or not); False when it cannot be said now."""
        start = self.start
        if start is None or not self.ended or self.next is not None or self.mine is False:
            return False
        if self.off:
            return False
        self.mine = yes
        if self.hosting:
            self._vote(self.peer.me, yes)
        else:
            self._to_host(start, REMATCH, {"yes": yes})
            (self.yes if yes else self.no).add(self.peer.me)
            self._changed()
        return True

    # --- the peer's hooks -------------------------------------------------------------------
    def on_message(self, link: L, message: MessageReceived) -> None:
        """A rematch message from ``link`` (ignored unless it comes from the right side)."""
        topic, body = message.topic, message.body
        start = self.start
        if start is None or self.next is not None:
            return
        if self.hosting:
            if topic == REMATCH and link.key in start.peer_keys and link.key != self.peer.me:
                self._vote(link.key, bool(body["yes"]))
            return
        if link.key != start.host:
            return
        if topic == REMATCH_STATE:
            self.yes = {k for k in body["yes"] if k in start.peer_keys}
            self.no = {k for k in body["no"] if k in start.peer_keys}
            self._changed()
        elif topic == REMATCH_TABLE and self.mine and self.ended:
            address = link.address or ""
            self._ready(plan_next(start, self.peer.me, body["table"], address, body["port"]))

    def left(self, key: bytes) -> None:
        """A peer of the table left: it does not play again."""
        start = self.start
        if start is None or self.next is not None or key not in start.peer_keys:
            return
        if self.peer.table is None or self.peer.table.chain.outcome() is None:
            return
        if key in self.no:
            return
        asked = bool(self.yes) or self.auto or self.mine is not None
        self.no.add(key)
        self.yes.discard(key)
        if asked:  # else nobody spoke of playing again: leaving after a game says nothing
            if self.hosting:
                self._send_state(start)
            self._changed()

    def on_event(self, event: object) -> None:
        """Every event the node tells (first): an END makes an auto-rematch peer accept."""
        if isinstance(event, TableEnded) and self.auto:
            self.peer.hold(REMATCH_WAIT)
            self.peer.call_soon(self._accept)

    def _accept(self) -> None:
        self.answer(True)

    # --- the host ---------------------------------------------------------------------------
    def _vote(self, key: bytes, yes: bool) -> None:
        start = self.start
        assert start is not None
        if key in self.no:
            return  # a no is final
        (self.yes if yes else self.no).add(key)
        if key != self.peer.me and self.mine is None and not self.auto and not self.peer.stay:
            self.mine = False  # a headless host not told to play again declines when asked
            self.no.add(self.peer.me)
        self._send_state(start)
        self._changed()
        if self.ended and not self.off and set(start.peer_keys) <= self.yes:
            self._launch(start)

    def _send_state(self, start: TableStart) -> None:
        body = {"yes": sorted(self.yes), "no": sorted(self.no)}
        for link in self.peer.peer_links():
            if link.key in start.peer_keys:
                self.peer.send(link, SendMessage(REMATCH_STATE, body))

    def _launch(self, start: TableStart) -> None:
        table_id = os.urandom(16)
        port = self.peer.port
        for link in self.peer.peer_links():
            if link.key in start.peer_keys:
                self.peer.send(link, SendMessage(REMATCH_TABLE, {"table": table_id, "port": port}))
        self._ready(plan_next(start, self.peer.me, table_id, "", port))

    # --- both -------------------------------------------------------------------------------
    def _to_host(self, start: TableStart, topic: str, body: Mapping[str, object]) -> None:
        for link in self.peer.links:
            if link.key == start.host:
                self.peer.send(link, SendMessage(topic, body))

    def _changed(self) -> None:
        view = self.view()
        self.peer.notify(view)
        if view.off and not self.peer.stay:
            self.peer.hold(None)  # a headless peer leaves as after any game

    def _ready(self, next_table: RematchPlan) -> None:
        self.next = next_table
        self.peer.notify(RematchReady(next_table))
        self.peer.finish(0, "playing again at a new table")
