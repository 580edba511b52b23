"""The host's role before START, sans-I/O: joins, the roster, bots, ready, START.

The host listens on its port, seats joiners as their ``join`` messages ask (``Lobby``),
sends the roster to everyone after each change (with the address and port each peer can be
dialed at), and signs START once every seat is taken and every peer is ready (at once when
``auto_start``, else when its player asks).  After START the joiners dial each other
(``client.node.mesh``) and the host is a peer like the others: it may leave, and come back with
``palabre join`` and the same profile.

Admission (docs/SECURITY.md): with a table ``secret`` the handshake itself refuses a joiner
that does not prove it knows it (REFUSE ``secret``, net.handshake), before any lobby
message; keys the host ``refuse``s, and players it removed before START
(``remove_player``), are refused at their ``join``.  After START the seats are those of
the signed START: nobody joins as a player and nobody else can sign for a seat.

``HostRole`` is a part of the node (``client.node.peer_node``): it reads no clock (every call
carries ``now``), does no I/O, and acts only through the node it is given
(``client.node.node_io.RoleNode``): what it sends, closes and tells becomes the node's effects,
in order.

Invariants: a link is admitted (gets rosters and records) only after its ``join`` was
accepted; a refused join is told why (REFUSE ``refused``) and closed; after START a join is
answered as any peer answers it (``client.node.peer_node``); a lost link is not the end of
the table.
"""

from __future__ import annotations

import os
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from client.bots import level_of_kind
from client.node.lobby import JoinRefused, Lobby, TableFull
from client.node.lobby_wire import (
    ADD_BOT,
    JOIN,
    NOTICE,
    READY,
    REMATCH_TOPICS,
    REMOVE_BOT,
    ROSTER,
    LobbyChanged,
    Roster,
    RosterPeer,
    RosterSeat,
    roster_body,
)
from client.node.mesh import Address
from client.node.peer_events import LinkLost
from client.rules.clock import ClockSpec
from client.rules.records import START
from client.rules.seated_names import seated_names
from client.rules.start import DEFAULT_AWAY_MS, DEFAULT_IDLE_MS, PeerSpec
from engines import AnyEngine
from net.errors import CloseCode
from net.events import Event as NetEvent
from net.events import LinkClosed, MessageReceived, SendMessage
from net.events import RecordRejected as NetRecordRejected
from net.identity import fingerprint, short_fingerprint

if TYPE_CHECKING:
    from client.node.node_io import NodeLink, RoleNode

__all__ = ["HostConfig", "HostRole"]


@dataclass(frozen=True)
class HostConfig:
    """The table a host opens.

    A rematch (``client.node.rematch``) names its ``table_id``, the host's ``seat``, the
    ``bot_seats`` of its bots and the peers ``invited`` (no one else gets a seat), and
    retries its port for ``open_retry`` seconds while the last table lets go of it.

    ``secret``: the table secret joiners must prove (``net.invite.check_secret``; None:
    anyone who reaches the port may join).  ``refuse``: fingerprints (canonical form,
    ``net.identity.parse_fingerprint``) of players never admitted."""

    engine: AnyEngine
    params: Mapping[str, int | str]
    name: str
    bots: int = 0
    away_ms: int = DEFAULT_AWAY_MS
    idle_ms: int = DEFAULT_IDLE_MS
    clock: ClockSpec | None = None
    """The time control START pins (``client.rules.clock``), None for no clock."""
    auto_start: bool = True
    announce: bool = False
    """Announce the lobby on the LAN over mDNS (``client.runtime.mdns``) until START; never for a
    table with a secret (an announced invite would lack it, and say the table is there)."""
    table_id: bytes = field(default_factory=lambda: os.urandom(16))
    seat: int | None = None
    bot_seats: Sequence[int] = ()
    invited: Collection[bytes] | None = None
    open_retry: float = 0.0
    secret: str | None = None
    refuse: Iterable[str] = ()
    own_bot: str | None = None
    """The level of the bot this palabre plays the host's own seat by (``--bot``), which the
    roster and START say; None: a person plays it."""

    @property
    def announced(self) -> bool:
        return self.announce and self.secret is None


