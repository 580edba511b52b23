"""One table at one peer, over trio: the runtime that feeds the node and carries out its effects.

``Peer`` runs a host or a joiner alike (``Peer(identity, role, config)``: the role is a
``client.node.hosting.HostConfig`` or a ``client.node.joining.JoinConfig``).  It holds the sans-I/O
node (``client.node.peer_node.PeerNode``), which decides everything, and owns, in one nursery:
the listener, one reader and one writer task per link, the node's timer (bots' delays,
deferred fsyncs, the conclusion) and its beat (presence reports, pulls, dials).  Every
input goes through :meth:`Peer.feed`, synchronously — intents from a UI, events from
links, the timer's and the beat's wake-ups — so they are handled one at a time, in the
order they happen, and the effects each returns are carried out at once, in the order the
node decided them (``client.node.node_io``).

Invariants:

* **Write-ahead.**  Every record this peer signs, and every record it accepts, is appended
  to the game file (``games/<table>.palabre-log`` in the profile, net/logfile.py format) as
  the table takes it; nothing is sent before one fsync has made the file durable up to it
  (the node fsyncs inside ``handle``, before it returns the sends).  Records received while
  there is nothing to send are fsynced within ``SYNC_DELAY``.
* **The mesh** (``client.node.mesh`` decides, the node does): every peer listens; after START
  each peer dials the peers that joined before it (a restarted one dials everyone), keeps
  one link per peer, sends a presence report on every link every 2 s, passes on what it
  takes from a link to the links ``Mesh.passes_on`` names, as soon as it arrives and exactly
  as received — refused plies included, so every peer sees the evidence — and pulls what its
  table lacks.  Duplicates (same record hash) are dropped before their signature is checked
  (``TablePolicy.knows``).
* **Joining after START** (any peer answers): a peer of START rejoins (it gets everything
  this peer holds, then both pull from each other), a spectator watches, anyone else is
  refused.  A restarted peer resumes from its own game file (``resume``).
* **Keys.**  Before START a link takes only START; after it, only records signed by the
  keys START names, and the new bot keys votes and REMOVEs name.
* **Ending.**  With ``stay=False`` (headless) the peer concludes by itself: shortly after
  the END of every peer (0), 10 s after the game's outcome without them (0), shortly after a
  halt (3, evidence file written), or when it has had no link with any peer for a long
  while (1).  A lost link is not the end: the others go on, and REMOVE takes care of a peer
  that does not come back.
* **Names.**  Every (key, name) this peer learns (rosters, joins, START) is checked against
  the keys the profile met under that name (``client.profile.known_peers``, trust on first use): a
  known name with a new key is a ``NameWarning``; START's peers are remembered.
* **Faults on a link.**  A record ``net`` refuses on a link (signed for another table, or
  by a key not at this one) and a link this side closes for the peer's fault (bad bytes, a
  bad signature, silence) are shown naming the link's peer, and kept as evidence files
  next to the game file (with the offending envelope when there is one).
* **Links.**  A writer puts at most ``BATCH_BYTES`` in one write, so a flood relayed to a
  slow peer is paced by it, not cut off.

The lobby roles are parts of the node (``client.node.hosting.HostRole``,
``client.node.joining.JoinRole``); the runtime only opens what they need: a host's listener
(retried for a rematch), a joiner's dial of the host (retried too) and the game file a
rejoin takes up again.
"""

from __future__ import annotations

import math
from collections.abc import Awaitable, Callable
from dataclasses import replace
from datetime import date
from pathlib import Path

import trio

