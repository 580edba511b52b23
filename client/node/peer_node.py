"""One peer at one table, sans-I/O: ``PeerNode.handle(NodeInput) -> NodeOutput``.

The node decides everything a peer does that is not waiting: what a record from a link
becomes (dedupe, pass on, the table's judgement, evidence), which links are admitted and
which closed, presence reports and pulls, whom to dial, when and how the peer ends, the
rematch.  It reads no clock (every input carries ``now``), imports no trio and never
blocks: what is to be sent, closed, dialed or told comes back as effects
(``client.node.node_io``), in the order it was decided, for the runtime (``client.runtime.peer``) to
carry out.  Its collaborators are named in its constructor, each a part with no I/O:

* ``client.node.mesh.Mesh`` (who is where, whom to dial, what goes to whom),
* ``client.node.peer_admission.Admission`` (one link per peer, joins after START, limits),
* ``client.node.peer_relay.Relay`` (dedupe, pass on, pull; every record held),
* ``client.node.peer_beat.Beat`` (presence reports, the address book, being alone),
* ``client.node.peer_conclusion.Conclusion`` (when and how this peer ends, every END held),
* ``client.tabletop.flood_guard.FloodGuard``, ``client.node.evidence_budget.EvidenceBudget``,
* ``client.node.rematch.Rematch`` (playing again), and the table (``client.tabletop.table.Table``),
  built from START;

and three synchronous ports: the game file (``Journal``: write-ahead happens inside
``handle``, the fsync before the ``Send`` effects it precedes are returned), the evidence
files (``EvidenceStore``) and the profile's keys and known names (bot keys, trust on first
use), read and written in place.

Invariants (as ``client.runtime.peer`` states them for the whole peer):

* every record this peer signs or accepts is appended as the table takes it; nothing it
  signed is sent before one fsync made the file durable up to it; received records are
  fsynced within ``SYNC_DELAY`` (the timer);
* a record taken from a link is passed on (``Mesh.passes_on``) before the table judges it,
  and a refused one goes to every admitted link; duplicates are dropped first; a chat or
  pointing record faster than its author may send is dropped before anything else;
* before START a link takes only START; after it only START's keys and the new bot keys of
  votes and REMOVEs (``TablePolicy``);
* a halt, a refused record, the END and the outcome conclude the peer
  (``client.node.peer_conclusion``), halts and refusals (within ``EvidenceBudget``) are written
  as evidence files;
* once the game file is closed nothing reaches the table.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from client.bots import Bot, level_of_kind, make_bot
from client.bots.thinking import INLINE, Thinking
from client.node.evidence_budget import EvidenceBudget
from client.node.hosting import HostConfig, HostRole
from client.node.joining import JoinConfig, JoinRole
from client.node.lobby import JoinRefused
from client.node.lobby_wire import JOIN
from client.node.mesh import (
    ADDRESSES,
    ENDED,
    HEARTBEAT,
    PRESENCE,
    PULL,
    Address,
    Mesh,
    addresses_body,
    heard_keys,
    pull_body,
    read_addresses,
    read_presence,
)
from client.node.mesh import SCHEMAS as MESH_SCHEMAS
from client.node.node_io import (
    AddBot,
    BeatDue,
    Close,
    Dial,
    DialEnded,
    Effect,
    EvidenceStore,
    Finish,
    FromLink,
    HostLinked,
    HostUnreached,
    Journal,
    Leave,
    LinkDown,
    LinkEnded,
    LinkUp,
    ListenFailed,
    LobbyAct,
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
    Started,
    StartTable,
    Tell,
    TimerDue,
    WindDown,
)
from client.node.peer_admission import SECOND_LINK, Admission, Refusal
from client.node.peer_beat import Beat
from client.node.peer_conclusion import END_WAIT, HALT_LINGER, Conclusion, Ended
from client.node.peer_events import (
    EvidenceWritten,
    LinkLost,
    LinkRefused,
    NameWarning,
    PeerEvent,
    RecordsSent,
    TableFlooded,
    TableStarted,
)
from client.node.peer_policy import TablePolicy
from client.node.peer_relay import Relay
from client.node.rematch import OPEN_RETRY, Rematch, RematchPlan
from client.profile.known_peers import KnownPeers
from client.rules.divergence import Evidence
from client.rules.net_adapter import NetSigner, open_envelope, record_from_net
from client.rules.records import LEAVE, REMOVE, SignedRecord, Signer
from client.rules.seated_names import seated_names
from client.rules.start import StartRefused, parse_start
from client.tabletop.events import (
    EvidenceUpdated,
    GameOver,
    Output,
    PlyApplied,
    TableEnded,
    TableEvent,
    TableHalted,
    TableRejected,
    VoteReceived,
)
from client.tabletop.flood_guard import FloodGuard
from client.tabletop.seating import IntentRefused
from client.tabletop.table import Table
from client.tabletop.table_input import LeaveTable
from engines import AnyEngine, find_engine
from net.errors import CloseCode
from net.events import Event as NetEvent
from net.events import (
    LinkClosed,
    MessageReceived,
    RecordReceived,
    SendEvent,
    SendMessage,
    SendRecord,
)
from net.events import RecordRejected as NetRecordRejected
from net.identity import Identity, load_bot_identity, profile_dir, short_fingerprint
from net.invite import format_table_id
from net.logfile import LogWriter
from net.records import Record
from net.signer import RecordSigner

__all__ = ["SYNC_DELAY", "NodeConfig", "PeerNode", "mesh_topic", "next_role"]

SYNC_DELAY = 0.05
"""Received records are fsynced at the latest this long after they were appended."""


@dataclass(frozen=True)
class NodeConfig:
    """How one peer plays a table: its profile (keys, known names, game files), the engines
    it has, its bots, and whether it stays when the game is over (a window) or accepts a
    rematch by itself."""

    profile: str = "default"
    home: Path | None = None
    engine_for: Callable[[str], AnyEngine] = find_engine
    bot_kind: str = "sensible"
    seed: int = 0
    """Seeds the bots this peer runs (seat by seat)."""
    bot_delay: float = 0.3
    bot_me: bool = False
    """A bot plays this peer's own seat too (``--bot``)."""
    stay: bool = False
    rematch: bool = False
    think_in_thread: bool = True
    """Bots think in a worker thread (the runtime's); False on a virtual clock, which would
    not wait for the thread."""

    def next_table(self, **changes: bool) -> NodeConfig:
        """The config of a rematch: the same profile, engines and bots; ``changes`` (and the
        defaults) for the rest."""
        return NodeConfig(
            profile=self.profile,
            home=self.home,
            engine_for=self.engine_for,
            bot_kind=self.bot_kind,
            seed=self.seed,
            bot_delay=self.bot_delay,
            **changes,
        )


