"""One table at one peer, over trio: links, the table core, the game file and the timer.

``Peer`` is what hosting (``client.hosting``) and joining (``client.joining``) share.  It
owns, in one nursery: one reader and one writer task per link, the table's timer (bots'
delays, ``Table.next_deadline``) and the game file.  Everything the table core decides goes
through :meth:`Peer.absorb`, synchronously, so intents from a UI, records from links and
ticks of the timer are handled one at a time, in the order they happen.

Invariants:

* **Write-ahead.**  Every record this peer signs, and every record it accepts, is appended
  to the game file (``games/<table>.palabre-log`` in the profile, net/logfile.py format) as
  the table takes it; nothing is sent before one fsync has made the file durable up to it.
  Records received while there is nothing to send are fsynced within ``SYNC_DELAY``.
* **The mesh** (``client.mesh`` decides, this module does): every peer listens; after START
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
  the keys the profile met under that name (``client.known_peers``, trust on first use): a
  known name with a new key is a ``NameWarning``; START's peers are remembered.
* **Faults on a link.**  A record ``net`` refuses on a link (signed for another table, or
  by a key not at this one) and a link this side closes for the peer's fault (bad bytes, a
  bad signature, silence) are shown naming the link's peer, and kept as evidence files
  next to the game file (with the offending envelope when there is one).
"""

from __future__ import annotations

import json
import math
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import trio

from client.bots import Bot, make_bot
from client.events import (
    EvidenceUpdated,
    GameOver,
    Halted,
    Output,
    PlyApplied,
    RecordRejected,
    TableEnded,
    VoteReceived,
)
from client.known_peers import KnownPeers
from client.lobby_wire import JOIN
from client.lobby_wire import SCHEMAS as LOBBY_SCHEMAS
from client.mesh import (
    ADDRESSES,
    HEARTBEAT,
    PRESENCE,
    PULL,
    STALL_AFTER,
    Address,
    Held,
    Mesh,
    addresses_body,
    heard_keys,
    pull_body,
    read_addresses,
    read_presence,
    stalled,
)
from client.mesh import SCHEMAS as MESH_SCHEMAS
from client.net_adapter import NetSigner, open_envelope, record_from_net
from client.records import REMOVE, START, SignedRecord, Signer
from client.rematch import Rematch
from client.start import StartRefused, TableStart, parse_start
from client.table import Table
from engines import AnyEngine, find_engine
from net.driver import Link, connect, open_listeners, serve
from net.errors import CloseCode, DecodeError, LinkError, SignatureError
from net.events import (
    LinkClosed,
    MessageReceived,
    RecordReceived,
    Refuse,
    SendEvent,
    SendMessage,
    SendRecord,
)
from net.events import RecordRejected as NetRecordRejected
from net.handshake import APP_VERSION
from net.identity import (
    Identity,
    fingerprint,
    load_bot_identity,
    profile_dir,
    short_fingerprint,
)
from net.invite import format_table_id
from net.linkspec import LinkSpec
from net.logfile import LogContents, LogWriter, TornTail
from net.records import Record, open_record
from net.signer import RecordSigner

__all__ = [
    "END_WAIT",
    "SYNC_DELAY",
    "EvidenceWritten",
    "GameFile",
    "LinkLost",
    "LinkRefused",
    "NameWarning",
    "Peer",
    "PeerLink",
    "RecordsSent",
    "TablePolicy",
    "TableStarted",
    "game_dir",
]

SYNC_DELAY = 0.05
"""Received records are fsynced at the latest this long after they were appended."""
END_WAIT = 10.0
"""How long a peer waits for every END after the game's outcome."""
END_LINGER = 1.0
"""How long a peer that holds every END stays, so what it passes on reaches the others."""
ALONE_LIMIT = 30.0
"""With no link to any peer for this long past the away timeout, a headless peer gives up."""
SCHEMAS = {**LOBBY_SCHEMAS, **MESH_SCHEMAS}
"""Every message topic a peer takes: the lobby's and the mesh's."""
HALT_LINGER = 2.0
"""How long a halted peer stays so its HALT and the others' reach everyone."""
FRAME_OVERHEAD = 4 + 1 + 16
"""Bytes a record frame adds to its envelope: length, type, encryption tag."""
BATCH_BYTES = 256 * 1024
"""The most a link's writer puts in one write (one record more at most)."""
_FAULTS = frozenset({CloseCode.PROTOCOL, CloseCode.CRYPTO, CloseCode.TIMEOUT})
"""Why a link closed when it is the peer's fault (reported, with evidence)."""


# --- what the peer tells its front end (besides the table's own events) --------------------
@dataclass(frozen=True)
class TableStarted:
    start: TableStart
    my_seats: tuple[int, ...]
    path: Path


