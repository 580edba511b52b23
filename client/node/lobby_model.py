"""The lobby as a plain object: what the lobby screen shows before a table starts.

The network table owns a ``LobbyModel`` and feeds it (``update``); the lobby screen
subscribes, re-reads ``view`` on every change and sends the player's intents through a
``LobbyIntents``.  Nothing here knows about sockets or Qt.

Invariants: ``view`` is an immutable ``LobbyView``; every ``update`` replaces it and calls
each listener once, in subscription order.  ``LobbyView.can_start`` holds exactly when every
seat is taken, every taken seat is ready, this peer hosts the table and nothing failed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Protocol, TypedDict, Unpack

__all__ = [
    "LobbyChanges",
    "LobbyIntents",
    "LobbyModel",
    "LobbySeat",
    "LobbyView",
]


@dataclass(frozen=True)
class LobbySeat:
    seat: int
    name: str = ""
    """Empty while the seat is free."""
    fingerprint: str = ""
    is_bot: bool = False
    ready: bool = False
    is_mine: bool = False
    """This peer's player sits there, or this peer runs the bot that does."""
    runner: str = ""
    """For a bot: the name of the player whose palabre runs it."""
    level: str | None = None
    """For a bot: its level when the host says it (``client.rules.bot_names``)."""
    own_bot: bool = False
    """A player's own seat their palabre's bot plays (``--bot``): shown as a bot, sent away
    as a player (it is no bot to remove)."""

    @property
    def taken(self) -> bool:
        return bool(self.name)


@dataclass(frozen=True)
class LobbyView:
    game: str
    options: str = ""
    """The game's options as the host set them, for display."""
    invite: str = ""
    host_fingerprint: str = ""
    seats: tuple[LobbySeat, ...] = ()
    is_host: bool = False
    status: str = ""
    host_name: str = ""
    """The host player's name, once its roster arrived (a join that got this far worked)."""
    failure: str = ""
    """Why joining (or opening the table) failed, in the words of whoever ended it."""
    failure_kind: str = ""
    """What kind of failure (``client.node.joining.JOIN_FAILURE_KINDS``), for the screen to explain;
    empty when there is none, ``"other"`` when it has no kind of its own."""
    warnings: tuple[str, ...] = ()
    """What the player should look at before playing: a known name with a new key."""
    clock: str = ""
    """The time control the table will play (``5+3``), empty for none."""
    machines: int = 0
    """How many palabres (players' machines, whatever bots they run) are at the table: at
    two, neither can make the other's player lose on time."""

    @property
    def can_start(self) -> bool:
        return (
            self.is_host
            and not self.failure
            and bool(self.seats)
            and all(seat.taken and seat.ready for seat in self.seats)
        )

    @property
    def my_seat(self) -> LobbySeat | None:
        return next((seat for seat in self.seats if seat.is_mine), None)


class LobbyChanges(TypedDict, total=False):
    """The ``LobbyView`` fields ``LobbyModel.update`` may replace, each with its own type."""

    game: str
    options: str
    invite: str
    host_fingerprint: str
    seats: tuple[LobbySeat, ...]
    is_host: bool
    status: str
    host_name: str
    failure: str
    failure_kind: str
    warnings: tuple[str, ...]
    clock: str
    machines: int


class LobbyModel:
    """Holds the current ``LobbyView`` and tells listeners when it changes."""

    def __init__(self, view: LobbyView) -> None:
        self._view = view
        self._listeners: list[Callable[[], None]] = []

    @property
    def view(self) -> LobbyView:
        return self._view

    def subscribe(self, listener: Callable[[], None]) -> Callable[[], None]:
        self._listeners.append(listener)

        def unsubscribe() -> None:
            if listener in self._listeners:
                self._listeners.remove(listener)

        return unsubscribe

    def update(self, **changes: Unpack[LobbyChanges]) -> None:
        """Replace fields of the view (``dataclasses.replace`` names) and notify."""
        self._view = replace(self._view, **changes)
        for listener in list(self._listeners):
            listener()

    def fail(self, reason: str, kind: str = "other") -> None:
        """Show why joining failed: ``reason`` in words, ``kind`` for the screen to explain."""
        self.update(failure=reason, failure_kind=kind)


class LobbyIntents(Protocol):
    """What the player can do in the lobby; the network table implements it."""

    def set_ready(self, ready: bool) -> None: ...

    def add_bot(self) -> None: ...

    def remove_bot(self, seat: int) -> None: ...

    def remove_player(self, seat: int) -> None:
        """(Host, before START) send the player of ``seat`` away for the rest of the table."""
        ...

    def start(self) -> None: ...

    def leave(self) -> None: ...
