"""Cognes plane geometry in exact integers (rules/cognes.md section 1).

One unit is 0.1 mm; the middle coin sits at (0, 0) and the y axis points up.  Everything here
is integer arithmetic on the shipped tables of ``engines.cognes_geometry``: no float, no
cosine, so every peer decides every touch and every gain the same way.

Invariants:

* ``displacements(D)[k + 360] == -displacements(D)[k]`` (each component is rounded on its
  magnitude and takes the sign of the direction's), so flips mirror through the middle.
* ``start_positions(R, N)`` rounds half away from zero, so with an even N coin k and coin
  k + N/2 are exact mirror images through the middle.
* A flip landing at ``n`` from ``c`` is closer by at least G when |n| <= |c| - G, decided
  without square roots; two coins of radius r touch when their centres are 2r apart or less.
"""

from __future__ import annotations

import math
from functools import cache

from engines.cognes_geometry import (
    DEFAULT_DISPLACEMENTS,
    DEFAULT_FLIP_LENGTH,
    DIRECTION_COUNT,
    DIRECTIONS,
    MAX_COINS,
    MIN_COINS,
    START_UNIT,
    UNIT_BITS,
)

__all__ = [
    "Point",
    "closer_by_at_least",
    "displacements",
    "snap_direction",
    "start_positions",
    "touches",
]

Point = tuple[int, int]


def _round_half_away(numerator: int, denominator: int) -> int:
    """round(numerator / denominator), halves away from zero (denominator > 0)."""
    magnitude = (2 * abs(numerator) + denominator) // (2 * denominator)
    return -magnitude if numerator < 0 else magnitude


def _flip_component(flip_length: int, d: int, length2: int) -> int:
    # round(sqrt(D²·d²/L)) half up: m = floor(sqrt(q) + 1/2) = floor((floor(2·sqrt(q)) + 1) / 2)
    # and floor(2·sqrt(q)) = isqrt(floor(4q)) for a rational q >= 0.
    magnitude = (math.isqrt(4 * flip_length * flip_length * d * d // length2) + 1) // 2
    return -magnitude if d < 0 else magnitude


@cache
def displacements(flip_length: int) -> tuple[Point, ...]:
    """The 720 flip vectors of length ``flip_length`` (D), one per direction k·0.5°."""
    if flip_length == DEFAULT_FLIP_LENGTH:
        return DEFAULT_DISPLACEMENTS
    table = []
    for dx, dy in DIRECTIONS:
        length2 = dx * dx + dy * dy
        table.append(
            (_flip_component(flip_length, dx, length2), _flip_component(flip_length, dy, length2))
        )
    return tuple(table)


def _scaled_unit(radius: int, floor: int, exact: bool) -> int:
    """round(radius·x) half away from zero, for the x of a START_UNIT entry."""
    scale = 1 << UNIT_BITS
    low = _round_half_away(radius * floor, scale)
    if exact:
        return low
    # x lies strictly between floor and floor + 1 (in 2^-UNIT_BITS); the generator checked
    # that for every allowed radius both ends round alike, so the bracket decides.
    high = _round_half_away(radius * (floor + 1), scale)
    if low != high:
        raise ValueError(f"start radius {radius} is outside the range the start table covers")
    return low


@cache
def start_positions(radius: int, coins: int) -> tuple[Point, ...]:
    """Centres of the outer coins: coin k at 90° + 360°·k/N on the circle of ``radius``."""
    if not MIN_COINS <= coins <= MAX_COINS:
        raise ValueError(f"the start table covers {MIN_COINS} to {MAX_COINS} coins, not {coins}")
    return tuple(
        (_scaled_unit(radius, cf, ce), _scaled_unit(radius, sf, se))
        for cf, ce, sf, se in START_UNIT[coins - MIN_COINS]
    )


def closer_by_at_least(centre: Point, landing: Point, gain: int) -> bool:
    """|landing| <= |centre| - gain (distances to the middle), for a gain >= 0.

    With t = |c|² - |n|² - G², the inequality |n| + G <= |c| squares to 2·G·|n| <= t,
    which holds exactly when t >= 0 and 4·G²·|n|² <= t².
    """
    n2 = landing[0] * landing[0] + landing[1] * landing[1]
    t = centre[0] * centre[0] + centre[1] * centre[1] - n2 - gain * gain
    return t >= 0 and 4 * gain * gain * n2 <= t * t


def touches(a: Point, b: Point, coin_radius: int) -> bool:
    """Two coins of ``coin_radius`` centred at ``a`` and ``b`` touch (tangency counts)."""
    dx, dy = a[0] - b[0], a[1] - b[1]
    reach = 2 * coin_radius
    return dx * dx + dy * dy <= reach * reach


def snap_direction(dx: int, dy: int) -> int:
    """The direction k (0..719) nearest in angle to the drag vector (dx, dy).

    Nearest means the largest cosine with ``DIRECTIONS[k]``: the cosine is dot / (|v|·|d_k|),
    compared between candidates as dot_a² · |d_b|² against dot_b² · |d_a|² (both dots
    positive), so no square root is taken.  An exact tie goes to the lower k.  Raises
    ``ValueError`` for the zero vector, which has no direction.
    """
    if dx == 0 and dy == 0:
        raise ValueError("a drag of length zero has no direction")
    best, best_dot, best_length2 = -1, 0, 1
    for k in range(DIRECTION_COUNT):
        ux, uy = DIRECTIONS[k]
        dot = dx * ux + dy * uy
        if dot <= 0:
            continue
        length2 = ux * ux + uy * uy
        if best < 0 or dot * dot * best_length2 > best_dot * best_dot * length2:
            best, best_dot, best_length2 = k, dot, length2
    return best