@dataclass(frozen=True)
class LinkLost:
    """A link ended; ``fatal`` when the game cannot go on without it; ``key``: the peer's
    (None when the link never got as far as a key)."""

    name: str
    reason: str
    fatal: bool
    key: bytes | None = None


@dataclass(frozen=True)
class LinkRefused:
    """``net`` refused a record that came on a link: signed for another table, or by a key
    that is not at this one.  ``reason`` names the link's peer, for the players."""

    reason: str
    sender: bytes


@dataclass(frozen=True)
class NameWarning:
    """A name this profile knows came with a key it never saw under that name (or the
    known-peers file cannot be used: ``key`` is None).  ``text`` is for the player."""

    text: str
    key: bytes | None = None


@dataclass(frozen=True)
class EvidenceWritten:
    path: Path
    halted: bool
    reason: str
    verdict: str


@dataclass(frozen=True)
class RecordsSent:
    """Records this peer signed and sent (made durable first)."""

    records: tuple[SignedRecord, ...]


class GameFile(LogWriter):
    """The game file: appends are fsynced by ``sync()`` (before sending), not one by one."""

    @classmethod
    def create(cls, path: Path) -> GameFile:
        writer = super().create(path)
        assert isinstance(writer, GameFile)
        return writer

    @classmethod
    def reopen(cls, path: Path) -> tuple[GameFile, LogContents]:
        writer, contents = super().reopen(path)
        assert isinstance(writer, GameFile)
        return writer, contents

    def append(self, record: bytes, *, sync: bool = False) -> None:
        super().append(record, sync=sync)


def game_dir(profile: str, home: Path | None = None) -> Path:
    """Where a profile keeps its game files and evidence."""
    return profile_dir(profile, home) / "games"


class TablePolicy:
    """The table's ``net.linkspec.RecordPolicy``: the keys it takes, the records it holds.

    ``keys`` None (before START): any author, since START may come through any peer; the
    peer takes nothing but START then."""

    def __init__(self) -> None:
        self.keys: set[bytes] | None = set()
        self.seen: set[bytes] = set()

    def allows(self, author: bytes) -> bool:
        return self.keys is None or author in self.keys

    def knows(self, record_hash: bytes) -> bool:
        return record_hash in self.seen


@dataclass(eq=False)
class PeerLink:
    """A link to one peer or spectator, with the queue its writer task drains."""

    link: Link
    key: bytes
    name: str
    spectator: bool = False
    dialed_by: bytes = b""
    """The key of the side that dialed (the mesh keeps one of two links by it)."""
    admitted: bool = False
    """Taking part in the table: records are passed on to it and taken from it."""
    bytes_sent: int = 0
    closing: bool = False
    outbox: trio.MemorySendChannel[SendEvent] = field(init=False)
    inbox: trio.MemoryReceiveChannel[SendEvent] = field(init=False)

    def __post_init__(self) -> None:
        self.outbox, self.inbox = trio.open_memory_channel[SendEvent](math.inf)

    def send(self, event: SendEvent) -> None:
        """Queue ``event`` (nothing happens once the link is closing)."""
        if not self.closing:
            self.outbox.send_nowait(event)

    def close(self, reason: str, code: CloseCode = CloseCode.CLOSING) -> None:
        """Say goodbye after what is queued already."""
        if not self.closing:
            self.outbox.send_nowait(Refuse(code, reason))
            self.closing = True


Observer = Callable[[Any], None]


@dataclass(frozen=True)
class _Conclusion:
    code: int
    at: float
    wait_links: bool
    weak: bool

    def due(self, links_left: bool) -> float:
        return -math.inf if self.wait_links and not links_left else self.at