from client.bots.thinking import INLINE, Thinking, ThreadThinking
from client.node.evidence_budget import EvidenceBudget
from client.node.hosting import HostConfig, HostRole
from client.node.joining import JoinConfig, JoinRole
from client.node.lobby_wire import SCHEMAS as LOBBY_SCHEMAS
from client.node.mesh import SCHEMAS as MESH_SCHEMAS
from client.node.mesh import Address, Mesh
from client.node.node_io import (
    AddBot,
    BeatDue,
    Close,
    Dial,
    DialEnded,
    Finish,
    FromLink,
    HostLinked,
    HostUnreached,
    Leave,
    LinkDown,
    LinkEnded,
    ListenFailed,
    NodeInput,
    NodeLink,
    NodeOutput,
    NodeSeams,
    Opened,
    Play,
    RematchAnswer,
    RemoveBot,
    RemovePlayer,
    Reopening,
    Send,
    SetReady,
    StartTable,
    Tell,
    TimerDue,
    WindDown,
)
from client.node.peer_conclusion import END_WAIT
from client.node.peer_events import (
    EvidenceWritten,
    LinkLost,
    LinkRefused,
    NameWarning,
    Observer,
    PeerEvent,
    RecordsSent,
    TableFlooded,
    TableStarted,
)
from client.node.peer_node import SYNC_DELAY, NodeConfig, PeerNode
from client.node.peer_policy import TablePolicy
from client.node.peer_relay import Relay
from client.node.rematch import RematchChanged, RematchPlan
from client.profile.evidence_files import EvidenceFiles
from client.profile.game_file import GameFile, game_dir
from client.profile.table_files import TableFiles
from client.rules.net_adapter import record_from_net
from client.rules.records import START, Signer
from client.rules.start import StartRefused
from client.runtime.addresses import lan_addresses
from client.runtime.peer_link import PeerLink
from client.runtime.peer_network import TCP, Network
from client.tabletop.events import Output
from client.tabletop.table import Table
from client.tabletop.table_clock import ClockDisplay
from engines import AnyEngine
from net.driver import Link, serve
from net.errors import DecodeError, LinkError, LogFileError, SignatureError
from net.events import Event as NetEvent
from net.events import LinkClosed, Refuse, SendEvent, SendRecord
from net.handshake import APP_VERSION
from net.identity import Identity, fingerprint
from net.invite import Invite
from net.linkspec import LinkSpec
from net.records import open_record

__all__ = [
    "BATCH_BYTES",
    "END_WAIT",
    "FRAME_OVERHEAD",
    "SCHEMAS",
    "SYNC_DELAY",
    "EvidenceWritten",
    "GameFile",
    "LinkLost",
    "LinkRefused",
    "NameWarning",
    "Peer",
    "PeerLink",
    "RecordsSent",
    "TableFlooded",
    "TablePolicy",
    "TableStarted",
    "game_dir",
]

SCHEMAS = {**LOBBY_SCHEMAS, **MESH_SCHEMAS}
"""Every message topic a peer takes: the lobby's and the mesh's."""
FRAME_OVERHEAD = 4 + 1 + 16
"""Bytes a record frame adds to its envelope: length, type, encryption tag."""
BATCH_BYTES = 256 * 1024
"""The most a link's writer puts in one write (one record more at most)."""
UNHEARD_WAIT = 2.0
"""The longest a peer that ends waits for a link that is up but has not said what it is."""


DEFAULT_CONFIG = NodeConfig()
"""The default profile, engines and bots."""


class RematchDoor:
    """The rematch as a front end sees it (``client.node.rematch.Rematch`` lives in the node):
    what it knows, and the one intent, which goes through the node."""

    def __init__(self, peer: Peer) -> None:
        self._peer = peer

    @property
    def next(self) -> RematchPlan | None:
        return self._peer.node.rematch.next

    @property
    def ended(self) -> bool:
        return self._peer.node.rematch.ended

    def view(self) -> RematchChanged:
        return self._peer.node.rematch.view()

    def answer(self, yes: bool) -> bool:
        """This peer's player plays again (or not); False when it cannot be said now."""
        return self._peer.feed(RematchAnswer(yes, trio.current_time())).accepted