def next_role(
    next_table: RematchPlan,
    name: str,
    config: NodeConfig,
    *,
    secret: str | None = None,
    own_bot: str | None = None,
) -> HostConfig | JoinConfig:
    """How this peer sits at ``next_table``: its host's or its joiner's config (``config`` as
    for the last table: profile, bots...; ``secret``: the last table's, which the rematch
    keeps; ``own_bot``: the level of the bot that plays this player's seat, as at the last
    table).  ``Peer(identity, next_role(...), config)`` plays it."""
    role: HostConfig | JoinConfig
    if next_table.is_host:
        role = HostConfig(
            config.engine_for(next_table.game),
            next_table.params,
            name,
            table_id=next_table.table_id,
            seat=next_table.seat,
            bot_seats=next_table.bot_seats,
            invited=next_table.players,
            away_ms=next_table.away_ms,
            idle_ms=next_table.idle_ms,
            clock=next_table.clock,
            auto_start=True,
            open_retry=OPEN_RETRY,
            secret=secret,
            own_bot=own_bot,
        )
    else:
        role = JoinConfig(
            next_table.invite,
            name,
            seat=next_table.seat,
            bot_seats=next_table.bot_seats,
            ready=True,
            dial_retry=OPEN_RETRY,
            secret=secret,
            own_bot=own_bot,
        )
    return role


def mesh_topic(topic: str) -> bool:
    """Whether ``topic`` is one of the mesh's (``PeerNode.mesh_message`` takes it)."""
    return topic in MESH_SCHEMAS


