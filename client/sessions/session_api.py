"""What a game screen needs from a game in progress, whoever runs it (DESIGN.md section 6).

A *session* is one game seen from one client: a local game against bots in this process
(``client.sessions.local_game``) or, later, a networked table.  The UI only ever holds a
``GameSession``; it never learns which kind it has.

Invariants every implementation keeps:

* Intents (``move``, ``resign``, ``offer_draw``, ``accept_draw``, ``take_back``,
  ``consent_takeback``, ``refuse_takeback``, ``chat``, ``point``, ``leave``) are synchronous
  and never block: they are called from the UI thread.  An intent that cannot be honoured is
  not an exception: it produces a ``SessionError`` event whose message a player can read.
* ``move`` takes a *complete* move in wire form; a partial or illegal one is refused.
* Every change is announced by an event sent to each subscriber, in order, on the thread that
  runs the session (trio in guest mode on the Qt thread).  Events carry what changed; the
  whole picture is always ``snapshot``, an immutable value a view can re-read at any time.
* ``serve`` is the session's trio loop (bots, network); the UI starts it in its nursery and
  the session ends its loop when ``leave`` is called or the game is over and nothing is left
  to do.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from client.sessions.notices import Notice
from client.tabletop.table_clock import ClockDisplay
from engines import AnyEngine, Outcome

__all__ = [
    "ChatEntry",
    "ChatLine",
    "GameEnded",
    "GameSession",
    "Halted",
    "Listener",
    "NextTable",
    "PlayersChanged",
    "PlyView",
    "Pointed",
    "RematchView",
    "SeatView",
    "SessionError",
    "SessionEvent",
    "SessionSnapshot",
    "StateChanged",
    "TakebackView",
]


@dataclass(frozen=True)
class SeatView:
    """One seat of the game as the table sees it."""

    seat: int
    name: str
    """The name of the player (or bot) sitting there."""
    is_bot: bool
    controller: int
    """The seat whose player controls this seat's pieces now (itself unless taken over)."""
    is_mine: bool
    """This client's player sits at this seat."""
    present: bool = True
    """False while the player is away (networked tables)."""
    fingerprint: str = ""


@dataclass(frozen=True)
class PlyView:
    """One ply of the game, as listed in the move list."""

    ply: int
    seat: int
    """The seat whose turn it was."""
    player: int
    """The seat whose player made the ply (its controller at the time)."""
    kind: str
    """``"move"``, ``"resign"``, ``"draw"``, ``"takeback"`` (the ply before is undone) or
    ``"remove"`` (absent players taken off)."""
    notation: str
    wire: tuple[int, ...]
    """The move's wire form (empty for a resignation or a draw)."""
    removed: tuple[str, ...] = ()
    """The names of the players a ``"remove"`` ply took off (empty for any other kind)."""
    by: str = ""
    """The name of whoever played ``player``'s seat when the ply was made (a bot that later
    took the seat did not play the plies before it); empty: ask the snapshot's seats."""


@dataclass(frozen=True)
class ChatEntry:
    """A line of the chat; ``seat`` is None for the table's own notices.

    A notice also carries its structured form (``client.sessions.notices``): ``text`` is its English
    rendering, which the interface translates from ``notice``.  ``notice`` takes no part in
    equality: it says the same thing as ``text``."""

    ply: int
    seat: int | None
    author: str
    text: str
    notice: Notice | None = field(default=None, compare=False)


@dataclass(frozen=True)
class TakebackView:
    """A player asks to take back the last ply (its own move); every peer must consent."""

    ply: int
    """The ply to be taken back."""
    asker: str
    """The asker's name."""
    mine: bool
    """This client's player asked."""
    consented: bool
    """This client's player consented (the asker has, by asking)."""
    refused: bool = False
    """This client's player said no (nothing is signed: the ask lapses when a ply follows)."""
    waiting_for: tuple[str, ...] = ()
    """Names of the players whose consent is still missing."""


@dataclass(frozen=True)
class RematchView:
    """Playing again after the end, at a networked table (names of the players)."""

    accepted: tuple[str, ...]
    declined: tuple[str, ...]
    """Not empty: there will be no rematch."""
    waiting: tuple[str, ...]
    """Still to answer."""
    mine: bool | None
    """This client's player's answer (None: not given yet)."""


