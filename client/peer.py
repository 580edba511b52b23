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
* **Forwarding.**  A relaying peer (the host of a star; every peer of a mesh) sends each
  record it verified and did not hold to every other link, as soon as it arrives and exactly
  as received — rejected ones included, so every peer sees the evidence.  Duplicates (same
  record hash) are dropped before their signature is checked (``TablePolicy.knows``).
* **Keys.**  Before START a link takes no record but START from the host; after it, only
  records signed by the keys START names.
* **Ending.**  With ``stay=False`` (headless) the peer concludes by itself: at the END of
  every peer (0), 10 s after the game's outcome without them (0), shortly after a halt (3,
  evidence file written), or when a link the game needs is lost (1).  A relaying peer waits
  for the others to leave first (bounded), since they hear each other through it.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
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
    RecordRejected,
    TableEnded,
)
from client.net_adapter import NetSigner, open_envelope, record_from_net
from client.records import SignedRecord, Signer
from client.start import StartRefused, TableStart, parse_start
from client.table import Table
from engines import AnyEngine, find_engine
from net.driver import Link
from net.errors import CloseCode
from net.events import LinkClosed, Refuse, SendEvent, SendRecord
from net.identity import Identity, load_bot_identity, profile_dir
from net.invite import format_table_id
from net.logfile import LogWriter
from net.records import Record
from net.signer import RecordSigner