class HostRole:
    """The host's lobby as a part of its node.  See the module docstring."""

    def __init__(self, node: RoleNode, config: HostConfig, *, bot_kind: str) -> None:
        """``InvalidParams`` for options the engine refuses, ``JoinRefused`` for too many
        bots; ``IdentityError`` if a bot key cannot be made."""
        self.node = node
        self.config = config
        self.table_id = config.table_id
        self.refused = set(config.refuse)
        self.removed: set[bytes] = set()
        self.bot_level = level_of_kind(bot_kind)  # START names the level of the bots it runs
        me = node.me
        self.lobby = Lobby(
            config.engine,
            config.params,
            me,
            config.name,
            away_ms=config.away_ms,
            idle_ms=config.idle_ms,
            clock=config.clock,
            host_seat=config.seat,
            host_bot=config.own_bot,
        )
        for _ in range(config.bots):
            key = node.new_bot_identity(self.table_id).public_key
            self.lobby.add_bot(me, key, level=self.bot_level)
        for bot_seat in config.bot_seats:
            key = node.new_bot_identity(self.table_id).public_key
            self.lobby.add_bot(me, key, bot_seat, self.bot_level)
        self.invited = None if config.invited is None else frozenset(config.invited)
        if config.auto_start:
            self.lobby.set_ready(me)
        self._where: dict[bytes, tuple[str, int]] = {}

    # --- the runtime's calls -------------------------------------------------------------------
    def opened(self, now: float) -> None:
        """The host listens and serves: show the lobby, start it if it is complete."""
        self.node.notify(LobbyChanged(self.roster()))
        self._maybe_start(now)

    def takes(self, link: NodeLink) -> bool:
        """Whether an event of ``link`` (one a joiner dialed) is the lobby's: every one
        before START, and those of the lobby's players after it."""
        return self.node.table is None or (link.admitted and link.key in self.lobby.peers)

    def on_event(self, link: NodeLink, event: NetEvent, now: float) -> None:
        """A joiner's message or refused record (its records go to the node's table)."""
        if isinstance(event, MessageReceived):
            self._on_message(link, event, now)
        elif isinstance(event, NetRecordRejected):
            self.node.link_refused(link, event.reason)

    def link_down(self, link: NodeLink, closed: LinkClosed, now: float) -> None:
        """A link a joiner dialed ended."""
        if not link.admitted:
            return  # another link of the same key (refused, or a liar's) is not its seat
        if not self.lobby.started:
            if link.key in self.lobby.peers or link.key in self.lobby.spectators:
                self.lobby.leave(link.key)
                self._lobby_changed(now)
            return
        node = self.node
        node.link_down(link, now)
        if link.spectator or node.finished:
            return
        if not any(other.key == link.key for other in node.links):
            node.peer_left(link.key)  # its last link: it left (a second link may close)
        node.notify(LinkLost(link.name, closed.reason, fatal=False, key=link.key))

    # --- the lobby ----------------------------------------------------------------------------
    def roster(self) -> Roster:
        lobby = self.lobby
        me = self.node.me
        peers = []
        for key, name in lobby.peers.items():
            address, port = self._where.get(key, ("", self.node.port if key == me else 0))
            peers.append(RosterPeer(key, name, address, port, key in lobby.ready))
        seats = tuple(
            RosterSeat(n, None, None)
            if s is None
            else RosterSeat(n, s.key, s.runner, s.level, s.own_bot)
            for n, s in enumerate(lobby.seats, 1)
        )
        engine = self.config.engine
        return Roster(
            engine.name,
            engine.ruleset,
            engine.version,
            dict(lobby.params),
            tuple(peers),
            seats,
            len(lobby.spectators),
            tuple(lobby.waiting_for()),
            self.config.clock,
        )

    def _lobby_changed(self, now: float) -> None:
        roster = self.roster()
        body = roster_body(roster)
        for link in self.node.links:
            if link.admitted:
                self.node.send(link, SendMessage(ROSTER, body))
        self.node.notify(LobbyChanged(roster))
        self._maybe_start(now)

    def _maybe_start(self, now: float) -> None:
        if self.config.auto_start and not self.lobby.started and self.lobby.can_start:
            self.start_table(now)

    # --- the host's intents ---------------------------------------------------------------------
    def start_table(self, now: float) -> None:
        """Sign START and begin (``JoinRefused`` saying what is missing)."""
        body = self.lobby.start_body()
        node = self.node
        for key, (address, port) in self._where.items():
            node.mesh.learn(key, Address(address, port), direct=True)
        lobby = self.lobby
        seats = [spec for spec in lobby.seats if spec is not None]
        players = seated_names([PeerSpec(key, name) for key, name in lobby.peers.items()], seats)
        node.open_file(self.table_id, lobby.engine.name, players)
        start = node.signer(node.identity).sign(START, body)  # written ahead, like any record
        node.begin(start, False, now)

    def set_ready(self, ready: bool, now: float) -> None:
        self.lobby.set_ready(self.node.me, ready)
        self._lobby_changed(now)

    def add_bot(self, seat: int | None, now: float) -> None:
        key = self.node.new_bot_identity(self.table_id).public_key
        self.lobby.add_bot(self.node.me, key, seat, self.bot_level)
        self._lobby_changed(now)

    def remove_bot(self, seat: int, now: float) -> None:
        self.lobby.remove_bot(self.node.me, seat)
        self._lobby_changed(now)

    def remove_player(self, who: int | str | bytes, now: float) -> str:
        """Send a joiner away before START and refuse it for the rest of this table: by
        seat number, name or key.  Returns its name; ``JoinRefused`` saying why not."""
        if self.lobby.started:
            raise JoinRefused(
                "the game has started: the seats are fixed by the signed START and nobody can "
                "be sent away from the lobby any more"
            )
        key = self._find_player(who)
        if key == self.node.me:
            raise JoinRefused("you host this table: you cannot remove yourself")
        name = self.lobby.peers.get(key) or self.lobby.spectators.get(key, "?")
        self.removed.add(key)
        self.lobby.leave(key)
        links = self.node.links
        for link in [link for link in links if link.key == key]:
            link.admitted = False
            links.remove(link)
            self.node.close(
                link,
                "the host removed you from this table before the game started",
                CloseCode.REFUSED,
            )
        self._lobby_changed(now)
        return name

    def _find_player(self, who: int | str | bytes) -> bytes:
        lobby = self.lobby
        if isinstance(who, bytes):
            if who in lobby.peers or who in lobby.spectators:
                return who
            raise JoinRefused(f"{short_fingerprint(who)} is not at this table")
        if isinstance(who, int) or who.strip().isdigit():
            seat = int(who)
            spec = lobby.seats[seat - 1] if 1 <= seat <= lobby.seat_count else None
            if spec is None or spec.runner is not None:
                raise JoinRefused(f"no player sits at seat {seat}")
            return spec.key
        wanted = who.strip().casefold()
        found = [
            key
            for key, name in (*lobby.peers.items(), *lobby.spectators.items())
            if name.casefold() == wanted
        ]
        if len(found) != 1:
            many = "several players are" if found else "nobody is"
            raise JoinRefused(f"{many} called {who.strip()!r} here; name the seat instead")
        return found[0]

    # --- messages -----------------------------------------------------------------------------
    def _on_message(self, link: NodeLink, message: MessageReceived, now: float) -> None:
        node = self.node
        topic, body = message.topic, message.body
        if topic == JOIN:
            if link.admitted:
                node.close(link, "a second join on one link", CloseCode.PROTOCOL)
            else:
                self._join(link, message, now)
            return
        if topic in REMATCH_TOPICS and link.admitted and not link.spectator:
            node.rematch_message(link, message)
            return
        if link.admitted and node.table is not None and node.mesh_message(link, message, now):
            return
        if not link.admitted or topic in (ROSTER, NOTICE) or topic in REMATCH_TOPICS:
            node.close(link, f"a joiner does not send {topic!r} here", CloseCode.PROTOCOL)
            return
        try:
            if topic == READY:
                self.lobby.set_ready(link.key, bool(body["ready"]))
            elif topic == ADD_BOT:
                level = body.get("level")  # a joiner from before levels sends none
                self.lobby.add_bot(link.key, body["key"], body["seat"] or None, level)
            elif topic == REMOVE_BOT:
                self.lobby.remove_bot(link.key, body["seat"])
            else:
                return  # a mesh topic before START: nothing to do yet
        except JoinRefused as refusal:
            node.send(link, SendMessage(NOTICE, {"text": str(refusal)[:300]}))
            return
        self._lobby_changed(now)

    def _join(self, link: NodeLink, message: MessageReceived, now: float) -> None:
        node, body = self.node, message.body
        if self.invited is not None and link.key not in self.invited and not body["watch"]:
            node.close(
                link, "this table is a rematch for the players of the last game", CloseCode.REFUSED
            )
            return
        if body["watch"] and node.refuse_spectator(link):
            return
        try:
            if link.key in self.removed:
                raise JoinRefused("the host removed you from this table")
            if fingerprint(link.key) in self.refused:
                raise JoinRefused("the host does not admit your key at this table")
            self.lobby.join(
                link.key,
                body["name"],
                seat=body["seat"] or None,
                watch=body["watch"],
                own_bot=None if body["watch"] else body.get("own_bot"),
            )
        except JoinRefused as refusal:
            node.notify(
                LinkLost(
                    f"{body['name']} ({short_fingerprint(link.key)})",
                    f"refused: {refusal}",
                    fatal=False,
                )
            )
            full = isinstance(refusal, TableFull)
            node.close(link, str(refusal), CloseCode.FULL if full else CloseCode.REFUSED)
            return
        node.vouch([(link.key, body["name"])])
        link.name, link.spectator = body["name"], bool(body["watch"])
        if link.address is not None:
            self._where[link.key] = (link.address, link.listen_port)
        node.admit(link)
        if body["ready"] and not link.spectator:
            self.lobby.set_ready(link.key)
        self._lobby_changed(now)
