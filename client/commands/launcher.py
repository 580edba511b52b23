"""The start screen's intents: play alone against bots, host a table, join one.

Each intent is synchronous and either returns what the UI shows next or raises
``LaunchError`` with a message a player can read.  Hosting and joining return a
``NetSession`` in its lobby, not started: the window shows its ``lobby`` model, runs its
``serve`` and switches to the table once ``started``.

Options are typed as ``key=value`` pairs separated by commas or spaces; values made of digits
(with an optional minus sign) are integers, anything else is a string, as engine params are.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date

from client.bots import BOT_KINDS, level_of_kind
from client.node.hosting import HostConfig
from client.node.joining import JoinConfig, parse_target
from client.node.lobby import JoinRefused
from client.node.peer_node import NodeConfig
from client.profile.game_file import create_named, game_dir
from client.profile.profile_lock import hold_profile
from client.rules.bot_names import BotNamer, bot_name
from client.rules.clock import ClockSpec
from client.rules.errors import LaunchError, ProfileInUse
from client.runtime.addresses import lan_addresses
from client.runtime.mdns import mdns_enabled
from client.runtime.peer import Peer
from client.sessions.local_game import LocalGame
from client.sessions.local_record import LocalRecord
from client.sessions.net_session import NetSession
from engines import AnyEngine, InvalidParams, UnknownGame, engine_names, find_engine
from net.errors import IdentityError, InviteError, LogFileError
from net.fsutil import os_reason
from net.identity import Identity, load_profile_identity, profile_warnings
from net.invite import DEFAULT_PORT, Invite, check_secret, new_secret

__all__ = [
    "DEFAULT_PORT",
    "HostRequest",
    "JoinRequest",
    "Launcher",
    "LocalRequest",
    "invite_address",
    "parse_address",
    "parse_options",
]


@dataclass(frozen=True)
class LocalRequest:
    game: str
    seats: int | None = None
    options: Mapping[str, int | str] = field(default_factory=dict)
    my_seat: int = 1
    bot_kind: str = "sensible"
    player_name: str = "You"
    bot_delay: float = 0.4
    seed: int = 0


@dataclass(frozen=True)
class HostRequest:
    game: str
    seats: int | None
    bots: int
    port: int
    options: Mapping[str, int | str] = field(default_factory=dict)
    secret: bool = False
    """Admit only players who know a table secret (made here; the invite carries it)."""
    bot_kind: str = "sensible"
    """How well the host's bots play (``client.bots.BOT_KINDS``); START names its level."""
    bot_delay: float | None = None
    """Seconds the host's bots wait before each move (the form's bot speed); None: the
    launcher's."""
    clock: ClockSpec | None = None
    """The time control START pins (the form's clock, as ``--clock``); None: no clock."""


@dataclass(frozen=True)
class JoinRequest:
    target: str
    """``host[:port]`` or a pasted invite."""
    secret: str | None = None
    """The table secret, for a table joined by address (an invite carries its own)."""
    also: tuple[str, ...] = ()
    """More ``host:port`` of the table's peers, tried in turn when nobody answers at
    ``target`` (a rejoin from the recent tables)."""
    watch: bool = False
    """Follow the table without a seat (a spectator never signs)."""
    port: int = 0
    """Where to listen for the other peers, if free (a rejoin: where this profile listened
    before); 0 or taken: any free port."""


def _is_here(where: Invite | tuple[str, int], port: int) -> bool:
    """Whether ``where`` is this machine at ``port`` (loopback or one of its LAN addresses)."""
    if isinstance(where, Invite):
        hosts, at = set(where.addresses), where.port
    else:
        hosts, at = {where[0]}, where[1]
    return at == port and bool(hosts & {"127.0.0.1", "localhost", "::1", *lan_addresses()})


def parse_options(text: str) -> dict[str, int | str]:
    """``"a=1, b=x"`` -> ``{"a": 1, "b": "x"}``; ``LaunchError`` on anything else."""
    options: dict[str, int | str] = {}
    for item in text.replace(",", " ").split():
        key, sep, value = item.partition("=")
        if not sep or not key or not value:
            raise LaunchError(f"Options are written key=value; cannot read {item!r}.")
        if key in options:
            raise LaunchError(f"The option {key!r} is given twice.")
        digits = value[1:] if value.startswith("-") else value
        options[key] = int(value) if digits.isdigit() and digits.isascii() else value
    return options


