"""Grab: a tiny but real take-away game for testing the table (not a palabre game).

Rules.  2–6 seats around a pile of stones (``pile``, default 21).  On its turn a seat takes
1, 2 or 3 stones.

* **Extra move**: when a move leaves a positive multiple of 5 stones, the same seat moves
  again (``to_move`` stays; the same key signs twice in a row).
* **Capture** (3 seats or more): taking exactly 3 stones hands the mover's player control of
  the next seat in turn order, unless that would leave fewer than two players in the game.
  The captured seat keeps its turn slot but its moves are signed by its captor
  (``controller(state, seat) != seat``).
* Whoever controls the seat that takes the last stone wins ("last-stone").
* Resignation (at the player's own turn): every seat the player controls leaves the
  rotation; if one player is left, that player wins ("resignation").
* Draw by agreement ("agreement").

Notation: ``t1``, ``t2``, ``t3``.  Wire: ``[n]``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar

from engines.base import Engine, IllegalMove, InvalidMove, InvalidParams, Outcome, Params

__all__ = ["ENGINE", "GrabEngine", "GrabState"]

ONGOING, WON, DRAWN = 0, 1, 2


@dataclass(frozen=True)
class GrabState:
    pile: int
    slot: int
    controllers: tuple[int, ...]
    out: tuple[bool, ...]
    status: int = ONGOING
    winner: int = 0
    reason: int = 0  # 0 last stone, 1 resignation


class GrabEngine(Engine[GrabState, int]):
    name: ClassVar[str] = "grab"
    ruleset: ClassVar[str] = "grab/1"
    version: ClassVar[str] = "1.0"
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 6
    sample_params: ClassVar[tuple[Params, ...]] = ({"seats": 2}, {"seats": 3, "pile": 30})

    def initial_state(self, params: Params) -> GrabState:
        unknown = set(params) - {"seats", "pile"}
        if unknown:
            raise InvalidParams(f"unknown options: {', '.join(sorted(unknown))}")
        seats, pile = params.get("seats", 2), params.get("pile", 21)
        if type(seats) is not int or not 2 <= seats <= 6:
            raise InvalidParams("grab is played by 2 to 6 seats")
        if type(pile) is not int or not 1 <= pile <= 200:
            raise InvalidParams("the pile holds 1 to 200 stones")
        return GrabState(pile, 1, tuple(range(1, seats + 1)), (False,) * seats)

    def seat_count(self, state: GrabState) -> int:
        return len(state.controllers)

    def to_move(self, state: GrabState) -> int | None:
        return state.slot if state.status == ONGOING else None

    def controller(self, state: GrabState, seat: int) -> int:
        return state.controllers[seat - 1]

    def legal_moves(self, state: GrabState) -> tuple[int, ...]:
        if state.status != ONGOING:
            return ()
        return tuple(range(1, min(3, state.pile) + 1))

    def _players_in(self, controllers: tuple[int, ...], out: tuple[bool, ...]) -> set[int]:
        return {c for c, gone in zip(controllers, out, strict=True) if not gone}

    def _next_slot(self, slot: int, out: tuple[bool, ...]) -> int:
        count = len(out)
        for step in range(1, count + 1):
            seat = (slot - 1 + step) % count + 1
            if not out[seat - 1]:
                return seat
        return slot

    def apply(self, state: GrabState, move: int) -> GrabState:
        if state.status != ONGOING:
            raise IllegalMove("the game is over")
        if move not in (1, 2, 3):
            raise IllegalMove("you may take 1, 2 or 3 stones")
        if move > state.pile:
            raise IllegalMove(f"only {state.pile} stones are left")
        pile = state.pile - move
        mover = state.controllers[state.slot - 1]
        if pile == 0:
            return replace(state, pile=0, status=WON, winner=mover)
        next_slot = self._next_slot(state.slot, state.out)
        controllers = state.controllers
        if move == 3 and len(controllers) > 2:
            taken = list(controllers)
            taken[next_slot - 1] = mover
            if len(self._players_in(tuple(taken), state.out)) >= 2:
                controllers = tuple(taken)
        slot = state.slot if pile % 5 == 0 else next_slot
        return replace(state, pile=pile, slot=slot, controllers=controllers)

    def resign(self, state: GrabState, seat: int) -> GrabState:
        if state.status != ONGOING:
            raise IllegalMove("the game is over")
        if seat not in self._players_in(state.controllers, state.out):
            raise IllegalMove(f"seat {seat}'s player is no longer in the game")
        out = tuple(gone or c == seat for c, gone in zip(state.controllers, state.out, strict=True))
        left = self._players_in(state.controllers, out)
        if len(left) == 1:
            return replace(state, out=out, status=WON, winner=left.pop(), reason=1)
        slot = state.slot if not out[state.slot - 1] else self._next_slot(state.slot, out)
        return replace(state, out=out, slot=slot)

    def agree_draw(self, state: GrabState) -> GrabState:
        if state.status != ONGOING:
            raise IllegalMove("the game is over")
        return replace(state, status=DRAWN)

    def outcome(self, state: GrabState) -> Outcome | None:
        if state.status == WON:
            reason = "resignation" if state.reason else "last-stone"
            return Outcome((state.winner,), False, reason, f"seat {state.winner} wins")
        if state.status == DRAWN:
            return Outcome((), True, "agreement", "drawn by agreement")
        return None

    def move_to_wire(self, move: int) -> list[int]:
        return [move]

    def move_from_wire(self, obj: object) -> int:
        if not isinstance(obj, list) or len(obj) != 1 or type(obj[0]) is not int:
            raise InvalidMove("a grab move is one integer")
        return int(obj[0])

    def format_move(self, state: GrabState, move: int) -> str:
        return f"t{move}"

    def parse_move(self, state: GrabState, text: str) -> int:
        if len(text) != 2 or text[0] != "t" or text[1] not in "123":
            raise InvalidMove(f"cannot read {text!r}: write t1, t2 or t3")
        return int(text[1])


ENGINE = GrabEngine()
