"""The joiner's role, sans-I/O: ask for a seat, follow the lobby, take START.

The joiner listens (its HELLO says on which port, so the others can dial it), dials
``ADDRESS[:PORT]`` or an invite (whose host fingerprint must match), says ``join`` (its
name, the seat it asks for, whether it only watches, whether it is ready), and reads rosters
until the host's START arrives; then it plays like any peer of the mesh (``client.node.mesh``).

**Rejoining**: with the same profile, ``palabre join`` to the address of *any* peer of a
started table resumes it: this peer finds the table's game file in its profile, reloads it
(its last ``seq`` per key, its bots' keys, its own records — never signed differently),
says ``join``, receives what the other holds, is pulled from, and dials the rest of the
mesh.  Joining a table that is over prints its verified result.

Refusals end the join with code 4 and the reason: the host's (table full, game started,
no proof of the table secret, removed by the host), the handshake's (wrong host key,
another palabre version), or this peer's own when the
roster names a game, ruleset or engine version this palabre does not have.  A host lost
before START is code 1; after START the others go on (``client.node.peer_node``).

``JoinRole`` is a part of the node (``client.node.peer_node``): the runtime dials the host and
reads the game file, the role decides what follows from it, through the node it is given
(``client.node.node_io.RoleNode``), with the time of each input.

Invariants: before START the only record taken is START; this peer signs nothing before
START; a spectator (``watch``) never signs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

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
    read_roster,
)
from client.node.mesh import SCHEMAS as MESH_SCHEMAS
from client.node.mesh import Address
from client.node.peer_events import HostNotice, HostReached, JoinFailed, LinkLost, Rejoined
from client.rules.net_adapter import record_from_net
from client.rules.start import StartRefused, parse_start
from net.errors import CloseCode, LogFileError
from net.events import Event as NetEvent
from net.events import LinkClosed, MessageReceived, RecordReceived, SendMessage
from net.events import RecordRejected as NetRecordRejected
from net.invite import SCHEME, Invite, parse_address, parse_invite
from net.records import Kind, Record

if TYPE_CHECKING:
    from client.node.node_io import NodeLink, Reopening, RoleNode

__all__ = [
    "JOIN_FAILURE_KINDS",
    "JoinConfig",
    "JoinRole",
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


@dataclass(frozen=True)
class JoinConfig:
    """The table a joiner dials and how it sits there.

    A rematch (``client.node.rematch``) also names the seats of this peer's bots, added as soon
    as the host took the join, and retries its dial for ``dial_retry`` seconds while the
    last table closes and the new one opens.  ``secret``: the table secret to prove (an
    invite's own secret comes first)."""

    target: Invite | tuple[str, int]
    name: str
    seat: int | None = None
    watch: bool = False
    ready: bool = True
    listen_port: int = 0
    any_port_if_taken: bool = False
    """``listen_port`` is only a wish (where this profile listened before a crash): listen
    at any free port when it is taken, rather than fail as an asked ``--port`` does."""
    secret: str | None = None
    bot_seats: Sequence[int] = ()
    dial_retry: float = 0.0
    also: Sequence[tuple[str, int]] = ()
    """Other peers of the same table, dialed in turn when nobody answers at ``target`` (a
    rejoin through any peer still there: the one that crashed took its port with it)."""
    own_bot: str | None = None
    """The level of the bot this palabre plays its own seat by (``--bot``), which the join
    says so the roster and START name that seat a bot; None: a person plays it."""

    @property
    def proved_secret(self) -> str | None:
        """The table secret this peer proves: its invite's, else the one it was given."""
        if isinstance(self.target, Invite) and self.target.secret is not None:
            return self.target.secret
        return self.secret


class JoinRole:
    """The joiner's part of its node.  See the module docstring."""

    def __init__(self, node: RoleNode, config: JoinConfig, *, bot_level: str) -> None:
        self.node = node
        self.config = config
        self.bot_level = bot_level  # the level of the bots this joiner adds, which START names
        self.ready = config.ready
        self.roster: Roster | None = None
        self.host_link: NodeLink | None = None
        self.failure: JoinFailed | None = None

    @property
    def watch(self) -> bool:
        return self.config.watch

    # --- the runtime's calls -------------------------------------------------------------------
    def listen_failed(self, reason: str) -> None:
        self._fail(reason, refused=False)

    def host_unreached(self, reason: str, code: CloseCode | None, refused: bool) -> None:
        kind = _KINDS.get(code, "refused") if refused and code else "unreachable"
        self._fail(reason, refused=refused, kind=kind)

    def host_linked(
        self,
        host: NodeLink,
        table_id: bytes | None,
        fingerprint: str,
        rejoin: Reopening | str | None,
        now: float,
    ) -> None:
        """The host's link is up; ``rejoin``: this table's game file read again (a text: why
        it could not be), None when this profile has none."""
        node = self.node
        node.table_id = table_id
        self.host_link = host
        node.links.append(host)  # not admitted: it takes START and lobby messages
        if host.address is not None and host.listen_port:
            node.mesh.learn(host.key, Address(host.address, host.listen_port), direct=True)
        node.notify(HostReached(host.remote, fingerprint))
        if isinstance(rejoin, str):
            self._cannot_rejoin(host, rejoin)
            return
        if rejoin is not None:
            mark = node.effects_so_far()
            try:
                node.resume(rejoin, now)
            except (StartRefused, LogFileError) as error:
                node.undo_after(mark)  # as if the node had never taken it
                self._cannot_rejoin(host, str(error))
                return
            node.notify(Rejoined(rejoin.journal.path, rejoin.torn))
        config = self.config
        body = {
            "name": config.name,
            "seat": config.seat or 0,
            "watch": config.watch,
            "ready": self.ready,
        }
        if config.own_bot is not None and not config.watch:
            body["own_bot"] = config.own_bot
        node.send(host, SendMessage(JOIN, body))
        table = node.table
        if table is not None and host.key in table.start.peer_keys:
            node.admit(host)

    def _cannot_rejoin(self, host: NodeLink, error: str) -> None:
        self.node.close(host, error, CloseCode.REFUSED)
        self._fail(f"cannot take the table up again: {error}", refused=False)

    def on_event(self, link: NodeLink, event: NetEvent, now: float) -> None:
        """An event of the host's link."""
        node = self.node
        if isinstance(event, RecordReceived):  # before the table: the node takes the rest
            if event.record.kind is Kind.START:
                self._begin(event.record, now)
        elif isinstance(event, MessageReceived):
            if event.topic == ROSTER:
                self._on_roster(link, read_roster(event.body))
            elif event.topic == NOTICE:
                node.notify(HostNotice(event.body["text"]))
            elif event.topic in REMATCH_TOPICS:
                node.rematch_message(link, event)
            elif event.topic in MESH_SCHEMAS:
                if link.admitted:
                    node.mesh_message(link, event, now)
            else:
                node.close(link, f"a peer does not send {event.topic!r} here", CloseCode.PROTOCOL)
        elif isinstance(event, NetRecordRejected):
            node.link_refused(link, event.reason)

    def host_down(self, closed: LinkClosed, now: float) -> None:
        """The host's link ended."""
        node = self.node
        if node.finished:
            return
        host_key = self.host_link.key if self.host_link is not None else b""
        alone = not any(link.key == host_key for link in node.links)
        table = node.table
        if table is not None and host_key == table.start.host and alone:
            node.peer_left(host_key)
        refused = closed.by_peer and closed.code in _REFUSALS
        if table is None or (refused and closed.code is CloseCode.SECRET):
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
            node.link_down(host, now)
        if table.halted:
            node.finish(3)
        elif self.watch and (table.ended or table.chain.outcome() is not None):
            node.finish(0)
        elif not table.ended:
            node.notify(LinkLost(host.name if host else "the host", closed.reason, fatal=False))

    # --- lobby intents (a UI) -----------------------------------------------------------------
    def set_ready(self, ready: bool) -> None:
        self.ready = ready
        self._to_host(READY, {"ready": ready})

    def add_bot(self, seat: int | None = None) -> None:
        assert self.node.table_id is not None
        identity = self.node.new_bot_identity(self.node.table_id)
        body = {"key": identity.public_key, "seat": seat or 0, "level": self.bot_level}
        self._to_host(ADD_BOT, body)

    def remove_bot(self, seat: int) -> None:
        self._to_host(REMOVE_BOT, {"seat": seat})

    def _to_host(self, topic: str, body: Mapping[str, object]) -> None:
        if self.host_link is not None:
            self.node.send(self.host_link, SendMessage(topic, body))

    # --- the lobby ----------------------------------------------------------------------------
    def _on_roster(self, link: NodeLink, roster: Roster) -> None:
        node = self.node
        if self.roster is None:
            problem = self._cannot_play(roster)
            if problem is not None:
                node.close(link, problem, CloseCode.VERSION)
                self._fail(problem, refused=True, kind="version-mismatch")
                return
            for seat in self.config.bot_seats:  # a rematch: this peer's bots sit again
                self.add_bot(seat)
        self.roster = roster
        for peer in roster.peers:
            if peer.address and peer.port:
                node.mesh.learn(peer.key, Address(peer.address, peer.port))
        node.vouch((peer.key, peer.name) for peer in roster.peers)
        node.notify(LobbyChanged(roster))

    def _cannot_play(self, roster: Roster) -> str | None:
        try:
            engine = self.node.engine_for(roster.game)
        except LookupError:
            return f"this table plays {roster.game!r}, a game this palabre does not know"
        here = f"{engine.ruleset} with engine {engine.version}"
        there = f"{roster.ruleset} with engine {roster.engine_version}"
        if (engine.ruleset, engine.version) != (roster.ruleset, roster.engine_version):
            return f"this table plays {there} but this palabre has {here}"
        return None

    def _begin(self, record: Record, now: float) -> None:
        start = record_from_net(record)
        node = self.node
        mark = node.effects_so_far()
        try:
            if node.me in parse_start(start).peer_keys and self.roster is None:
                raise StartRefused(
                    "this profile plays at this table, but its game file for it is gone; "
                    "join with --watch to follow the game"
                )
            node.begin(start, self.watch or node.me not in parse_start(start).peer_keys, now)
        except (StartRefused, LogFileError) as error:
            node.undo_after(mark)  # as if the node had never taken START
            if self.host_link is not None:
                node.close(self.host_link, str(error), CloseCode.REFUSED)
            refused = isinstance(error, StartRefused)
            self._fail(str(error), refused=refused, kind="refused" if refused else "other")

    def _fail(self, reason: str, *, refused: bool, kind: str = "refused") -> None:
        if self.failure is None and not self.node.finished:
            self.failure = JoinFailed(reason, refused, kind)
            self.node.notify(self.failure)
            self.node.finish(4 if refused else 1)