def invite_address(text: str) -> str | None:
    """The first ``host:port`` of the invite ``text``; None when it is no readable invite."""
    try:
        target = parse_target(text)
    except InviteError:
        return None
    if not isinstance(target, Invite):
        return None
    host = target.addresses[0]
    return f"[{host}]:{target.port}" if ":" in host else f"{host}:{target.port}"


def parse_address(text: str) -> tuple[str, int]:
    """``host[:port]`` -> ``(host, port)``; ``LaunchError`` when it cannot be read."""
    text = text.strip()
    host, sep, port_text = text.rpartition(":")
    if not sep:
        host, port_text = text, str(DEFAULT_PORT)
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    if not host or any(char.isspace() for char in host):
        raise LaunchError(f"Cannot read {text!r} as an address: write host or host:port.")
    if not port_text.isdigit() or not 1 <= int(port_text) <= 65535:
        raise LaunchError(f"The port in {text!r} must be a number from 1 to 65535.")
    return host, int(port_text)


class Launcher:
    """Carries out the start screen's intents.

    ``engines`` replaces the registry (tests hand in games that are not registered);
    ``profile`` is whose key signs at networked tables.
    """

    BOT_DELAY = 0.4
    """Seconds the bots of a networked table wait before moving, so people can follow
    (``bot_delay`` overrides it and the host form's bot speed: tests and scripts)."""

    def __init__(
        self,
        engines: Mapping[str, AnyEngine] | None = None,
        profile: str = "default",
        *,
        bot_delay: float | None = None,
    ) -> None:
        self._engines = engines
        self.profile = profile
        self.bot_delay = self.BOT_DELAY if bot_delay is None else bot_delay
        self._delay_forced = bot_delay is not None
        self.bot_namer: BotNamer = bot_name
        """How the sessions name bots (``client.rules.bot_names``); the window sets its own,
        which translates."""

    def fingerprint(self) -> str:
        """This profile's fingerprint (its key is made on first use); ``LaunchError``."""
        return self._identity().fingerprint

    def warnings(self) -> list[str]:
        """What makes this profile's key less private than it looks (it still works)."""
        try:
            return profile_warnings(self.profile)
        except IdentityError:
            return []  # a bad profile name: ``fingerprint`` says so

    def games(self) -> tuple[str, ...]:
        """The games to offer, the headline game (Consensus) first."""
        names = tuple(self._engines) if self._engines is not None else engine_names()
        return tuple(sorted(names, key=lambda name: (name != "consensus", name)))

    def engine(self, game: str) -> AnyEngine:
        """The engine of ``game``; ``LaunchError`` naming the known games otherwise."""
        if self._engines is None:
            try:
                return find_engine(game)
            except UnknownGame as error:
                raise LaunchError(str(error)) from error
        if game not in self._engines:
            raise LaunchError(f"no game called {game!r}; known games: {', '.join(self.games())}")
        return self._engines[game]

    def params(
        self, game: str, seats: int | None, options: Mapping[str, int | str]
    ) -> dict[str, int | str]:
        """The game's first sample params, overridden by ``options`` and ``seats``."""
        engine = self.engine(game)
        params: dict[str, int | str] = dict(engine.sample_params[0]) if engine.sample_params else {}
        params.update(options)
        if seats is not None:
            params["seats"] = seats
        return params

    def play_local(self, request: LocalRequest) -> LocalGame:
        """A new local game against bots (not started: the UI runs its ``serve``)."""
        if request.bot_kind not in BOT_KINDS:
            raise LaunchError(f"Unknown bot kind {request.bot_kind!r}.")
        params = self.params(request.game, request.seats, request.options)
        engine = self.engine(request.game)
        identity = self._identity()
        games = game_dir(self.profile)

        def record(names: Mapping[int, str]) -> LocalRecord:
            """The game file, saved like every table's (``client.sessions.local_record``)."""
            players = [names[seat] for seat in sorted(names)]
            file = create_named(games, date.today(), engine.name, players)
            level = level_of_kind(request.bot_kind)
            return LocalRecord(engine, params, identity, request.my_seat, names, file, level)

        try:
            return LocalGame(
                engine,
                params,
                my_seat=request.my_seat,
                player_name=request.player_name,
                bot_kind=request.bot_kind,
                seed=request.seed,
                bot_delay=request.bot_delay,
                record=record,
                bot_namer=self.bot_namer,
            )
        except InvalidParams as error:
            raise LaunchError(f"Cannot start {request.game}: {error}") from error
        except LogFileError as error:
            raise LaunchError(f"Cannot save the game: {error}") from error
        except ImportError as error:
            raise LaunchError(
                f"The {request.bot_kind} bot for {request.game} is not installed; "
                "choose another kind of bot."
            ) from error

    def host(self, request: HostRequest, name: str = "Player") -> NetSession:
        """A table to host on the LAN, in its lobby (the UI runs its ``serve``)."""
        params = self.params(request.game, request.seats, request.options)
        engine = self.engine(request.game)
        if not 1 <= request.port <= 65535:
            raise LaunchError("The port must be a number from 1 to 65535.")
        if request.bot_kind not in BOT_KINDS:
            raise LaunchError(f"Unknown bot kind {request.bot_kind!r}.")
        self._hold_profile()
        try:
            hosting = HostConfig(
                engine,
                params,
                name,
                bots=request.bots,
                auto_start=False,
                announce=mdns_enabled(),
                secret=new_secret() if request.secret else None,
                clock=request.clock,
            )
            config = NodeConfig(
                bot_kind=request.bot_kind,
                stay=True,
                profile=self.profile,
                engine_for=self._find,
                bot_delay=self._host_delay(request),
            )
            peer = Peer(self._identity(), hosting, config)
        except (InvalidParams, JoinRefused) as error:
            raise LaunchError(f"Cannot host {request.game}: {error}") from error
        return NetSession(peer, port=request.port, bot_namer=self.bot_namer)

    def _host_delay(self, request: HostRequest) -> float:
        """The wait of the host's bots: the launcher's when forced, else the form's."""
        if self._delay_forced or request.bot_delay is None:
            return self.bot_delay
        return request.bot_delay

    def join(self, request: JoinRequest, name: str = "Player") -> NetSession:
        """A table to join by address or invite, in its lobby (the UI runs its ``serve``)."""
        target = request.target.strip()
        if not target:
            raise LaunchError("Type the table's address (host:port) or paste its invite.")
        try:
            where = parse_target(target)
            secret = None if request.secret is None else check_secret(request.secret)
        except InviteError as error:
            raise LaunchError(f"Cannot read {target!r}: {error}.") from error
        also = [parse_address(other) for other in request.also if other.strip() != target]
        port = request.port
        if port:  # a rejoin listens at its old port again: never dial that, it is this palabre
            kept = [other for other in also if not _is_here(other, port)]
            if not _is_here(where, port):
                also = kept
            elif kept:
                where, also = kept[0], kept[1:]
            else:  # nobody else's address is known: try the old one, listen anywhere
                port = 0
        self._hold_profile()
        peer = Peer(
            self._identity(),
            JoinConfig(
                where,
                name,
                watch=request.watch,
                ready=False,
                listen_port=port,
                any_port_if_taken=True,
                secret=secret,
                also=also,
            ),
            NodeConfig(
                stay=True, profile=self.profile, engine_for=self._find, bot_delay=self.bot_delay
            ),
        )
        return NetSession(peer, bot_namer=self.bot_namer)

    def _hold_profile(self) -> None:
        """One profile, one process (``client.profile.profile_lock``): the window takes the profile
        when it first goes to a table, and keeps it until it closes."""
        try:
            hold_profile(self.profile, "at a table in the palabre window")
        except ProfileInUse as error:
            who = f"Another palabre (process {error.pid})" if error.pid else "Another palabre"
            doing = f": it is {error.doing}" if error.doing else ""
            raise LaunchError(
                f"{who} is already using this profile{doing}. You can be at one table at a "
                "time: leave that table or close that palabre, then try again."
            ) from error
        except (IdentityError, OSError) as error:
            reason = os_reason(error) if isinstance(error, OSError) else str(error)
            raise LaunchError(f"Cannot use this profile: {reason}.") from error

    def _identity(self) -> Identity:
        try:
            return load_profile_identity(self.profile)
        except IdentityError as error:
            raise LaunchError(str(error)) from error

    def _find(self, game: str) -> AnyEngine:
        try:
            return self.engine(game)
        except LaunchError as error:
            raise UnknownGame(str(error)) from error
