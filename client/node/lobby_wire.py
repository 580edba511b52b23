"""The lobby's unsigned messages (``net`` MESSAGE frames) and the roster they carry.

Before START nothing is signed: a joiner asks for a seat, says it is ready, adds or removes
its bots; the host answers with the **roster** (the whole lobby, sent again after every
change).  These messages travel only on authenticated, encrypted links (docs/PROTOCOL.md
section 9) and are never logged or forwarded.  Each topic has a strict schema; ``net``
checks it on both sides, so a malformed message closes the link as a protocol error.

Topics (``joiner -> host`` unless said otherwise):

* ``join`` ``{name, seat, watch, ready}``: the first message of a joiner (``seat`` 0: any),
  and optionally ``own_bot`` (a level): its palabre's bot plays its seat (``--bot``), which
  the roster and START then say;
* ``ready`` ``{ready}``;
* ``add_bot`` ``{key, seat}`` and optionally ``level``: a bot the joiner runs, signing with
  ``key`` (``seat`` 0: any), at that level (easy, normal, strong), which START then names;
* ``remove_bot`` ``{seat}``: one of the joiner's bots leaves its seat;
* ``roster`` (host -> every linked peer and spectator): see :class:`Roster` (with the
  time control START will pin, if any);
* ``notice`` ``{text}`` (host -> one joiner): why the host did not do what it asked.

After the END, the same links carry the rematch (``client.node.rematch``): ``rematch`` ``{yes}``
(peer -> host), ``rematch_state`` ``{yes, no}`` (host -> every peer: who accepted, who
declined) and ``rematch_table`` ``{table, port}`` (host -> every peer: the new table).

Invariants: :func:`roster_body` and :func:`read_roster` round-trip; the roster lists each
peer's key, name, the address the host sees it at and the port it listens on (0: none),
which is what the mesh needs to dial (issue 8).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import NotRequired, TypedDict

from client.bots import BOT_LEVELS
from client.rules.bot_names import bot_name
from client.rules.clock import MAX_BASE_MS, ClockSpec
from client.rules.errors import Malformed
from net.wire import Bool, Bytes, Int, ListOf, MapOf, Nullable, OneOf, Schema, Struct, Text

__all__ = [
    "ADD_BOT",
    "JOIN",
    "NOTICE",
    "READY",
    "REMATCH",
    "REMATCH_STATE",
    "REMATCH_TABLE",
    "REMATCH_TOPICS",
    "REMOVE_BOT",
    "ROSTER",
    "SCHEMAS",
    "LobbyChanged",
    "Roster",
    "RosterBody",
    "RosterPeer",
    "RosterPeerBody",
    "RosterSeat",
    "RosterSeatBody",
    "read_roster",
    "roster_body",
]

JOIN = "join"
READY = "ready"
ADD_BOT = "add_bot"
REMOVE_BOT = "remove_bot"
ROSTER = "roster"
NOTICE = "notice"
REMATCH = "rematch"
REMATCH_STATE = "rematch_state"
REMATCH_TABLE = "rematch_table"
REMATCH_TOPICS = frozenset({REMATCH, REMATCH_STATE, REMATCH_TABLE})

_KEY = Bytes(32)
_SEAT_OR_ANY = Int(0, 64)
_NAME = Text(1, 40)
_LEVEL = Text(1, 16, "|".join(BOT_LEVELS))
_WORD = Text(1, 32, r"[a-z0-9][a-z0-9_.-]*")
_OPTIONS = MapOf(
    Text(1, 32, r"[a-z0-9][a-z0-9_.-]*"),
    OneOf((int, Int(-(2**63), 2**63 - 1)), (str, Text(0, 64))),
    32,
)

_CLOCK = Struct(
    {
        "base_ms": Int(1, MAX_BASE_MS),
        "increment_ms": Int(0, MAX_BASE_MS),
        "lag_ms": Int(0, MAX_BASE_MS),
        "ack_ms": Int(0, MAX_BASE_MS),
    }
)
"""The time control START will pin (``client.rules.clock.ClockSpec``), for the lobby to say."""

SCHEMAS: Mapping[str, Schema] = {
    # ``own_bot`` came later: a joiner that does not send it is a person to the others.
    JOIN: Struct(
        {"name": _NAME, "seat": _SEAT_OR_ANY, "watch": Bool(), "ready": Bool()},
        {"own_bot": _LEVEL},
    ),
    READY: Struct({"ready": Bool()}),
    # ``level`` came later: a joiner that does not send it adds a bot START names no level of.
    ADD_BOT: Struct({"key": _KEY, "seat": _SEAT_OR_ANY}, {"level": _LEVEL}),
    REMOVE_BOT: Struct({"seat": Int(1, 64)}),
    NOTICE: Struct({"text": Text(1, 300)}),
    REMATCH: Struct({"yes": Bool()}),
    REMATCH_STATE: Struct({"yes": ListOf(_KEY, 0, 16), "no": ListOf(_KEY, 0, 16)}),
    REMATCH_TABLE: Struct({"table": Bytes(16), "port": Int(1, 65535)}),
    ROSTER: Struct(
        {
            "game": _WORD,
            "ruleset": Text(1, 64, r"[a-z0-9][a-z0-9_./-]*"),
            "engine_version": Text(1, 32, r"[A-Za-z0-9][A-Za-z0-9_.+-]*"),
            "options": _OPTIONS,
            "peers": ListOf(
                Struct(
                    {
                        "key": _KEY,
                        "name": _NAME,
                        "address": Text(0, 64),
                        "port": Int(0, 65535),
                        "ready": Bool(),
                    }
                ),
                1,
                16,
            ),
            "seats": ListOf(
                # ``level`` and ``own_bot`` came later: a host before them names none.
                Struct(
                    {"key": Nullable(_KEY), "runner": Nullable(_KEY)},
                    {"level": _LEVEL, "own_bot": _LEVEL},
                ),
                1,
                64,
            ),
            "spectators": Int(0, 1 << 16),
            "waiting": ListOf(Text(0, 120), 0, 96),
        },
        # ``clock`` came later: a host before clocks names none (its tables have none).
        {"clock": _CLOCK},
    ),
}
"""Every lobby topic and its schema (``LinkSpec.message_schemas``)."""


@dataclass(frozen=True)
class RosterPeer:
    key: bytes
    name: str
    address: str
    """Where the host sees this peer (its own address for the host), empty if unknown."""
    port: int
    """The port this peer listens on (0: it does not listen)."""
    ready: bool


@dataclass(frozen=True)
class RosterSeat:
    seat: int
    key: bytes | None
    """The key that will sign this seat's moves; None while the seat is free."""
    runner: bytes | None
    """The peer running the bot at this seat; None for a person's seat or a free one."""
    level: str | None = None
    """A bot's level (easy, normal, strong), as START will name it; None when unknown."""
    own_bot: str | None = None
    """A person's seat its own peer's bot plays (``--bot``): that bot's level."""

    @property
    def is_bot(self) -> bool:
        """A bot plays it: one a peer runs, or a peer's own seat played by its bot."""
        return self.runner is not None or self.own_bot is not None