class Peer:
    """The part of a peer that hosting and joining share.  See the module docstring."""

    relay = True
    """Every peer of a mesh passes on what it takes (``Mesh.passes_on`` says where)."""

    def __init__(
        self,
        identity: Identity,
        *,
        profile: str = "default",
        home: Path | None = None,
        engine_for: Callable[[str], AnyEngine] = find_engine,
        bot_kind: str = "sensible",
        seed: int = 0,
        bot_delay: float = 0.3,
        bot_me: bool = False,
        stay: bool = False,
        rematch: bool = False,
    ) -> None:
        self.identity = identity
        self.me = identity.public_key
        self.profile, self.home = profile, home
        self.engine_for = engine_for
        self.bot_kind, self.seed, self.bot_delay, self.bot_me = bot_kind, seed, bot_delay, bot_me
        self.stay = stay
        self.policy = TablePolicy()
        self.links: list[PeerLink] = []
        self.table: Table | None = None
        self.file: GameFile | None = None
        self.table_id: bytes | None = None
        self.held = Held()
        """Every record this peer holds (signed or verified), in the order it took them."""
        self.mesh = Mesh(self.me)
        self.port = 0
        self.secret: str | None = None
        self.observers: list[Observer] = []
        self.exit_code: int | None = None
        self.done = trio.Event()
        self.bot_identities: dict[bytes, Identity] = {}
        self.bytes_sent = 0
        """Record frames written on every link (envelopes and frame overhead)."""
        self._listeners: list[trio.SocketListener] = []
        self._signers: dict[bytes, NetSigner] = {}
        self._last_seqs: dict[bytes, int] = {}
        self._wake = trio.Event()
        self._soon: list[Callable[[], None]] = []
        self._links_changed = trio.Event()
        self._sync_due: float | None = None
        self._conclusion: _Conclusion | None = None
        self._halt_count = 0
        self._rejected_count = 0
        self._nursery: trio.Nursery | None = None
        self._alone_since: float | None = None
        self._pulled_at = -math.inf
        self._turn = 0
        self._book_changed = False
        self._mesh_wake = trio.Event()
        self._links_changed_since_report = False
        self._known: KnownPeers | None = None
        self._warned: set[tuple[bytes, str]] = set()
        self.hold_until: float | None = None
        """A headless peer ends (code 0) no sooner than this: a rematch is being agreed."""
        self.rematch = Rematch(self, auto=rematch)
        """Playing again after the END (``client.rematch``); ``rematch``: accept by itself."""

    # --- files and keys ---------------------------------------------------------------------
    @property
    def games(self) -> Path:
        return game_dir(self.profile, self.home)

    def game_path(self, table_id: bytes) -> Path:
        return self.games / f"{format_table_id(table_id)}.palabre-log"

    def open_file(self, table_id: bytes) -> GameFile:
        """Create this table's game file (``LogFileError`` if it exists or cannot be made)."""
        if self.file is None:
            self.table_id = table_id
            self.file = GameFile.create(self.game_path(table_id))
            return self.file
        return self.file

    def new_bot_identity(self, table_id: bytes) -> Identity:
        """A new key for a bot seat this peer runs, kept in the profile."""
        name = f"{format_table_id(table_id)}-{len(self.bot_identities) + 1}"
        identity = load_bot_identity(self.profile, name, self.home)
        self.bot_identities[identity.public_key] = identity
        return identity

    def _table_bot_identities(self, table_id: bytes) -> None:
        """After a restart: the lobby bots' keys this profile made for this table."""
        folder = profile_dir(self.profile, self.home) / "bots"
        prefix = f"{format_table_id(table_id)}-"
        for path in sorted(folder.glob(f"{prefix}*.key")) if folder.is_dir() else ():
            identity = load_bot_identity(self.profile, path.stem, self.home)
            self.bot_identities[identity.public_key] = identity

    @property
    def known(self) -> KnownPeers:
        """The profile's known peers (read on first use)."""
        if self._known is None:
            self._known = KnownPeers(profile_dir(self.profile, self.home) / "known-peers.json")
            if self._known.problem is not None:
                self.notify(NameWarning(self._known.problem))
        return self._known

    def vouch(self, peers: Iterable[tuple[bytes, str]], *, remember: bool = False) -> None:
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

    def signer(self, identity: Identity) -> NetSigner:
        """The one signer of ``identity`` at this table (its ``seq`` lives there, after what
        the game file holds when the peer restarted)."""
        key = identity.public_key
        if key not in self._signers:
            assert self.file is not None and self.table_id is not None
            last = self._last_seqs.get(key, 0)
            self._signers[key] = NetSigner(RecordSigner(identity, self.table_id, self.file, last))
        return self._signers[key]

    def _replacement_bot(self, seat: int, ply: int) -> tuple[Signer, Bot | None]:
        """The bot key a REMOVE at ``ply`` hands this peer for ``seat`` (the same again after
        a restart: named after the table, the seat and the ply)."""
        assert self.table_id is not None and self.table is not None
        name = f"{format_table_id(self.table_id)}-seat{seat}-ply{ply}"
        identity = load_bot_identity(self.profile, name, self.home)
        self.bot_identities[identity.public_key] = identity
        return self.signer(identity), self._bot(self.table.start.game, seat)

    # --- the table --------------------------------------------------------------------------
    def begin(self, start_record: SignedRecord, *, spectator: bool = False) -> None:
        """Set the table up from START and begin it (``StartRefused`` with the reason)."""
        table = self._make_table(start_record, spectator=spectator, file=None)
        self._hold(start_record)
        if start_record.author == self.me:  # the host: START goes first, durable
            assert self.file is not None
            self.file.sync()
            self.broadcast(start_record)
        self._started(table)
        self.absorb(table.begin(trio.current_time()))

    def resume(self, path: Path) -> TornTail | None:
        """Take up the table of this game file again after a restart (``StartRefused`` or
        ``LogFileError`` saying why not): its own records are never signed differently.
        Returns the torn tail cut off the file (a crash while writing), None if none."""
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
        for record in records:
            self._last_seqs[record.author] = max(self._last_seqs.get(record.author, 0), record.seq)
        self._table_bot_identities(records[0].table_id)
        spectator = self.me not in parse_start(records[0]).peer_keys
        table = self._make_table(records[0], spectator=spectator, file=file)
        self.mesh.restarted = True
        for record in records:
            self._hold(record)
        self._started(table)
        self.absorb(table.restore(records, trio.current_time()))
        return contents.torn

    def _make_table(
        self, start_record: SignedRecord, *, spectator: bool, file: GameFile | None
    ) -> Table:
        start = parse_start(start_record)
        try:
            engine = self.engine_for(start.game)
        except LookupError:
            raise StartRefused(f"this palabre does not know the game {start.game!r}") from None
        me = None if spectator else self.me
        if me is not None and me not in start.peer_keys:
            raise StartRefused("the table started without this peer")
        if file is None:
            file = self.open_file(start.table_id)
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
                elif seat.key == me and self.bot_me:
                    bots[me] = self._bot(start.game, seat.seat)
        game_file = file
        self.table = Table(
            start_record,
            engine,
            open_envelope,
            me=me,
            signers=signers,
            bots=bots,
            bot_delay=self.bot_delay,
            journal=lambda record: game_file.append(record.envelope),
            bot_factory=self._replacement_bot,
        )
        self.policy.keys = set(start.peer_keys) | set(start.seat_keys)
        self.mesh.peers = start.peer_keys
        self.vouch(((peer.key, peer.name) for peer in start.peers), remember=True)
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
        self._links_changed_since_report = True
        self._mesh_wake.set()  # report and dial the mesh now
        self.notify(TableStarted(start, my_seats, self.file.path))

    def _bot(self, game: str, seat: int) -> Bot:
        return make_bot(game, self.bot_kind, self.seed * 100 + seat)

    def receive(self, record: Record, source: PeerLink | None) -> None:
        """A record ``net`` verified on ``source``: pass it on, then hand it to the table."""
        if self.policy.knows(record.hash):
            return  # it raced a copy on another link
        if self.left_table:
            return  # the game file is closed: this peer has left and records nothing more
        signed = record_from_net(record)
        self._hold(signed)
        table = self.table
        runner = None if table is None else table.runner_of(signed.author)
        passed = {id(source)}
        for link in self.links:
            passes = link is not source and link.admitted
            if passes and self.mesh.passes_on(signed, runner, link.key, link.spectator):
                link.send(SendRecord(record.data))
                passed.add(id(link))
        if table is not None:
            if source is not None and not source.spectator:
                table.presence.hear(source.key, trio.current_time())
            output = table.receive(signed, trio.current_time())
            if any(isinstance(e, RecordRejected) and e.record == signed for e in output.events):
                for link in self.links:  # evidence: every peer sees a refused record
                    if id(link) not in passed and link.admitted:
                        link.send(SendRecord(record.data))
            self.absorb(output)

    def act(self, intent: Callable[[Table, float], Output]) -> None:
        """Carry out an intent on the table (``IntentRefused`` says why not)."""
        if self.table is None:
            from client.seating import IntentRefused

            raise IntentRefused("the game has not started yet")
        if self.left_table:
            from client.seating import IntentRefused

            raise IntentRefused("this peer has left the table")
        self.absorb(intent(self.table, trio.current_time()))

    def call_soon(self, callback: Callable[[], None]) -> None:
        """Run ``callback`` on the peer's loop after the event being handled (an observer
        that wants to act, say, must not re-enter the table from inside its own output)."""
        self._soon.append(callback)
        self._wake.set()

    def absorb(self, output: Output) -> None:
        """Make a table output durable, send what it signed, handle and pass on its events."""
        if output.send:
            assert self.file is not None
            self.file.sync()  # write-ahead: nothing leaves before it is on disk
            for record in output.send:
                self._hold(record)
                self.broadcast(record)
            self.notify(RecordsSent(tuple(output.send)))
        elif self.file is not None and self.file.unsynced and self._sync_due is None:
            self._sync_due = trio.current_time() + SYNC_DELAY
        for event in output.events:
            self._on_table_event(event)
            self.notify(event)
        self._wake.set()

    def broadcast(self, record: SignedRecord) -> None:
        for link in self.links:
            if link.admitted:
                link.send(SendRecord(record.envelope))

    def _hold(self, record: SignedRecord) -> None:
        self.policy.seen.add(record.record_hash)
        self.held.add(record)

    def notify(self, event: Any) -> None:
        for observer in list(self.observers):
            observer(event)

    def _on_table_event(self, event: Any) -> None:
        if isinstance(event, Halted | EvidenceUpdated):
            self._halt_count += 1
            if isinstance(event, Halted):
                self.conclude(3, HALT_LINGER, wait_links=False)
            self._write_evidence("halt", event.evidence, halted=True)
        elif isinstance(event, RecordRejected) and event.evidence is not None:
            self._rejected_count += 1
            self._write_evidence(f"rejected-{self._rejected_count}", event.evidence, halted=False)
        elif isinstance(event, TableEnded):
            self.conclude(0, END_LINGER, wait_links=False)
        elif isinstance(event, GameOver):
            self.conclude(0, END_WAIT, wait_links=False, weak=True)
        elif isinstance(event, VoteReceived | PlyApplied):
            self._allow_new_keys(event)

    def _allow_new_keys(self, event: VoteReceived | PlyApplied) -> None:
        """The new bot keys a vote or a REMOVE names may sign here from now on."""
        record = event.state.record if isinstance(event, PlyApplied) else None
        naming = isinstance(event, VoteReceived) or (record is not None and record.kind == REMOVE)
        if naming and self.policy.keys is not None and self.table is not None:
            self.policy.keys.update(spec.key for spec in self.table.head.seats)
            for proposal in self.table.ballot.proposals():
                self.policy.keys.update(spec.key for spec in proposal.replacements)

    def _write_evidence(self, name: str, evidence: Any, *, halted: bool) -> None:
        assert self.table_id is not None
        self._write_json(name, evidence.to_json())
        path = self.games / f"{format_table_id(self.table_id)}.{name}.json"
        self.notify(EvidenceWritten(path, halted, evidence.reason, evidence.verdict))

    def _write_json(self, name: str, content: dict[str, Any]) -> None:
        assert self.table_id is not None
        path = self.games / f"{format_table_id(self.table_id)}.{name}.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        aside = path.with_suffix(".tmp")
        aside.write_text(json.dumps(content, indent=1, ensure_ascii=False), encoding="utf-8")
        aside.replace(path)

    # --- faults on links ------------------------------------------------------------------------
    def describe_link(self, link: PeerLink) -> str:
        """Who is at the other end of ``link`` (as the table names it), and where."""
        if self.table is not None:
            who = self.table.describe(link.key)
        else:
            who = f"{link.name} ({short_fingerprint(link.key)})"
        return f"{who} at {link.link.remote}"

    def link_refused(self, link: PeerLink, event: NetRecordRejected) -> None:
        """A record ``net`` did not take on ``link``: shown and kept, naming the sender."""
        reason = f"from {self.describe_link(link)}: {event.reason}"
        self.notify(LinkRefused(reason, link.key))
        self._link_evidence("refused", link, reason, event.envelope)

    def link_fault(self, link: PeerLink, closed: LinkClosed) -> None:
        """Report a link this side closed for the peer's fault (bad input, bad signature,
        silence), keeping the offending envelope when there is one."""
        if closed.by_peer or closed.code not in _FAULTS:
            return
        who = self.describe_link(link)
        self.notify(LinkLost(who, f"closed on a fault: {closed.reason}", fatal=False))
        self._link_evidence("link", link, f"{who}: {closed.reason}", closed.evidence)

    def _link_evidence(self, kind: str, link: PeerLink, reason: str, data: bytes | None) -> None:
        if self.table_id is None:
            return
        self._rejected_count += 1
        name = f"rejected-{self._rejected_count}"
        verdict = f"sent on the link of {self.describe_link(link)}"
        content: dict[str, Any] = {
            "kind": kind,
            "ply": None if self.table is None else self.table.head.ply,
            "reason": reason,
            "verdict": verdict,
            "culprits": [link.key.hex()],
            "records": [] if data is None else [{"envelope": data.hex()}],
            "states": [],
        }
        self._write_json(name, content)
        path = self.games / f"{format_table_id(self.table_id)}.{name}.json"
        self.notify(EvidenceWritten(path, False, reason, verdict))

    # --- ending -------------------------------------------------------------------------------
    def conclude(self, code: int, after: float, *, wait_links: bool, weak: bool = False) -> None:
        """End with ``code`` after ``after`` seconds, or sooner once no peer link is left
        when ``wait_links``.  A ``weak`` conclusion (waiting for the ENDs) gives way to any
        other; a halt or a lost link overrides an ending; otherwise the first one stands.
        A peer that ``stay``s (a UI session) ends only on a fatal problem or when asked."""
        if self.stay and code in (0, 3):
            return
        current = self._conclusion
        if current is not None and not current.weak and not (current.code == 0 and code != 0):
            return
        self._conclusion = _Conclusion(code, trio.current_time() + after, wait_links, weak)
        self._wake.set()

    def hold(self, seconds: float | None) -> None:
        """Stay at least ``seconds`` more before ending with code 0 (None: stop holding)."""
        self.hold_until = None if seconds is None else trio.current_time() + seconds
        self._wake.set()

    def _due(self, conclusion: _Conclusion) -> float:
        due = conclusion.due(bool(self.peer_links()))
        if conclusion.code == 0 and self.hold_until is not None:
            due = max(due, self.hold_until)
        return due

    @property
    def left_table(self) -> bool:
        """The game file is closed (after ``wind_down``): nothing more reaches the table."""
        return self.file is not None and self.file.closed

    def finish(self, code: int, reason: str = "goodbye") -> None:
        """End now with ``code``, saying goodbye on every link."""
        if self.exit_code is None:
            self.exit_code = code
        for link in self.links:
            link.close(reason)
        self.done.set()
        self._wake.set()

    def peer_links(self) -> list[PeerLink]:
        return [link for link in self.links if not link.spectator]

    # --- listening and links ------------------------------------------------------------------
    async def listen(self, port: int) -> None:
        """Listen on ``port`` (0: any free one); ``LinkError`` saying why not."""
        self._listeners = await open_listeners(port)
        self.port = int(self._listeners[0].socket.getsockname()[1])

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

    async def serve_listeners(self, on_link: Callable[[Link], Awaitable[object]]) -> None:
        """Accept links for as long as the peer runs."""
        if self._listeners:
            await serve(self._listeners, self.link_spec, on_link, on_failure=self._on_failure)

    async def _on_failure(self, remote: str, closed: LinkClosed) -> None:
        self.notify(LinkLost(remote, f"no link: {closed.reason}", fatal=False))

    def admit(self, link: PeerLink) -> None:
        """``link`` takes part in the table: after START it is a link of the mesh."""
        table = self.table
        if link not in self.links:
            self.links.append(link)
        link.admitted = True
        if link.link.address is not None and link.link.peer.listen_port and not link.spectator:
            where = Address(link.link.address[0], link.link.peer.listen_port)
            self._book_changed |= self.mesh.learn(link.key, where, direct=True)
        if table is None:
            return
        for other in list(self.links):
            if other is not link and other.key == link.key and not other.closing:
                keep_other = self.mesh.keeps_first(other.dialed_by, link.dialed_by)
                loser = link if keep_other else other
                loser.close("a second link with this peer: the other one stays")
                loser.admitted = False
                if loser is link:
                    return
        self._pull(link)  # first: a link this peer dialed begins with it
        link.send(SendMessage(ADDRESSES, addresses_body(self.mesh.book)))
        self._alone_since = None
        self._links_changed_since_report = True
        self._mesh_wake.set()

    def _pull(self, link: PeerLink) -> None:
        table = self.table
        if table is None:
            return
        ply = max(table.final_ply, 0)
        link.send(SendMessage(PULL, pull_body(ply, table.chain.at(ply).chain_digest)))

    def mesh_message(self, link: PeerLink, topic: str, body: Any) -> bool:
        """Handle a mesh topic from an admitted link; False if ``topic`` is not one."""
        if self.left_table:
            return topic in MESH_SCHEMAS  # the game file is closed: nothing reaches the table
        now = trio.current_time()
        table = self.table
        if topic == PRESENCE:
            entries = read_presence(body)
            if table is not None and not link.spectator:
                self.mesh.report(link.key, heard_keys(entries))
                self.absorb(table.presence_report(link.key, entries, now))
        elif topic == ADDRESSES:
            for key, where in read_addresses(body):
                if not self.mesh.peers or key in self.mesh.peers:
                    self._book_changed |= self.mesh.learn(key, where)
        elif topic == PULL:
            if table is not None and self.mesh.may_answer(link, now):
                ply, digest = body["ply"], body["digest"]
                same = ply <= table.head.ply and table.chain.at(ply).chain_digest == digest
                for data in self.held.answer(ply, same):
                    link.send(SendRecord(data))
        else:
            return False
        if table is not None and not link.spectator:
            table.presence.hear(link.key, now)
        return True

    def link_lost(self, link: PeerLink) -> None:
        """A link ended: the mesh dials again (or waits to be dialed)."""
        if self.table is not None and not link.spectator:
            self.mesh.link_lost(link.key, trio.current_time())
        self._wake.set()
        self._links_changed_since_report = True
        self._mesh_wake.set()

    async def serve_mesh(self) -> None:
        """Presence reports and pulls every beat; dialing as soon as there is someone to
        dial (the table started, a link was lost, a pause is over)."""
        next_report = -math.inf
        while not self.done.is_set():
            now = trio.current_time()
            table = self.table
            if table is not None and not self.left_table:
                self._dial_what_is_due(now)
                if now >= next_report or self._links_changed_since_report:
                    next_report = now + HEARTBEAT
                    self._links_changed_since_report = False
                    self._beat(table, now)
            pause = HEARTBEAT if table is None else max(next_report - now, 0.0)
            upcoming = self.mesh.next_dial()
            if upcoming is not None:
                pause = min(pause, max(upcoming - now, 0.05))
            with trio.move_on_after(pause):
                await self._mesh_wake.wait()
            self._mesh_wake = trio.Event()

    def _dial_what_is_due(self, now: float) -> None:
        if self._nursery is not None and not self.done.is_set():
            linked = [link.key for link in self.links if not link.closing]
            for key, where in self.mesh.to_dial(now, linked):
                self._nursery.start_soon(self._dial, key, where)

    def _report(self, table: Table, now: float) -> dict[str, Any]:
        """This peer's presence report: the peers it has a link with, and how long ago it
        last heard from each (so the others know which links it has: ``Mesh.passes_on``)."""
        if table.me is None:
            return {"heard": []}
        keys = dict.fromkeys(k.key for k in self.peer_links() if k.admitted and not k.closing)
        entries = [
            {"key": key, "ago": min(int(table.presence.silent_for(key, now) * 1000), 2**32 - 1)}
            for key in keys
            if table.presence.tracks(key)
        ]
        return {"heard": entries[:16]}

    def _beat(self, table: Table, now: float) -> None:
        report = self._report(table, now)
        book = addresses_body(self.mesh.book) if self._book_changed else None
        self._book_changed = False
        for link in self.links:
            if link.admitted:
                link.send(SendMessage(PRESENCE, report))
                if book is not None:
                    link.send(SendMessage(ADDRESSES, book))
        peers = [link for link in self.peer_links() if link.admitted]
        if stalled(table.waiting_since, now) and peers and now - self._pulled_at >= STALL_AFTER:
            self._pulled_at = now
            self._turn += 1
            self._pull(peers[self._turn % len(peers)])
        if not peers and table.me is None and self._nursery is not None and not self.done.is_set():
            self._watch_elsewhere(now)
        if not peers and not self.stay:
            self._alone_since = now if self._alone_since is None else self._alone_since
            if now - self._alone_since >= ALONE_LIMIT + table.start.away_ms / 1000:
                self.notify(LinkLost("every peer", "no peer could be reached", fatal=True))
                self.conclude(1, 0.0, wait_links=False)

    def _watch_elsewhere(self, now: float) -> None:
        """A spectator that lost its links asks another peer to let it watch (in turn)."""
        assert self._nursery is not None
        if any(not link.closing for link in self.links):
            return
        states = {key: self.mesh.dialing_state(key) for key in self.mesh.book}
        if any(state.busy for state in states.values()):
            return
        ready = [key for key, state in states.items() if now >= state.next_at]
        if ready:
            key = min(ready, key=lambda k: states[k].tries)  # the least failed first
            states[key].busy = True
            self._nursery.start_soon(self._dial, key, self.mesh.book[key], True)

    async def _dial(self, key: bytes, where: Address, watch: bool = False) -> None:
        """Dial a peer of the mesh (``watch``: as a spectator) and run the link."""
        try:
            link = await connect(where.host, where.port, self.link_spec(expect=key), timeout=5.0)
        except LinkError:
            self.mesh.dial_ended(key, trio.current_time(), ok=False)
            return
        self.mesh.dial_ended(key, trio.current_time(), ok=True)
        if watch:
            assert self.table is not None
            name = str(getattr(self, "name", "") or "a spectator")
            peer_link = PeerLink(link, key, self.table.start.name_of(key), dialed_by=self.me)
            peer_link.send(
                SendMessage(JOIN, {"name": name, "seat": 0, "watch": True, "ready": True})
            )
            self.admit(peer_link)
            await self.run_link(peer_link, self._deliver_mesh)
            self.mesh.link_lost(key, trio.current_time())
            return
        assert self.table is not None
        peer_link = PeerLink(link, key, self.table.start.name_of(key), dialed_by=self.me)
        self.admit(peer_link)
        closed = await self.run_link(peer_link, self._deliver_mesh)
        self.link_fault(peer_link, closed)
        self.link_lost(peer_link)

    def _deliver_mesh(self, link: PeerLink, event: Any) -> None:
        """Events of a link this peer dialed after START."""
        if isinstance(event, NetRecordRejected):
            self.link_refused(link, event)
        elif isinstance(event, RecordReceived):
            if link.admitted:
                self.receive(event.record, link)
        elif isinstance(event, MessageReceived) and not (
            link.admitted and self.mesh_message(link, event.topic, event.body)
        ):
            link.close(f"a peer does not send {event.topic!r} here", CloseCode.PROTOCOL)

    def deliver_incoming(self, link: PeerLink, event: Any) -> None:
        """Events of a link another peer or a spectator dialed, once the game has started:
        ``pull`` first from a peer of the mesh, ``join`` from one that rejoins or watches."""
        if isinstance(event, NetRecordRejected):
            self.link_refused(link, event)
            return
        if isinstance(event, RecordReceived):
            if link.admitted and not link.spectator:
                self.receive(event.record, link)
            return
        if not isinstance(event, MessageReceived):
            return
        topic, body, table = event.topic, event.body, self.table
        if link.admitted:
            if not self.mesh_message(link, topic, body):
                link.close(f"a peer does not send {topic!r} here", CloseCode.PROTOCOL)
        elif table is None:
            link.close(
                "this peer does not host the table: join at the host's address",
                CloseCode.REFUSED,
            )
        elif topic == JOIN:
            self.join_after_start(link, body)
        elif topic == PULL and link.key in table.start.peer_keys:
            link.name = table.start.name_of(link.key)
            self.admit(link)
            if link.admitted:
                self.mesh_message(link, topic, body)
        else:
            link.close(f"a link does not begin with {topic!r}", CloseCode.PROTOCOL)

    def join_after_start(self, link: PeerLink, body: Any) -> None:
        """A ``join`` once the game has started (any peer answers): a peer of START rejoins,
        a spectator watches, anyone else is told why not."""
        table = self.table
        assert table is not None
        if link.key in table.start.peer_keys and not body["watch"]:
            link.name = table.start.name_of(link.key)
        elif body["watch"]:
            link.name, link.spectator = body["name"], True
        else:
            link.close(
                "the game has already started; join with --watch to follow it", CloseCode.REFUSED
            )
            return
        self.links.append(link)
        self.send_held(link)  # everything so far, in order, START first
        self.admit(link)

    # --- tasks --------------------------------------------------------------------------------
    async def serve_timer(self) -> None:
        """Bots' delays, deferred fsyncs and the conclusion, each at its time."""
        while True:
            deadlines = [self._sync_due or math.inf, -math.inf if self._soon else math.inf]
            if self.table is not None:
                deadlines.append(self.table.next_deadline() or math.inf)
            if self._conclusion is not None and not self.done.is_set():
                deadlines.append(self._due(self._conclusion))
            with trio.move_on_at(min(deadlines)):
                await self._wake.wait()
            self._wake = trio.Event()
            while self._soon:
                self._soon.pop(0)()
            now = trio.current_time()
            if self._sync_due is not None and now >= self._sync_due:
                self._sync_due = None
                if self.file is not None and not self.file.closed:
                    self.file.sync()
            if self.table is not None and not self.left_table:
                deadline = self.table.next_deadline()
                if deadline is not None and now >= deadline:
                    self.absorb(self.table.tick(now))
            conclusion = self._conclusion
            due = math.inf if conclusion is None else self._due(conclusion)
            if conclusion is not None and not self.done.is_set() and now >= due:
                reason = "the game is over" if conclusion.code == 0 else "leaving the table"
                self.finish(conclusion.code, reason)

    async def run_link(
        self, peer_link: PeerLink, deliver: Callable[[PeerLink, Any], None]
    ) -> LinkClosed:
        """Read and write ``peer_link`` until it closes; ``deliver`` gets each event.

        The link joins ``links`` (broadcasts) only when its owner admits it."""

        async def handle(event: Any) -> None:
            deliver(peer_link, event)

        try:
            async with trio.open_nursery() as nursery:
                nursery.start_soon(self._write_link, peer_link)
                closed = await peer_link.link.run(handle)
                nursery.cancel_scope.cancel()
        finally:
            if peer_link in self.links:
                self.links.remove(peer_link)
            peer_link.closing = True
            self._wake.set()
            self._links_changed.set()
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

    async def wind_down(self, timeout: float = 3.0) -> None:
        """After ``done``: let the links say goodbye (bounded), then close the file."""
        with trio.move_on_after(timeout):
            while self.links:
                self._links_changed = trio.Event()
                await self._links_changed.wait()
        if self.file is not None:
            self.file.close()

    def send_held(self, peer_link: PeerLink) -> None:
        """Send every record held so far (a peer or spectator joining after START)."""
        for data in self.held.envelopes:
            peer_link.send(SendRecord(data))


def _size(event: SendEvent) -> int:
    return len(event.envelope) + FRAME_OVERHEAD if isinstance(event, SendRecord) else 64
