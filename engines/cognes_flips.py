"""Which of a coin's 720 flips are legal and which are fouls: the hot loop of Cognes.

``coin_flips`` gives exactly what ``coin_flips_plainly`` gives (the rules read directly, one
direction at a time), but decides most directions by the box, in exact integers:

* The 720 flip vectors are cut into blocks of consecutive directions (and those into
  smaller ones); for each block the smallest box holding all its vectors is worked out once
  per flip length.  Moved by the coin's centre, that box holds every landing of the block.
* "Closer to the middle by at least G" holds exactly when |n|² is at most a threshold (it is
  |n| + G <= |c|, monotone in |n|), so it holds for every landing of the block when it holds
  at the box's farthest corner, and for none when it fails at the box's nearest point.
* A coin at ``p`` is touched by every landing of the block when the box's farthest point
  from ``p`` is within 2r, and by none when its nearest point is farther.
* A block that none of these settle is cut into its smaller blocks, and one of the last
  level is looked at direction by direction, against the coins that may touch it.

Every test is the rules' own inequality on integers, evaluated at points that bound the
block's landings, so no rounding can make the two functions differ; the tests compare them
on many positions (tests/engines/test_cognes_flips.py).
"""

from __future__ import annotations

from functools import cache

from engines.cognes_exact import Point, displacements

__all__ = ["Runs", "coin_flips", "coin_flips_plainly", "directions_of", "flip_runs"]

_SIZES = (72, 24, 8)
"""Directions per box at each level: 10 boxes of 72 directions, a mixed one cut into 3 of
24, a mixed one of those into 3 of 8, and a mixed box of 8 looked at direction by
direction.  Measured by instruction count on 124 positions of random games: 2.47 M
instructions a listing, against 2.56 M for (60, 10), 2.47 M for (120, 40, 10), and 18.9 M
for the direction-by-direction search."""

_Box = tuple[int, int, int, int, int, tuple[Point, ...], tuple["_Box", ...]]
"""(first direction, lowest vx, highest vx, lowest vy, highest vy, the box's vectors, the
smaller boxes it is cut into, none at the last level)."""

SKIP, LEGAL, FOUL, MIXED = range(4)
"""What a box's verdict says of its directions: none is closer by G, all are legal flips,
all are fouls, or they must be looked at more closely."""


def _box(vectors: tuple[Point, ...], first: int, sizes: tuple[int, ...]) -> _Box:
    part = vectors[first : first + sizes[0]]
    xs = [vx for vx, _ in part]
    ys = [vy for _, vy in part]
    inner = (
        tuple(_box(vectors, sub, sizes[1:]) for sub in range(first, first + len(part), sizes[1]))
        if len(sizes) > 1
        else ()
    )
    return (first, min(xs), max(xs), min(ys), max(ys), part, inner)


@cache
def _boxes(flip_length: int) -> tuple[_Box, ...]:
    """The boxes of the first level for one flip length, each holding its smaller ones."""
    vectors = displacements(flip_length)
    return tuple(_box(vectors, first, _SIZES) for first in range(0, len(vectors), _SIZES[0]))


def _near(
    centres: tuple[Point, ...], coin: int, radius: int, cx: int, cy: int
) -> list[tuple[int, int]]:
    """The coins (and the middle coin) a flip of ``coin`` could touch.

    A flip moves a centre by less than D + 1, so a coin farther than 2r + D + 1 is safe.
    """
    reach = 4 * radius + 2  # 2r + D + 2, with D = 2r
    reach2 = reach * reach
    near = [
        (x, y)
        for j, (x, y) in enumerate(centres)
        if j != coin and (x - cx) ** 2 + (y - cy) ** 2 <= reach2
    ]
    if cx * cx + cy * cy <= reach2:
        near.append((0, 0))
    return near


def coin_flips_plainly(
    centres: tuple[Point, ...], coin: int, radius: int, min_gain: int, stop_at_legal: bool
) -> tuple[list[int], list[int]]:
    """The legal and the foul directions of one free coin, one direction at a time.

    With ``stop_at_legal`` it returns as soon as one legal direction is found, and skips
    the fouls' bookkeeping.  This is the reference ``coin_flips`` is tested against.
    """
    flip_length = 2 * radius
    cx, cy = centres[coin]
    near = _near(centres, coin, radius, cx, cy)
    touch2 = flip_length * flip_length  # (2r)²
    gain2 = min_gain * min_gain
    four_gain2 = 4 * gain2
    centre2 = cx * cx + cy * cy
    legal: list[int] = []
    fouls: list[int] = []
    for direction, (vx, vy) in enumerate(displacements(flip_length)):
        nx, ny = cx + vx, cy + vy
        n2 = nx * nx + ny * ny
        t = centre2 - n2 - gain2
        if t < 0 or four_gain2 * n2 > t * t:
            continue  # not closer by min_gain (see cognes_exact.closer_by_at_least)
        for x, y in near:
            if (nx - x) ** 2 + (ny - y) ** 2 <= touch2:
                if not stop_at_legal:
                    fouls.append(direction)
                break
        else:
            legal.append(direction)
            if stop_at_legal:
                break
    return legal, fouls


