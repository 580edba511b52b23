"""A person playing a headless peer from the terminal (``palabre join ... --headless``
without ``--bot``): moves typed in the game's notation, and a few words.

When this peer's key is to move, and the ply before is final here (so the prompt comes after
that ply's line, never before it), it prints the board (``client.logs.board_text``, as ``palabre
log show --ply`` draws it) and a prompt.  Each line read from standard input is then a move
in notation (``engine.parse_move``) or one of ``COMMANDS``.  A host may also type ``kick
SEAT`` (or ``kick NAME``) before the game starts, to send a joiner away for the rest of the
table (``Peer.remove_player``).  A move typed out of turn is answered with whose turn it
is; a move sent says whom it waits for until it is final; a resignation waiting for this
player's turn says so.  What the table refuses is printed with its reason; nothing typed ever
raises.  Standard input is read in a worker thread (a terminal's file must not be switched to
non-blocking mode under the shell); at its end (Ctrl-D) the player leaves the table, as the
window's *Leave table* does.

On a clocked table the board's header gives every seat's clock (the running one marked), and
once this player's own clock falls to 10 s at its turn a line says so; at 0 its own palabre
resigns for it (``client.tabletop.table_clock``).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TextIO

import trio

from client.logs.board_text import board_lines
from client.node.lobby import JoinRefused
from client.node.peer_events import PeerEvent, TableStarted
from client.rules.clock import clock_face
from client.rules.errors import IntentRefused
from client.rules.seat_words import named_seats
from client.rules.seated_names import seat_name
from client.rules.start import SeatSpec
from client.runtime.peer import Peer
from client.tabletop.events import PlyApplied, PlyFinal, TakebackAsked
from client.tabletop.table import handing
from client.tabletop.table_input import (
    AcceptDraw,
    AskTakeback,
    Chat,
    ConsentTakeback,
    Intent,
    OfferDraw,
    PlayMove,
    Resign,
)
from client.tabletop.table_view import TableView
from engines import IllegalMove, InvalidMove

__all__ = ["COMMANDS", "TerminalPlayer"]

COMMANDS = (
    ("board", "show the board"),
    ("resign", "resign (at your turn)"),
    ("draw", "offer a draw"),
    ("accept", "accept the draw offered"),
    ("takeback", "ask to take back your last move"),
    ("consent", "agree to another player's takeback"),
    ("chat TEXT", "say TEXT to the table"),
    ("help", "this list"),
)
"""What a person may type besides a move (the host also has ``kick SEAT``, in the lobby)."""

HELP = "type a move (like {example}), or help for the commands"


class TerminalPlayer:
    def __init__(self, peer: Peer, out: TextIO, readline: Callable[[], str] | None = None) -> None:
        self.peer = peer
        self.out = out
        self._readline = readline or sys.stdin.readline
        self._prompted = -1
        self._turn_began = trio.Event()
        """Set at each prompt: the clock watch (``watch_clock``) looks at the new turn."""
        peer.observers.append(self._on_event)

    def _on_event(self, event: PeerEvent) -> None:
        match event:
            case PlyApplied() | PlyFinal() | TableStarted():
                self.peer.call_soon(self._prompt)
            case TakebackAsked(author=author) if author != self.peer.me:
                self._say(f"{event.name} asks to take back ply {event.ply}: type consent to agree")
            case _:
                pass  # the Printer prints everything else

    def _table(self) -> TableView | None:
        """The table's read-only view (None before START)."""
        table = self.peer.table
        return None if table is None else table.view

    def _my_turn(self) -> bool:
        """Whether this peer's key is to move at the head (False when nobody is)."""
        table = self._table()
        if table is None:
            return False
        state = table.head.engine_state
        seat = table.engine.to_move(state)
        if seat is None:
            return False
        return table.head.seat_key(table.engine.controller(state, seat)) == self.peer.me

    def _prompt(self) -> None:
        table = self._table()
        if table is None or not table.live() or table.head.ply == self._prompted:
            return
        if table.final_ply < table.head.ply or not self._my_turn():
            return  # the head's line is printed once final: the prompt comes after it
        state = table.head.engine_state
        seat = table.engine.to_move(state)
        assert seat is not None
        controller = table.engine.controller(state, seat)
        self._prompted = table.head.ply
        self._board()
        moves = table.engine.legal_moves(state)
        example = table.engine.format_move(state, moves[0]) if moves else "?"
        whose = f"seat {seat}"
        if seat != controller:
            whose += f", played by you from seat {controller}"
        self._say(f"Your turn ({whose}): {HELP.format(example=example)}")
        self._turn_began.set()

    def _board(self) -> None:
        table = self._table()
        if table is None:
            self._say("Not done: the game has not started yet")
            return
        lines = board_lines(table.engine, table.head.engine_state)
        clocks = self._clock_line()
        header = [f"position after ply {table.head.ply}:", *([clocks] if clocks else [])]
        board = named_seats("\n".join(lines), table.start, table.head.seats)  # names, not numbers
        self._say("\n".join([*header, board]))

    def _clock_line(self) -> str | None:
        """``clocks: seat 1 Ana 4:57 · > seat 2 Bruno 4:59`` (None without a clock)."""
        table = self._table()
        display = None if table is None else table.clocks(trio.current_time())
        if table is None or display is None:
            return None
        faces = []
        for spec in table.head.seats:
            left = display.of(spec.seat)
            face = "?" if left is None else clock_face(left, display.low_ms)
            mark = "> " if spec.seat == display.running else ""
            faces.append(f"{mark}seat {spec.seat} {self._seat_name(spec)} {face}")
        return "clocks: " + " · ".join(faces)

    async def watch_clock(self) -> None:
        """At each of this player's turns, say once when its clock falls to 10 s (asleep
        until then: one wake-up per warning)."""
        while True:
            await self._turn_began.wait()
            self._turn_began = trio.Event()
            ply = self._prompted
            while True:
                table = self._table()
                display = None if table is None else table.clocks(trio.current_time())
                if table is None or display is None or table.head.ply != ply:
                    break
                if not self._my_turn() or display.running is None:
                    break
                left = display.of(display.running)
                if left is None:
                    break
                if left <= display.low_ms:
                    self._say(f"Under 10 seconds on your clock ({clock_face(left, 10_000)} left)")
                    break
                await trio.sleep((left - display.low_ms) / 1000 + 0.01)

    def _help(self) -> None:
        width = max(len(word) for word, _ in COMMANDS)
        lines = [f"  {word:<{width}}  {what}" for word, what in COMMANDS]
        if self.peer.host is not None:
            lines.append(f"  {'kick SEAT':<{width}}  send a joiner away (before the game starts)")
        self._say("\n".join(["Type a move in the game's notation, or:", *lines]))

    async def serve(self) -> None:
        """Read lines until standard input ends, then leave the table."""
        while True:
            # trio accepts abandon_on_cancel; mypy misreads its Unpack[Ts] signature here
            line = await trio.to_thread.run_sync(  # type: ignore[call-arg]
                self._readline, abandon_on_cancel=True
            )
            if not line:
                self.leave()
                return
            self.handle(line.strip())

    def leave(self) -> None:
        """Leave the table now, saying goodbye to every peer (as the window's *Leave table*)."""
        if self.peer.done.is_set():
            return
        self._say("You left the table (end of input).")
        self.peer.leave_table(0 if self._table() is not None else 1)

    def handle(self, line: str) -> None:
        """Carry out one typed line (printing why not, when the table refuses)."""
        if not line:
            return
        word, _, rest = line.partition(" ")
        if word.lower() == "kick":
            self._kick(rest)
            return
        if word.lower() in ("help", "?"):
            self._help()
            return
        if word.lower() == "board":
            self._board()
            return
        intents: dict[str, Callable[[float], Intent]] = {
            "resign": Resign,
            "draw": OfferDraw,
            "accept": AcceptDraw,
            "takeback": AskTakeback,
            "consent": ConsentTakeback,
            "chat": lambda now: Chat(rest, now),
        }
        intent = intents.get(word.lower())
        moving = intent is None
        if intent is None:
            intent = self._move(line)
        if intent is None:
            return
        my_turn = self._my_turn()
        try:
            self.peer.act(handing(intent))
        except IntentRefused as refusal:
            self._say(f"Not done: {refusal}")
            return
        if moving:
            self._sent()
        elif word.lower() == "resign" and not my_turn:
            self._say("Resignation noted: it is sent at your turn")

    def _sent(self) -> None:
        """A move signed and sent: say whom it waits for, unless it is final already."""
        table = self._table()
        assert table is not None
        if table.final_ply >= table.head.ply:
            return
        others = [f"{self._name(key)}'s" for key in table.head.peers if key != self.peer.me]
        if others:
            self._say(f"sent; waiting for {_and(others)} palabre")

    def _name(self, key: bytes) -> str:
        """A player's name as the others read it (its key's label when it gave none)."""
        table = self._table()
        assert table is not None
        name = next((peer.name for peer in table.start.peers if peer.key == key), "")
        return name or table.describe(key)

    def _whose_turn(self) -> str:
        table = self._table()
        assert table is not None
        state = table.head.engine_state
        seat = table.engine.to_move(state)
        if seat is None:
            return "nobody is to move"
        key = table.head.seat_key(table.engine.controller(state, seat))
        spec = next((spec for spec in table.head.seats if spec.key == key), None)
        return f"{self._seat_name(spec) if spec else self._name(key)} is to move"

    def _seat_name(self, spec: SeatSpec) -> str:
        """Who plays ``spec``: ``Ana``, or ``Bot 2 of Ana (normal)`` for a bot (``--bot``
        too)."""
        table = self._table()
        assert table is not None
        return seat_name(spec, {peer.key: self._name(peer.key) for peer in table.start.peers})

    def _kick(self, who: str) -> None:
        if self.peer.host is None:
            self._say("Not done: only the host sends players away, before the game starts")
            return
        if not who.strip():
            self._say("Not done: say whom: kick SEAT or kick NAME")
            return
        try:
            name = self.peer.remove_player(who.strip())
        except JoinRefused as refusal:
            self._say(f"Not done: {refusal}")
            return
        self._say(f"{name} was sent away and will not be admitted again at this table")

    def _move(self, text: str) -> Callable[[float], Intent] | None:
        table = self._table()
        if table is None:
            self._say("Not done: the game has not started yet")
            return None
        if not self._my_turn():
            self._say(f"Not your turn: {self._whose_turn()}")
            return None
        try:
            move = table.engine.parse_move(table.head.engine_state, text)
        except (InvalidMove, IllegalMove) as error:
            self._say(f"Not a move here: {error}")
            return None
        return lambda now: PlayMove(move, now)

    def _say(self, text: str) -> None:
        print(text, file=self.out, flush=True)


def _and(words: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"
