"""Several in-memory peers at one table, and a network between them on a virtual clock.

``Setup`` signs a real START (host = first peer) for a seat plan; ``Setup.table(name)``
builds that peer's ``Table``.  ``Router`` carries envelope bytes between tables (each
receiver opens and verifies them, as ``net`` will), with delays, reordering, duplicates and
drops drawn from a seeded generator, so a seed replays the same interleaving exactly.
Time is virtual: the router jumps to the next delivery or the next bot deadline.  With
``presence=True`` it also carries each table's presence report to the others every 2 s
(what ``client.node.mesh`` does on real links) and ticks tables at their presence deadlines; a
run then needs ``until=`` (virtual seconds), since heartbeats never stop.
"""

from __future__ import annotations

import heapq
import itertools
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from client.bots import Bot, make_bot
from client.rules.clock import ClockSpec
from client.rules.net_adapter import open_envelope
from client.rules.records import START, SignedRecord, Signer
from client.rules.start import PeerSpec, SeatSpec, start_body
from client.tabletop.events import Output, TableEvent
from client.tabletop.table import BotFactory, Table
from client.tabletop.table_input import Begin, PresenceReport, Received, Tick
from engines import AnyEngine
from tests.client.envelopes import Identity, TestSigner, raw_record, signed
from tests.client.tinygame import ENGINE

TABLE_ID = bytes(range(16))


@dataclass
class Setup:
    """A table definition: which peer plays each seat, which seats are bots and who runs them.

    ``seats`` lists, per seat, the peer name that plays it or ``"bot:NAME"`` for a bot run
    by peer NAME.  Peers appear in the order they are first named; the first is the host.
    """

    seats: Sequence[str]
    engine: AnyEngine = ENGINE
    params: Mapping[str, int | str] = field(default_factory=dict)
    table_id: bytes = TABLE_ID
    seed: int = 0
    away_ms: int = 60_000
    idle_ms: int = 15 * 60_000
    clock: ClockSpec | None = None

    def __post_init__(self) -> None:
        names = [s.removeprefix("bot:") for s in self.seats]
        self.peer_names = list(dict.fromkeys(names))
        self.identities = {n: Identity(self.seed * 100 + i) for i, n in enumerate(self.peer_names)}
        self.bot_identities = {
            seat: Identity(self.seed * 100 + 50 + seat)
            for seat, s in enumerate(self.seats, 1)
            if s.startswith("bot:")
        }
        seat_specs = []
        for seat, s in enumerate(self.seats, 1):
            if s.startswith("bot:"):
                runner = self.identities[s.removeprefix("bot:")].key
                seat_specs.append(SeatSpec(seat, self.bot_identities[seat].key, runner))
            else:
                seat_specs.append(SeatSpec(seat, self.identities[s].key))
        params = dict(self.params) or {"seats": len(self.seats)}
        body = start_body(
            game=self.engine.name,
            ruleset=self.engine.ruleset,
            engine_version=self.engine.version,
            params=params,
            peers=tuple(PeerSpec(self.identities[n].key, n) for n in self.peer_names),
            seats=tuple(seat_specs),
            away_ms=self.away_ms,
            idle_ms=self.idle_ms,
            clock=self.clock,
        )
        host = self.signer(self.peer_names[0])
        self.start_record = host.sign(START, body)
        self.host_signer = host

    def key(self, name: str) -> bytes:
        return self.identities[name].key

    def signer(self, name: str, log: Sequence[SignedRecord] = ()) -> TestSigner:
        return TestSigner(self.identities[name], self.table_id, last_seq(log, self.key(name)))

    def bot_factory(
        self, name: str, log: Sequence[SignedRecord] = (), bot_kind: str = "random"
    ) -> BotFactory:
        """New bot keys for the seats a REMOVE hands to peer ``name``: the same (seat, ply)
        gives the same key, whose ``seq`` goes on after ``log`` (as ``net.identity`` bot key
        files and ``RecordSigner.resume`` do)."""
        index = self.peer_names.index(name)

        def make(seat: int, ply: int) -> tuple[Signer, Bot | None]:
            identity = Identity(
                10_000_000 + self.seed * 1_000_000 + index * 100_000 + ply * 64 + seat
            )
            signer = TestSigner(identity, self.table_id, last_seq(log, identity.key))
            return signer, make_bot(self.engine.name, bot_kind, 7_000 + seat * 100 + ply)

        return make

    def table(
        self,
        name: str | None,
        *,
        bots: str | Iterable[int] = "all",
        bot_delay: float = 0.0,
        seed: int = 0,
        spectator: bool = False,
        engine: AnyEngine | None = None,
        bot_kind: str = "random",
        log: Sequence[SignedRecord] = (),
        bot_level: str | None = None,
        signer: Callable[[TestSigner], Signer] | None = None,
    ) -> Table:
        """Peer ``name``'s table.  ``bots="all"`` has bots play every seat it signs for;
        ``bots=()`` none (moves through intents); a list of seat numbers, those seats.
        ``log``: what this peer's log held before a restart (signers go on after it).
        ``signer`` wraps the peer's own signer: a modified client signs what it likes."""
        if spectator or name is None:
            return Table(self.start_record, engine or self.engine, open_envelope)
        me = self.key(name)
        own = self.host_signer if name == self.peer_names[0] and not log else self.signer(name, log)
        if name == self.peer_names[0]:
            own.seq = max(own.seq, 1)  # START is the host's seq 1
        signers: dict[bytes, Any] = {me: own if signer is None else signer(own)}
        seat_keys: dict[int, bytes] = {}
        for seat, s in enumerate(self.seats, 1):
            if s == f"bot:{name}":
                identity = self.bot_identities[seat]
                signers[identity.key] = TestSigner(
                    identity, self.table_id, last_seq(log, identity.key)
                )
                seat_keys[seat] = self.bot_identities[seat].key
            elif s == name:
                seat_keys[seat] = me
        chosen = seat_keys if isinstance(bots, str) else {s: seat_keys[s] for s in bots}
        game = (engine or self.engine).name
        bot_map = {
            key: make_bot(game, bot_kind, seed * 1000 + seat) for seat, key in chosen.items()
        }
        return Table(
            self.start_record,
            engine or self.engine,
            open_envelope,
            me=me,
            signers=signers,
            bots=bot_map,
            bot_delay=bot_delay,
            bot_factory=self.bot_factory(name, log, bot_kind),
            bot_level=bot_level,
        )


