"""Cognes bots: a sensible one and the mirroring strategy (docs/rules/cognes.md).

``SensibleBot(seed)`` decides, in this order:

1. It never fouls: it only plays legal flips.
2. With two players left and an even number of coins, if one legal flip makes the position
   its own mirror image through the middle (``mirror_reply``), it plays it.  From a mirrored
   position every legal flip of the opponent has a legal mirrored answer, so the opponent can
   never make the last legal flip.
3. It takes a flip after which no legal flip remains anywhere: it then made the last one.
4. It prefers flips that leave the sum of the coins' Grundy values at zero, each free coin
   counted alone as a subtraction game: its room to the ring around the middle coin shrinks
   by G to D per flip (``coin_grundy``).  Coins crowding near the middle are not independent,
   so this is a guide, not a proof.
5. In the endgame (three movable coins or fewer) it avoids, on a bounded sample, flips that
   let the next player win at once by step 3.
6. It breaks ties with its own seeded generator, so it is deterministic given its seed.

``MirrorBot(seed)`` answers every flip with its mirror image when it can and otherwise plays
a random legal flip: the tests use it for the mirror finding.  ``CarefulRandomBot(seed)``
plays a random legal flip and never fouls, so its games run to the last legal flip.
"""

from __future__ import annotations

import math
import random
from dataclasses import replace
from functools import cache

from engines import AnyEngine, IllegalMove
from engines.cognes import (
    CognesState,
    Flip,
    coin_can_flip,
    judge_flip,
    legal_flips,
)
from engines.cognes_exact import Point, displacements

__all__ = [
    "CarefulRandomBot",
    "MirrorBot",
    "SensibleBot",
    "coin_grundy",
    "mirror_reply",
    "movable_coins",
    "winning_flips",
]

ENDGAME_MOVABLE = 3  # at most this many movable coins: look one reply ahead
SAFETY_SAMPLE = 12  # candidate flips checked for an immediate reply that wins


@cache
def _direction_of(flip_length: int) -> dict[Point, int]:
    """The first direction of each flip vector (short flips can share a vector)."""
    table: dict[Point, int] = {}
    for k, vector in enumerate(displacements(flip_length)):
        table.setdefault(vector, k)
    return table


def mirror_reply(state: CognesState) -> Flip | None:
    """The legal flip that makes the position its own mirror image through the middle.

    Only when the number of coins is even, exactly one pair of opposite coins (k and
    k + N/2) is out of place, and the frozen coins already mirror each other.
    """
    coins = len(state.centres)
    if coins % 2:
        return None
    half = coins // 2
    if any(state.frozen[i] != state.frozen[i + half] for i in range(half)):
        return None
    broken = [
        i
        for i in range(half)
        if state.centres[i + half] != (-state.centres[i][0], -state.centres[i][1])
    ]
    if len(broken) != 1:
        return None
    i = broken[0]
    for mover, other in ((i + half, i), (i, i + half)):
        (mx, my), (ox, oy) = state.centres[mover], state.centres[other]
        direction = _direction_of(2 * state.coin_radius).get((-ox - mx, -oy - my))
        if direction is None:
            continue
        flip = Flip(mover, direction)
        try:
            if not judge_flip(state, flip).is_foul:
                return flip
        except IllegalMove:  # frozen, or not closer by G: no flip of that coin mirrors
            continue
    return None


def coin_grundy(state: CognesState, centre: Point) -> int:
    """Grundy value of a lone coin at ``centre``: the subtraction game {G..D} on its room.

    The room x is how far the coin can still travel before touching the middle coin,
    |c| - 2r; a flip takes between G and D from it and must leave it above 0.  For the
    subtraction set {a..b} the value of n is (n mod (a + b)) // a, here with n = x - 1.
    """
    room = math.isqrt(centre[0] ** 2 + centre[1] ** 2) - 2 * state.coin_radius
    if room <= state.min_gain:
        return 0
    gain, flip_length = state.min_gain, 2 * state.coin_radius
    return ((room - 1) % (gain + flip_length)) // gain


def _remaining(state: CognesState) -> int:
    return state.out.count(False)


def movable_coins(state: CognesState) -> list[int]:
    """The coins that have a legal flip."""
    return [coin for coin in range(len(state.centres)) if coin_can_flip(state, coin)]


