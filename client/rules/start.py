"""START: the signed record that pins a table, and the checks a peer makes before playing.

The host signs one START when the lobby is complete (``client.node.lobby`` builds its body).  It
pins the game, ruleset, engine version, options (the engine's parameters), table timeouts,
the **peers** (one key each, with a display name) and the **seats**: item n−1 is seat n,
``{key, runner}`` — the key that signs its moves and the peer that runs it (for a person,
the same key; ``SeatSpec.runner`` is then None), and for a bot seat, optionally, its
``level`` (easy, normal, strong: what played, for the log's reader; START's before it had
none and stay valid); a person's seat may say ``own_bot`` (its level): that peer's own seat
is played by its palabre's bot (``--bot``), so every reader names it a bot.  Field names
and bounds are those of ``net.records`` (docs/PROTOCOL.md).  The game log begins with
START; the genesis of the chain is derived from its record hash (``client.rules.chain``).

Invariants of a :class:`TableStart` (checked by :func:`parse_start`, else ``StartRefused``):

* the author is the first peer (the host); peer keys are distinct 32-byte keys;
* a person's seat is signed by that person's peer key; a bot seat has its own key (no
  peer's, no other seat's) and a runner that is a peer; only a bot seat has a ``level``, only
  a person's seat an ``own_bot``;
* every peer plays at least one seat, either itself or through a bot it runs.

:func:`check_engine` adds the checks that need this palabre's engine: same ruleset, same
engine version, acceptable parameters, seat count as the engine says.  Every refusal carries
a sentence a player can read.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from client.rules.bodies import KEY_SIZE, read_bytes, read_int, read_list, read_text
from client.rules.clock import ClockSpec
from client.rules.errors import Malformed
from client.rules.errors import StartRefused as StartRefused  # the lobby's files import it here
from client.rules.records import START, SignedRecord, key_label
from engines import AnyEngine, InvalidParams

__all__ = [
    "DEFAULT_AWAY_MS",
    "DEFAULT_IDLE_MS",
    "PeerSpec",
    "SeatSpec",
    "TableStart",
    "check_engine",
    "open_start",
    "parse_start",
    "start_body",
]

DEFAULT_AWAY_MS = 60_000
DEFAULT_IDLE_MS = 15 * 60_000
MAX_PEERS = 16
MAX_SEATS = 64
MAX_NAME = 40
MAX_PARAMS = 32
MAX_LEVEL = 16


@dataclass(frozen=True)
class PeerSpec:
    key: bytes
    name: str


@dataclass(frozen=True)
class SeatSpec:
    """Seat ``seat`` is signed by ``key``; ``runner`` is the peer running it when it is a bot."""

    seat: int
    key: bytes
    runner: bytes | None = None
    level: str | None = None
    """A bot's level (``client.bots.BOT_LEVELS``) when START names it."""
    own_bot: str | None = None
    """A person's seat its own peer plays by a bot (``--bot``): that bot's level."""

    @property
    def bot_runner(self) -> bytes | None:
        """The peer whose palabre plays this seat by a bot: a bot seat's runner, the peer
        itself for its ``own_bot`` seat; None when a person plays it."""
        if self.runner is not None:
            return self.runner
        return self.key if self.own_bot is not None else None

    @property
    def bot_level(self) -> str | None:
        """The level of the bot that plays this seat, when START names it."""
        return self.level if self.runner is not None else self.own_bot

    @property
    def bot_word(self) -> str:
        """``strong bot`` when START names the bot's level, else ``bot``."""
        return f"{self.level} bot" if self.level else "bot"

    @property
    def level_note(self) -> str:
        """`` (strong)`` after a bot's name when START names its level, else nothing."""
        return f" ({self.level})" if self.level else ""


