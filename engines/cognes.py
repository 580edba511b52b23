"""Cognes (``cognes/1``): flip coins toward the middle coin without making any two touch.

The rules as palabre plays them are in docs/rules/cognes.md (spec: rules/cognes.md).  The
plane geometry, in exact integers, is ``engines.cognes_exact``.

Invariants:

* A move is ``Flip(coin, direction)``: outer coin 0..N-1 flipped along direction
  ``direction`` · 0.5° (0..719).  Its wire form is ``[coin, direction]``.
* A flip must bring the coin at least ``min_gain`` closer to the middle; it is **legal** when
  the landing coin touches no other coin, a **foul** when it touches one (only playable with
  ``allow_fouls``): the mover is out and the flipped coin and every coin it touches freeze.
* ``legal_moves`` goes coin by coin (ascending); for each coin its legal directions
  (ascending), then its fouls (ascending) when fouls are allowed.  This keeps the flat list
  in the order of the step-by-step view.
* Before each turn the game ends when one player is left (that player wins), or when no
  legal flip exists anywhere (an exhaustive search): the latest legal flip by a player still
  in wins; with none, a draw.  ``apply`` and ``resign`` decide this, so ``outcome`` and
  ``to_move`` only read the state.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import ClassVar, NamedTuple

from engines.base import Engine, IllegalMove, InvalidMove, InvalidParams, Outcome, Params
from engines.cognes_exact import (
    Point,
    closer_by_at_least,
    displacements,
    start_positions,
    touches,
)
from engines.cognes_flips import Runs, directions_of, flip_runs
from engines.cognes_geometry import DIRECTION_COUNT, MAX_COINS

__all__ = [
    "ENGINE",
    "CognesEngine",
    "CognesState",
    "Flip",
    "Verdict",
    "coin_can_flip",
    "has_legal_flip",
    "judge_flip",
    "legal_flips",
]

# Option name -> (lowest, highest, default); "min_gain" is further bounded by the flip length.
OPTIONS: dict[str, tuple[int, int, int]] = {
    "seats": (2, 6, 2),
    "coins": (4, MAX_COINS, 7),
    "coin_radius": (60, 200, 120),
    "start_radius": (1500, 2000, 1750),
    "min_gain": (1, 399, 50),
    "allow_fouls": (0, 1, 1),
}

# How a game ended (stored as a plain int in the state).
END_NONE, END_NO_LEGAL_FLIP, END_LAST_ONE_IN, END_AGREEMENT, END_NOBODY_FLIPPED = range(5)

_NOTATION = re.compile(r"\s*([0-9]{1,4})@([0-9]{1,4})(!?)\s*")


class Flip(NamedTuple):
    """Flip outer coin ``coin`` in direction ``direction`` · 0.5°."""

    coin: int
    direction: int


@dataclass(frozen=True)
class CognesState:
    seats: int
    coin_radius: int
    start_radius: int
    min_gain: int
    allow_fouls: bool
    centres: tuple[Point, ...]
    """Centre of outer coin i; the middle coin is at (0, 0) and is not listed."""
    frozen: tuple[bool, ...]
    out: tuple[bool, ...]
    """Per seat (index seat - 1): eliminated by a foul or a resignation."""
    turn: int
    """The seat to move; 0 once the game is over."""
    ply: int
    last_legal: tuple[int, ...]
    """Per seat: the ply number of its latest legal flip, 0 for none."""
    end: int
    winner: int
    """The winning seat once the game is over; 0 for a draw or while it goes on."""


@dataclass(frozen=True)
class Verdict:
    """What a flip does: where it lands and which coins the landing touches."""

    landing: Point
    touched: tuple[int, ...]
    """Outer coins touched by the landing coin."""
    touches_middle: bool

    @property
    def is_foul(self) -> bool:
        return bool(self.touched) or self.touches_middle


def _mm(units: int) -> str:
    return f"{units // 10}.{units % 10} mm"


def _degrees(direction: int) -> str:
    """Direction k as an angle for messages, in integers: k · 0.5°."""
    return f"{direction // 2}{'.5' if direction % 2 else ''}°"


def judge_flip(state: CognesState, flip: Flip) -> Verdict:
    """The verdict on one flip, or ``IllegalMove`` when the rules forbid it outright.

    Forbidden outright: the game is over, no such coin, a frozen coin, a landing not closer
    by ``min_gain``.  A foul is returned as a verdict (the caller decides if it may be played).
    """
    if state.end != END_NONE:
        raise IllegalMove("the game is over")
    coin, direction = flip
    if not 0 <= coin < len(state.centres):
        raise IllegalMove(f"there is no coin {coin}: coins are 0 to {len(state.centres) - 1}")
    if not 0 <= direction < DIRECTION_COUNT:
        raise IllegalMove(f"direction {direction} is not one of 0 to {DIRECTION_COUNT - 1}")
    if state.frozen[coin]:
        raise IllegalMove(f"coin {coin} is frozen: it never moves again")
    cx, cy = state.centres[coin]
    vx, vy = displacements(2 * state.coin_radius)[direction]
    landing = (cx + vx, cy + vy)
    if not closer_by_at_least((cx, cy), landing, state.min_gain):
        raise IllegalMove(
            f"flipping coin {coin} toward {_degrees(direction)} does not bring it at least "
            f"{_mm(state.min_gain)} closer to the middle"
        )
    touched = tuple(
        j
        for j, centre in enumerate(state.centres)
        if j != coin and touches(landing, centre, state.coin_radius)
    )
    return Verdict(landing, touched, touches(landing, (0, 0), state.coin_radius))


def _describe_touch(verdict: Verdict) -> str:
    names = [f"coin {j}" for j in verdict.touched]
    if verdict.touches_middle:
        names.insert(0, "the middle coin")
    return " and ".join(names)


def _flip_runs(state: CognesState, coin: int, stop_at_legal: bool) -> tuple[Runs, Runs]:
    """The legal and the foul directions of one free coin, as runs (``engines.cognes_flips``)."""
    return flip_runs(state.centres, coin, state.coin_radius, state.min_gain, stop_at_legal)


def _flips(coin: int, runs: Runs) -> list[Flip]:
    row = _flips_of(coin)
    found: list[Flip] = []
    for start, stop in runs:
        found += row[start:stop]
    return found


def coin_can_flip(state: CognesState, coin: int) -> bool:
    """Whether outer coin ``coin`` has at least one legal flip (a foul does not count)."""
    if state.frozen[coin]:
        return False
    # A coin within 2r + G of the middle can only land on the middle coin: skip the search.
    x, y = state.centres[coin]
    limit = 2 * state.coin_radius + state.min_gain
    if x * x + y * y <= limit * limit:
        return False
    return bool(_flip_runs(state, coin, stop_at_legal=True)[0])


def has_legal_flip(state: CognesState) -> bool:
    """Whether any free coin has a legal flip: the end test, exhaustive when none exists."""
    # Coins farthest from the middle have the most room: try them first.
    order = sorted(range(len(state.centres)), key=lambda i: -_norm2(state.centres[i]))
    return any(coin_can_flip(state, coin) for coin in order)


def legal_flips(state: CognesState) -> tuple[Flip, ...]:
    """The legal flips only (no fouls), in ``legal_moves`` order: what a careful player plays."""
    if state.end != END_NONE:
        return ()
    flips: list[Flip] = []
    for coin in range(len(state.centres)):
        if not state.frozen[coin]:
            flips += _flips(coin, _flip_runs(state, coin, False)[0])
    return tuple(flips)


@functools.cache
def _flips_of(coin: int) -> tuple[Flip, ...]:
    """``Flip(coin, k)`` for every direction k, made once: a listing of about 2,000 moves
    spent most of its time making them (moves are immutable values, so sharing is safe)."""
    return tuple(Flip(coin, direction) for direction in range(DIRECTION_COUNT))


def _norm2(point: Point) -> int:
    return point[0] * point[0] + point[1] * point[1]


def _next_seat(out: tuple[bool, ...], seat: int) -> int:
    """The first seat after ``seat`` (cyclically) that is still in."""
    count = len(out)
    for step in range(1, count + 1):
        candidate = (seat - 1 + step) % count + 1
        if not out[candidate - 1]:
            return candidate
    raise AssertionError("no seat is left in the game")


def _before_turn(state: CognesState, after_seat: int) -> CognesState:
    """Run the end test before the next turn, or hand the turn to the next seat still in."""
    remaining = [seat for seat in range(1, state.seats + 1) if not state.out[seat - 1]]
    if len(remaining) == 1:
        return replace(state, turn=0, end=END_LAST_ONE_IN, winner=remaining[0])
    if not has_legal_flip(state):
        # The latest legal flip by a player still in wins (with turns taken in order that is
        # always the author of the very last legal flip; see docs/rules/cognes.md).
        plies = [(state.last_legal[seat - 1], seat) for seat in remaining]
        ply, seat = max(plies)
        if ply == 0:
            return replace(state, turn=0, end=END_NOBODY_FLIPPED, winner=0)
        return replace(state, turn=0, end=END_NO_LEGAL_FLIP, winner=seat)
    return replace(state, turn=_next_seat(state.out, after_seat))


def _set(items: tuple[bool, ...], indices: Sequence[int]) -> tuple[bool, ...]:
    chosen = set(indices)
    return tuple(value or i in chosen for i, value in enumerate(items))


class CognesEngine(Engine[CognesState, Flip]):
    name: ClassVar[str] = "cognes"
    ruleset: ClassVar[str] = "cognes/1"
    version: ClassVar[str] = "1"
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 6
    sample_params: ClassVar[tuple[Params, ...]] = (
        {"seats": 2},
        {"seats": 3, "coins": 8, "min_gain": 120},
        {"seats": 2, "coins": 6, "coin_radius": 150, "start_radius": 1500, "allow_fouls": 0},
        {"seats": 6, "coins": 10, "coin_radius": 200, "start_radius": 2000, "min_gain": 300},
    )

    # --- the game ---------------------------------------------------------------------
    def initial_state(self, params: Params) -> CognesState:
        values = _validate(params)
        radius, coins = values["coin_radius"], values["coins"]
        centres = start_positions(values["start_radius"], coins)
        for i in range(coins):
            for j in range(i + 1, coins):
                if touches(centres[i], centres[j], radius):
                    raise InvalidParams(
                        f"with {coins} coins of radius {_mm(radius)} on a start circle of "
                        f"radius {_mm(values['start_radius'])}, coins {i} and {j} touch at the "
                        "start: use fewer or smaller coins, or a larger circle"
                    )
        seats = values["seats"]
        return CognesState(
            seats=seats,
            coin_radius=radius,
            start_radius=values["start_radius"],
            min_gain=values["min_gain"],
            allow_fouls=values["allow_fouls"] == 1,
            centres=centres,
            frozen=(False,) * coins,
            out=(False,) * seats,
            turn=1,
            ply=0,
            last_legal=(0,) * seats,
            end=END_NONE,
            winner=0,
        )

    def seat_count(self, state: CognesState) -> int:
        return state.seats

    def to_move(self, state: CognesState) -> int | None:
        return state.turn if state.end == END_NONE else None

    def controller(self, state: CognesState, seat: int) -> int:
        return seat

    def legal_moves(self, state: CognesState) -> tuple[Flip, ...]:
        if state.end != END_NONE:
            return ()
        moves: list[Flip] = []
        for coin in range(len(state.centres)):
            moves += _flips(coin, self._runs(state, coin))
        return tuple(moves)

    def _runs(self, state: CognesState, coin: int) -> Runs:
        """The directions of ``coin`` that ``legal_moves`` lists, in its order, as runs."""
        if state.frozen[coin]:
            return []
        legal, fouls = _flip_runs(state, coin, stop_at_legal=False)
        return legal + fouls if state.allow_fouls else legal

    def _directions(self, state: CognesState, coin: int) -> list[int]:
        return directions_of(self._runs(state, coin))

    def apply(self, state: CognesState, move: Flip) -> CognesState:
        verdict = judge_flip(state, move)
        coin = move.coin
        seat = state.turn
        centres = tuple(
            verdict.landing if i == coin else centre for i, centre in enumerate(state.centres)
        )
        ply = state.ply + 1
        if verdict.is_foul:
            if not state.allow_fouls:
                raise IllegalMove(
                    f"coin {coin} would land touching {_describe_touch(verdict)}, and fouls "
                    "are not allowed at this table"
                )
            after = replace(
                state,
                centres=centres,
                frozen=_set(state.frozen, (coin, *verdict.touched)),
                out=_set(state.out, (seat - 1,)),
                ply=ply,
            )
        else:
            last_legal = tuple(ply if s == seat else p for s, p in enumerate(state.last_legal, 1))
            after = replace(state, centres=centres, ply=ply, last_legal=last_legal)
        return _before_turn(after, seat)

    def resign(self, state: CognesState, seat: int) -> CognesState:
        if state.end != END_NONE:
            raise IllegalMove("the game is over")
        if not 1 <= seat <= state.seats:
            raise IllegalMove(f"there is no seat {seat}")
        if state.out[seat - 1]:
            raise IllegalMove(f"seat {seat} is already out of the game")
        after = replace(state, out=_set(state.out, (seat - 1,)), ply=state.ply + 1)
        if seat == state.turn:
            return _before_turn(after, seat)
        # Out of turn: the position has not changed, so a legal flip still exists; only the
        # last-one-in test can end the game.
        return _before_turn(after, state.turn - 1 if state.turn > 1 else state.seats)

    def agree_draw(self, state: CognesState) -> CognesState:
        if state.end != END_NONE:
            raise IllegalMove("the game is over")
        return replace(state, turn=0, end=END_AGREEMENT, winner=0)

    def outcome(self, state: CognesState) -> Outcome | None:
        if state.end == END_NONE:
            return None
        winner = state.winner
        if state.end == END_NO_LEGAL_FLIP:
            return Outcome(
                (winner,),
                False,
                "last-flip",
                f"Seat {winner} wins: no coin can be flipped legally any more, and seat "
                f"{winner} made the last legal flip.",
            )
        if state.end == END_LAST_ONE_IN:
            return Outcome(
                (winner,), False, "last-one-in", f"Seat {winner} wins: every other player is out."
            )
        if state.end == END_AGREEMENT:
            return Outcome((), True, "agreement", "Draw agreed by the players still in.")
        return Outcome(
            (), True, "no-flip", "Draw: no coin can be flipped legally and nobody ever did."
        )

    # --- moves on the wire and in notation --------------------------------------------
    def move_to_wire(self, move: Flip) -> list[int]:
        return [move.coin, move.direction]

    def move_from_wire(self, obj: object) -> Flip:
        if not isinstance(obj, (list, tuple)) or len(obj) != 2:
            raise InvalidMove(f"a Cognes move is [coin, direction], not {obj!r:.60}")
        coin, direction = obj
        if type(coin) is not int or type(direction) is not int:
            raise InvalidMove(f"a Cognes move holds two integers, not {obj!r:.60}")
        return _checked_flip(coin, direction)

    def format_move(self, state: CognesState, move: Flip) -> str:
        text = f"{move.coin}@{move.direction}"
        try:
            foul = judge_flip(state, move).is_foul
        except IllegalMove:
            foul = False
        return text + "!" if foul else text

    def parse_move(self, state: CognesState, text: str) -> Flip:
        found = _NOTATION.fullmatch(text)
        if found is None:
            raise InvalidMove(f"{text!r:.40} is not a flip: write COIN@DIRECTION, e.g. 3@140")
        flip = _checked_flip(int(found[1]), int(found[2]))
        verdict = judge_flip(state, flip)
        name = f"{flip.coin}@{flip.direction}"
        if verdict.is_foul and not state.allow_fouls:
            raise IllegalMove(
                f"{name} lands touching {_describe_touch(verdict)}; fouls are not allowed here"
            )
        if verdict.is_foul and not found[3]:
            raise IllegalMove(
                f"{name} lands touching {_describe_touch(verdict)}: that foul puts you out; "
                f"write it {name}! to play it anyway"
            )
        if found[3] and not verdict.is_foul:
            raise IllegalMove(f"{name} touches no coin: it is a legal flip, written without '!'")
        return flip

    # --- step-by-step view --------------------------------------------------------------
    def next_choices(
        self, state: CognesState, partial: Sequence[int]
    ) -> tuple[tuple[int, ...], bool]:
        # The same prefix tree as the default, computing only the coin asked about.
        if state.end != END_NONE or len(partial) > 2:
            return (), False
        coins = len(state.centres)
        if not partial:
            return tuple(c for c in range(coins) if self._has_directions(state, c)), False
        coin = partial[0]
        if type(coin) is not int or not 0 <= coin < coins:
            return (), False
        if len(partial) == 1:
            return tuple(self._directions(state, coin)), False
        direction = partial[1]
        if type(direction) is not int:
            return (), False
        try:
            verdict = judge_flip(state, Flip(coin, direction))
        except IllegalMove:
            return (), False
        return (), state.allow_fouls or not verdict.is_foul

    def _has_directions(self, state: CognesState, coin: int) -> bool:
        if state.allow_fouls:
            return bool(self._runs(state, coin))
        return coin_can_flip(state, coin)


def _checked_flip(coin: int, direction: int) -> Flip:
    if not 0 <= coin < MAX_COINS:
        raise InvalidMove(f"coin {coin} is not a coin number (0 to {MAX_COINS - 1})")
    if not 0 <= direction < DIRECTION_COUNT:
        raise InvalidMove(f"direction {direction} is not one of 0 to {DIRECTION_COUNT - 1}")
    return Flip(coin, direction)


def _validate(params: Params) -> dict[str, int]:
    """Every option checked alone (the start layout is checked by ``initial_state``)."""
    unknown = sorted(set(params) - set(OPTIONS))
    if unknown:
        raise InvalidParams(
            f"unknown option {unknown[0]!r}; Cognes options are {', '.join(OPTIONS)}"
        )
    values: dict[str, int] = {}
    for name, (lowest, highest, default) in OPTIONS.items():
        value = params.get(name, default)
        if isinstance(value, bool) and name == "allow_fouls":
            value = int(value)
        if type(value) is not int:
            raise InvalidParams(f"option {name} must be a whole number, not {value!r:.30}")
        if not lowest <= value <= highest:
            raise InvalidParams(f"option {name} must be from {lowest} to {highest}, not {value}")
        values[name] = value
    flip_length = 2 * values["coin_radius"]
    if values["min_gain"] >= flip_length:
        raise InvalidParams(
            f"min_gain {values['min_gain']} must be less than the flip length D = 2 × "
            f"coin_radius = {flip_length}: no flip could ever gain that much"
        )
    return values


ENGINE = CognesEngine()