def _landing(state: CognesState, flip: Flip) -> Point:
    """Where a flip lands, as ``judge_flip`` has it, without asking which coins it touches:
    the bots only ask for legal flips' landings, about 2,000 of them a move, and checking
    each against every coin again cost most of a move's time."""
    x, y = state.centres[flip.coin]
    vx, vy = displacements(2 * state.coin_radius)[flip.direction]
    return (x + vx, y + vy)


def _wins_at_once(engine: AnyEngine, state: CognesState, flip: Flip, movable: list[int]) -> bool:
    """After the legal ``flip`` no legal flip remains, so its author made the last one."""
    landing = _landing(state, flip)
    # Another movable coin farther than 2r + D + 1 from the landing keeps all its flips.
    reach = 4 * state.coin_radius + 2
    near = []
    for coin in movable:
        x, y = state.centres[coin]
        if coin != flip.coin:
            if (x - landing[0]) ** 2 + (y - landing[1]) ** 2 > reach * reach:
                return False
            near.append(coin)
    # Cheap refutations first: the flipped coin or a nearby coin can still flip.
    centres = tuple(landing if i == flip.coin else c for i, c in enumerate(state.centres))
    moved = replace(state, centres=centres)
    if any(coin_can_flip(moved, coin) for coin in (flip.coin, *near)):
        return False
    # Coins that were stuck may have been freed by the coin leaving: the engine decides.
    return engine.outcome(engine.apply(state, flip)) is not None


def winning_flips(
    engine: AnyEngine, state: CognesState, flips: tuple[Flip, ...], movable: list[int]
) -> list[Flip]:
    """The ``flips`` after which no legal flip remains (``movable``: ``movable_coins``)."""
    return [flip for flip in flips if _wins_at_once(engine, state, flip, movable)]


def wins_at_once_now(engine: AnyEngine, state: CognesState) -> bool:
    """Whether the seat to move has a flip that wins at once (``client.bots.answers``)."""
    return bool(winning_flips(engine, state, legal_flips(state), movable_coins(state)))


class SensibleBot:
    """Plays Cognes carefully (see the module docstring); deterministic given ``seed``."""

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)

    def choose(self, engine: AnyEngine, state: CognesState) -> Flip:
        flips = legal_flips(state)
        if not flips:  # cannot happen while the game goes on; keep the contract anyway
            moves: tuple[Flip, ...] = engine.legal_moves(state)
            return moves[self._rng.randrange(len(moves))]
        if _remaining(state) == 2:
            mirror = mirror_reply(state)
            if mirror is not None:
                return mirror
        movable = movable_coins(state)
        wins = winning_flips(engine, state, flips, movable)
        if wins:
            return wins[self._rng.randrange(len(wins))]
        pool = self._balanced(state, flips, movable) or list(flips)
        if len(movable) <= ENDGAME_MOVABLE:
            safe = self._safe(engine, state, pool) or self._safe(engine, state, list(flips))
            if safe is not None:
                return safe
        return pool[self._rng.randrange(len(pool))]

    def _balanced(
        self, state: CognesState, flips: tuple[Flip, ...], movable: list[int]
    ) -> list[Flip]:
        """The flips after which the coins' Grundy values sum (xor) to zero."""
        values = [
            coin_grundy(state, centre) if coin in movable else 0
            for coin, centre in enumerate(state.centres)
        ]
        total = 0
        for value in values:
            total ^= value
        return [
            flip
            for flip in flips
            if total ^ values[flip.coin] ^ coin_grundy(state, _landing(state, flip)) == 0
        ]

    def _safe(self, engine: AnyEngine, state: CognesState, pool: list[Flip]) -> Flip | None:
        """A flip of ``pool`` after which the next player cannot win at once (sampled)."""
        sample = self._rng.sample(pool, min(SAFETY_SAMPLE, len(pool)))
        for flip in sample:
            after = engine.apply(state, flip)
            if engine.outcome(after) is not None:
                continue
            movable = movable_coins(after)
            if not any(_wins_at_once(engine, after, f, movable) for f in legal_flips(after)):
                return flip
        return None


class CarefulRandomBot:
    """Plays a random legal flip, never a foul."""

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)

    def choose(self, engine: AnyEngine, state: CognesState) -> Flip:
        flips = legal_flips(state)
        return flips[self._rng.randrange(len(flips))]


class MirrorBot(CarefulRandomBot):
    """Answers each flip with its mirror image through the middle, else a random legal flip."""

    def choose(self, engine: AnyEngine, state: CognesState) -> Flip:
        mirror = mirror_reply(state)
        if mirror is not None:
            return mirror
        return super().choose(engine, state)