@dataclass(frozen=True)
class TableStart:
    record: SignedRecord
    game: str
    ruleset: str
    engine_version: str
    params: Mapping[str, int | str]
    away_ms: int
    idle_ms: int
    peers: tuple[PeerSpec, ...]
    seats: tuple[SeatSpec, ...]
    clock: ClockSpec | None = None
    """The time control a clocked table pins (``client.rules.clock``); None: no clock."""

    @property
    def table_id(self) -> bytes:
        return self.record.table_id

    @property
    def host(self) -> bytes:
        return self.record.author

    @property
    def peer_keys(self) -> tuple[bytes, ...]:
        return tuple(peer.key for peer in self.peers)

    @property
    def seat_keys(self) -> tuple[bytes, ...]:
        """Index 0 is seat 1."""
        return tuple(seat.key for seat in self.seats)

    def runner_of(self, key: bytes) -> bytes | None:
        """The peer that speaks for ``key``: itself for a peer, the runner for a bot key."""
        if key in self.peer_keys:
            return key
        for seat in self.seats:
            if seat.key == key:
                return seat.runner
        return None

    def player_name(self, key: bytes) -> str:
        """The name a player reads (``Ann``); the key's label only for a peer without a name
        or a key not at this table."""
        peer = next((peer for peer in self.peers if peer.key == key), None)
        return peer.name if peer is not None and peer.name else key_label(key)

    def name_of(self, key: bytes) -> str:
        """``peer K3QF-7XZA… (Ann)``, or ``the bot of seat 3 run by peer ...`` for a bot key."""
        for peer in self.peers:
            if peer.key == key:
                return (
                    f"peer {key_label(key)} ({peer.name})"
                    if peer.name
                    else f"peer {key_label(key)}"
                )
        for seat in self.seats:
            if seat.key == key and seat.runner is not None:
                runner = self.name_of(seat.runner)
                return f"the {seat.bot_word} of seat {seat.seat} run by {runner}"
        return f"key {key_label(key)} (not at this table)"


def start_body(
    *,
    game: str,
    ruleset: str,
    engine_version: str,
    params: Mapping[str, int | str],
    peers: tuple[PeerSpec, ...],
    seats: tuple[SeatSpec, ...],
    away_ms: int = DEFAULT_AWAY_MS,
    idle_ms: int = DEFAULT_IDLE_MS,
    clock: ClockSpec | None = None,
) -> dict[str, object]:
    """The body of a START record (the host signs it with ``kind=START``); an unclocked
    table's has no ``clock`` field, as every START before clocks."""
    body: dict[str, object] = {
        "game": game,
        "ruleset": ruleset,
        "engine_version": engine_version,
        "options": dict(params),
        "timeouts": {"away_ms": away_ms, "idle_ms": idle_ms},
        "peers": [{"key": peer.key, "name": peer.name} for peer in peers],
        "seats": [_seat_entry(s) for s in seats],
    }
    if clock is not None:
        body["clock"] = clock.to_body()
    return body


def _seat_entry(spec: SeatSpec) -> dict[str, object]:
    entry: dict[str, object] = {"key": spec.key, "runner": spec.runner or spec.key}
    if spec.level is not None:
        entry["level"] = spec.level
    if spec.own_bot is not None:
        entry["own_bot"] = spec.own_bot
    return entry


def parse_start(record: SignedRecord) -> TableStart:
    """Read and check a START record (``StartRefused`` with the reason otherwise)."""
    try:
        return _parse(record)
    except Malformed as error:
        raise StartRefused(f"the table's START is malformed: {error}") from None


def _parse(record: SignedRecord) -> TableStart:
    if record.kind != START:
        raise StartRefused(f"expected a START record, got {record.kind}")
    body = record.body
    params_obj = body.get("options") if isinstance(body, Mapping) else None
    if not isinstance(params_obj, Mapping) or len(params_obj) > MAX_PARAMS:
        raise Malformed("field 'options' is not a small map")
    params: dict[str, int | str] = {}
    for name, value in params_obj.items():
        if type(name) is not str or not (type(value) is int or type(value) is str):
            raise Malformed("parameters must map names to integers or text")
        params[name] = value
    timeouts = body.get("timeouts")
    if not isinstance(timeouts, Mapping):
        raise Malformed("field 'timeouts' is not a map")
    peers = tuple(_read_peer(item) for item in read_list(body, "peers", MAX_PEERS))
    items = read_list(body, "seats", MAX_SEATS)
    seats = tuple(_read_seat(number, item) for number, item in enumerate(items, 1))
    start = TableStart(
        record=record,
        game=read_text(body, "game", 64),
        ruleset=read_text(body, "ruleset", 64),
        engine_version=read_text(body, "engine_version", 64),
        params=params,
        away_ms=read_int(timeouts, "away_ms", 1, 2**40),
        idle_ms=read_int(timeouts, "idle_ms", 1, 2**40),
        peers=peers,
        seats=seats,
        clock=_read_clock(body),
    )
    _check_roster(start)
    return start