class PeerNode:
    """One peer at one table, sans-I/O (see the module docstring)."""

    def __init__(
        self,
        identity: Identity,
        config: NodeConfig,
        *,
        open_journal: Callable[[bytes, str, Sequence[str]], Journal],
        evidence: EvidenceStore,
        seams: NodeSeams | None = None,
        thinking: Callable[[], Thinking] = lambda: INLINE,
        role: HostConfig | JoinConfig | None = None,
    ) -> None:
        """``role``: the lobby part this peer plays (``HostRole`` or ``JoinRole``; None: a
        peer that only takes a table up from its file or is given START)."""
        self.identity = identity
        self.me = identity.public_key
        self.config = config
        """How this peer plays (one frozen value; ``replace`` it to change one thing)."""
        self.stay = config.stay
        self.open_journal = open_journal
        self.evidence = evidence
        self.seams = seams or NodeSeams()
        self.thinking = thinking
        """Where the bots of each table think (``client.bots.thinking``), made as the table
        is: inline here; the runtime's worker thread, which wakes its timer."""
        self.policy = TablePolicy()
        self.links: list[NodeLink] = []
        """The links taking part in the table (and the joiner's host link before START)."""
        self.table: Table | None = None
        self.file: Journal | None = None
        self.table_id: bytes | None = None
        self.port = 0
        """The port this peer listens on (the runtime sets it)."""
        self.name = ""
        """The player's name this peer joins or hosts with."""
        self.mesh = Mesh(self.me)
        self.admission: Admission[NodeLink] = Admission(self.mesh)
        self.relay: Relay[NodeLink] = Relay(self.mesh, self.policy)
        self.beat = Beat(self.mesh, stay=config.stay)
        self.conclusion = Conclusion(stay=config.stay)
        self.floods = FloodGuard()
        self.evidence_budget = EvidenceBudget()
        self.rematch = Rematch(self, auto=config.rematch)
        self.exit_code: int | None = None
        self.finished = False
        """``Finish`` was decided: the runtime winds down."""
        self._goodbye = "goodbye"  # what ``finish`` said, said again on a link admitted after
        self._my_leave: SignedRecord | None = None  # this peer's LEAVE, once it signed one
        self.bot_identities: dict[bytes, Identity] = {}
        self.refused_on_links = 0
        """Records ``net`` refused on every link: counted, never written."""
        self._signers: dict[bytes, Signer] = {}
        self._last_seqs: dict[bytes, int] = {}
        self._sync_due: float | None = None
        self._halt_count = 0
        self._rejected_count = 0
        self._known: KnownPeers | None = None
        self._warned: set[tuple[bytes, str]] = set()
        self._soon: list[Callable[[], None]] = []
        self._out: NodeOutput | None = None
        self.now = 0.0
        """The time of the input being handled (the parts that are told events read it)."""
        self.host: HostRole | None = None
        self.joining: JoinRole | None = None
        if isinstance(role, HostConfig):
            self.host = HostRole(self, role, bot_kind=config.bot_kind)
            self.table_id, self.name = role.table_id, role.name
        elif isinstance(role, JoinConfig):
            self.joining = JoinRole(self, role, bot_level=level_of_kind(config.bot_kind))
            self.name = role.name

    # --- the one way in ----------------------------------------------------------------------
    def handle(self, event: NodeInput) -> NodeOutput:
        """Handle one input; the effects it decided, in order.  Never re-entered; raises
        only ``IntentRefused`` for a refused intent (``Play``, nothing decided) and
        ``StartRefused``/``LogFileError`` for a START this peer cannot take."""
        assert self._out is None, "the node is handling another input"
        output = self._out = NodeOutput()
        self.now = event.now
        try:
            taken = self.seams.inputs(event)
            if taken is not None:
                self._dispatch(taken)
        finally:
            self._out = None
        return output

    def next_deadline(self) -> float | None:
        """When the node wants a ``TimerDue`` (None: not before another input)."""
        if self._soon:
            return -math.inf
        deadlines = [self._sync_due]
        if self.table is not None:
            deadlines.append(self.table.next_deadline())
        if not self.finished:
            deadlines.append(self.conclusion.due(bool(self.peer_links())))
        deadlines.append(self.floods.due())
        due = [deadline for deadline in deadlines if deadline is not None]
        return min(due) if due else None

    def beat_pause(self, now: float) -> float:
        """How long until the next ``BeatDue`` (a report, a dial), unless links change."""
        pause = HEARTBEAT if self.table is None else max(self.beat.next_report - now, 0.0)
        upcoming = self.mesh.next_dial()
        if upcoming is not None:
            pause = min(pause, max(upcoming - now, 0.05))
        return pause

    def _dispatch(self, event: NodeInput) -> None:
        match event:
            case FromLink(link, net_event, now):
                self._from_link(link, net_event, now)
            case LinkUp(link, _):
                self._admit(link)
            case LinkEnded(link, closed, _):
                self._link_ended(link, closed)
            case LinkDown(link, closed, now):
                self._link_ended_for_good(link, closed, now)
            case DialEnded(key, link, now):
                self._dial_ended(key, link, now)
            case TimerDue(now):
                self._timer(now)
            case BeatDue(now):
                self._on_beat(now)
            case Play(intent, now):
                self._act(intent, now)
            case Started(start, spectator, now):
                self._begin(start, spectator, now)
            case RematchAnswer(yes, now):
                self._output.accepted = self.rematch.answer(yes)
            case Leave(code, reason, now, on_purpose):
                if on_purpose:
                    self._sign_leave(now)
                self.finish(code, reason)
            case WindDown(_):
                self.report_floods(math.inf)
            case Opened(now):
                self._opened(now)
            case ListenFailed(reason, _):
                self._joiner().listen_failed(reason)
            case HostUnreached(reason, code, refused, _):
                self._joiner().host_unreached(reason, code, refused)
            case HostLinked(link, table_id, fingerprint, rejoin, now):
                self._joiner().host_linked(link, table_id, fingerprint, rejoin, now)
            case SetReady() | AddBot() | RemoveBot() | RemovePlayer() | StartTable():
                self._lobby_act(event)

    # --- the lobby roles ---------------------------------------------------------------------
    def _joiner(self) -> JoinRole:
        assert self.joining is not None, "only a joiner dials a host"
        return self.joining

    def _opened(self, now: float) -> None:
        if self.host is not None:
            self.host.opened(now)
        elif self.joining is not None:
            self.policy.keys = None  # START may come from any peer, signed by the host

    def _lobby_act(self, act: LobbyAct) -> None:
        host, joining = self.host, self.joining
        match act:
            case SetReady(ready, now) if host is not None:
                host.set_ready(ready, now)
            case SetReady(ready, _) if joining is not None:
                joining.set_ready(ready)
            case AddBot(seat, now) if host is not None:
                host.add_bot(seat, now)
            case AddBot(seat, _) if joining is not None:
                joining.add_bot(seat)
            case RemoveBot(seat, now) if host is not None:
                host.remove_bot(seat, now)
            case RemoveBot(seat, _) if joining is not None:
                joining.remove_bot(seat)
            case RemovePlayer(who, now) if host is not None:
                self._output.answer = host.remove_player(who, now)
            case StartTable(now) if host is not None:
                host.start_table(now)
            case _:
                raise JoinRefused("only the host of the table does that")

    def _from_link(self, link: NodeLink, event: NetEvent, now: float) -> None:
        """An event of a link.  A record goes straight to ``_receive`` from an admitted
        link, whoever dialed it (the lobby roles have no say in the game's records), but
        for START on a joiner's host link, which its role takes.  Any other event goes to the
        role of the host's link (a joiner's lobby), of a joiner's (the host's lobby, before
        START and for its players after it), else to the mesh."""
        if isinstance(event, RecordReceived):
            if self.table is None and self.joining is not None and link is self.joining.host_link:
                self.joining.on_event(link, event, now)  # START, which begins the table
            elif link.admitted and not link.spectator:  # a spectator only watches
                self._receive(event.record, link, now)
            return
        if self.joining is not None and link is self.joining.host_link:
            self.joining.on_event(link, event, now)
        elif link.dialed_by == self.me:
            self._deliver_mesh(link, event, now)
        elif self.host is not None and self.host.takes(link):
            self.host.on_event(link, event, now)
        else:
            self._deliver_incoming(link, event, now)

    def _link_ended_for_good(self, link: NodeLink, closed: LinkClosed, now: float) -> None:
        """A link's task is over (after ``LinkEnded``)."""
        if self.joining is not None and link is self.joining.host_link:
            self.joining.host_down(closed, now)
        elif self.host is not None and link.dialed_by != self.me:
            self.host.link_down(link, closed, now)
        else:
            self._link_down(link, now)

    # --- what the roles ask of the node --------------------------------------------------------
    @property
    def engine_for(self) -> Callable[[str], AnyEngine]:
        return self.config.engine_for

    def admit(self, link: NodeLink) -> None:
        self._admit(link)

    def vouch(self, peers: Iterable[tuple[bytes, str]]) -> None:
        self._vouch(peers)

    def link_refused(self, link: NodeLink, reason: str) -> None:
        self._link_refused(link, reason)

    def mesh_message(self, link: NodeLink, message: MessageReceived, now: float) -> bool:
        return self._mesh_message(link, message, now)

    def rematch_message(self, link: NodeLink, message: MessageReceived) -> None:
        self.rematch.on_message(link, message)

    def link_down(self, link: NodeLink, now: float) -> None:
        self._link_down(link, now)

    def peer_left(self, key: bytes) -> None:
        self.rematch.left(key)

    def begin(self, start: SignedRecord, spectator: bool, now: float) -> None:
        self._begin(start, spectator, now)

    def resume(self, reopening: Reopening, now: float) -> None:
        self._resume(reopening.journal, reopening.records, now)

    def effects_so_far(self) -> int:
        """How many effects the input being handled decided so far (``undo_after``)."""
        return len(self._output.effects)

    def undo_after(self, mark: int) -> None:
        """Forget the effects decided after ``mark``: a step that failed half-way is as if
        it had not been taken (the runtime never saw them)."""
        del self._output.effects[mark:]

    # --- effects -----------------------------------------------------------------------------
    @property
    def _output(self) -> NodeOutput:
        assert self._out is not None, "effects are decided inside handle() only"
        return self._out

    def _emit(self, effect: Effect) -> None:
        kept = self.seams.effects(effect)
        if kept is not None:
            self._output.effects.append(kept)

    def send(self, link: NodeLink, event: SendEvent) -> None:
        """Queue ``event`` on ``link`` (nothing once the link is closing)."""
        if not link.closing:
            self._emit(Send(link, event))

    def close(self, link: NodeLink, reason: str, code: CloseCode = CloseCode.CLOSING) -> None:
        """Say goodbye on ``link`` after what is queued; nothing more goes on it."""
        if not link.closing:
            self._emit(Close(link, reason, code))
            link.closing = True

    def notify(self, event: PeerEvent) -> None:
        """Tell the front ends (the rematch hears it first, as it always did)."""
        self.rematch.on_event(event)
        self._emit(Tell(event))

    def call_soon(self, callback: Callable[[], None]) -> None:
        """Run ``callback`` at the next ``TimerDue``, after the input being handled."""
        self._soon.append(callback)
        self._output.wake_timer = True

    def _wake(self) -> None:
        self._output.wake_timer = True

    def _wake_beat(self) -> None:
        self._output.wake_beat = True

    # --- files and keys ----------------------------------------------------------------------
    def open_file(self, table_id: bytes, game: str, players: Sequence[str]) -> Journal:
        """Create this table's game file, named by the day, ``game`` and ``players`` in seat
        order (``LogFileError`` if it cannot be made)."""
        if self.file is None:
            self.table_id = table_id
            self.file = self.open_journal(table_id, game, players)
        return self.file

    @property
    def left_table(self) -> bool:
        """The game file is closed: nothing more reaches the table."""
        return self.file is not None and self.file.closed

    def new_bot_identity(self, table_id: bytes) -> Identity:
        """A new key for a bot seat this peer runs, kept in the profile."""
        name = f"{format_table_id(table_id)}-{len(self.bot_identities) + 1}"
        identity = load_bot_identity(self.config.profile, name, self.config.home)
        self.bot_identities[identity.public_key] = identity
        return identity

    def _table_bot_identities(self, table_id: bytes) -> None:
        """After a restart: the lobby bots' keys this profile made for this table."""
        folder = profile_dir(self.config.profile, self.config.home) / "bots"
        prefix = f"{format_table_id(table_id)}-"
        for path in sorted(folder.glob(f"{prefix}*.key")) if folder.is_dir() else ():
            identity = load_bot_identity(self.config.profile, path.stem, self.config.home)
            self.bot_identities[identity.public_key] = identity

    def signer(self, identity: Identity) -> Signer:
        """The one signer of ``identity`` at this table (its ``seq`` lives there, after what
        the game file holds when the peer restarted)."""
        key = identity.public_key
        if key not in self._signers:
            assert self.file is not None and self.table_id is not None
            last = self._last_seqs.get(key, 0)
            assert isinstance(self.file, LogWriter)  # the signer writes ahead to the game file
            own = NetSigner(RecordSigner(identity, self.table_id, self.file, last))
            self._signers[key] = self.seams.signer(identity, own)
        return self._signers[key]

    def _replacement_bot(self, seat: int, ply: int) -> tuple[Signer, Bot | None]:
        """The bot key a REMOVE at ``ply`` hands this peer for ``seat`` (the same again after
        a restart: named after the table, the seat and the ply)."""
        assert self.table_id is not None and self.table is not None
        name = f"{format_table_id(self.table_id)}-seat{seat}-ply{ply}"
        identity = load_bot_identity(self.config.profile, name, self.config.home)
        self.bot_identities[identity.public_key] = identity
        return self.signer(identity), self._bot(self.table.start.game, seat)

    def _bot(self, game: str, seat: int) -> Bot:
        made = make_bot(game, self.config.bot_kind, self.config.seed * 100 + seat)
        return self.seams.bot(game, seat, made)

    @property
    def known(self) -> KnownPeers:
        """The profile's known peers (read on first use)."""
        if self._known is None:
            self._known = KnownPeers(
                profile_dir(self.config.profile, self.config.home) / "known-peers.json"
            )
            if self._known.problem is not None:
                self.notify(NameWarning(self._known.problem))
        return self._known

    def _vouch(self, peers: Iterable[tuple[bytes, str]], *, remember: bool = False) -> None:
        """Check ``(key, name)`` pairs against the names this profile met (trust on first
        use): a ``NameWarning`` for each known name that comes with a new key, once per
        pair; with ``remember`` (START: the players of this game) note them all."""
        known = self.known
        others = [(key, name) for key, name in peers if key != self.me]
        for key, name in others:
            conflict = known.check(name, key)
            if conflict is not None and (key, name) not in self._warned:
                self._warned.add((key, name))
                self.notify(NameWarning(str(conflict), key))
        if remember and others:
            had_problem = known.problem is not None
            known.remember(others)
            if known.problem is not None and not had_problem:
                self.notify(NameWarning(known.problem))

    # --- ending ------------------------------------------------------------------------------
    def conclude(
        self, code: int, now: float, after: float, *, wait_links: bool, weak: bool = False
    ) -> None:
        """End with ``code`` after ``after`` seconds (``client.node.peer_conclusion``)."""
        if self.conclusion.conclude(code, now, after, wait_links=wait_links, weak=weak):
            self._wake()

    def hold(self, seconds: float | None) -> None:
        """Stay at least ``seconds`` more before ending with code 0 (None: stop holding)."""
        self.conclusion.hold(self.now, seconds)
        self._wake()

    def finish(self, code: int, reason: str = "goodbye") -> None:
        """End now with ``code``, saying goodbye on every link."""
        if self.exit_code is None:
            self.exit_code = code
        self._goodbye = reason
        for link in self.links:
            self.close(link, reason)
        self.finished = True
        self._emit(Finish(self.exit_code))
        self._wake()

    def peer_links(self) -> list[NodeLink]:
        return [link for link in self.links if not link.spectator]

    # --- the timer ---------------------------------------------------------------------------
    def _timer(self, now: float) -> None:
        while self._soon:
            self._soon.pop(0)()
        if self._sync_due is not None and now >= self._sync_due:
            self._sync_due = None
            if self.file is not None and not self.file.closed:
                self.file.sync()
        self.report_floods(now)
        if self.table is not None and not self.left_table:
            deadline = self.table.next_deadline()
            if deadline is not None and now >= deadline:
                self._absorb(self.table.tick(now), now)
        due = self.conclusion.due(bool(self.peer_links()))
        code = self.conclusion.code
        if code is not None and due is not None and not self.finished and now >= due:
            self.finish(code, self.conclusion.reason)

    def report_floods(self, now: float) -> None:
        """Tell of each burst of dropped chat or pointing that is over by ``now``."""
        table = self.table
        for report in self.floods.reports(now):
            name = report.author.hex() if table is None else table.describe(report.author)
            self.notify(TableFlooded(report.author, name, report.kind, report.dropped))

    # --- the table ---------------------------------------------------------------------------
    def _begin(self, start_record: SignedRecord, spectator: bool, now: float) -> None:
        table = self._make_table(start_record, spectator=spectator, file=None)
        self.relay.hold(start_record)
        if start_record.author == self.me:  # the host: START goes first, durable
            assert self.file is not None
            self.file.sync()
            self._broadcast(start_record)
        self._started(table)
        self._absorb(table.begin(now), now)

    def _resume(self, journal: Journal, records: Sequence[SignedRecord], now: float) -> None:
        for record in records:
            self._last_seqs[record.author] = max(self._last_seqs.get(record.author, 0), record.seq)
        self._table_bot_identities(records[0].table_id)
        spectator = self.me not in parse_start(records[0]).peer_keys
        table = self._make_table(records[0], spectator=spectator, file=journal)
        self.mesh.restarted = True
        for record in records:
            self.relay.hold(record)
        self._started(table)
        self._absorb(table.restore(list(records), now), now)

    def _make_table(
        self, start_record: SignedRecord, *, spectator: bool, file: Journal | None
    ) -> Table:
        start = parse_start(start_record)
        try:
            engine = self.config.engine_for(start.game)
        except LookupError:
            raise StartRefused(f"this palabre does not know the game {start.game!r}") from None
        me = None if spectator else self.me
        if me is not None and me not in start.peer_keys:
            raise StartRefused("the table started without this peer")
        if file is None:
            file = self.open_file(
                start.table_id, start.game, seated_names(start.peers, start.seats)
            )
        else:
            self.file, self.table_id = file, start.table_id
        signers: dict[bytes, Signer] = {}
        bots: dict[bytes, Bot] = {}
        if me is not None:
            signers[me] = self.signer(self.identity)
            for seat in start.seats:
                if seat.runner == me:
                    identity = self.bot_identities.get(seat.key)
                    if identity is None:
                        raise StartRefused(f"START gives this peer seat {seat.seat}'s bot to run")
                    signers[seat.key] = self.signer(identity)
                    bots[seat.key] = self._bot(start.game, seat.seat)
                elif seat.key == me and self.config.bot_me:
                    bots[me] = self._bot(start.game, seat.seat)
        game_file = file
        self.table = Table(
            start_record,
            engine,
            open_envelope,
            me=me,
            signers=signers,
            bots=bots,
            bot_delay=self.config.bot_delay,
            journal=lambda record: game_file.append(record.envelope),
            bot_factory=self._replacement_bot,
            bot_level=level_of_kind(self.config.bot_kind),
        )
        self.table.local.think_in(self.thinking())
        self.policy.keys = set(start.peer_keys) | set(start.seat_keys)
        self.mesh.peers = start.peer_keys
        self.mesh.clocked = start.clock is not None
        self._vouch(((peer.key, peer.name) for peer in start.peers), remember=True)
        return self.table

    def _started(self, table: Table) -> None:
        assert self.file is not None
        start = table.start
        me = table.me
        my_seats = (
            () if me is None else tuple(s.seat for s in start.seats if me in (s.key, s.runner))
        )
        for link in self.links:
            if link.key in start.peer_keys and not link.spectator:
                link.admitted = True
        self.beat.links_changed()
        self._wake_beat()  # report and dial the mesh now
        self.notify(TableStarted(start, my_seats, self.file.path))

    def _receive(self, record: Record, source: NodeLink | None, now: float) -> None:
        """A record ``net`` verified on ``source``: pass it on, then hand it to the table."""
        relay = self.relay
        if relay.knows(record.hash):
            return  # it raced a copy on another link
        if self.left_table:
            return  # the game file is closed: this peer has left and records nothing more
        signed = record_from_net(record)
        table = self.table
        if table is not None and not self.floods.admits(signed, now):
            return  # too fast for a person: never held, logged, shown nor passed on
        relay.hold(signed)
        runner = None if table is None else table.runner_of(signed.author)
        passed = relay.pass_on(signed, runner, source, self.links)
        for link in passed:
            self.send(link, SendRecord(record.data))
        if table is not None:
            if source is not None and not source.spectator:
                table.presence.hear(source.key, now)
            output = table.receive(signed, now)
            if any(isinstance(e, TableRejected) and e.record == signed for e in output.events):
                for link in relay.evidence(source, passed, self.links):
                    self.send(link, SendRecord(record.data))  # every peer sees a refused record
            self._absorb(output, now)

    def _sign_leave(self, now: float) -> None:
        """The player leaves on purpose: LEAVE goes out (written ahead) before the goodbye,
        so the others act on it at once; nothing to sign for a spectator or a table over."""
        table = self.table
        if table is None or self.left_table or not table.seated or table.ended:
            return
        output = table.handle(LeaveTable(now))
        self._my_leave = next((r for r in output.send if r.kind == LEAVE), None)
        self._absorb(output, now)

    def _act(self, intent: Callable[[Table, float], Output], now: float) -> None:
        if self.table is None:
            raise IntentRefused("the game has not started yet")
        if self.left_table:
            raise IntentRefused("this peer has left the table")
        self._absorb(intent(self.table, now), now)

    def _absorb(self, output: Output, now: float) -> None:
        """Make a table output durable, send what it signed, handle and pass on its events."""
        output = self.seams.table_output(output)
        if output.send:
            assert self.file is not None
            self.file.sync()  # write-ahead: nothing leaves before it is on disk
            for record in output.send:
                self.relay.hold(record)
                self._broadcast(record)
            self.notify(RecordsSent(tuple(output.send)))
        elif self.file is not None and self.file.unsynced and self._sync_due is None:
            self._sync_due = now + SYNC_DELAY
        for event in output.events:
            self._on_table_event(event, now)
            self.notify(event)
        self._wake()

    def _broadcast(self, record: SignedRecord) -> None:
        for link in self.relay.everyone(self.links):
            self.send(link, SendRecord(record.envelope))

    def _on_table_event(self, event: TableEvent, now: float) -> None:
        if isinstance(event, TableHalted | EvidenceUpdated):
            self._halt_count += 1
            if isinstance(event, TableHalted):
                self.conclude(3, now, HALT_LINGER, wait_links=False)
            self._write_evidence("halt", event.evidence, halted=True)
        elif isinstance(event, TableRejected) and event.evidence is not None:
            evidence = event.evidence
            author = evidence.culprits[0] if evidence.culprits else event.record.author
            size = len(json.dumps(evidence.to_json(), indent=1, ensure_ascii=False))
            if self.evidence_budget.admit(author, size):  # past it: counted, not written
                self._rejected_count += 1
                self._write_evidence(f"rejected-{self._rejected_count}", evidence, halted=False)
        elif isinstance(event, TableEnded):
            self._hold_every_end(now)
        elif isinstance(event, GameOver):
            self.conclude(0, now, END_WAIT, wait_links=False, weak=True)
        elif isinstance(event, VoteReceived | PlyApplied):
            self._allow_new_keys(event)

    def _hold_every_end(self, now: float) -> None:
        """This peer holds every END: say so, and stay until every peer at the table does."""
        message = self.conclusion.holds_every_end(self._ended(), now)
        self._wake()
        if message is not None:
            self._tell_peers(message)

    def _learn_end_holders(self, keys: Sequence[bytes], now: float) -> None:
        """A link says who holds every END: pass on what is new, leave once all do."""
        table = None if self.table is None else self._ended()
        message = self.conclusion.learn_end_holders(table, keys, now)
        if message is not None:
            self._wake()
            self._tell_peers(message)

    def _ended(self) -> Ended:
        table = self.table
        assert table is not None
        absent = table.abandoned[1] if table.abandoned is not None else ()
        return Ended(table.me, table.ended, table.head.peers, absent)

    def _tell_peers(self, message: SendMessage) -> None:
        """Send ``message`` on every admitted link with a peer (not a spectator)."""
        for link in self.links:
            if link.admitted and not link.spectator:
                self.send(link, message)

    def _allow_new_keys(self, event: VoteReceived | PlyApplied) -> None:
        """The new bot keys a vote or a REMOVE names may sign here from now on."""
        record = event.state.record if isinstance(event, PlyApplied) else None
        naming = isinstance(event, VoteReceived) or (record is not None and record.kind == REMOVE)
        if naming and self.policy.keys is not None and self.table is not None:
            self.policy.keys.update(spec.key for spec in self.table.head.seats)
            for proposal in self.table.ballot.proposals():
                self.policy.keys.update(spec.key for spec in proposal.replacements)

    def _write_evidence(self, name: str, evidence: Evidence, *, halted: bool) -> None:
        assert self.table_id is not None
        path = self.evidence.write(self.table_id, name, evidence.to_json())
        if path is not None:
            self.notify(EvidenceWritten(path, halted, evidence.reason, evidence.verdict))

    # --- links -------------------------------------------------------------------------------
    def _admit(self, link: NodeLink) -> None:
        """``link`` takes part in the table: after START it is a link of the mesh."""
        table = self.table
        if link not in self.links:
            self.links.append(link)
        link.admitted = True
        if link.address is not None and link.listen_port and not link.spectator:
            where = Address(link.address, link.listen_port)
            self.beat.learned(self.mesh.learn(link.key, where, direct=True))
        if table is None:
            return
        for loser in self.admission.second_links(link, list(self.links)):
            self.close(loser, SECOND_LINK)
            loser.admitted = False
            if loser is link:
                return
        if self.finished:
            self._late_goodbye(link)
            return
        self._pull(link)  # first: a link this peer dialed begins with it
        self.send(link, SendMessage(ADDRESSES, addresses_body(self.mesh.book)))
        self.beat.linked()
        self.beat.links_changed()
        self._wake_beat()

    def _late_goodbye(self, link: NodeLink) -> None:
        """A link admitted after this peer finished (a peer's rejoin or dial that was on its
        way when the player left): it gets this peer's LEAVE, if it signed one, then the
        goodbye; otherwise the others would learn it left only from the away timeout."""
        if self._my_leave is not None:
            self.send(link, SendRecord(self._my_leave.envelope))
        self.close(link, self._goodbye)

    def _pull(self, link: NodeLink) -> None:
        table = self.table
        if table is None:
            return
        ply = max(table.final_ply, 0)
        self.send(link, SendMessage(PULL, pull_body(ply, table.chain.at(ply).chain_digest)))

    def _mesh_message(self, link: NodeLink, message: MessageReceived, now: float) -> bool:
        """Handle a mesh topic from an admitted link; False if the topic is not one."""
        topic, body = message.topic, message.body
        if self.left_table:
            return topic in MESH_SCHEMAS  # the game file is closed: nothing reaches the table
        table = self.table
        if topic == PRESENCE:
            entries = read_presence(body)
            if table is not None and not link.spectator:
                self.mesh.report(link.key, heard_keys(entries))
                self._absorb(table.presence_report(link.key, entries, now), now)
        elif topic == ADDRESSES:
            # A spectator is nobody at the table: its word on where players listen would
            # send them dialing any address it likes (it sends its book all the same).
            learned = [] if link.spectator else read_addresses(body)
            for key, where in learned:
                if not self.mesh.peers or key in self.mesh.peers:
                    self.beat.learned(self.mesh.learn(key, where))
        elif topic == ENDED:
            if not link.spectator:  # nor on who holds every END, which lets a peer leave
                self._learn_end_holders(body["keys"], now)
        elif topic == PULL:
            if table is not None:
                ply, digest = body["ply"], body["digest"]
                same = ply <= table.head.ply and table.chain.at(ply).chain_digest == digest
                for data in self.relay.answer(link, now, ply, same):
                    self.send(link, SendRecord(data))
        else:
            return False
        if table is not None and not link.spectator:
            table.presence.hear(link.key, now)
        return True

    def _link_ended(self, link: NodeLink, closed: LinkClosed | None) -> None:
        if link in self.links:
            self.links.remove(link)
        link.closing = True
        self._wake()
        if closed is not None and self.admission.is_fault(closed):
            who = self.describe_link(link)
            self.notify(LinkLost(who, f"closed on a fault: {closed.reason}", fatal=False))

    def _link_down(self, link: NodeLink, now: float) -> None:
        """A link ended: the mesh dials again (or waits to be dialed)."""
        if link.watching:  # a spectator's link to a peer it watches: it asks another
            self.mesh.link_lost(link.key, now)
            return
        if self.table is not None and not link.spectator:
            self.mesh.link_lost(link.key, now)
        self._wake()
        self.beat.links_changed()
        self._wake_beat()

    def _dial_what_is_due(self, now: float) -> None:
        if not self.finished:
            linked = [link.key for link in self.links if not link.closing]
            for key, where in self.mesh.to_dial(now, linked):
                self._emit(Dial(key, where))

    def _dial_ended(self, key: bytes, link: NodeLink | None, now: float) -> None:
        self.mesh.dial_ended(key, now, ok=link is not None)
        if link is None:
            return
        if link.watching:
            body = {"name": self.name or "a spectator", "seat": 0, "watch": True, "ready": True}
            self.send(link, SendMessage(JOIN, body))
        self._admit(link)

    def _deliver_mesh(self, link: NodeLink, event: NetEvent, now: float) -> None:
        """Events of a link this peer dialed after START."""
        if isinstance(event, NetRecordRejected):
            self._link_refused(link, event.reason)
        elif isinstance(event, MessageReceived) and not (
            link.admitted and self._mesh_message(link, event, now)
        ):
            self.close(link, f"a peer does not send {event.topic!r} here", CloseCode.PROTOCOL)

    def _deliver_incoming(self, link: NodeLink, event: NetEvent, now: float) -> None:
        """Events of a link another peer or a spectator dialed, once the game has started:
        ``pull`` first from a peer of the mesh, ``join`` from one that rejoins or watches."""
        if isinstance(event, NetRecordRejected):
            self._link_refused(link, event.reason)
            return
        if not isinstance(event, MessageReceived):
            return
        topic, table = event.topic, self.table
        if link.admitted:
            if not self._mesh_message(link, event, now):
                self.close(link, f"a peer does not send {topic!r} here", CloseCode.PROTOCOL)
        elif table is None:
            self.close(
                link,
                "this peer does not host the table: join at the host's address",
                CloseCode.REFUSED,
            )
        elif topic == JOIN:
            self._join_after_start(link, event)
        elif topic == PULL and link.key in table.start.peer_keys:
            link.name = table.start.name_of(link.key)
            self._admit(link)
            if link.admitted:
                self._mesh_message(link, event, now)
        else:
            self.close(link, f"a link does not begin with {topic!r}", CloseCode.PROTOCOL)

    def _join_after_start(self, link: NodeLink, join: MessageReceived) -> None:
        """A ``join`` once the game has started (any peer answers): a peer of START rejoins,
        a spectator watches, anyone else is told why not."""
        body = join.body
        table = self.table
        assert table is not None
        answer = self.admission.join_after_start(link.key, body["watch"], table.start.peer_keys)
        if answer == "rejoin":
            link.name = table.start.name_of(link.key)
        elif answer == "watch" and self.refuse_spectator(link):
            return
        elif answer == "watch":
            link.name, link.spectator = body["name"], True
        else:
            assert isinstance(answer, Refusal)
            self.close(link, answer.reason, answer.code)
            return
        self.links.append(link)
        for data in self.relay.held.envelopes:  # everything so far, in order, START first
            self.send(link, SendRecord(data))
        self._admit(link)

    def refuse_spectator(self, link: NodeLink) -> bool:
        """Refuse ``link`` as a spectator, telling it why, when ``MAX_SPECTATORS`` watch."""
        refusal = self.admission.spectator_refusal(self.links)
        if refusal is None:
            return False
        self.close(link, refusal.reason, refusal.code)
        return True

    def describe_link(self, link: NodeLink) -> str:
        """Who is at the other end of ``link`` (as the table names it), and where."""
        if self.table is not None:
            who = self.table.describe(link.key)
        else:
            who = f"{link.name} ({short_fingerprint(link.key)})"
        return f"{who} at {link.remote}"

    def _link_refused(self, link: NodeLink, reason: str) -> None:
        """A record ``net`` did not take on ``link`` (its author is not at the table, or it is
        for another table): shown, counted, never written (anyone can send one, so it is
        evidence of nothing); past ``MAX_REFUSED_PER_LINK`` the link is closed."""
        if link.closing:
            return  # what was on its way when the link was closed: nothing more to say
        refusal = self.admission.refused_record(link)
        self.refused_on_links += 1
        self.notify(
            LinkRefused(f"from {self.describe_link(link)}: {reason}", link.key, link.remote)
        )
        if refusal is not None:
            self.close(link, refusal.reason, refusal.code)

    # --- the beat ----------------------------------------------------------------------------
    def _on_beat(self, now: float) -> None:
        table = self.table
        if table is not None and not self.left_table:
            self._dial_what_is_due(now)
            if self.beat.report_due(now):
                self._beat(table, now)

    def _beat(self, table: Table, now: float) -> None:
        linked = [k.key for k in self.peer_links() if k.admitted and not k.closing]
        messages = self.beat.messages(table.me, table.presence, linked, now)
        for link in self.links:
            if link.admitted:
                for message in messages:
                    self.send(link, message)
        ended = self._ended()
        if self.conclusion.told_of_ends(ended):  # again: a link that came up since, or a
            self._tell_peers(self.conclusion.ended_message(ended))  # peer that lacks it
        peers = [link for link in self.peer_links() if link.admitted]
        stalled_on = self.relay.pull_from(peers, table.waiting_since, now)
        if stalled_on is not None:
            self._pull(stalled_on)
        if not peers and table.me is None and not self.finished:
            self._watch_elsewhere(now)
        if self.beat.gives_up(bool(peers), table.start.away_ms, now, table.head.peers):
            self.notify(LinkLost("every peer", "no peer could be reached", fatal=True))
            self.conclude(1, now, 0.0, wait_links=False)

    def _watch_elsewhere(self, now: float) -> None:
        """A spectator that lost its links asks another peer to let it watch (in turn)."""
        if any(not link.closing for link in self.links):
            return
        states = {key: self.mesh.dialing_state(key) for key in self.mesh.book}
        if any(state.busy for state in states.values()):
            return
        ready = [key for key, state in states.items() if now >= state.next_at]
        if ready:
            key = min(ready, key=lambda k: states[k].tries)  # the least failed first
            states[key].busy = True
            self._emit(Dial(key, self.mesh.book[key], watch=True))
