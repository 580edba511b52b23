"""The keys this peer signs with at a table, the bots it runs, and what its player asks for.

A peer signs with its own key (ACK, END, HALT, outside records, and its person seats'
plies) and with the key of each bot seat START says it runs.  ``bots`` maps a seat key to
the bot that plays it: every bot seat this peer runs, and its own key with ``--bot``.

Invariants:

* ``signers`` holds exactly this peer's key and the keys of the bot seats START says it runs
  (``ValueError`` otherwise), and later the new bot keys a REMOVE hands it (``adopt``): a
  spectator holds none and signs nothing;
* no local key signs two ply records for one ply (``claim_ply``; ``LocalTableError``);
* a local key acts only for the seat it controls now (``engine.controller``), so a bot
  plays its captured seats' turns and a Consensus ruler's extra moves by itself;
* priority when a local key is to move: a pending resignation of that seat, then a DRAW
  once every peer at the table consented on this very position, then a bot move once its
  delay (virtual time, from when the turn came) is over.  A person's move waits for
  ``Table.move``;
* a bot thinks where ``think_in`` says (``client.bots.thinking``: at once by default, in a
  worker thread at a peer's runtime), on a copy of itself, one thought at a time: its move
  is signed only for the position it thought about (a thought for a position that is no
  longer the head is dropped, and its bot is left as it was), so the bot plays the same
  moves for a seed wherever it thinks, and what is signed is decided on the caller's thread.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from client.bots import Bot, make_bot
from client.bots.answers import draw_refusal, takeback_refusal
from client.bots.clock_budget import Budget
from client.bots.thinking import INLINE, Thinking, Thought
from client.rules.chain import TableState
from client.rules.errors import (
    IntentRefused as IntentRefused,  # peer_node, net_session import it here
)
from client.rules.errors import LocalTableError
from client.rules.records import DRAW, MOVE, RESIGN, Signer
from client.rules.seated_names import seat_name
from client.rules.start import SeatSpec, TableStart
from client.tabletop.outside import MAX_ARROWS, MAX_CHAT, MAX_SQUARE, MAX_SQUARES, OutsideLog
from engines import AnyEngine, IllegalMove

__all__ = ["LocalSeats"]

Action = tuple[Signer, str, dict[str, object]]


class LocalSeats:
    def __init__(
        self,
        start: TableStart,
        engine: AnyEngine,
        me: bytes | None,
        signers: Mapping[bytes, Signer],
        bots: Mapping[bytes, Bot],
        bot_delay: float,
    ) -> None:
        expected = set() if me is None else {me}
        expected |= {seat.key for seat in start.seats if me is not None and seat.runner == me}
        if me is not None and me not in start.peer_keys:
            raise ValueError("this peer's key is not among the table's peers")
        if set(signers) != expected:
            raise ValueError("signers must be this peer's key and the bot keys it runs, no more")
        if not set(bots) <= expected:
            raise ValueError("a bot is given for a key this peer does not sign with")
        self._start = start
        self._engine = engine
        self._me = me
        self._signers = dict(signers)
        self._bots = dict(bots)
        self._bot_delay = bot_delay
        self._last_ply: dict[bytes, int] = {}
        self._pending_resign: set[int] = set()
        self._pending_move: tuple[bytes, dict[str, object]] | None = None
        """A person's move made on a clocked table before the ply before was final here
        (``wait_to_move``): the chain digest it was made on, and its body."""
        self._bot_due: tuple[int, float] | None = None
        self._thinking: Thinking = INLINE
        self._thought: tuple[tuple[bytes, int, bytes], Thought] | None = None
        """The bot's thought under way or over, and the (key, ply, chain digest) it is for."""
        self._quick: dict[bytes, Bot] = {}
        """A normal-level bot per bot key, for the moves its clock leaves no time to think."""
        self.budget_of: Callable[[int], Budget | None] = lambda _seat: None
        """On a clocked table, what the bot of a seat may spend now (set by the ledger)."""

    def think_in(self, thinking: Thinking) -> None:
        """Where the bots think from now on (``client.bots.thinking``)."""
        self._thinking = thinking

    def peer_signer(self) -> Signer:
        if self._me is None:
            raise LocalTableError("a spectator signs nothing")
        return self._signers[self._me]

    def signs_with(self, key: bytes) -> bool:
        """Whether ``key`` is one this peer signs with (its own or a bot's it runs)."""
        return key in self._signers

    def claim_ply(self, key: bytes, ply: int) -> None:
        """Record that ``key`` signs a record for ``ply``; refuse a second one."""
        if self._last_ply.get(key, 0) >= ply:
            raise LocalTableError(f"key already signed a record for ply {ply} or later")
        self._last_ply[key] = ply

    def mark_claimed(self, key: bytes, ply: int) -> None:
        """A record ``key`` signed for ``ply`` before a restart (from the log): never again."""
        self._last_ply[key] = max(self._last_ply.get(key, 0), ply)

    def adopt(self, key: bytes, signer: Signer, bot: Bot | None) -> None:
        """Sign (and with ``bot``, play) a seat a REMOVE handed to this peer."""
        if signer.key != key:
            raise ValueError("the signer does not hold the bot key the REMOVE names")
        self._signers[key] = signer
        if bot is not None:
            self._bots[key] = bot

    def my_seats(self, head: TableState) -> tuple[int, ...]:
        return () if self._me is None else head.seats_of(self._me)

    # --- intents -------------------------------------------------------------------------
    def signer_to_move(self, head: TableState) -> Signer:
        seat = self._engine.to_move(head.engine_state)
        if seat is None:
            raise IntentRefused("the game is over")
        controller = self._engine.controller(head.engine_state, seat)
        signer = self._signers.get(head.seat_key(controller))
        if signer is None:
            by = f", played by seat {controller}" if controller != seat else ""
            raise IntentRefused(f"it is seat {seat}'s turn{by}, not yours")
        return signer

    def check_move(self, head: TableState, move: object) -> None:
        try:
            self._engine.apply(head.engine_state, move)
        except IllegalMove as error:
            raise IntentRefused(str(error)) from None

    def want_resign(self, head: TableState, seat: int | None) -> None:
        mine = self.my_seats(head)
        if seat is None:
            if len(mine) != 1:
                raise IntentRefused(
                    "say which of your seats resigns" if mine else "you hold no seat"
                )
            seat = mine[0]
        if seat not in mine:
            raise IntentRefused(f"seat {seat} is not yours to resign")
        self._pending_resign.add(seat)

    def resign_on_time(self, head: TableState, seat: int) -> None:
        """``seat``'s clock ran out here: resign it when this peer signs for it."""
        if head.seat_key(seat) in self._signers:
            self._pending_resign.add(seat)

    def draw_position(
        self, head: TableState, outside: OutsideLog, offer: bool
    ) -> dict[str, object]:
        """The ``{ply, prev}`` a draw offer or acceptance binds now (``IntentRefused``)."""
        consents = outside.consents_for(head.chain_digest)
        if self._me in consents:
            raise IntentRefused("you already agreed to a draw in this position")
        if not offer and not outside.offered(head.chain_digest):
            raise IntentRefused("nobody has offered a draw in this position")
        return {"ply": head.ply + 1, "prev": head.chain_digest}

    def bot_refusal(
        self,
        head: TableState,
        what: str,
        restored: object = None,
        taken_back: int = 0,
        *,
        own: bool,
    ) -> str | None:
        """Why the bots this peer runs decline a draw (``what="draw"``) in ``head``'s
        position, or a takeback (``"takeback"``) restoring ``restored`` after ``taken_back``
        takebacks in this game; None when each of them agrees (``client.bots.answers``).
        This peer's agreement speaks for every seat it signs, so its bots must agree too.
        ``own=False`` leaves out the bot of this peer's own seat (``--bot``): when this peer
        itself offers, accepts, asks or consents, that is its own seat's will."""
        for spec in head.seats:
            bot = self._bots.get(spec.key)
            if bot is None or (not own and spec.key == self._me):
                continue
            if what == "draw":
                why = draw_refusal(bot, self._engine, head.engine_state, spec.seat)
            else:
                why = takeback_refusal(bot, self._engine, restored, spec.seat, taken_back)
            if why is not None:
                return f"{self._bot_name(spec)} declines the {what} ({why})"
        return None

    def _bot_name(self, spec: SeatSpec) -> str:
        """``Bot 2 of Ann (normal)``, as every screen names it; a seat START gives a person but
        this peer's bot plays (no ``own_bot`` said) is ``the bot of seat 2``."""
        if spec.bot_runner is None:
            return f"the bot of seat {spec.seat}"
        return seat_name(spec, {peer.key: peer.name for peer in self._start.peers})

    @staticmethod
    def check_chat(text: str) -> str:
        if not text.strip():
            raise IntentRefused("the message is empty")
        if len(text) > MAX_CHAT:
            raise IntentRefused(f"a message holds at most {MAX_CHAT} characters")
        return text

    @staticmethod
    def check_point(arrows: Sequence[tuple[int, int]], squares: Sequence[int]) -> dict[str, object]:
        if len(arrows) > MAX_ARROWS or len(squares) > MAX_SQUARES:
            raise IntentRefused(f"at most {MAX_ARROWS} arrows and {MAX_SQUARES} squares at once")
        points = [*squares, *(square for arrow in arrows for square in arrow)]
        if not all(type(p) is int and 0 <= p <= MAX_SQUARE for p in points):
            raise IntentRefused("a mark is not a square of this board")
        return {"arrows": [list(arrow) for arrow in arrows], "squares": list(squares)}

    # --- acting by itself -------------------------------------------------------------------
    def next_action(self, head: TableState, outside: OutsideLog, now: float) -> Action | None:
        """What a local key signs now, if anything (see the module docstring)."""
        state = head.engine_state
        seat = self._engine.to_move(state)
        if seat is None:
            return None
        controller = self._engine.controller(state, seat)
        key = head.seat_key(controller)
        signer = self._signers.get(key)
        if signer is None:
            return None
        if controller in self._pending_resign:
            self._pending_resign.discard(controller)
            return signer, RESIGN, {"seat": controller}
        if self._pending_move is not None:
            made_on, body = self._pending_move
            self._pending_move = None
            if made_on == head.chain_digest:
                return signer, MOVE, body
        consents = outside.consents_for(head.chain_digest)
        if head.peers and all(peer in consents for peer in head.peers):
            acceptances = [consents[peer].envelope for peer in head.peers]
            return signer, DRAW, {"acceptances": acceptances}
        bot = self._bots.get(key)
        if bot is None:
            return None
        spend = self.budget_of(controller)
        if self._bot_due is None or self._bot_due[0] != head.ply:
            self._bot_due = (head.ply, now + self.bot_wait(spend))
        if now < self._bot_due[1]:
            return None
        hurried = spend is not None and not spend.full_thought
        move = self._thought_move(head, key, self._quick_bot(key) if hurried else bot)
        if move is None:
            return None
        return signer, MOVE, {"seat": seat, "move": self._engine.move_to_wire(move)}

    def wait_to_move(self, head: TableState, body: dict[str, object]) -> None:
        """A person's move, checked, made before ``head`` was final here on a clocked
        table: signed as soon as it is (``next_action``), unless the head changed."""
        self._pending_move = (head.chain_digest, body)

    def bot_wait(self, spend: Budget | None) -> float:
        """How long a bot waits before moving: ``--bot-delay``, cut to its clock's budget."""
        return self._bot_delay if spend is None else min(self._bot_delay, spend.max_delay)

    def _thought_move(self, head: TableState, key: bytes, bot: Bot) -> object | None:
        """The move ``bot`` found for the head, once its thought is over; None meanwhile (the
        thought's end wakes the caller: ``deadline``)."""
        at = (key, head.ply, head.chain_digest)
        if self._thought is not None and self._thought[0] != at:
            if not self._thought[1].done:
                return None  # one thought at a time: the stale one ends first
            self._thought = None  # dropped: its bot's copy goes with it
        if self._thought is None:
            self._thought = (at, self._thinking.think(bot, self._engine, head.engine_state))
        thought = self._thought[1]
        if not thought.done:
            return None
        self._thought = None
        move: object = thought.move()
        kept = self._quick if self._quick.get(key) is bot else self._bots
        kept[key] = thought.bot  # the copy that thought, its generator moved on
        return move

    def _quick_bot(self, key: bytes) -> Bot:
        """The normal-level bot that moves for ``key``'s bot when its clock is short."""
        if key not in self._quick:
            self._quick[key] = make_bot(self._engine.name, "sensible", key[0])
        return self._quick[key]

    def deadline(self, head_ply: int) -> float | None:
        """When the bot to move wants to move, if one is waiting at this ply; None while a
        bot thinks (its thought's end wakes the caller, and then its move is due)."""
        if self._thought is not None and not self._thought[1].done:
            return None
        if self._bot_due is not None and self._bot_due[0] == head_ply:
            return self._bot_due[1]
        return None
