#!/usr/bin/env python3
"""Write engines/cognes_geometry.py: the Cognes tables, computed once with exact integers.

Usage: scripts/gen_cognes_geometry.py [--check]
(``--check`` exits 1 when the shipped file differs from what this script writes.)

The engine never evaluates a cosine: it reads these tables.  They are computed here in
fixed point with ``WORK_BITS`` fractional bits (pi by Machin's formula, cosine and sine by
their Taylor series on an angle reduced to the first octant), far more precision than the
tables keep; every rounding is then checked to be decided by the value, not by the
computation's error:

* By Niven's theorem the only rational values of cos and sin at a rational number of degrees
  are 0, ±1/2 and ±1.  A value within ``SLACK`` ulps of one of them *is* that value exactly;
  any other value is irrational, so it is never a tie for rounding, and the script asserts it
  lies farther than ``SLACK`` ulps from every rounding boundary it meets.
* ``DIRECTIONS[k]`` is (round(10⁶·cos), round(10⁶·sin)) of k·0.5°.
* ``START_UNIT[N - 4][k]`` holds cos and sin of 90° + 360°·k/N as ``floor(x·2^UNIT_BITS)``
  with a flag telling whether that floor is the exact value.  The engine rounds R·x from it
  (``engines.cognes_exact.start_positions``); the script checks that for every start radius R
  the engine accepts, the bracket [F, F + 1) decides R·x's rounding.
* ``DEFAULT_DISPLACEMENTS`` are the flips of the default length D = 240, in pure integers.
"""

from __future__ import annotations

import math
import sys
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET = ROOT / "engines" / "cognes_geometry.py"

WORK_BITS = 256
ONE = 1 << WORK_BITS
SLACK = 1 << 32  # ulps of WORK_BITS; the computation errs by less than 2**16 of them
DIRECTION_COUNT = 720
DIRECTION_SCALE = 10**6
UNIT_BITS = 96
MIN_COINS, MAX_COINS = 4, 24
MIN_START_RADIUS, MAX_START_RADIUS = 1500, 2000
DEFAULT_FLIP_LENGTH = 240


def _arctan_inverse(x: int) -> int:
    """arctan(1/x) in fixed point, for an integer x > 1 (alternating series)."""
    power = ONE // x
    total = power
    n = 1
    while power:
        power //= x * x
        term = power // (2 * n + 1)
        total += -term if n % 2 else term
        n += 1
    return total


PI = 16 * _arctan_inverse(5) - 4 * _arctan_inverse(239)


def _taylor_cos_sin(x: int) -> tuple[int, int]:
    """cos and sin of x radians (fixed point, 0 <= x <= pi/4) by their Taylor series."""
    cos_sum, sin_sum = ONE, x
    term = x  # x^n / n!
    n = 1
    while term:
        n += 1
        term = term * x // ONE // n
        if n % 2 == 0:
            cos_sum += -term if n % 4 == 2 else term
        else:
            sin_sum += -term if n % 4 == 3 else term
    return cos_sum, sin_sum


def cos_sin_of_turn(turn: Fraction) -> tuple[int, int]:
    """cos and sin (fixed point, WORK_BITS) of the angle ``turn`` full turns."""
    turn %= 1
    quadrant = math.floor(turn * 4)
    rest = turn - Fraction(quadrant, 4)  # in [0, 1/4)
    swap = rest > Fraction(1, 8)
    if swap:
        rest = Fraction(1, 4) - rest
    radians = 2 * PI * rest.numerator // rest.denominator
    c, s = _taylor_cos_sin(radians)
    if swap:
        c, s = s, c
    for _ in range(quadrant):
        c, s = -s, c  # a quarter turn counter-clockwise
    return c, s


def _exact_value(value: int) -> Fraction | None:
    """The rational value (Niven: 0, ±1/2, ±1) that ``value`` approximates, if any."""
    for exact in (Fraction(0), Fraction(1, 2), Fraction(-1, 2), Fraction(1), Fraction(-1)):
        if abs(value - exact * ONE) <= SLACK:
            return exact
    return None


def _round_half_away(numerator: int, denominator: int) -> int:
    magnitude = (2 * abs(numerator) + denominator) // (2 * denominator)
    return -magnitude if numerator < 0 else magnitude


def round_scaled(value: int, scale: int) -> int:
    """round(scale·x) for the x that ``value`` approximates, checked to be decided."""
    exact = _exact_value(value)
    if exact is not None:
        return _round_half_away(exact.numerator * scale, exact.denominator)
    low = _round_half_away((value - SLACK) * scale, ONE)
    high = _round_half_away((value + SLACK) * scale, ONE)
    assert low == high, f"rounding of {value / ONE} * {scale} is too close to call"
    return low


def unit_entry(value: int) -> tuple[int, bool]:
    """(floor(x·2^UNIT_BITS), exact) for the x that ``value`` approximates."""
    exact = _exact_value(value)
    if exact is not None:
        return exact.numerator * (1 << UNIT_BITS) // exact.denominator, True
    shift = WORK_BITS - UNIT_BITS
    low, high = (value - SLACK) >> shift, (value + SLACK) >> shift
    assert low == high, "a start unit value sits on a 2^-96 boundary"
    return low, False


