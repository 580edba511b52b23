"""Joining a table: dial a peer, ask for a seat, follow the lobby, take START, play.

The joiner listens (its HELLO says on which port, so the others can dial it), dials
``ADDRESS[:PORT]`` or an invite (whose host fingerprint must match), says ``join`` (its
name, the seat it asks for, whether it only watches, whether it is ready), and reads rosters
until the host's START arrives; then it plays like any peer of the mesh (``client.peer``).

**Rejoining**: with the same profile, ``palabre join`` to the address of *any* peer of a
started table resumes it: this peer finds the table's game file in its profile, reloads it
(its last ``seq`` per key, its bots' keys, its own records — never signed differently),
says ``join``, receives what the other holds, is pulled from, and dials the rest of the
mesh.  Joining a table that is over prints its verified result.

Refusals end the join with code 4 and the reason: the host's (table full, game started,
no proof of the table secret, removed by the host), the handshake's (wrong host key,
another palabre version), or this peer's own when the
roster names a game, ruleset or engine version this palabre does not have.  A host lost
before START is code 1; after START the others go on (``client.peer``).

Invariants: before START the only record taken is START; this peer signs nothing before
START; a spectator (``watch``) never signs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import trio

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
    read_roster,
)
from client.mesh import Address
from client.net_adapter import record_from_net
from client.peer import LinkLost, Peer, PeerLink
from client.peer_events import HostNotice, HostReached, JoinFailed, Rejoined
from client.peer_node import mesh_topic
from client.start import StartRefused, parse_start
from net.driver import Link
from net.errors import CloseCode, LinkError, LogFileError
from net.events import LinkClosed, MessageReceived, RecordReceived, SendMessage
from net.events import RecordRejected as NetRecordRejected
from net.identity import Identity
from net.invite import SCHEME, Invite, parse_address, parse_invite
from net.records import Kind

__all__ = [
    "JOIN_FAILURE_KINDS",
    "JoinPeer",
    "parse_target",
]

_REFUSALS = frozenset(
    {
        CloseCode.REFUSED,
        CloseCode.FULL,
        CloseCode.VERSION,
        CloseCode.TABLE,
        CloseCode.FINGERPRINT,
        CloseCode.SELF,
        CloseCode.SECRET,
    }
)

# Why a join failed, by the code its link closed with (``JoinFailed.kind``).
_KINDS = {
    CloseCode.FULL: "table-full",
    CloseCode.FINGERPRINT: "wrong-host-key",
    CloseCode.VERSION: "version-mismatch",
    CloseCode.REFUSED: "refused",
    CloseCode.TABLE: "refused",
    CloseCode.SELF: "refused",
    CloseCode.SECRET: "wrong-secret",
}
JOIN_FAILURE_KINDS = (
    "refused",
    "unreachable",
    "wrong-host-key",
    "version-mismatch",
    "table-full",
    "wrong-secret",
    "lost",
    "other",
)
"""Every ``JoinFailed.kind``: refused by the host (or this peer refused what it sent),
nobody answered, the host's key is not the invite's, another palabre or engine version,
every seat taken, no (or a wrong) table secret, the host went away before START, or a
problem here (the game file)."""


def parse_target(text: str) -> Invite | tuple[str, int]:
    """An invite or ``HOST[:PORT]`` (``InviteError`` saying what is wrong)."""
    if text.strip().lower().startswith(SCHEME):
        return parse_invite(text)
    return parse_address(text)


class JoinPeer(Peer):
    def __init__(
        self,
        identity: Identity,
        target: Invite | tuple[str, int],
        *,
        name: str,
        seat: int | None = None,
        watch: bool = False,
        ready: bool = True,
        listen_port: int = 0,
        secret: str | None = None,
        bot_seats: Sequence[int] = (),
        dial_retry: float = 0.0,
        **options: Any,
    ) -> None:
        """A rematch (``client.rematch``) also names the seats of this peer's bots, added
        as soon as the host took the join, and retries its dial for ``dial_retry`` seconds
        while the last table closes and the new one opens.  ``secret``: the table secret to
        prove (an invite's own secret comes first)."""
        super().__init__(identity, **options)
        self.listen_port = listen_port
        self.target = target
        self.secret = secret
        self.name = name
        self.seat, self.watch, self.ready = seat, watch, ready
        self.bot_seats = tuple(bot_seats)
        self.dial_retry = dial_retry
        self.roster: Roster | None = None
        self.host_link: PeerLink | None = None
        self.failure: JoinFailed | None = None

    def table_secret(self) -> str | None:
        return self.proved_secret

    @property
    def proved_secret(self) -> str | None:
        """The table secret this peer proves: its invite's, else the one it was given."""
        if isinstance(self.target, Invite) and self.target.secret is not None:
            return self.target.secret
        return self.secret

    async def run(self) -> int:
        """Join and play until the table concludes; the exit code."""
        try:
            await self.listen(self.listen_port)
        except LinkError as error:
            self._fail(str(error), refused=False)
            return 1
        try:
            async with trio.open_nursery() as nursery:
                self._nursery = nursery
                nursery.start_soon(self.serve_timer)
                nursery.start_soon(self._serve_host)
                nursery.start_soon(self.serve_listeners, self._on_incoming)
                nursery.start_soon(self.serve_mesh)
                await self.done.wait()
                await self.wind_down()
                nursery.cancel_scope.cancel()
        finally:
            self.release()
        return 1 if self.exit_code is None else self.exit_code

    async def _on_incoming(self, link: Link) -> None:
        """A peer of the mesh (or a newcomer) dialed this peer."""
        peer_link = PeerLink(link, link.peer.key, link.remote, dialed_by=link.peer.key)
        await self.run_link(peer_link, self.from_link)
        self.link_lost(peer_link)

    async def _serve_host(self) -> None:
        self.node.policy.keys = None  # START may come from any peer, signed by the host
        spec = self.link_spec()
        deadline = trio.current_time() + self.dial_retry
        while True:
            try:
                if isinstance(self.target, Invite):
                    link = await self.network.connect_invite(self.target, spec)
                else:
                    link = await self.network.connect(*self.target, spec, timeout=10.0)
                break
            except LinkError as error:
                if trio.current_time() >= deadline:
                    code = error.code
                    refused = error.refused
                    kind = _KINDS.get(code, "refused") if refused and code else "unreachable"
                    self._fail(str(error), refused=refused, kind=kind)
                    return
                await trio.sleep(0.2)  # the last table's host is still there, or not yet
        self.table_id = link.connection.table_id
        host = PeerLink(link, link.peer.key, "the host", dialed_by=self.me)
        self.host_link = host
        self.node.links.append(host)  # not admitted: it takes START and lobby messages
        if link.address is not None and link.peer.listen_port:
            where = Address(link.address[0], link.peer.listen_port)
            self.node.mesh.learn(host.key, where, direct=True)
        self.notify(HostReached(link.remote, link.peer.fingerprint))
        if self.table_id is not None and self.game_path(self.table_id).exists():
            try:
                cut = self.resume(self.game_path(self.table_id))
            except (StartRefused, LogFileError) as error:
                host.close(str(error), CloseCode.REFUSED)
                self._fail(f"cannot take the table up again: {error}", refused=False)
                return
            self.notify(Rejoined(self.game_path(self.table_id), cut))
        host.send(
            SendMessage(
                JOIN,
                {
                    "name": self.name,
                    "seat": self.seat or 0,
                    "watch": self.watch,
                    "ready": self.ready,
                },
            )
        )
        if self.table is not None and host.key in self.table.start.peer_keys:
            self.admit(host)
        closed = await self.run_link(host, self._deliver)
        self._host_left(closed)

    # --- lobby intents (a UI) -----------------------------------------------------------------
    def set_ready(self, ready: bool) -> None:
        self.ready = ready
        self._to_host(READY, {"ready": ready})

    def add_bot(self, seat: int | None = None) -> None:
        assert self.table_id is not None
        identity = self.new_bot_identity(self.table_id)
        self._to_host(ADD_BOT, {"key": identity.public_key, "seat": seat or 0})

    def remove_bot(self, seat: int) -> None:
        self._to_host(REMOVE_BOT, {"seat": seat})

    def _to_host(self, topic: str, body: Mapping[str, Any]) -> None:
        if self.host_link is not None:
            self.host_link.send(SendMessage(topic, body))

    # --- events -------------------------------------------------------------------------------
    def _deliver(self, link: PeerLink, event: Any) -> None:
        if isinstance(event, RecordReceived):
            if self.table is not None:
                if link.admitted:
                    self.receive(event.record, link)
            elif event.record.kind is Kind.START:
                self._begin(event.record)
        elif isinstance(event, MessageReceived):
            if event.topic == ROSTER:
                self._on_roster(link, read_roster(event.body))
            elif event.topic == NOTICE:
                self.notify(HostNotice(event.body["text"]))
            elif event.topic in REMATCH_TOPICS:
                self.rematch_message(link, event.topic, event.body)
            elif mesh_topic(event.topic):
                if link.admitted:
                    self.mesh_message(link, event.topic, event.body)
            else:
                link.close(f"a peer does not send {event.topic!r} here", CloseCode.PROTOCOL)
        elif isinstance(event, NetRecordRejected):
            self.link_refused(link, event.reason)

    def _on_roster(self, link: PeerLink, roster: Roster) -> None:
        if self.roster is None:
            problem = self._cannot_play(roster)
            if problem is not None:
                link.close(problem, CloseCode.VERSION)
                self._fail(problem, refused=True, kind="version-mismatch")
                return
            for seat in self.bot_seats:  # a rematch: this peer's bots take their seats again
                self.add_bot(seat)
        self.roster = roster
        for peer in roster.peers:
            if peer.address and peer.port:
                self.node.mesh.learn(peer.key, Address(peer.address, peer.port))
        self.vouch((peer.key, peer.name) for peer in roster.peers)
        self.notify(LobbyChanged(roster))

    def _cannot_play(self, roster: Roster) -> str | None:
        try:
            engine = self.engine_for(roster.game)
        except LookupError:
            return f"this table plays {roster.game!r}, a game this palabre does not know"
        here = f"{engine.ruleset} with engine {engine.version}"
        there = f"{roster.ruleset} with engine {roster.engine_version}"
        if (engine.ruleset, engine.version) != (roster.ruleset, roster.engine_version):
            return f"this table plays {there} but this palabre has {here}"
        return None

    def _begin(self, record: Any) -> None:
        start = record_from_net(record)
        try:
            if self.me in parse_start(start).peer_keys and self.roster is None:
                raise StartRefused(
                    "this profile plays at this table, but its game file for it is gone; "
                    "join with --watch to follow the game"
                )
            self.begin(start, spectator=self.watch or self.me not in parse_start(start).peer_keys)
        except (StartRefused, LogFileError) as error:
            if self.host_link is not None:
                self.host_link.close(str(error), CloseCode.REFUSED)
            refused = isinstance(error, StartRefused)
            self._fail(str(error), refused=refused, kind="refused" if refused else "other")

    def _host_left(self, closed: LinkClosed) -> None:
        if self.done.is_set():
            return
        host_key = self.host_link.key if self.host_link is not None else b""
        alone = not any(link.key == host_key for link in self.links)
        if self.table is not None and host_key == self.table.start.host and alone:
            self.peer_left(host_key)
        refused = closed.by_peer and closed.code in _REFUSALS
        if self.table is None or (refused and closed.code is CloseCode.SECRET):
            # a rejoin took its table up from its file first: without the secret, no peer
            # of the table will ever let it in, so it ends as a refused join does
            self._fail(
                f"the host {'refused' if refused else 'closed'} the join: {closed.reason}",
                refused=refused,
                kind=_KINDS.get(closed.code, "refused") if refused else "lost",
            )
            return
        host = self.host_link
        if host is not None:
            self.link_lost(host)
        table = self.table
        if table.halted:
            self.finish(3)
        elif self.watch and (table.ended or table.chain.outcome() is not None):
            self.finish(0)
        elif not table.ended:
            self.notify(LinkLost(host.name if host else "the host", closed.reason, fatal=False))

    def _fail(self, reason: str, *, refused: bool, kind: str = "refused") -> None:
        if self.failure is None and not self.done.is_set():
            self.failure = JoinFailed(reason, refused, kind)
            self.notify(self.failure)
            self.finish(4 if refused else 1)
