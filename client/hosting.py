"""Hosting a table: the listener, the lobby, START; then one peer of the mesh like any other.

The host listens on its port, seats joiners as their ``join`` messages ask (``Lobby``),
sends the roster to everyone after each change (with the address and port each peer can be
dialed at), and signs START once every seat is taken and every peer is ready (at once when
``auto_start``, else when its player asks).  After START the joiners dial each other
(``client.peer``, the mesh) and the host is a peer like the others: it may leave, and come
back with ``palabre join`` and the same profile.

Admission (docs/SECURITY.md): with a table ``secret`` the handshake itself refuses a joiner
that does not prove it knows it (REFUSE ``secret``, net.handshake), before any lobby
message; keys the host ``refuse``s, and players it removed before START
(``remove_player``), are refused at their ``join``.  After START the seats are those of
the signed START: nobody joins as a player and nobody else can sign for a seat.

Invariants: a link is admitted (gets rosters and records) only after its ``join`` was
accepted; a refused join is told why (REFUSE ``refused``) and closed; after START a join is
answered as any peer answers it (``client.peer_node``); a lost link is not the end of
the table.
"""

from __future__ import annotations

import os
from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any

import trio

from client.addresses import lan_addresses
from client.bots import level_of_kind
from client.lobby import JoinRefused, Lobby, TableFull
from client.lobby_wire import (
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
from client.mesh import Address
from client.peer import LinkLost, Peer, PeerLink
from client.peer_node import mesh_topic
from client.records import START
from client.start import DEFAULT_AWAY_MS, DEFAULT_IDLE_MS
from engines import AnyEngine
from net.driver import Link
from net.errors import CloseCode, LinkError
from net.events import LinkClosed, MessageReceived, RecordReceived, SendMessage
from net.events import RecordRejected as NetRecordRejected
from net.identity import Identity, fingerprint, short_fingerprint
from net.invite import Invite

__all__ = ["HostPeer"]


class HostPeer(Peer):
    def __init__(
        self,
        identity: Identity,
        engine: AnyEngine,
        params: Mapping[str, int | str],
        *,
        name: str,
        bots: int = 0,
        away_ms: int = DEFAULT_AWAY_MS,
        idle_ms: int = DEFAULT_IDLE_MS,
        auto_start: bool = True,
        announce: bool = False,
        table_id: bytes | None = None,
        seat: int | None = None,
        bot_seats: Sequence[int] = (),
        invited: Collection[bytes] | None = None,
        open_retry: float = 0.0,
        secret: str | None = None,
        refuse: Iterable[str] = (),
        **options: Any,
    ) -> None:
        """``InvalidParams`` for options the engine refuses, ``JoinRefused`` for too many
        bots; ``IdentityError`` if a bot key cannot be made.

        A rematch (``client.rematch``) names its ``table_id``, the host's ``seat``, the
        ``bot_seats`` of its bots and the peers ``invited`` (no one else gets a seat), and
        retries its port for ``open_retry`` seconds while the last table lets go of it.

        ``secret``: the table secret joiners must prove (``net.invite.check_secret``; None:
        anyone who reaches the port may join).  ``refuse``: fingerprints (canonical form,
        ``net.identity.parse_fingerprint``) of players never admitted."""
        super().__init__(identity, **options)
        self.secret = secret
        self.refused = set(refuse)
        self.removed: set[bytes] = set()
        self.table_id = self.host_table_id = table_id or os.urandom(16)
        self.engine = engine
        self.name = name
        self.auto_start = auto_start
        # A table with a secret is for the people given its invite: it is not announced on
        # the LAN (an announced invite would lack the secret, and say the table is there).
        self.announce = announce and secret is None
        """Announce the lobby on the LAN over mDNS (``client.mdns``) until START."""
        self.lobby = Lobby(
            engine, params, self.me, name, away_ms=away_ms, idle_ms=idle_ms, host_seat=seat
        )
        level = level_of_kind(self.bot_kind)  # START names the level of the bots it runs
        for _ in range(bots):
            key = self.new_bot_identity(self.host_table_id).public_key
            self.lobby.add_bot(self.me, key, level=level)
        for bot_seat in bot_seats:
            key = self.new_bot_identity(self.host_table_id).public_key
            self.lobby.add_bot(self.me, key, bot_seat, level)
        self.invited = None if invited is None else frozenset(invited)
        self.open_retry = open_retry
        if auto_start:
            self.lobby.set_ready(self.me)
        self._where: dict[bytes, tuple[str, int]] = {}

    # --- opening ------------------------------------------------------------------------------
    async def open(self, port: int) -> Invite:
        """Listen on ``port`` (0: any free one); ``LinkError`` saying why not."""
        deadline = trio.current_time() + self.open_retry
        while True:
            try:
                await self.listen(port)
                break
            except LinkError:
                if trio.current_time() >= deadline:
                    raise
                await trio.sleep(0.2)
        return Invite(
            lan_addresses(), self.port, self.host_table_id, self.identity.fingerprint, self.secret
        )

    async def run(self) -> int:
        """Serve the table until it concludes; the exit code (DESIGN.md section 4, End)."""
        assert self._listeners, "open() first"
        try:
            async with trio.open_nursery() as nursery:
                self._nursery = nursery
                nursery.start_soon(self.serve_timer)
                if self.announce:
                    self._start_announcing(nursery)
                nursery.start_soon(self.serve_listeners, self._on_link)
                nursery.start_soon(self.serve_mesh)
                self.notify(LobbyChanged(self.roster()))
                self._maybe_start()
                await self.done.wait()
                await self.wind_down()
                nursery.cancel_scope.cancel()
        finally:
            self.release()
        return 1 if self.exit_code is None else self.exit_code

    def _start_announcing(self, nursery: trio.Nursery) -> None:
        from client.mdns import Announcer  # zeroconf only where a table is announced

        announcer = Announcer(self.port, self.host_table_id, self.identity.fingerprint, self.notify)
        self.observers.append(announcer.observe)
        nursery.start_soon(announcer.serve)

    # --- the lobby ----------------------------------------------------------------------------
    def roster(self) -> Roster:
        lobby = self.lobby
        peers = []
        for key, name in lobby.peers.items():
            address, port = self._where.get(key, ("", self.port if key == self.me else 0))
            peers.append(RosterPeer(key, name, address, port, key in lobby.ready))
        seats = tuple(
            RosterSeat(n, None, None) if s is None else RosterSeat(n, s.key, s.runner)
            for n, s in enumerate(lobby.seats, 1)
        )
        return Roster(
            self.engine.name,
            self.engine.ruleset,
            self.engine.version,
            dict(lobby.params),
            tuple(peers),
            seats,
            len(lobby.spectators),
            tuple(lobby.waiting_for()),
        )

    def _lobby_changed(self) -> None:
        roster = self.roster()
        body = roster_body(roster)
        for link in self.links:
            if link.admitted:
                link.send(SendMessage(ROSTER, body))
        self.notify(LobbyChanged(roster))
        self._maybe_start()

    def _maybe_start(self) -> None:
        if self.auto_start and not self.lobby.started and self.lobby.can_start:
            self.start_table()

    def start_table(self) -> None:
        """Sign START and begin (``JoinRefused`` saying what is missing)."""
        body = self.lobby.start_body()
        for key, (address, port) in self._where.items():
            self.node.mesh.learn(key, Address(address, port), direct=True)
        self.open_file(self.host_table_id)
        start = self.signer(self.identity).sign(START, body)  # written ahead, like any record
        self.begin(start)

    def set_ready(self, ready: bool) -> None:
        self.lobby.set_ready(self.me, ready)
        self._lobby_changed()

    def add_bot(self) -> None:
        key = self.new_bot_identity(self.host_table_id).public_key
        self.lobby.add_bot(self.me, key, level=level_of_kind(self.bot_kind))
        self._lobby_changed()

    def remove_bot(self, seat: int) -> None:
        self.lobby.remove_bot(self.me, seat)
        self._lobby_changed()

    def remove_player(self, who: int | str | bytes) -> str:
        """Send a joiner away before START and refuse it for the rest of this table: by
        seat number, name or key.  Returns its name; ``JoinRefused`` saying why not."""
        if self.lobby.started:
            raise JoinRefused(
                "the game has started: the seats are fixed by the signed START and nobody can "
                "be sent away from the lobby any more"
            )
        key = self._find_player(who)
        if key == self.me:
            raise JoinRefused("you host this table: you cannot remove yourself")
        name = self.lobby.peers.get(key) or self.lobby.spectators.get(key, "?")
        self.removed.add(key)
        self.lobby.leave(key)
        for link in [link for link in self.links if link.key == key]:
            link.admitted = False
            self.links.remove(link)
            link.close(
                "the host removed you from this table before the game started", CloseCode.REFUSED
            )
        self._lobby_changed()
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

    # --- links --------------------------------------------------------------------------------
    async def _on_link(self, link: Link) -> None:
        peer_link = PeerLink(link, link.peer.key, link.remote, dialed_by=link.peer.key)
        closed = await self.run_link(peer_link, self._deliver)
        self._left(peer_link, closed)

    def _deliver(self, link: PeerLink, event: Any) -> None:
        if self.table is not None and not (link.admitted and link.key in self.lobby.peers):
            self.from_link(link, event)  # after START, any link is a mesh link
        elif isinstance(event, RecordReceived):
            if link.admitted and not link.spectator:
                self.receive(event.record, link)
        elif isinstance(event, MessageReceived):
            self._on_message(link, event.topic, event.body)
        elif isinstance(event, NetRecordRejected):
            self.link_refused(link, event.reason)

    def _on_message(self, link: PeerLink, topic: str, body: Any) -> None:
        if topic == JOIN:
            if link.admitted:
                link.close("a second join on one link", CloseCode.PROTOCOL)
            else:
                self._join(link, body)
            return
        if topic in REMATCH_TOPICS and link.admitted and not link.spectator:
            self.rematch_message(link, topic, body)
            return
        if link.admitted and self.table is not None and mesh_topic(topic):
            self.mesh_message(link, topic, body)
            return
        if not link.admitted or topic in (ROSTER, NOTICE) or topic in REMATCH_TOPICS:
            link.close(f"a joiner does not send {topic!r} here", CloseCode.PROTOCOL)
            return
        try:
            if topic == READY:
                self.lobby.set_ready(link.key, bool(body["ready"]))
            elif topic == ADD_BOT:
                self.lobby.add_bot(link.key, body["key"], body["seat"] or None)
            elif topic == REMOVE_BOT:
                self.lobby.remove_bot(link.key, body["seat"])
            else:
                return  # a mesh topic before START: nothing to do yet
        except JoinRefused as refusal:
            link.send(SendMessage(NOTICE, {"text": str(refusal)[:300]}))
            return
        self._lobby_changed()

    def _join(self, link: PeerLink, body: Mapping[str, Any]) -> None:
        if self.invited is not None and link.key not in self.invited and not body["watch"]:
            link.close(
                "this table is a rematch for the players of the last game", CloseCode.REFUSED
            )
            return
        if body["watch"] and self._refuse_spectator(link):
            return
        try:
            if link.key in self.removed:
                raise JoinRefused("the host removed you from this table")
            if fingerprint(link.key) in self.refused:
                raise JoinRefused("the host does not admit your key at this table")
            self.lobby.join(link.key, body["name"], seat=body["seat"] or None, watch=body["watch"])
        except JoinRefused as refusal:
            self.notify(
                LinkLost(
                    f"{body['name']} ({short_fingerprint(link.key)})",
                    f"refused: {refusal}",
                    fatal=False,
                )
            )
            full = isinstance(refusal, TableFull)
            link.close(str(refusal), CloseCode.FULL if full else CloseCode.REFUSED)
            return
        self.vouch([(link.key, body["name"])])
        link.name, link.spectator = body["name"], bool(body["watch"])
        if link.link.address is not None:
            self._where[link.key] = (link.link.address[0], link.link.peer.listen_port)
        self.admit(link)
        if body["ready"] and not link.spectator:
            self.lobby.set_ready(link.key)
        self._lobby_changed()

    def _refuse_spectator(self, link: PeerLink) -> bool:
        """Refuse ``link`` as a spectator, telling it why, when ``MAX_SPECTATORS`` watch."""
        refusal = self.node.admission.spectator_refusal(self.links)
        if refusal is None:
            return False
        link.close(refusal.reason, refusal.code)
        return True

    def _left(self, link: PeerLink, closed: LinkClosed) -> None:
        if not link.admitted:
            return  # another link of the same key (refused, or a liar's) is not its seat
        if not self.lobby.started:
            if link.key in self.lobby.peers or link.key in self.lobby.spectators:
                self.lobby.leave(link.key)
                self._lobby_changed()
            return
        self.link_lost(link)
        if link.spectator or self.done.is_set():
            return
        if not any(other.key == link.key for other in self.links):
            self.peer_left(link.key)  # its last link: it left (a second link may close)
        self.notify(LinkLost(link.name, closed.reason, fatal=False, key=link.key))