def _check_start_rounding(floor: int, exact: bool) -> None:
    """Every allowed R rounds R·x the same from both ends of x's bracket."""
    if exact:
        return
    for radius in range(MIN_START_RADIUS, MAX_START_RADIUS + 1):
        low = _round_half_away(radius * floor, 1 << UNIT_BITS)
        high = _round_half_away(radius * (floor + 1), 1 << UNIT_BITS)
        assert low == high, f"R={radius}: the start table is too coarse"


def directions() -> list[tuple[int, int]]:
    table = []
    for k in range(DIRECTION_COUNT):
        c, s = cos_sin_of_turn(Fraction(k, DIRECTION_COUNT))
        table.append((round_scaled(c, DIRECTION_SCALE), round_scaled(s, DIRECTION_SCALE)))
    return table


def _flip_component(flip_length: int, d: int, length2: int) -> int:
    """round(sqrt(D²·d²/L)) half up, with the sign of d: floor((isqrt(4D²d² // L) + 1) / 2)."""
    magnitude = (math.isqrt(4 * flip_length**2 * d * d // length2) + 1) // 2
    return -magnitude if d < 0 else magnitude


def displacements(flip_length: int, table: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The rules' integer flip vectors along each direction of ``table``."""
    result = []
    for dx, dy in table:
        length2 = dx * dx + dy * dy
        result.append(
            (_flip_component(flip_length, dx, length2), _flip_component(flip_length, dy, length2))
        )
    return result


def start_unit(coins: int) -> list[tuple[int, bool, int, bool]]:
    rows = []
    for k in range(coins):
        c, s = cos_sin_of_turn(Fraction(1, 4) + Fraction(k, coins))
        cos_floor, cos_exact = unit_entry(c)
        sin_floor, sin_exact = unit_entry(s)
        _check_start_rounding(cos_floor, cos_exact)
        _check_start_rounding(sin_floor, sin_exact)
        rows.append((cos_floor, cos_exact, sin_floor, sin_exact))
    return rows


def _pairs_lines(pairs: list[tuple[int, int]], per_line: int) -> list[str]:
    lines = []
    for start in range(0, len(pairs), per_line):
        chunk = pairs[start : start + per_line]
        lines.append("    " + " ".join(f"({x}, {y})," for x, y in chunk))
    return lines


def render() -> str:
    table = directions()
    moves = displacements(DEFAULT_FLIP_LENGTH, table)
    out = [
        '"""Cognes geometry tables.  GENERATED by scripts/gen_cognes_geometry.py: do not edit.',
        "",
        "Exact integers, so that every peer computes the same game (see that script for how each",
        "rounding was decided; tests/engines/test_cognes_geometry.py recomputes them):",
        "",
        "* ``DIRECTIONS[k]``: (round(10⁶·cos), round(10⁶·sin)) of the direction k·0.5°, k < 720.",
        "* ``DEFAULT_DISPLACEMENTS[k]``: the flip vector of length ``DEFAULT_FLIP_LENGTH`` along",
        "  ``DIRECTIONS[k]`` (``engines.cognes_exact.displacements`` computes other lengths).",
        "* ``START_UNIT[N - MIN_COINS][k] = (cos_floor, cos_exact, sin_floor, sin_exact)``:",
        "  cos and sin of 90° + 360°·k/N as floor(x·2^UNIT_BITS), each flagged when exact.",
        '"""',
        "",
        "from __future__ import annotations",
        "",
        f"DIRECTION_COUNT = {DIRECTION_COUNT}",
        f"DIRECTION_SCALE = {DIRECTION_SCALE}",
        f"DEFAULT_FLIP_LENGTH = {DEFAULT_FLIP_LENGTH}",
        f"UNIT_BITS = {UNIT_BITS}",
        f"MIN_COINS = {MIN_COINS}",
        f"MAX_COINS = {MAX_COINS}",
        "",
        "# fmt: off",
        "DIRECTIONS: tuple[tuple[int, int], ...] = (",
        *_pairs_lines(table, 4),
        ")",
        "",
        "DEFAULT_DISPLACEMENTS: tuple[tuple[int, int], ...] = (",
        *_pairs_lines(moves, 6),
        ")",
        "",
        "START_UNIT: tuple[tuple[tuple[int, bool, int, bool], ...], ...] = (",
    ]
    for coins in range(MIN_COINS, MAX_COINS + 1):
        out.append(f"    (  # {coins} coins")
        for cos_floor, cos_exact, sin_floor, sin_exact in start_unit(coins):
            out.append(f"        ({cos_floor}, {cos_exact}, {sin_floor}, {sin_exact}),")
        out.append("    ),")
    out += [")", "# fmt: on", ""]
    return "\n".join(out)


def main(argv: list[str]) -> int:
    if argv in (["-h"], ["--help"]):
        print(__doc__)
        return 0
    text = render()
    if argv == ["--check"]:
        if TARGET.read_text() != text:
            print(f"{TARGET.relative_to(ROOT)} is out of date: run {Path(__file__).name}")
            return 1
        print(f"{TARGET.relative_to(ROOT)} is up to date")
        return 0
    if argv:
        print(__doc__)
        return 2
    TARGET.write_text(text)
    print(f"wrote {TARGET.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