def _read_clock(body: Mapping[str, object]) -> ClockSpec | None:
    clock = body.get("clock")
    if clock is None:
        return None
    if not isinstance(clock, Mapping):
        raise Malformed("field 'clock' is not a map")
    return ClockSpec.from_body(clock)


def _read_peer(item: object) -> PeerSpec:
    if not isinstance(item, Mapping):
        raise Malformed("a peer entry is not a map")
    key = read_bytes(item, "key", KEY_SIZE)
    if len(key) != KEY_SIZE:
        raise Malformed("a peer key is not 32 bytes")
    return PeerSpec(key, read_text(item, "name", MAX_NAME))


def _read_seat(number: int, item: object) -> SeatSpec:
    if not isinstance(item, Mapping):
        raise Malformed("a seat entry is not a map")
    key = read_bytes(item, "key", KEY_SIZE)
    runner = read_bytes(item, "runner", KEY_SIZE)
    if len(key) != KEY_SIZE or len(runner) != KEY_SIZE:
        raise Malformed("a seat key or runner is not a 32-byte key")
    level = read_text(item, "level", MAX_LEVEL) if "level" in item else None
    if level is not None and runner == key:
        raise Malformed(f"seat {number} is a person's and has a bot level")
    own_bot = read_text(item, "own_bot", MAX_LEVEL) if "own_bot" in item else None
    if own_bot is not None and runner != key:
        raise Malformed(f"seat {number} is a bot's and says its own peer's bot plays it")
    return SeatSpec(number, key, None if runner == key else runner, level, own_bot)


def _check_roster(start: TableStart) -> None:
    keys = start.peer_keys
    if not keys:
        raise StartRefused("the table's START names no peers")
    if len(set(keys)) != len(keys):
        raise StartRefused("the table's START names a peer twice")
    if keys[0] != start.host:
        raise StartRefused("the table's START is not signed by its host (the first peer)")
    bot_keys = [seat.key for seat in start.seats if seat.runner is not None]
    if len(set(bot_keys)) != len(bot_keys):
        raise StartRefused("the table's START gives two bot seats the same key")
    for seat in start.seats:
        if seat.runner is None and seat.key not in keys:
            raise StartRefused(f"seat {seat.seat} is signed by a key that is not a peer")
        if seat.runner is not None and (seat.key in keys or seat.runner not in keys):
            raise StartRefused(
                f"bot seat {seat.seat} has a peer's key or a runner not at the table"
            )
    playing = {seat.key if seat.runner is None else seat.runner for seat in start.seats}
    for peer in start.peers:
        if peer.key not in playing:
            raise StartRefused(f"{start.name_of(peer.key)} is listed as a peer but plays no seat")


def check_engine(start: TableStart, engine: AnyEngine) -> None:
    """Refuse (``StartRefused``) unless this engine can play exactly the table START pins."""
    here = f"{engine.ruleset} with engine {engine.version}"
    there = f"{start.ruleset} with engine {start.engine_version}"
    if engine.name != start.game or engine.ruleset != start.ruleset:
        raise StartRefused(f"this table plays {there} but this palabre has {here}")
    if engine.version != start.engine_version:
        raise StartRefused(f"this table plays {there} but this palabre has {here}")
    try:
        state = engine.initial_state(start.params)
    except InvalidParams as error:
        raise StartRefused(f"this palabre cannot play the table's options: {error}") from None
    seats = engine.seat_count(state)
    if seats != len(start.seats):
        raise StartRefused(
            f"the table's START lists {len(start.seats)} seats, the game has {seats}"
        )


def open_start(
    record: SignedRecord, find: Callable[[str], AnyEngine]
) -> tuple[TableStart, AnyEngine]:
    """Parse START, find its engine with ``find`` and check it; ``StartRefused`` otherwise."""
    start = parse_start(record)
    try:
        engine = find(start.game)
    except LookupError:
        raise StartRefused(f"this palabre does not know the game {start.game!r}") from None
    check_engine(start, engine)
    return start, engine