def _verdict(
    box: _Box,
    cx: int,
    cy: int,
    centre2: int,
    gain2: int,
    near: list[tuple[int, int]],
    touch2: int,
) -> tuple[int, bool, list[tuple[int, int]]]:
    """(SKIP, LEGAL, FOUL or MIXED; whether every landing is closer by G; the coins some
    landing may touch) for the landings of one box of directions from (cx, cy)."""
    _, vx_lo, vx_hi, vy_lo, vy_hi, _, _ = box
    x_lo, x_hi, y_lo, y_hi = cx + vx_lo, cx + vx_hi, cy + vy_lo, cy + vy_hi
    # Squares of the box's nearest and farthest coordinates to the middle, axis by axis.
    a, b = x_lo * x_lo, x_hi * x_hi
    near_x = a if x_lo > 0 else b if x_hi < 0 else 0
    far_x = a if a > b else b
    a, b = y_lo * y_lo, y_hi * y_hi
    near_y = a if y_lo > 0 else b if y_hi < 0 else 0
    far_y = a if a > b else b
    # Closer by G is |n|² at most a threshold: if the nearest point fails, every landing does.
    n2 = near_x + near_y
    t = centre2 - n2 - gain2
    if t < 0 or 4 * gain2 * n2 > t * t:
        return SKIP, False, []
    n2 = far_x + far_y
    t = centre2 - n2 - gain2
    all_closer = t >= 0 and 4 * gain2 * n2 <= t * t
    maybe: list[tuple[int, int]] = []
    for x, y in near:
        lo, hi = x_lo - x, x_hi - x
        a, b = lo * lo, hi * hi
        dx_near, dx_far = (a if lo > 0 else b if hi < 0 else 0), (a if a > b else b)
        lo, hi = y_lo - y, y_hi - y
        a, b = lo * lo, hi * hi
        dy_near, dy_far = (a if lo > 0 else b if hi < 0 else 0), (a if a > b else b)
        if dx_near + dy_near > touch2:
            continue  # touched by no landing of the box
        if dx_far + dy_far <= touch2:
            # Every landing touches this coin: every closer one is a foul.
            return (FOUL if all_closer else MIXED), all_closer, [(x, y)]
        maybe.append((x, y))
    if all_closer and not maybe:
        return LEGAL, True, maybe
    return MIXED, all_closer, maybe


Runs = list[tuple[int, int]]
"""Directions as ascending, non-adjacent runs ``(start, stop)``: start <= k < stop."""


def _add(runs: Runs, start: int, stop: int) -> None:
    if runs and runs[-1][1] == start:
        runs[-1] = (runs[-1][0], stop)
    else:
        runs.append((start, stop))


def directions_of(runs: Runs) -> list[int]:
    """The directions of ``runs``, ascending."""
    return [k for start, stop in runs for k in range(start, stop)]


def coin_flips(
    centres: tuple[Point, ...], coin: int, radius: int, min_gain: int, stop_at_legal: bool
) -> tuple[list[int], list[int]]:
    """The same lists as ``coin_flips_plainly`` (from ``flip_runs``)."""
    legal, fouls = flip_runs(centres, coin, radius, min_gain, stop_at_legal)
    return directions_of(legal), directions_of(fouls)


def flip_runs(
    centres: tuple[Point, ...], coin: int, radius: int, min_gain: int, stop_at_legal: bool
) -> tuple[Runs, Runs]:
    """The legal and the foul directions as runs, deciding whole boxes at once.

    With ``stop_at_legal``, the legal runs hold one direction, the first legal one, or
    none, and the fouls are not gathered.
    """
    flip_length = 2 * radius
    cx, cy = centres[coin]
    near = _near(centres, coin, radius, cx, cy)
    touch2 = flip_length * flip_length
    gain2 = min_gain * min_gain
    four_gain2 = 4 * gain2
    centre2 = cx * cx + cy * cy
    legal: Runs = []
    fouls: Runs = []
    # Boxes still to decide, the next one last; each with the coins its landings may touch.
    todo = [(box, near) for box in reversed(_boxes(flip_length))]
    while todo:
        box, coins = todo.pop()
        kind, all_closer, maybe = _verdict(box, cx, cy, centre2, gain2, coins, touch2)
        if kind == SKIP:
            continue
        first, part, inner = box[0], box[5], box[6]
        if kind == FOUL:
            if not stop_at_legal:
                _add(fouls, first, first + len(part))
            continue
        if kind == LEGAL:
            if stop_at_legal:
                return [(first, first + 1)], fouls
            _add(legal, first, first + len(part))
            continue
        if inner:
            todo.extend((sub, maybe) for sub in reversed(inner))
            continue
        # Direction by direction, as coin_flips_plainly does, against the coins that count.
        for direction, (vx, vy) in enumerate(part, first):
            nx, ny = cx + vx, cy + vy
            if not all_closer:
                n2 = nx * nx + ny * ny
                t = centre2 - n2 - gain2
                if t < 0 or four_gain2 * n2 > t * t:
                    continue
            for x, y in maybe:
                if (nx - x) ** 2 + (ny - y) ** 2 <= touch2:
                    if not stop_at_legal:
                        _add(fouls, direction, direction + 1)
                    break
            else:
                if stop_at_legal:
                    return [(direction, direction + 1)], fouls
                _add(legal, direction, direction + 1)
    return legal, fouls