@dataclass(frozen=True)
class SessionSnapshot:
    """Everything a game screen shows, at one moment."""

    title: str
    """What this session is, e.g. ``"Local game against bots"``."""
    engine: AnyEngine
    state: object
    plies: tuple[PlyView, ...]
    final_ply: int
    """The last ply every peer has agreed on (all of them, for a local game)."""
    seats: tuple[SeatView, ...]
    my_seat: int | None
    """The seat of this client's player; None for a spectator."""
    chat: tuple[ChatEntry, ...]
    outcome: Outcome | None
    """How the game ended: the engine's result, or an ending of the table itself (reason
    ``"abandoned"``: no winner, no draw); None while it goes on."""
    draw_offered_by: tuple[int, ...] = ()
    """Seats whose player offers a draw now."""
    resign_pending: bool = False
    """This client's player resigned; the resignation goes out when its turn comes."""
    peers: int = 1
    digest: bytes = b""
    """The engine digest of ``state``."""
    starting: bool = False
    """The table waits for every peer to confirm its start: nobody can move yet."""
    stopped: str = ""
    """Why the table stopped before the game's end, e.g. ``"Bea left the table (the
    connection broke)"``; empty while it plays on.  Nothing more can be played then."""
    halted: Halted | None = None
    """Set when the table stopped on a divergence; ``state`` is then the position after
    ``final_ply``, the last one every peer agreed on."""
    shown_ply: int | None = None
    """The ply after which ``state`` is (None: the last of ``plies``): a halted table shows
    its last agreed ply."""
    can_take_back: bool = False
    """The last ply is this player's own move and it may ask to take it back."""
    takeback: TakebackView | None = None
    """A takeback asked on the current position, if any (void once a ply follows)."""
    rematch: RematchView | None = None
    """Set once the game ended at a table that can play again (``play_again``)."""
    absent: tuple[str, ...] = ()
    """The players whose absence ended the table (an abandoned table's ``outcome``)."""
    absent_left: bool = False
    """Every one of ``absent`` left on purpose (a LEAVE), rather than stayed away."""
    removed: bool = False
    """This client's player was voted off (away or idle past the table's timeouts): bots
    play its seats, the game goes on without it and it watches (``my_seat`` is None)."""
    left: bool = False
    """This client's player left the table on purpose (its own LEAVE): when it is back to
    watch, it was not voted off for being away."""
    lost_on_time: tuple[tuple[int, int], ...] = ()
    """(seat, ply) of every seat whose clock ran out, in order: that ply had no effect and
    the seat resigned instead."""
    clock: str = ""
    """The table's time control as players write it (``5+3``), empty without a clock."""
    position_at: Callable[[int], object | None] | None = field(
        default=None, compare=False, repr=False
    )
    """The engine state after ``n`` plies of this game (None beyond what the session holds):
    a screen that first sees the game late (a rejoin) still knows every earlier position."""

    @property
    def ply(self) -> int:
        return len(self.plies)

    @property
    def to_move(self) -> int | None:
        return None if self.outcome is not None else self.engine.to_move(self.state)

    @property
    def mover(self) -> int | None:
        """The seat whose *player* must play now (the controller of the seat to move)."""
        seat = self.to_move
        return None if seat is None else self.engine.controller(self.state, seat)

    @property
    def i_resigned(self) -> bool:
        """This client's player resigned (or lost on time): out of the game, it can neither
        resign again nor offer a draw (a draw would turn its loss into one)."""
        if self.my_seat is None:
            return False
        mine = self.my_seat
        return any(ply.kind == "resign" and ply.seat == mine for ply in self.plies) or any(
            seat == mine for seat, _ in self.lost_on_time
        )

    @property
    def my_turn(self) -> bool:
        """This client's player can move now."""
        if self.starting or self.stopped or self.my_seat is None:
            return False
        return self.mover == self.my_seat

    @property
    def last_move(self) -> PlyView | None:
        """The last move still on the board shown (``shown_ply``'s position, or the last;
        a taken-back move is not)."""
        shown = self.plies if self.shown_ply is None else self.plies[: self.shown_ply]
        undone = 0
        for ply in reversed(shown):
            if ply.kind == "takeback":
                undone += 1
            elif undone:
                undone -= 1
            elif ply.kind == "move":
                return ply
        return None

    def seat_name(self, seat: int) -> str:
        for view in self.seats:
            if view.seat == seat:
                return view.name
        return f"seat {seat}"

    def player_name(self, ply: PlyView) -> str:
        """Who made ``ply``: its player then, not whoever holds that seat now."""
        return ply.by or self.seat_name(ply.player)

    def names_at(self, ply: PlyView) -> Callable[[int], str]:
        """Seat names as ``ply`` was played: its own player named as then, the others now."""
        return lambda seat: self.player_name(ply) if seat == ply.player else self.seat_name(seat)