class Peer:
    """The runtime of one peer at one table.  See the module docstring."""

    def __init__(
        self,
        identity: Identity,
        role: HostConfig | JoinConfig | None = None,
        config: NodeConfig = DEFAULT_CONFIG,
        *,
        network: Network = TCP,
        seams: NodeSeams | None = None,
    ) -> None:
        """``role``: hosting or joining a table (``client.node.hosting``,
        ``client.node.joining``); ``config``: how this peer plays; ``network``: how it
        listens and dials (``client.runtime.peer_network``: TCP but in tests); ``seams``: where a
        test bends the node (``client.node.node_io.NodeSeams``).  ``InvalidParams``,
        ``JoinRefused`` or ``IdentityError`` when a host's table cannot be set up."""
        self.identity = identity
        self.network = network
        self.me = identity.public_key
        self.role = role
        self.node = PeerNode(
            identity,
            config,
            open_journal=lambda table_id, game, players: self.table_files.create(
                table_id, date.today(), game, players
            ),
            evidence=EvidenceFiles(game_dir(config.profile, config.home)),
            seams=seams,
            thinking=self._thread_thinking if config.think_in_thread else lambda: INLINE,
            role=role,
        )
        self.rematch = RematchDoor(self)
        """Playing again after the END (``client.node.rematch``, in the node)."""
        self.observers: list[Observer] = []
        self.done = trio.Event()
        self.bytes_sent = 0
        """Record frames written on every link (envelopes and frame overhead)."""
        self._listeners: list[trio.SocketListener] = []
        self._wake = trio.Event()
        self._soon: list[Callable[[], None]] = []
        self._links_changed = trio.Event()
        self._incoming: set[PeerLink] = set()  # links dialed here whose task still runs
        self._mesh_wake = trio.Event()
        self._nursery: trio.Nursery | None = None

    # --- the lobby roles ---------------------------------------------------------------------
    @property
    def host(self) -> HostRole | None:
        """The host's lobby (None: this peer joins)."""
        return self.node.host

    @property
    def resumed(self) -> bool:
        """This peer took its table up again from its game file (it restarted mid-game):
        it did not see the game from its start."""
        return self.node.mesh.restarted

    @property
    def joining(self) -> JoinRole | None:
        """The joiner's part (None: this peer hosts)."""
        return self.node.joining

    @property
    def secret(self) -> str | None:
        """The table secret: the host's, or the one a joiner proves."""
        role = self.role
        if isinstance(role, HostConfig):
            return role.secret
        return role.proved_secret if isinstance(role, JoinConfig) else None

    def set_ready(self, ready: bool) -> None:
        self.feed(SetReady(ready, _lobby_time()))

    def add_bot(self, seat: int | None = None) -> None:
        self.feed(AddBot(seat, _lobby_time()))

    def remove_bot(self, seat: int) -> None:
        self.feed(RemoveBot(seat, _lobby_time()))

    def remove_player(self, who: int | str | bytes) -> str:
        """The host sends a joiner away before START (``JoinRefused`` saying why not)."""
        return self.feed(RemovePlayer(who, _lobby_time())).answer

    def start_table(self) -> None:
        """The host signs START and begins (``JoinRefused`` saying what is missing)."""
        self.feed(StartTable(_lobby_time()))

    # --- what the node holds, as front ends and tests read it ------------------------------
    @property
    def config(self) -> NodeConfig:
        return self.node.config

    @property
    def profile(self) -> str:
        return self.node.config.profile

    @property
    def home(self) -> Path | None:
        return self.node.config.home

    @property
    def engine_for(self) -> Callable[[str], AnyEngine]:
        return self.node.config.engine_for

    @property
    def bot_kind(self) -> str:
        return self.node.config.bot_kind

    @property
    def seed(self) -> int:
        return self.node.config.seed

    @property
    def bot_delay(self) -> float:
        return self.node.config.bot_delay

    @property
    def stay(self) -> bool:
        return self.node.config.stay

    @property
    def table(self) -> Table | None:
        return self.node.table

    def clocks(self) -> ClockDisplay | None:
        """The table's clocks as they stand now, on this runtime's clock (None before START
        and on a table without a clock): what a front end repaints between events."""
        table = self.node.table
        if table is None:
            return None
        try:
            now = trio.current_time()
        except RuntimeError:  # read outside the peer's trio run: nothing runs, nothing shown
            return None
        return table.view.clocks(now)

    @property
    def file(self) -> GameFile | None:
        file = self.node.file
        assert file is None or isinstance(file, GameFile)
        return file

    @property
    def table_id(self) -> bytes | None:
        return self.node.table_id

    @table_id.setter
    def table_id(self, table_id: bytes | None) -> None:
        self.node.table_id = table_id

    @property
    def links(self) -> list[PeerLink]:
        return self.node.links  # type: ignore[return-value]  # the runtime's own handles

    @property
    def name(self) -> str:
        return self.node.name

    @name.setter
    def name(self, name: str) -> None:
        self.node.name = name

    @property
    def port(self) -> int:
        return self.node.port

    @property
    def bot_me(self) -> bool:
        return self.node.config.bot_me

    @bot_me.setter
    def bot_me(self, bot_me: bool) -> None:
        self.node.config = replace(self.node.config, bot_me=bot_me)

    @property
    def relay(self) -> Relay[NodeLink]:
        return self.node.relay

    @property
    def mesh(self) -> Mesh:
        return self.node.mesh

    @property
    def policy(self) -> TablePolicy:
        return self.node.policy

    @property
    def bot_identities(self) -> dict[bytes, Identity]:
        return self.node.bot_identities

    @property
    def exit_code(self) -> int | None:
        return self.node.exit_code

    @property
    def evidence_budget(self) -> EvidenceBudget:
        return self.node.evidence_budget

    @property
    def refused_on_links(self) -> int:
        return self.node.refused_on_links

    @property
    def left_table(self) -> bool:
        return self.node.left_table

    # --- files and keys ----------------------------------------------------------------------
    @property
    def games(self) -> Path:
        return game_dir(self.profile, self.home)

    @property
    def table_files(self) -> TableFiles:
        return TableFiles(self.games)

    def game_path(self, table_id: bytes) -> Path:
        """The table's game file (``DATE-GAME-PLAYERS``, found by the games folder's index;
        an older one named by the table id), which may not exist yet."""
        return self.table_files.path(table_id)

    def new_bot_identity(self, table_id: bytes) -> Identity:
        """A new key for a bot seat this peer runs, kept in the profile."""
        return self.node.new_bot_identity(table_id)

    def signer(self, identity: Identity) -> Signer:
        """The one signer of ``identity`` at this table (``PeerNode.signer``)."""
        return self.node.signer(identity)

    def _thread_thinking(self) -> Thinking:
        """Bots think in a worker thread (a strong bot's search must not stall this peer's
        links), which wakes the timer when a move is found.  Made as a table is, on this
        peer's loop; a runtime on a virtual clock thinks inline (``think_in_thread=False``:
        the clock would not wait for the thread)."""
        return ThreadThinking(lambda: self._wake.set())

    # --- the one way into the node -----------------------------------------------------------
    def feed(self, event: NodeInput) -> NodeOutput:
        """Hand ``event`` to the node and carry out what it decided, in order."""
        output = self.node.handle(event)
        for effect in output.effects:
            match effect:
                case Send(link, send):
                    link.put(send)  # type: ignore[attr-defined]
                case Close(link, reason, code):
                    link.put_close(reason, code)  # type: ignore[attr-defined]
                case Dial(key, where, watch):
                    assert self._nursery is not None
                    self._nursery.start_soon(self._dial, key, where, watch)
                case Tell(told):
                    self._observe(told)
                case Finish():
                    self.done.set()
        if output.wake_timer:
            self._wake.set()
        if output.wake_beat:
            self._mesh_wake.set()
        return output

    def act(self, intent: Callable[[Table, float], Output]) -> None:
        """Carry out an intent on the table (``IntentRefused`` says why not)."""
        self.feed(Play(intent, trio.current_time()))

    def from_link(self, link: PeerLink, event: NetEvent) -> None:
        """Events of a link of the mesh after START: one this peer dialed, or one another
        peer or a spectator dialed (``client.node.node_io.FromLink``)."""
        self.feed(FromLink(link, event, trio.current_time()))

    def finish(self, code: int, reason: str = "goodbye") -> None:
        """End now with ``code``, saying goodbye on every link."""
        self.feed(Leave(code, reason, trio.current_time()))

    def leave_table(self, code: int, reason: str = "the player left the table") -> None:
        """The player leaves on purpose (*Leave table*, Ctrl-C, Ctrl-D): sign LEAVE, so the
        others replace it (or end a table of two) at once, then end as ``finish`` does."""
        self.feed(Leave(code, reason, trio.current_time(), on_purpose=True))

    # --- front ends --------------------------------------------------------------------------
    def call_soon(self, callback: Callable[[], None]) -> None:
        """Run ``callback`` on the peer's loop after the event being handled (an observer
        that wants to act, say, must not re-enter the table from inside its own output)."""
        self._soon.append(callback)
        self._wake.set()

    def spawn(self, task: Callable[..., Awaitable[object]], *args: object) -> None:
        """Run ``task`` in the peer's nursery, for as long as the peer runs."""
        assert self._nursery is not None, "the peer is not running"
        self._nursery.start_soon(task, *args)

    def notify(self, event: PeerEvent) -> None:
        """Tell the front ends ``event`` (one the runtime itself has to say)."""
        self._observe(event)

    def _observe(self, event: PeerEvent) -> None:
        for observer in list(self.observers):
            observer(event)

    def peer_links(self) -> list[PeerLink]:
        return [link for link in self.links if not link.spectator]

    # --- listening and links -----------------------------------------------------------------
    async def _listen_as_joiner(self, role: JoinConfig) -> None:
        try:
            await self.listen(role.listen_port)
        except LinkError:
            if not (role.listen_port and role.any_port_if_taken):
                raise
            await self.listen(0)  # the old port is someone else's now: any free one

    async def listen(self, port: int) -> None:
        """Listen on ``port`` (0: any free one); ``LinkError`` saying why not."""
        self._listeners = await self.network.open_listeners(port)
        self.node.port = int(self._listeners[0].socket.getsockname()[1])

    def release(self) -> None:
        """Close the listening sockets and the game file now, even when the peer's task was
        cancelled before ``wind_down`` (a window closed mid-game): nothing is left to the
        garbage collector.  The port is free again (a rematch listens there)."""
        for listener in self._listeners:
            listener.socket.close()
        if self.file is not None and not self.file.closed:
            self.file.close()

    def link_spec(self, *, expect: bytes | None = None) -> LinkSpec:
        """What this peer brings to a link (``expect``: the key the other end must hold)."""
        return LinkSpec(
            self.identity,
            APP_VERSION,
            self.policy,
            table_id=self.table_id,
            listen_port=self.port,
            expected_fingerprint=None if expect is None else fingerprint(expect),
            secret=self.table_secret(),
            message_schemas=SCHEMAS,
        )

    def table_secret(self) -> str | None:
        """The table secret links prove and ask for (``net.linkspec``), if the table has one."""
        return self.secret

    # --- running ------------------------------------------------------------------------------
    async def open(self, port: int) -> Invite:
        """A host listens on ``port`` (0: any free one), retrying for ``open_retry`` seconds
        while the last table lets go of it; ``LinkError`` saying why not."""
        role = self.role
        assert isinstance(role, HostConfig), "a host opens its table; a joiner runs"
        deadline = trio.current_time() + role.open_retry
        while True:
            try:
                await self.listen(port)
                break
            except LinkError:
                if trio.current_time() >= deadline:
                    raise
                await trio.sleep(0.2)
        return Invite(
            lan_addresses(), self.port, role.table_id, self.identity.fingerprint, role.secret
        )

    async def run(self) -> int:
        """Serve the table until it concludes; the exit code (DESIGN.md section 4, End).  A
        host opens first; a joiner listens here, then dials the host."""
        role = self.role
        if isinstance(role, JoinConfig):
            try:
                await self._listen_as_joiner(role)
            except LinkError as error:
                self.feed(ListenFailed(str(error), trio.current_time()))
                return 1
        else:
            assert self._listeners, "open() first"
        try:
            async with trio.open_nursery() as nursery:
                self._nursery = nursery
                nursery.start_soon(self.serve_timer)
                if isinstance(role, HostConfig) and role.announced:
                    self._start_announcing(nursery, role)
                if isinstance(role, JoinConfig):
                    nursery.start_soon(self._serve_host, role)
                nursery.start_soon(self.serve_listeners, self._on_incoming)
                nursery.start_soon(self.serve_mesh)
                self.feed(Opened(trio.current_time()))
                await self.done.wait()
                await self.wind_down()
                nursery.cancel_scope.cancel()
        finally:
            self.release()
        return 1 if self.exit_code is None else self.exit_code

    def _start_announcing(self, nursery: trio.Nursery, role: HostConfig) -> None:
        from client.runtime.mdns import Announcer  # zeroconf only where a table is announced

        announcer = Announcer(self.port, role.table_id, self.identity.fingerprint, self.notify)
        self.observers.append(announcer.observe)
        nursery.start_soon(announcer.serve)

    async def _on_incoming(self, link: Link) -> None:
        """A joiner, a peer of the mesh or a newcomer dialed this peer."""
        peer_link = PeerLink(link, link.peer.key, link.remote, dialed_by=link.peer.key)
        self._incoming.add(peer_link)
        try:
            closed = await self.run_link(peer_link, self.from_link)
            self.feed(LinkDown(peer_link, closed, trio.current_time()))
        finally:
            self._incoming.discard(peer_link)

    def _unheard(self) -> bool:
        """Whether a link dialed here is up but the node has not taken it yet (its first
        message, a rejoin's ``join`` say, is on its way)."""
        return any(link not in self.links and not link.closing for link in self._incoming)

    async def _serve_host(self, role: JoinConfig) -> None:
        """Dial the host (and when nobody answers there, each of ``also`` in turn; the whole
        round again for ``dial_retry`` seconds), then run the link of the first that answers."""
        spec = self.link_spec()
        deadline = trio.current_time() + role.dial_retry
        targets = (role.target, *role.also)
        tried = 0
        while True:
            target = targets[tried % len(targets)]
            tried += 1
            try:
                if isinstance(target, Invite):
                    link = await self.network.connect_invite(target, spec)
                else:
                    link = await self.network.connect(*target, spec, timeout=10.0)
                break
            except LinkError as error:
                if not error.refused and tried % len(targets):
                    continue  # nobody answered there (a refusal is an answer): the next one
                if trio.current_time() >= deadline:
                    now = trio.current_time()
                    self.feed(HostUnreached(str(error), error.code, error.refused, now))
                    return
                await trio.sleep(0.2)  # the last table's host is still there, or not yet
        table_id = link.connection.table_id
        host = PeerLink(link, link.peer.key, "the host", dialed_by=self.me)
        rejoin = None if table_id is None else self._reopen(table_id)
        now = trio.current_time()
        self.feed(HostLinked(host, table_id, link.peer.fingerprint, rejoin, now))
        closed = await self.run_link(host, self.from_link)
        self.feed(LinkDown(host, closed, trio.current_time()))

    def _reopen(self, table_id: bytes) -> Reopening | str | None:
        """This table's game file read again for a rejoin (None: there is none; a text:
        why it cannot be read)."""
        path = self.game_path(table_id)
        if not path.exists():
            return None
        try:
            return self._read_game_file(path)
        except (StartRefused, LogFileError) as error:
            return str(error)

    def _read_game_file(self, path: Path) -> Reopening:
        file, contents = GameFile.reopen(path)
        records = []
        for data in contents.records:
            try:
                records.append(record_from_net(open_record(data)))
            except (DecodeError, SignatureError):
                continue  # not ours to judge here: the verifier says what is wrong
        if not records or records[0].kind != START:
            file.close()
            raise StartRefused(f"{path} does not begin with a START record")
        return Reopening(file, records, contents.torn)

    async def serve_listeners(self, on_link: Callable[[Link], Awaitable[object]]) -> None:
        """Accept links for as long as the peer runs."""
        if self._listeners:
            await serve(self._listeners, self.link_spec, on_link, on_failure=self._on_failure)

    async def _on_failure(self, remote: str, closed: LinkClosed) -> None:
        self.notify(LinkLost(remote, f"no link: {closed.reason}", fatal=False))

    async def _dial(self, key: bytes, where: Address, watch: bool = False) -> None:
        """Dial a peer of the mesh (``watch``: as a spectator) and run the link."""
        try:
            link = await self.network.connect(
                where.host, where.port, self.link_spec(expect=key), timeout=5.0
            )
        except LinkError:
            self.feed(DialEnded(key, None, trio.current_time()))
            return
        assert self.table is not None
        name = self.table.start.name_of(key)
        peer_link = PeerLink(link, key, name, dialed_by=self.me, watching=watch)
        self.feed(DialEnded(key, peer_link, trio.current_time()))
        closed = await self.run_link(peer_link, self.from_link, faults=not watch)
        self.feed(LinkDown(peer_link, closed, trio.current_time()))

    async def run_link(
        self,
        peer_link: PeerLink,
        deliver: Callable[[PeerLink, NetEvent], None],
        *,
        faults: bool = True,
    ) -> LinkClosed:
        """Read and write ``peer_link`` until it closes; ``deliver`` gets each event.

        The link joins ``links`` (broadcasts) only when the node admits it, and leaves
        them when it ends (``LinkEnded``: shown if it closed on the other side's fault,
        with ``faults``)."""

        async def handle(event: NetEvent) -> None:
            deliver(peer_link, event)

        closed: LinkClosed | None = None
        try:
            async with trio.open_nursery() as nursery:
                nursery.start_soon(self._write_link, peer_link)
                closed = await peer_link.link.run(handle)
                nursery.cancel_scope.cancel()
        finally:
            self.feed(LinkEnded(peer_link, closed if faults else None, trio.current_time()))
            self._links_changed.set()
        assert closed is not None
        return closed

    async def _write_link(self, peer_link: PeerLink) -> None:
        """Drain the link's queue, what is waiting in one write of at most ``BATCH_BYTES``
        (so a write never needs the peer to read more than that within the send timeout:
        a flood relayed to a slow peer is paced by it, not cut off)."""
        async for first in peer_link.inbox:
            batch = [first]
            size = _size(first)
            while size < BATCH_BYTES:
                try:
                    event = peer_link.inbox.receive_nowait()
                except trio.WouldBlock:
                    break
                batch.append(event)
                size += _size(event)
            if not await peer_link.link.send_batch(batch):
                return
            sent = sum(len(e.envelope) for e in batch if isinstance(e, SendRecord))
            frames = sum(1 for e in batch if isinstance(e, SendRecord))
            peer_link.bytes_sent += sent + frames * FRAME_OVERHEAD
            self.bytes_sent += sent + frames * FRAME_OVERHEAD
            if any(isinstance(e, Refuse) for e in batch):
                return

    # --- tasks -------------------------------------------------------------------------------
    async def serve_timer(self) -> None:
        """The node's deadlines (bots' delays, deferred fsyncs, the conclusion), each at its
        time, and what front ends asked to run soon."""
        while True:
            deadline = self.node.next_deadline()
            at = -math.inf if self._soon else math.inf if deadline is None else deadline
            with trio.move_on_at(at):
                await self._wake.wait()
            self._wake = trio.Event()
            while self._soon:
                self._soon.pop(0)()
            self.feed(TimerDue(trio.current_time()))

    async def serve_mesh(self) -> None:
        """Presence reports and pulls every beat; dialing as soon as there is someone to
        dial (the table started, a link was lost, a pause is over)."""
        while not self.done.is_set():
            now = trio.current_time()
            self.feed(BeatDue(now))
            with trio.move_on_after(self.node.beat_pause(now)):
                await self._mesh_wake.wait()
            self._mesh_wake = trio.Event()

    async def wind_down(self, timeout: float = 3.0) -> None:
        """After ``done``: let the links say goodbye (bounded), then close the file.

        A link that came up just before the end but has not said what it is yet (a peer
        rejoining through this one) is waited for too, at most ``UNHEARD_WAIT``: once the
        node takes it, it gets this peer's LEAVE and the goodbye (``PeerNode``), so a player
        who leaves right then is not waited out by that peer as away."""
        self.feed(WindDown(trio.current_time()))
        with trio.move_on_after(timeout):
            with trio.move_on_after(UNHEARD_WAIT):
                while self._unheard():
                    self._links_changed = trio.Event()
                    await self._links_changed.wait()
            while self.links:
                self._links_changed = trio.Event()
                await self._links_changed.wait()
        if self.file is not None:
            self.file.close()


def _lobby_time() -> float:
    """The time of a lobby intent: trio's, or 0 when it is given before the peer runs (a
    front end setting its lobby up; nothing in the lobby waits on time)."""
    try:
        return trio.current_time()
    except RuntimeError:
        return 0.0


def _size(event: SendEvent) -> int:
    return len(event.envelope) + FRAME_OVERHEAD if isinstance(event, SendRecord) else 64
