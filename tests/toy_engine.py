"""A tiny real game for tests of the game-generic client and screens: "race to 21".

Seats (2 to 4) take turns adding 1, 2 or 3 to a shared count; whoever reaches 21 wins.  A seat
that resigns is out; the last seat in wins.  Moves on the wire are ``[n]``, in notation
``+n``.  It is not registered in ``engines``: tests hand it to sessions directly.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar

from engines.base import Engine, IllegalMove, InvalidMove, InvalidParams, Outcome, Params

TARGET = 21


@dataclass(frozen=True)
class RaceState:
    count: int
    turn: int
    out: tuple[bool, ...]
    drawn: bool = False


class RaceEngine(Engine[RaceState, int]):
    name: ClassVar[str] = "race"
    ruleset: ClassVar[str] = "race/1"
    version: ClassVar[str] = "1"
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 4
    sample_params: ClassVar[tuple[Params, ...]] = ({"seats": 2},)

    def initial_state(self, params: Params) -> RaceState:
        seats = params.get("seats", 2)
        if not isinstance(seats, int) or not 2 <= seats <= 4:
            raise InvalidParams("race is played by 2 to 4 seats")
        return RaceState(0, 1, (False,) * seats)

    def seat_count(self, state: RaceState) -> int:
        return len(state.out)

    def to_move(self, state: RaceState) -> int | None:
        return None if self.outcome(state) is not None else state.turn

    def controller(self, state: RaceState, seat: int) -> int:
        return seat

    def legal_moves(self, state: RaceState) -> tuple[int, ...]:
        if self.outcome(state) is not None:
            return ()
        return tuple(n for n in (1, 2, 3) if state.count + n <= TARGET)

    def _next(self, state: RaceState, count: int, out: tuple[bool, ...]) -> RaceState:
        turn = state.turn
        for _ in out:
            turn = turn % len(out) + 1
            if not out[turn - 1]:
                break
        return replace(state, count=count, turn=turn, out=out)

    def apply(self, state: RaceState, move: int) -> RaceState:
        if self.outcome(state) is not None:
            raise IllegalMove("the game is over")
        if move not in (1, 2, 3) or state.count + move > TARGET:
            raise IllegalMove(f"cannot add {move} to {state.count}")
        return self._next(state, state.count + move, state.out)

    def resign(self, state: RaceState, seat: int) -> RaceState:
        if seat != self.to_move(state):
            raise IllegalMove("only the seat to move can resign")
        out = tuple(flag or index + 1 == seat for index, flag in enumerate(state.out))
        return self._next(state, state.count, out)

    def agree_draw(self, state: RaceState) -> RaceState:
        return replace(state, drawn=True)

    def outcome(self, state: RaceState) -> Outcome | None:
        if state.drawn:
            return Outcome((), True, "agreement", "Draw agreed.")
        alive = [index + 1 for index, flag in enumerate(state.out) if not flag]
        if len(alive) == 1:
            return Outcome((alive[0],), False, "last-one-in", f"Seat {alive[0]} is the last in.")
        if state.count >= TARGET:
            winner = (state.turn - 2) % len(state.out) + 1
            while state.out[winner - 1]:
                winner = (winner - 2) % len(state.out) + 1
            return Outcome((winner,), False, "target", f"Seat {winner} reached {TARGET}.")
        return None

    def move_to_wire(self, move: int) -> list[int]:
        return [move]

    def move_from_wire(self, obj: object) -> int:
        if not isinstance(obj, list) or len(obj) != 1 or type(obj[0]) is not int:
            raise InvalidMove(f"a race move is [n], not {obj!r}")
        return int(obj[0])

    def format_move(self, state: RaceState, move: int) -> str:
        return f"+{move}"

    def parse_move(self, state: RaceState, text: str) -> int:
        if len(text) != 2 or text[0] != "+" or text[1] not in "123":
            raise InvalidMove(f"a race move is +1, +2 or +3, not {text!r}")
        return int(text[1])


RACE = RaceEngine()
