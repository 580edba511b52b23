"""A person playing a headless peer from the terminal (``palabre join ... --headless``
without ``--bot``): moves typed in the game's notation, and a few words.

When this peer's key is to move, it prints a prompt; each line read from standard input is
then ``resign``, ``draw`` (offer), ``accept`` (a draw offered), ``takeback`` (ask to take
back the last ply, this player's own move), ``consent`` (to another player's takeback),
``chat TEXT``, or a move in notation (``engine.parse_move``).  A host may also type ``kick
SEAT`` (or ``kick NAME``) before the game starts, to send a joiner away for the rest of the
table (``HostPeer.remove_player``).  What the table refuses is printed with its reason;
nothing typed ever raises.  Standard input is read in a worker thread (a terminal's file must
not be switched to non-blocking mode under the shell); at its end the reader stops.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any, TextIO

import trio

from client.events import PlyApplied, PlyFinal, TakebackAsked
from client.hosting import HostPeer
from client.lobby import JoinRefused
from client.peer import Peer
from client.seating import IntentRefused
from engines import IllegalMove, InvalidMove

__all__ = ["TerminalPlayer"]

HELP = "type a move (like {example}), or: resign, draw, accept, takeback, consent, chat TEXT"


class TerminalPlayer:
    def __init__(self, peer: Peer, out: TextIO, readline: Callable[[], str] | None = None) -> None:
        self.peer = peer
        self.out = out
        self._readline = readline or sys.stdin.readline
        self._prompted = -1
        peer.observers.append(self._on_event)

    def _on_event(self, event: Any) -> None:
        if isinstance(event, PlyApplied | PlyFinal):
            self.peer.call_soon(self._prompt)
        elif isinstance(event, TakebackAsked) and event.author != self.peer.me:
            self._say(f"{event.name} asks to take back ply {event.ply}: type consent to agree")

    def _prompt(self) -> None:
        table = self.peer.table
        if table is None or not table.live() or table.head.ply == self._prompted:
            return
        state = table.head.engine_state
        seat = table.engine.to_move(state)
        if seat is None:
            return
        controller = table.engine.controller(state, seat)
        if table.head.seat_key(controller) != self.peer.me:
            return
        self._prompted = table.head.ply
        moves = table.engine.legal_moves(state)
        example = table.engine.format_move(state, moves[0]) if moves else "?"
        whose = f"seat {seat}"
        if seat != controller:
            whose += f", played by you from seat {controller}"
        self._say(f"Your turn ({whose}): {HELP.format(example=example)}")

    async def serve(self) -> None:
        """Read lines until standard input ends."""
        while True:
            # trio accepts abandon_on_cancel; mypy misreads its Unpack[Ts] signature here
            line = await trio.to_thread.run_sync(  # type: ignore[call-arg]
                self._readline, abandon_on_cancel=True
            )
            if not line:
                return
            self.handle(line.strip())

    def handle(self, line: str) -> None:
        """Carry out one typed line (printing why not, when the table refuses)."""
        if not line:
            return
        word, _, rest = line.partition(" ")
        if word.lower() == "kick":
            self._kick(rest)
            return
        intents: dict[str, Callable[[Any, float], Any]] = {
            "resign": lambda table, now: table.resign(now),
            "draw": lambda table, now: table.offer_draw(now),
            "accept": lambda table, now: table.accept_draw(now),
            "takeback": lambda table, now: table.ask_takeback(now),
            "consent": lambda table, now: table.consent_takeback(now),
            "chat": lambda table, now: table.chat(rest, now),
        }
        intent = intents.get(word.lower())
        if intent is None:
            intent = self._move(line)
        if intent is None:
            return
        try:
            self.peer.act(intent)
        except IntentRefused as refusal:
            self._say(f"Not done: {refusal}")

    def _kick(self, who: str) -> None:
        if not isinstance(self.peer, HostPeer):
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

    def _move(self, text: str) -> Callable[[Any, float], Any] | None:
        table = self.peer.table
        if table is None:
            self._say("Not done: the game has not started yet")
            return None
        try:
            move = table.engine.parse_move(table.head.engine_state, text)
        except (InvalidMove, IllegalMove) as error:
            self._say(f"Not a move here: {error}")
            return None
        return lambda table, now: table.move(move, now)

    def _say(self, text: str) -> None:
        print(text, file=self.out, flush=True)