# --- events ---------------------------------------------------------------------------
@dataclass(frozen=True)
class StateChanged:
    """The game moved on (or a ply became final): re-read the snapshot."""

    ply: int
    final_ply: int
    last: PlyView | None


@dataclass(frozen=True)
class ChatLine:
    entry: ChatEntry


@dataclass(frozen=True)
class PlayersChanged:
    """Who sits where, who controls what, who is away, who offers a draw changed."""

    seats: tuple[SeatView, ...]


@dataclass(frozen=True)
class GameEnded:
    outcome: Outcome


@dataclass(frozen=True)
class SessionError:
    """An intent was refused or something went wrong; ``message`` is for the player."""

    message: str


@dataclass(frozen=True)
class Halted:
    """The table stopped on a divergence (DESIGN.md section 4); nothing more will be played.

    The snapshot stays on the last agreed state.  ``peer`` names the peer (or peers) that
    disagree with the majority (empty when there is no majority).
    """

    ply: int
    peer: str
    evidence: str
    """Where the evidence file was written (empty until it is)."""
    message: str
    """The verdict and the reason, in words."""


@dataclass(frozen=True)
class Pointed:
    """A player's marks on the board: arrows and highlighted squares (the board's mark
    numbers, docs/PROTOCOL.md POINT).  They replace that player's earlier marks; none of
    either clears them.  They are about the position after ``ply`` only."""

    ply: int
    seat: int | None
    """The author's seat (its colour on the board); None when it holds none."""
    author: str
    arrows: tuple[tuple[int, int], ...]
    squares: tuple[int, ...]


@dataclass(frozen=True)
class NextTable:
    """Every player accepted to play again: ``session`` is the new table, in its lobby."""

    session: GameSession


SessionEvent = (
    StateChanged
    | ChatLine
    | PlayersChanged
    | GameEnded
    | SessionError
    | Halted
    | Pointed
    | NextTable
)
Listener = Callable[[SessionEvent], None]


class GameSession(Protocol):
    """A game in progress, seen from this client.  See the module docstring."""

    @property
    def snapshot(self) -> SessionSnapshot: ...

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener`` with every later event; returns a function that unsubscribes."""
        ...

    def move(self, wire: Sequence[int]) -> None:
        """Play a complete move (wire form) for the seat this player controls now."""
        ...

    def resign(self) -> None:
        """Resign; sent at once on this player's turn, else when that turn comes."""
        ...

    def offer_draw(self) -> None: ...

    def accept_draw(self) -> None: ...

    def take_back(self) -> None:
        """Ask to take back the last ply, this player's own move."""
        ...

    def consent_takeback(self) -> None:
        """Consent to take back the ply another player asked to take back."""
        ...

    def refuse_takeback(self) -> None:
        """Do not consent (the ask lapses when the game moves on); the prompt goes away."""
        ...

    def chat(self, text: str) -> None: ...

    def point(self, arrows: Sequence[tuple[int, int]], squares: Sequence[int]) -> None:
        """Show these marks (replacing this player's earlier ones) to everyone at the table;
        a ``Pointed`` event follows, for this player too."""
        ...

    def leave(self) -> None:
        """Leave the table; ``serve`` returns soon after."""
        ...

    async def serve(self) -> None:
        """The session's own loop, started in the UI's nursery; returns after ``leave``."""
        ...

    def clocks(self) -> ClockDisplay | None:
        """Every seat's clock as it stands now (None for a game without a clock); it runs
        between events, so a screen reads it again to tick (it costs no message)."""
        ...
