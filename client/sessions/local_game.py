"""A game against bots in this process: the ``GameSession`` that needs no network.

One person sits at ``my_seat``; a bot sits at every other seat.  Whoever is asked to move is
the player of ``engine.controller(state, engine.to_move(state))``, as at a real table, so
games where control changes hands (Consensus) play as the rules say.

Invariants:

* The state only changes through ``_play`` (a move), ``_play_resign`` and ``_play_draw``;
  each appends one ``PlyView`` and announces it.  Every ply is final at once: there is
  nobody to disagree with.
* Bots move only inside ``serve``, after ``bot_delay`` seconds of trio time, so a person can
  follow the game; the engine's work for a bot runs in a worker thread so the window never
  freezes.  A bot's move computed for a state that changed meanwhile is dropped.
* A resignation asked for out of turn waits for this player's turn (the engines accept a
  resignation only from the player to move, as the chain does).
* Bots answer a draw offer at once: they all accept when ``bots_accept_draws``, else decline.
* With a ``record`` (``client.sessions.local_record``), every ply is also played into a
  one-peer table that writes the game file, signed as any table's; the first failure stops
  the file (the player is told once) and the game goes on.
* A takeback (``take_back``) undoes the last ply when it is this player's own move and every
  bot consents by its rule (``client.bots.answers``: a few a game, never into a position it
  judges lost); a bot that declines says why in the chat.  Bots cannot move on meanwhile:
  the answer comes at once, and a bot's move thought for the undone position is dropped.  It is a
  ply of its own, as at a networked table: the move list keeps both.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import trio

from client.bots import Bot, level_of_kind, make_bot
from client.bots.answers import takeback_refusal
from client.rules.bot_names import BotNamer, bot_name
from client.rules.seat_words import with_seat_names
from client.sessions.local_record import LocalRecord, RecordLost
from client.sessions.notices import notice
from client.sessions.session_api import (
    ChatEntry,
    ChatLine,
    GameEnded,
    GameSession,
    Listener,
    PlayersChanged,
    PlyView,
    Pointed,
    SeatView,
    SessionError,
    SessionEvent,
    SessionSnapshot,
    StateChanged,
)
from client.tabletop.outside import MAX_ARROWS, MAX_SQUARE, MAX_SQUARES
from client.tabletop.table_clock import ClockDisplay
from engines import AnyEngine, IllegalMove, InvalidMove, InvalidParams, Outcome

__all__ = ["MAX_CHAT_LENGTH", "LocalGame"]

MAX_CHAT_LENGTH = 500


class LocalGame:
    """A ``GameSession`` against in-process bots.  See the module docstring."""

    def __init__(
        self,
        engine: AnyEngine,
        params: Mapping[str, int | str],
        *,
        my_seat: int = 1,
        player_name: str = "You",
        bot_kind: str = "sensible",
        seed: int = 0,
        bot_delay: float = 0.4,
        bots_accept_draws: bool = False,
        think_in_thread: bool = True,
        record: Callable[[Mapping[int, str]], LocalRecord] | None = None,
        bot_namer: BotNamer = bot_name,
    ) -> None:
        """Set up the game; ``InvalidParams`` (or ``ValueError`` for a bad bot kind or seat).
        ``record(names)`` opens the game file, given each seat's name (``OSError`` and
        ``net.errors.NetError`` go to the caller).  Bots are named by ``bot_namer`` (in the
        player's language): "Bot 2 of Ana (normal)"."""
        self._engine = engine
        # Tests on trio's autojump clock think inline: a worker thread is invisible to that
        # clock, which would race ahead (and time out) while the bot thinks.
        self._think_in_thread = think_in_thread
        self._state: object = engine.initial_state(params)
        seat_count = engine.seat_count(self._state)
        if not 1 <= my_seat <= seat_count:
            raise InvalidParams(f"your seat must be between 1 and {seat_count}, not {my_seat}")
        self._my_seat = my_seat
        level = level_of_kind(bot_kind)  # the player runs the bots: "Bot 2 of Ana (normal)"
        self._names = {
            seat: player_name if seat == my_seat else bot_namer(seat, player_name, level)
            for seat in range(1, seat_count + 1)
        }
        self._bots: dict[int, Bot] = {
            seat: make_bot(engine.name, bot_kind, seed * 100 + seat)
            for seat in range(1, seat_count + 1)
            if seat != my_seat
        }
        self._bot_delay = bot_delay
        self._bots_accept_draws = bots_accept_draws
        self._plies: list[PlyView] = []
        self._before: list[object] = []
        """The state before each ply (``_before[i]`` before ply i + 1), for takebacks."""
        self._chat: list[ChatEntry] = []
        self._listeners: list[Listener] = []
        self._resign_pending = False
        self._left = False
        self._wake = trio.Event()
        self._seats = self._seat_views()
        self._record = record(self._names) if record is not None else None
        self._game_file = self._record.path if self._record is not None else None
        self._snapshot = self._make_snapshot()

    # --- what the screens read ---------------------------------------------------------
    @property
    def bot_delay(self) -> float:
        """Seconds a bot waits before its move (the form's bot speed)."""
        return self._bot_delay

    @property
    def snapshot(self) -> SessionSnapshot:
        return self._snapshot

    @property
    def game_file(self) -> Path | None:
        """Where this game is saved (None for a game that is not)."""
        return self._game_file

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        self._listeners.append(listener)

        def unsubscribe() -> None:
            if listener in self._listeners:
                self._listeners.remove(listener)

        return unsubscribe

    # --- intents ------------------------------------------------------------------------
    def move(self, wire: Sequence[int]) -> None:
        if not self._my_turn():
            self._error("It is not your turn." if self._outcome() is None else "The game is over.")
            return
        try:
            move = self._engine.move_from_wire(list(wire))
            self._play(move)
        except (InvalidMove, IllegalMove) as error:
            self._error(f"That move is not allowed: {error}")

    def resign(self) -> None:
        seats = range(1, self._engine.seat_count(self._state) + 1)
        if self._outcome() is not None:
            self._error("The game is over.")
        elif all(self._engine.controller(self._state, seat) != self._my_seat for seat in seats):
            self._error("You no longer control any pieces: there is nothing to resign.")
        elif self._my_turn():
            self._play_resign()
        elif not self._resign_pending:
            self._resign_pending = True
            self._notice("resign-pending")
            self._refresh(StateChanged(len(self._plies), len(self._plies), self._last()))

    def offer_draw(self) -> None:
        if self._outcome() is not None:
            self._error("The game is over.")
            return
        if self.snapshot.i_resigned:
            self._error("You resigned: you cannot offer a draw.")
            return
        self._notice("draw-offered", name=self._names[self._my_seat])
        if self._bots_accept_draws:
            self._notice("bots-accept-draw")
            self._play_draw()
        else:
            self._notice("bots-decline-draw")

    def accept_draw(self) -> None:
        self._error("Nobody offers a draw.")

    def take_back(self) -> None:
        why = self._takeback_refusal()
        if why is not None:
            self._error(f"You cannot take back: {why}")
            return
        last = self._plies[-1]
        self._notice("takeback-asked", name=self._names[self._my_seat], ply=last.ply)
        declined = self._bots_decline_takeback()
        if declined is not None:
            bot_seat, reason = declined
            self._notice("bot-declines-takeback", name=self._names[bot_seat], reason=reason)
            return
        self._notice("bots-consent-takeback")
        seat = self._engine.to_move(self._state)
        player = self._mover() or last.player
        text = f"ply {last.ply} taken back"
        view = PlyView(len(self._plies) + 1, seat or last.seat, player, "takeback", text, ())
        self._recorded(lambda record, state: record.take_back(state), self._before[-1])
        self._advance(self._before[-1], view)

    def consent_takeback(self) -> None:
        self._error("Nobody asks to take back a move.")

    def refuse_takeback(self) -> None:
        self._error("Nobody asks to take back a move.")

    def chat(self, text: str) -> None:
        text = text.strip()
        if not text:
            return
        if len(text) > MAX_CHAT_LENGTH:
            self._error(f"A chat line holds at most {MAX_CHAT_LENGTH} characters.")
            return
        self._add_chat(ChatEntry(len(self._plies), self._my_seat, self._names[self._my_seat], text))

    def point(self, arrows: Sequence[tuple[int, int]], squares: Sequence[int]) -> None:
        """Marks stay in this window (nobody else sees them): the same checks as a table's."""
        if len(arrows) > MAX_ARROWS or len(squares) > MAX_SQUARES:
            self._error(f"At most {MAX_ARROWS} arrows and {MAX_SQUARES} squares at once.")
            return
        marks = [*squares, *(mark for arrow in arrows for mark in arrow)]
        if not all(type(mark) is int and 0 <= mark <= MAX_SQUARE for mark in marks):
            self._error("A mark is not a square of this board.")
            return
        name = self._names[self._my_seat]
        arrows_kept = tuple((int(a), int(b)) for a, b in arrows)
        self._emit(Pointed(len(self._plies), self._my_seat, name, arrows_kept, tuple(squares)))

    def clocks(self) -> ClockDisplay | None:
        """A game against bots in this process has no clock."""
        return None

    def leave(self) -> None:
        self._left = True
        self._close_record()
        self._wake.set()

    # --- the bots' loop -----------------------------------------------------------------
    async def serve(self) -> None:
        while not self._left:
            bot = self._bot_to_move()
            if bot is None:
                await self._wake.wait()
                self._wake = trio.Event()
                continue
            await trio.sleep(self._bot_delay)
            state = self._state
            if self._left or self._bot_to_move() is not bot:
                continue
            if self._think_in_thread:
                move = await trio.to_thread.run_sync(bot.choose, self._engine, state)
            else:
                move = bot.choose(self._engine, state)
            if self._state is state and not self._left:
                self._play(move)

    # --- inside -------------------------------------------------------------------------
    def _outcome(self) -> Outcome | None:
        return self._engine.outcome(self._state)

    def _mover(self) -> int | None:
        if self._outcome() is not None:
            return None
        seat = self._engine.to_move(self._state)
        return None if seat is None else self._engine.controller(self._state, seat)

    def _takeback_refusal(self) -> str | None:
        last = self._last()
        if self._outcome() is not None:
            return "the game is over."
        if last is None:
            return "no move has been played yet."
        if last.kind == "takeback":
            return "a takeback is never taken back."
        if last.kind != "move" or last.player != self._my_seat:
            return f"ply {last.ply} is not your own move."
        return None

    def _bots_decline_takeback(self) -> tuple[int, str] | None:
        """The first bot that declines taking back the last ply, and why, as at a table
        (``client.bots.answers``); None when they all consent."""
        taken_back = sum(1 for ply in self._plies if ply.kind == "takeback")
        for seat, bot in self._bots.items():
            why = takeback_refusal(bot, self._engine, self._before[-1], seat, taken_back)
            if why is not None:
                return seat, why
        return None

    def _my_turn(self) -> bool:
        return self._mover() == self._my_seat

    def _bot_to_move(self) -> Bot | None:
        mover = self._mover()
        return None if mover is None else self._bots.get(mover)

    def _play(self, move: object) -> None:
        """Apply ``move`` (``IllegalMove`` leaves everything unchanged) and announce it."""
        seat = self._engine.to_move(self._state)
        assert seat is not None
        player = self._engine.controller(self._state, seat)
        notation = self._engine.format_move(self._state, move)
        wire = tuple(self._engine.move_to_wire(move))
        state = self._engine.apply(self._state, move)
        self._recorded(lambda record, after: record.move(move, after), state)
        self._advance(state, PlyView(len(self._plies) + 1, seat, player, "move", notation, wire))

    def _play_resign(self) -> None:
        seat = self._engine.to_move(self._state)
        assert seat is not None
        self._resign_pending = False
        state = self._engine.resign(self._state, self._my_seat)
        self._recorded(lambda record, after: record.resign(after), state)
        text = f"{self._names[self._my_seat]} resigns"
        self._advance(state, PlyView(len(self._plies) + 1, seat, self._my_seat, "resign", text, ()))

    def _play_draw(self) -> None:
        seat = self._engine.to_move(self._state)
        assert seat is not None
        state = self._engine.agree_draw(self._state)
        self._recorded(lambda record, after: record.draw(after), state)
        player = self._engine.controller(self._state, seat)
        ply = PlyView(len(self._plies) + 1, seat, player, "draw", "draw agreed", ())
        self._advance(state, ply)

    def _position_at(self, ply: int) -> object | None:
        """The position after ``ply`` plies (``_before`` holds every one before the last)."""
        if 0 <= ply < len(self._before):
            return self._before[ply]
        return self._state if ply == len(self._before) else None

    def _advance(self, state: object, ply: PlyView) -> None:
        self._before.append(self._state)
        self._state = state
        self._plies.append(ply)
        seats = self._seat_views()
        players_changed = seats != self._seats
        self._seats = seats
        self._refresh(StateChanged(ply.ply, ply.ply, self._last()))
        if players_changed:
            self._emit(PlayersChanged(seats))
        outcome = self._outcome()
        if outcome is not None:
            self._close_record()
            self._notice("game-over", summary=with_seat_names(outcome.summary, self._names.get))
            self._emit(GameEnded(outcome))
        elif self._resign_pending and self._my_turn():
            self._play_resign()
        self._wake.set()

    def _recorded(self, play: Callable[[LocalRecord, object], None], state: object) -> None:
        """Play one ply into the game file, which reaches ``state``; a failure stops it."""
        if self._record is None:
            return
        try:
            play(self._record, state)
        except RecordLost as error:
            self._close_record()
            self._error(f"This game is no longer being saved: {error}")

    def _close_record(self) -> None:
        record, self._record = self._record, None
        if record is not None:
            record.close()

    def _last(self) -> PlyView | None:
        return self._plies[-1] if self._plies else None

    def _seat_views(self) -> tuple[SeatView, ...]:
        return tuple(
            SeatView(
                seat=seat,
                name=name,
                is_bot=seat != self._my_seat,
                controller=self._engine.controller(self._state, seat),
                is_mine=seat == self._my_seat,
            )
            for seat, name in self._names.items()
        )

    def _make_snapshot(self) -> SessionSnapshot:
        return SessionSnapshot(
            position_at=self._position_at,
            title=f"{self._engine.name.capitalize()} against bots",
            engine=self._engine,
            state=self._state,
            plies=tuple(self._plies),
            final_ply=len(self._plies),
            seats=self._seats,
            my_seat=self._my_seat,
            chat=tuple(self._chat),
            outcome=self._outcome(),
            resign_pending=self._resign_pending,
            digest=self._engine.digest(self._state),
            can_take_back=self._takeback_refusal() is None,
        )

    def _notice(self, key: str, **params: object) -> None:
        """Add the table's notice ``key`` (``client.sessions.notices``) to the chat."""
        said = notice(key, **params)
        self._add_chat(ChatEntry(len(self._plies), None, "table", said.english(), said))

    def _add_chat(self, entry: ChatEntry) -> None:
        self._chat.append(entry)
        self._refresh(ChatLine(entry))

    def _error(self, message: str) -> None:
        self._emit(SessionError(message))

    def _refresh(self, event: SessionEvent) -> None:
        self._snapshot = self._make_snapshot()
        self._emit(event)

    def _emit(self, event: SessionEvent) -> None:
        for listener in list(self._listeners):
            listener(event)


if TYPE_CHECKING:
    _IS_A_SESSION: type[GameSession] = LocalGame  # mypy checks LocalGame keeps the protocol
