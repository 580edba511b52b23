"""The host's lobby: who sits where before the game starts, and the START it leads to.

Lobby traffic is not logged and not signed as records; only the START it produces is.  The
host feeds the lobby what the handshake and lobby messages say (joins, bots, ready,
leaves) and signs ``start_body()`` once ``can_start`` holds.

Invariants:

* the host is the first peer and every peer holds at least one seat (its own or a bot's);
* seats are taken first come, or as asked; a person's seat is signed by that peer's key, a
  bot seat by the bot's own key and run by a peer;
* a join to a full or started table is refused with a reason unless it only watches;
* the table can start when every seat is taken and every peer is ready; after
  ``start_body()`` the lobby is closed to players (spectators may still come).
"""

from __future__ import annotations

from collections.abc import Mapping

from client.rules.clock import ClockSpec
from client.rules.start import DEFAULT_AWAY_MS, DEFAULT_IDLE_MS, PeerSpec, SeatSpec, start_body
from engines import AnyEngine

__all__ = ["JoinRefused", "Lobby", "TableFull"]


class JoinRefused(Exception):
    """The lobby will not take this peer (or bot) as asked; the message says why."""


class TableFull(JoinRefused):
    """Every seat is taken (the peer may still watch)."""


class Lobby:
    def __init__(
        self,
        engine: AnyEngine,
        params: Mapping[str, int | str],
        host: bytes,
        host_name: str,
        *,
        away_ms: int = DEFAULT_AWAY_MS,
        idle_ms: int = DEFAULT_IDLE_MS,
        clock: ClockSpec | None = None,
        host_seat: int | None = None,
        host_bot: str | None = None,
    ) -> None:
        """``InvalidParams`` (from the engine) when the options are not playable;
        ``JoinRefused`` for a ``host_seat`` the table does not have; ``host_bot``: the level
        of the bot the host's palabre plays its seat by (``--bot``)."""
        self.engine = engine
        self.params = dict(params)
        self.seat_count = engine.seat_count(engine.initial_state(self.params))
        self.away_ms, self.idle_ms = away_ms, idle_ms
        self.clock = clock
        self.host = host
        self.peers: dict[bytes, str] = {}
        self.spectators: dict[bytes, str] = {}
        self.seats: list[SeatSpec | None] = [None] * self.seat_count
        self.ready: set[bytes] = set()
        self.started = False
        self.join(host, host_name, seat=host_seat, own_bot=host_bot)

    # --- arriving and leaving ---------------------------------------------------------------
    def join(
        self,
        key: bytes,
        name: str,
        *,
        seat: int | None = None,
        watch: bool = False,
        own_bot: str | None = None,
    ) -> int | None:
        """Seat a peer (returns its seat) or a spectator (returns None); ``JoinRefused``.
        ``own_bot``: the level of the bot the peer's palabre plays its seat by (``--bot``),
        which START then names."""
        if key in self.peers or key in self.spectators:
            raise JoinRefused("this player is already at the table")
        if watch:
            self.spectators[key] = name
            return None
        if self.started:  # every seat is taken for good: the game may still be watched
            raise TableFull("the game has already started; join with --watch to follow it")
        number = self._free_seat(seat)
        self.peers[key] = name
        self.seats[number - 1] = SeatSpec(number, key, own_bot=own_bot)
        return number

    def add_bot(
        self, runner: bytes, bot_key: bytes, seat: int | None = None, level: str | None = None
    ) -> int:
        """Seat a bot that ``runner`` runs and signs for with ``bot_key`` (at ``level``, which
        START then names, when given); ``JoinRefused``."""
        if self.started:
            raise JoinRefused("the game has already started")
        if runner not in self.peers:
            raise JoinRefused("only a player at the table can add a bot")
        if bot_key in self.peers or any(s is not None and s.key == bot_key for s in self.seats):
            raise JoinRefused("that bot key is already at the table")
        number = self._free_seat(seat)
        self.seats[number - 1] = SeatSpec(number, bot_key, runner, level)
        return number

    def remove_bot(self, runner: bytes, seat: int) -> None:
        """Take ``runner``'s bot off ``seat``; ``JoinRefused`` unless it runs one there."""
        if self.started:
            raise JoinRefused("the game has already started")
        spec = self.seats[seat - 1] if 1 <= seat <= self.seat_count else None
        if spec is None or spec.runner != runner:
            raise JoinRefused(f"there is no bot of yours at seat {seat}")
        self.seats[seat - 1] = None

    def leave(self, key: bytes) -> None:
        """A peer leaves before START: its seats and the bots it runs are freed."""
        if self.started:
            raise JoinRefused("the game has started: leaving is handled at the table")
        if key == self.host:
            raise JoinRefused("the host cannot leave its own lobby; close the table instead")
        self.spectators.pop(key, None)
        if self.peers.pop(key, None) is None:
            return
        self.ready.discard(key)
        self.seats = [None if s is not None and key in (s.key, s.runner) else s for s in self.seats]

    def set_ready(self, key: bytes, ready: bool = True) -> None:
        if key not in self.peers:
            raise JoinRefused("only a seated player can be ready")
        (self.ready.add if ready else self.ready.discard)(key)

    def _free_seat(self, seat: int | None) -> int:
        if seat is None:
            for number, spec in enumerate(self.seats, 1):
                if spec is None:
                    return number
            raise TableFull(
                f"the table is full ({self.seat_count} seats); join with --watch to follow it"
            )
        if not 1 <= seat <= self.seat_count:
            raise JoinRefused(
                f"there is no seat {seat}: this table has seats 1 to {self.seat_count}"
            )
        taken = self.seats[seat - 1]
        if taken is not None:
            who = (
                self.peers.get(taken.key) or f"a bot of {self.peers.get(taken.runner or b'', '?')}"
            )
            raise JoinRefused(f"seat {seat} is taken by {who}")
        return seat

    # --- starting ---------------------------------------------------------------------------
    def waiting_for(self) -> list[str]:
        """What stops the table from starting, as sentences (empty when it can start)."""
        waits = [f"seat {n} is free" for n, spec in enumerate(self.seats, 1) if spec is None]
        waits += [
            f"{name} is not ready" for key, name in self.peers.items() if key not in self.ready
        ]
        playing = {s.runner or s.key for s in self.seats if s is not None}
        waits += [f"{name} holds no seat" for key, name in self.peers.items() if key not in playing]
        return waits

    @property
    def can_start(self) -> bool:
        return not self.waiting_for()

    def start_body(self) -> dict[str, object]:
        """The START body for the host to sign; closes the lobby (``JoinRefused`` if early)."""
        waits = self.waiting_for()
        if waits:
            raise JoinRefused("the table cannot start yet: " + "; ".join(waits))
        self.started = True
        return start_body(
            game=self.engine.name,
            ruleset=self.engine.ruleset,
            engine_version=self.engine.version,
            params=self.params,
            peers=tuple(PeerSpec(key, name) for key, name in self.peers.items()),
            seats=tuple(spec for spec in self.seats if spec is not None),
            away_ms=self.away_ms,
            idle_ms=self.idle_ms,
            clock=self.clock,
        )