def last_seq(log: Sequence[SignedRecord], key: bytes) -> int:
    return max((r.seq for r in log if r.author == key), default=0)


class Router:
    """Delivers every record a table sends to every other table, on a virtual clock."""

    def __init__(
        self,
        tables: Mapping[str, Table],
        *,
        seed: int = 0,
        max_delay: float = 0.0,
        duplicate: float = 0.0,
        drop: float = 0.0,
        presence: bool = False,
        heartbeat: float = 2.0,
    ) -> None:
        self.tables = dict(tables)
        self.presence, self.heartbeat = presence, heartbeat
        self.cut: set[frozenset[str]] = set()
        """Links that carry nothing (pairs of names)."""
        self.slow: dict[tuple[str, str], float] = {}
        """One-way delays: what ``a`` signs reaches ``b`` that many seconds later."""
        self.crash_when: Callable[[str, Output], bool] | None = None
        """Called with each output: True crashes its table after its records were written
        ahead (logged) but before anything was sent."""
        self.rng = random.Random(seed)
        self.max_delay, self.duplicate, self.drop = max_delay, duplicate, drop
        self.now = 0.0
        self.logs: dict[str, list[SignedRecord]] = {name: [] for name in tables}
        self.events: dict[str, list[TableEvent]] = {name: [] for name in tables}
        self.sent: list[bytes] = []
        self.sent_at: list[tuple[float, SignedRecord]] = []
        self.sent_by: dict[str, list[SignedRecord]] = {name: [] for name in tables}
        self.down: set[str] = set()
        self.dropped = 0
        self._queue: list[tuple[float, int, str, bytes | None]] = []
        self._sources: dict[int, str] = {}
        self._order = itertools.count()

    def start(self) -> None:
        for name, table in self.tables.items():
            self.take(name, table.handle(Begin(self.now)))
            self._schedule_heartbeat(name)

    def _schedule_heartbeat(self, name: str) -> None:
        if self.presence:
            when = self.now + self.heartbeat
            heapq.heappush(self._queue, (when, next(self._order), name, None))

    def linked(self, a: str, b: str) -> bool:
        return a not in self.down and b not in self.down and frozenset((a, b)) not in self.cut

    def _beat(self, name: str) -> None:
        """``name`` sends its presence report on every link (a spectator sends none)."""
        table = self.tables[name]
        key = table.me
        if key is not None and name not in self.down:
            entries = table.presence.report_entries(self.now)
            for other in self.tables:
                if other != name and self.linked(name, other):
                    out = self.tables[other].handle(PresenceReport(key, tuple(entries), self.now))
                    self.take(other, out)
        self._schedule_heartbeat(name)

    def take(self, source: str, output: Output) -> None:
        """Record what ``source``'s table produced and send what it signed."""
        self.logs[source] += output.log
        self.events[source] += output.events
        if self.crash_when is not None and self.crash_when(source, output):
            self.down.add(source)
            return
        for record in output.send:
            self.sent.append(record.envelope)
            self.sent_at.append((self.now, record))
            self.sent_by[source].append(record)
            self.send_own(source, record)

    def send_own(self, source: str, record: SignedRecord) -> None:
        """A record ``source`` signed goes to every table it has a link with."""
        to = [n for n in self.tables if n != source and frozenset((n, source)) not in self.cut]
        for name in to:
            slow = self.slow.get((source, name))
            self.deliver(record.envelope, [name], None if slow is None else slow)

    def deliver(
        self,
        envelope: bytes,
        to: Iterable[str] | None = None,
        delay: float | None = None,
        source: str | None = None,
    ) -> None:
        """Schedule ``envelope`` for each of ``to`` (default: every table)."""
        for name in self.tables if to is None else to:
            if self.rng.random() < self.drop:
                self.dropped += 1
                continue
            copies = 2 if self.rng.random() < self.duplicate else 1
            for _ in range(copies):
                wait = self.rng.uniform(0, self.max_delay) if delay is None else delay
                order = next(self._order)
                if source is not None:
                    self._sources[order] = source
                heapq.heappush(self._queue, (self.now + wait, order, name, envelope))

    def arrive(self, name: str, envelope: bytes, source: str | None) -> None:
        """``envelope`` reaches ``name`` (from ``source`` when known)."""
        self.take(name, self.tables[name].handle(Received(open_envelope(envelope), self.now)))

    def step(self, until: float | None = None) -> bool:
        """Deliver the next record or fire the next deadline; False when nothing is left
        (or the next thing comes after ``until``)."""
        deadlines = [
            (deadline, name)
            for name, table in self.tables.items()
            if name not in self.down
            and (deadline := table.next_deadline(presence=self.presence)) is not None
        ]
        tick = min(deadlines, default=None)
        if self._queue and (tick is None or self._queue[0][0] <= tick[0]):
            if until is not None and self._queue[0][0] > until:
                return False
            when, order, name, envelope = heapq.heappop(self._queue)
            self.now = max(self.now, when)
            source = self._sources.pop(order, None)
            if envelope is None:
                self._beat(name)
            elif name not in self.down and (source is None or self.linked(name, source)):
                self.arrive(name, envelope, source)
            return True
        if tick is None or (until is not None and tick[0] > until):
            return False
        self.now = max(self.now, tick[0])
        self.take(tick[1], self.tables[tick[1]].handle(Tick(self.now)))
        return True

    def run(self, max_steps: int = 200_000, until: float | None = None) -> None:
        if self.presence and until is None:
            raise ValueError("with presence, say until when to run")
        for _ in range(max_steps):
            if not self.step(until):
                if until is not None:
                    self.now = max(self.now, until)
                return
        raise AssertionError(f"still busy after {max_steps} steps")

    def heal(self) -> None:
        """Resend every record any table signed to every table (what the mesh will do)."""
        for envelope in self.sent:
            self.deliver(envelope, delay=0.0)

    def of_type(self, name: str, kind: type[Any]) -> list[Any]:
        return [event for event in self.events[name] if isinstance(event, kind)]