__all__ = [
    "END_WAIT",
    "SYNC_DELAY",
    "EvidenceWritten",
    "GameFile",
    "LinkLost",
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
"""How long a peer waits for every END (or, relaying, for the others to leave)."""
HALT_LINGER = 2.0
"""How long a halted peer stays so its HALT and the others' reach everyone."""
FRAME_OVERHEAD = 4 + 1 + 16
"""Bytes a record frame adds to its envelope: length, type, encryption tag."""


# --- what the peer tells its front end (besides the table's own events) --------------------
@dataclass(frozen=True)
class TableStarted:
    start: TableStart
    my_seats: tuple[int, ...]
    path: Path


@dataclass(frozen=True)
class LinkLost:
    """A link ended; ``fatal`` when the game cannot go on without it."""

    name: str
    reason: str
    fatal: bool


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

    def append(self, record: bytes, *, sync: bool = False) -> None:
        super().append(record, sync=sync)


def game_dir(profile: str, home: Path | None = None) -> Path:
    """Where a profile keeps its game files and evidence."""
    return profile_dir(profile, home) / "games"


class TablePolicy:
    """The table's ``net.linkspec.RecordPolicy``: the keys it takes, the records it holds."""

    def __init__(self) -> None:
        self.keys: set[bytes] = set()
        self.seen: set[bytes] = set()

    def allows(self, author: bytes) -> bool:
        return author in self.keys

    def knows(self, record_hash: bytes) -> bool:
        return record_hash in self.seen


@dataclass(eq=False)
class PeerLink:
    """A link to one peer or spectator, with the queue its writer task drains."""

    link: Link
    key: bytes
    name: str
    spectator: bool = False
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

    relay = False

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
        self.held: list[bytes] = []
        """Every record this peer holds (signed or verified), in the order it took them."""
        self.observers: list[Observer] = []
        self.exit_code: int | None = None
        self.done = trio.Event()
        self.bot_identities: dict[bytes, Identity] = {}
        self.bytes_sent = 0
        """Record frames written on every link (envelopes and frame overhead)."""
        self._signers: dict[bytes, NetSigner] = {}
        self._wake = trio.Event()
        self._soon: list[Callable[[], None]] = []
        self._links_changed = trio.Event()
        self._sync_due: float | None = None
        self._conclusion: _Conclusion | None = None
        self._halt_count = 0
        self._rejected_count = 0

    # --- files and keys ---------------------------------------------------------------------
    @property
    def games(self) -> Path:
        return game_dir(self.profile, self.home)

    def open_file(self, table_id: bytes) -> GameFile:
        """Create this table's game file (``LogFileError`` if it exists or cannot be made)."""
        if self.file is None:
            self.table_id = table_id
            path = self.games / f"{format_table_id(table_id)}.palabre-log"
            self.file = GameFile.create(path)
            return self.file
        return self.file

    def new_bot_identity(self, table_id: bytes) -> Identity:
        """A new key for a bot seat this peer runs, kept in the profile."""
        name = f"{format_table_id(table_id)}-{len(self.bot_identities) + 1}"
        identity = load_bot_identity(self.profile, name, self.home)
        self.bot_identities[identity.public_key] = identity
        return identity

    def signer(self, identity: Identity) -> NetSigner:
        """The one signer of ``identity`` at this table (its ``seq`` lives there)."""
        key = identity.public_key
        if key not in self._signers:
            assert self.file is not None and self.table_id is not None
            self._signers[key] = NetSigner(RecordSigner(identity, self.table_id, self.file))
        return self._signers[key]

    # --- the table --------------------------------------------------------------------------
    def begin(self, start_record: SignedRecord, *, spectator: bool = False) -> None:
        """Set the table up from START and begin it (``StartRefused`` with the reason)."""
        start = parse_start(start_record)
        try:
            engine = self.engine_for(start.game)
        except LookupError:
            raise StartRefused(f"this palabre does not know the game {start.game!r}") from None
        me = None if spectator else self.me
        if me is not None and me not in start.peer_keys:
            raise StartRefused("the table started without this peer")
        file = self.open_file(start.table_id)
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
        self.table = Table(
            start_record,
            engine,
            open_envelope,
            me=me,
            signers=signers,
            bots=bots,
            bot_delay=self.bot_delay,
            journal=lambda record: file.append(record.envelope),
        )
        self.policy.keys = set(start.peer_keys) | set(start.seat_keys)
        self._hold(start_record)
        if start_record.author == self.me:  # the host: START goes first, durable
            file.sync()
            self.broadcast(start_record)
        my_seats = (
            () if me is None else tuple(s.seat for s in start.seats if me in (s.key, s.runner))
        )
        self.notify(TableStarted(self.table.start, my_seats, file.path))
        self.absorb(self.table.begin(trio.current_time()))

    def _bot(self, game: str, seat: int) -> Bot:
        return make_bot(game, self.bot_kind, self.seed * 100 + seat)

    def receive(self, record: Record, source: PeerLink | None) -> None:
        """A record ``net`` verified on ``source``: forward it, then hand it to the table."""
        if self.policy.knows(record.hash):
            return  # it raced a copy on another link
        signed = record_from_net(record)
        self._hold(signed)
        if self.relay:
            for link in self.links:
                if link is not source:
                    link.send(SendRecord(record.data))
        if self.table is not None:
            self.absorb(self.table.receive(signed, trio.current_time()))

    def act(self, intent: Callable[[Table, float], Output]) -> None:
        """Carry out an intent on the table (``IntentRefused`` says why not)."""
        if self.table is None:
            from client.seating import IntentRefused

            raise IntentRefused("the game has not started yet")
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
            link.send(SendRecord(record.envelope))

    def _hold(self, record: SignedRecord) -> None:
        self.policy.seen.add(record.record_hash)
        self.held.append(record.envelope)

    def notify(self, event: Any) -> None:
        for observer in list(self.observers):
            observer(event)

    def _on_table_event(self, event: Any) -> None:
        if isinstance(event, Halted | EvidenceUpdated):
            self._halt_count += 1
            if isinstance(event, Halted):  # a relay outlasts the others: they hear it
                self.conclude(3, HALT_LINGER * (2 if self.relay else 1), wait_links=self.relay)
            self._write_evidence("halt", event.evidence, halted=True)
        elif isinstance(event, RecordRejected) and event.evidence is not None:
            self._rejected_count += 1
            self._write_evidence(f"rejected-{self._rejected_count}", event.evidence, halted=False)
        elif isinstance(event, TableEnded):
            self.conclude(0, END_WAIT if self.relay else 0.0, wait_links=self.relay)
        elif isinstance(event, GameOver):
            self.conclude(0, END_WAIT, wait_links=False, weak=True)

    def _write_evidence(self, name: str, evidence: Any, *, halted: bool) -> None:
        assert self.table_id is not None
        path = self.games / f"{format_table_id(self.table_id)}.{name}.json"
        data = json.dumps(evidence.to_json(), indent=1, ensure_ascii=False)
        aside = path.with_suffix(".tmp")
        aside.write_text(data, encoding="utf-8")
        aside.replace(path)
        self.notify(EvidenceWritten(path, halted, evidence.reason, evidence.verdict))

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

    # --- tasks --------------------------------------------------------------------------------
    async def serve_timer(self) -> None:
        """Bots' delays, deferred fsyncs and the conclusion, each at its time."""
        while True:
            deadlines = [self._sync_due or math.inf, -math.inf if self._soon else math.inf]
            if self.table is not None:
                deadlines.append(self.table.next_deadline() or math.inf)
            if self._conclusion is not None and not self.done.is_set():
                deadlines.append(self._conclusion.due(bool(self.peer_links())))
            with trio.move_on_at(min(deadlines)):
                await self._wake.wait()
            self._wake = trio.Event()
            while self._soon:
                self._soon.pop(0)()
            now = trio.current_time()
            if self._sync_due is not None and now >= self._sync_due:
                self._sync_due = None
                if self.file is not None:
                    self.file.sync()
            if self.table is not None:
                deadline = self.table.next_deadline()
                if deadline is not None and now >= deadline:
                    self.absorb(self.table.tick(now))
            conclusion = self._conclusion
            due = math.inf if conclusion is None else conclusion.due(bool(self.peer_links()))
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
        """Drain the link's queue, everything waiting at once in one write."""
        async for first in peer_link.inbox:
            batch = [first]
            while True:
                try:
                    batch.append(peer_link.inbox.receive_nowait())
                except trio.WouldBlock:
                    break
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
        """Send every record held so far (a spectator joining after START)."""
        for data in self.held:
            peer_link.send(SendRecord(data))