@dataclass(frozen=True)
class Roster:
    """The lobby as the host sends it."""

    game: str
    ruleset: str
    engine_version: str
    options: Mapping[str, int | str]
    peers: tuple[RosterPeer, ...]
    """The host first, then the others in the order they came."""
    seats: tuple[RosterSeat, ...]
    spectators: int
    waiting: tuple[str, ...]
    """What stops the table from starting, as sentences (empty: it can start)."""
    clock: ClockSpec | None = None
    """The time control START will pin, None for no clock."""

    def peer(self, key: bytes) -> RosterPeer | None:
        return next((peer for peer in self.peers if peer.key == key), None)

    def seat_of(self, key: bytes) -> int | None:
        """The person seat ``key`` holds, if any."""
        return next((s.seat for s in self.seats if s.key == key and s.runner is None), None)

    def holder(self, seat: RosterSeat) -> str:
        """Who sits at ``seat``, as a player reads it."""
        if seat.key is None:
            return "free"
        if seat.is_bot:
            runner = self.peer(seat.runner or seat.key)
            level = seat.level if seat.runner is not None else seat.own_bot
            return bot_name(seat.seat, runner.name if runner else "?", level)
        peer = self.peer(seat.key)
        return peer.name if peer else "?"


@dataclass(frozen=True)
class LobbyChanged:
    """What a peer tells its front end when the roster changed."""

    roster: Roster


class RosterPeerBody(TypedDict):
    """A ``roster`` body's peer, as ``SCHEMAS[ROSTER]`` checks it."""

    key: bytes
    name: str
    address: str
    port: int
    ready: bool


class RosterSeatBody(TypedDict):
    """A ``roster`` body's seat, as ``SCHEMAS[ROSTER]`` checks it."""

    key: bytes | None
    runner: bytes | None
    level: NotRequired[str]
    own_bot: NotRequired[str]


class RosterBody(TypedDict):
    """A ``roster`` message body, as ``SCHEMAS[ROSTER]`` checks it."""

    game: str
    ruleset: str
    engine_version: str
    options: dict[str, int | str]
    peers: list[RosterPeerBody]
    seats: list[RosterSeatBody]
    spectators: int
    waiting: list[str]
    clock: NotRequired[dict[str, int]]


def roster_body(roster: Roster) -> RosterBody:
    """The ``roster`` message body."""
    body: RosterBody = {
        "game": roster.game,
        "ruleset": roster.ruleset,
        "engine_version": roster.engine_version,
        "options": dict(roster.options),
        "peers": [
            {
                "key": p.key,
                "name": p.name,
                "address": p.address,
                "port": p.port,
                "ready": p.ready,
            }
            for p in roster.peers
        ],
        "seats": [_seat_body(s) for s in roster.seats],
        "spectators": roster.spectators,
        "waiting": [text[:120] for text in roster.waiting[:96]],
    }
    if roster.clock is not None:
        body["clock"] = roster.clock.to_body()
    return body


def _seat_body(seat: RosterSeat) -> RosterSeatBody:
    body = RosterSeatBody(key=seat.key, runner=seat.runner)
    if seat.level is not None:
        body["level"] = seat.level
    if seat.own_bot is not None:
        body["own_bot"] = seat.own_bot
    return body


def read_roster(body: RosterBody) -> Roster:
    """A ``roster`` body ``net`` already checked against its schema."""
    return Roster(
        game=body["game"],
        ruleset=body["ruleset"],
        engine_version=body["engine_version"],
        options=dict(body["options"]),
        peers=tuple(
            RosterPeer(p["key"], p["name"], p["address"], p["port"], p["ready"])
            for p in body["peers"]
        ),
        seats=tuple(
            RosterSeat(number, s["key"], s["runner"], s.get("level"), s.get("own_bot"))
            for number, s in enumerate(body["seats"], 1)
        ),
        spectators=body["spectators"],
        waiting=tuple(body["waiting"]),
        clock=_clock(body.get("clock")),
    )


def _clock(body: dict[str, int] | None) -> ClockSpec | None:
    """The roster's time control; one no table could pin shows as none (START, which the
    table checks, is what counts)."""
    if body is None:
        return None
    try:
        return ClockSpec.from_body(body)
    except Malformed:
        return None