def play(
    setup: Setup,
    *,
    seed: int = 0,
    bot_delay: float = 0.0,
    bot_kind: str = "random",
    **network: Any,
) -> Router:
    """Every peer of ``setup`` with bots at all its seats, run until nothing moves."""
    tables = {
        name: setup.table(name, seed=seed, bot_delay=bot_delay, bot_kind=bot_kind)
        for name in setup.peer_names
    }
    router = Router(tables, seed=seed, **network)
    router.start()
    router.run()
    return router


def world(seats: Sequence[str], **setup_args: Any) -> tuple[Setup, Router]:
    """Peers whose seats are played through intents only, genesis acked everywhere."""
    setup = Setup(seats, **setup_args)
    router = Router({name: setup.table(name, bots=()) for name in setup.peer_names})
    router.start()
    router.run()
    return setup, router


def act(router: Router, name: str, output: Output) -> Output:
    """Send what ``name``'s table produced and deliver everything."""
    router.take(name, output)
    router.run()
    return output


_forged = itertools.count(10_000)


def forge(setup: Setup, name: str | int, kind: str, body: Mapping[str, Any]) -> SignedRecord:
    """A record signed with peer ``name``'s key (or bot seat ``name``'s), outside its table."""
    identity = setup.bot_identities[name] if isinstance(name, int) else setup.identities[name]
    return signed(identity, setup.table_id, next(_forged), kind, body)


def forge_raw(setup: Setup, name: str, kind: str, body: Mapping[str, Any]) -> SignedRecord:
    """Like ``forge``, for a body ``net`` would refuse (deliver it with ``Table.receive``)."""
    return raw_record(setup.identities[name], setup.table_id, next(_forged), kind, body)


def deliver(router: Router, record: SignedRecord, to: Iterable[str] | None = None) -> None:
    """Hand ``record`` to ``to`` (default every table) and run the network."""
    router.deliver(record.envelope, to)
    router.run()
