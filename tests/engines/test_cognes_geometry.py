"""The Cognes tables and integer geometry, recomputed independently with exact rationals.

The generator works in fixed point; here cosine and sine are bracketed with ``Fraction``s
(pi between two 50-digit bounds, alternating Taylor series whose partial sums bound the value
from each side), and every shipped rounding is checked to be the one the bracket decides.
"""

from __future__ import annotations

import ast
import importlib.util
from fractions import Fraction
from functools import cache
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engines.cognes_exact import (
    closer_by_at_least,
    displacements,
    snap_direction,
    start_positions,
    touches,
)
from engines.cognes_geometry import DEFAULT_DISPLACEMENTS, DIRECTIONS

ROOT = Path(__file__).resolve().parents[2]
PI_LOW = Fraction("3.14159265358979323846264338327950288419716939937510")
PI_HIGH = PI_LOW + Fraction(1, 10**50)
GRID = 1 << 200  # brackets are widened to this grid to keep the fractions small
NIVEN = (Fraction(0), Fraction(1, 2), Fraction(-1, 2), Fraction(1), Fraction(-1))


def _down(x: Fraction) -> Fraction:
    return Fraction((x.numerator * GRID) // x.denominator, GRID)


def _up(x: Fraction) -> Fraction:
    return Fraction(-((-x.numerator * GRID) // x.denominator), GRID)


def _series(x: Fraction, first_power: int, terms: int) -> Fraction:
    """sum over n < terms of (-1)^n x^(first_power + 2n) / (first_power + 2n)!"""
    term = Fraction(1)
    for i in range(1, first_power + 1):
        term = term * x / i
    total = Fraction(0)
    power = first_power
    for n in range(terms):
        total += term if n % 2 == 0 else -term
        term = term * x * x / ((power + 1) * (power + 2))
        power += 2
    return total


@cache
def _octant_bounds(turn: Fraction) -> tuple[tuple[Fraction, Fraction], tuple[Fraction, Fraction]]:
    """Brackets of (cos, sin) for 0 <= turn <= 1/8, where cos falls and sin rises."""
    x_low, x_high = _down(2 * PI_LOW * turn), _up(2 * PI_HIGH * turn)
    # 30 terms end on an odd index (a lower bound), 31 on an even one (an upper bound).
    cos = (_down(_series(x_high, 0, 30)), _up(_series(x_low, 0, 31)))
    sin = (_down(_series(x_low, 1, 30)), _up(_series(x_high, 1, 31)))
    return cos, sin


def _negate(b: tuple[Fraction, Fraction]) -> tuple[Fraction, Fraction]:
    return -b[1], -b[0]


def cos_sin_bounds(turn: Fraction) -> tuple[tuple[Fraction, Fraction], tuple[Fraction, Fraction]]:
    """Brackets of cos and sin of ``turn`` full turns, by exact symmetries of the circle."""
    turn %= 1
    quadrant = int(turn * 4)
    rest = turn - Fraction(quadrant, 4)
    if rest > Fraction(1, 8):
        sin, cos = _octant_bounds(Fraction(1, 4) - rest)
    else:
        cos, sin = _octant_bounds(rest)
    for _ in range(quadrant):
        cos, sin = _negate(sin), cos
    return cos, sin


def _round_half_away(x: Fraction) -> int:
    magnitude = (2 * abs(x.numerator) + x.denominator) // (2 * x.denominator)
    return -magnitude if x < 0 else magnitude


def decided_round(bracket: tuple[Fraction, Fraction], scale: int) -> int:
    """round(scale·x) for the x in ``bracket``: exact for Niven's rationals, else decided."""
    low, high = bracket
    assert high - low < Fraction(1, 10**40)
    for exact in NIVEN:
        if low <= exact <= high:
            return _round_half_away(exact * scale)
    rounded = _round_half_away(low * scale)
    assert rounded == _round_half_away(high * scale), "the bracket does not decide the rounding"
    return rounded


def test_directions_are_rounded_millionths_of_cos_and_sin_every_half_degree() -> None:
    assert len(DIRECTIONS) == 720
    for k, shipped in enumerate(DIRECTIONS):
        cos, sin = cos_sin_bounds(Fraction(k, 720))
        assert shipped == (decided_round(cos, 10**6), decided_round(sin, 10**6)), k


def test_start_positions_for_every_coin_count_and_start_radius() -> None:
    for coins in range(4, 25):
        for k in range(coins):
            cos, sin = cos_sin_bounds(Fraction(1, 4) + Fraction(k, coins))
            # Integer brackets on GRID: fast to scale by each radius.
            brackets = [
                (
                    (b[0].numerator * GRID) // b[0].denominator,
                    -((-b[1].numerator * GRID) // b[1].denominator),
                    next((q for q in NIVEN if b[0] <= q <= b[1]), None),
                )
                for b in (cos, sin)
            ]
            for radius in range(1500, 2001):
                expected = []
                for low, high, exact in brackets:
                    if exact is not None:
                        expected.append(_round_half_away(radius * exact))
                        continue
                    rounded = _round_half_away(Fraction(radius * low, GRID))
                    assert rounded == _round_half_away(Fraction(radius * high, GRID))
                    expected.append(rounded)
                assert start_positions(radius, coins)[k] == tuple(expected), (coins, k, radius)


@pytest.mark.parametrize("coin_radius", range(60, 201))
def test_flip_vectors_are_rounded_half_up_on_their_exact_length(coin_radius: int) -> None:
    flip_length = 2 * coin_radius
    table = displacements(flip_length)
    assert len(table) == 720
    for (dx, dy), flip in zip(DIRECTIONS, table, strict=True):
        length2 = dx * dx + dy * dy
        for d, v in zip((dx, dy), flip, strict=True):
            # |v| = m means m - 1/2 <= sqrt(D²·d²/L) < m + 1/2, squared and times 4·L.
            m = abs(v)
            target = 4 * flip_length**2 * d * d
            assert (2 * m + 1) ** 2 * length2 > target
            assert m == 0 or (2 * m - 1) ** 2 * length2 <= target
            assert v == 0 or (v > 0) == (d > 0)
    for k in range(360):
        assert table[k + 360] == (-table[k][0], -table[k][1])


def test_the_default_flip_table_is_the_computed_one() -> None:
    assert displacements(240) is DEFAULT_DISPLACEMENTS
    assert DEFAULT_DISPLACEMENTS[0] == (240, 0) and DEFAULT_DISPLACEMENTS[180] == (0, 240)
    assert DEFAULT_DISPLACEMENTS[90] == (170, 170)  # 240/sqrt(2) = 169.7


def test_the_generator_reproduces_the_shipped_tables() -> None:
    path = ROOT / "scripts" / "gen_cognes_geometry.py"
    spec = importlib.util.spec_from_file_location("gen_cognes_geometry", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.render() == (ROOT / "engines" / "cognes_geometry.py").read_text()


def test_even_layouts_are_exact_mirror_images_through_the_middle() -> None:
    for coins in range(4, 25, 2):
        for radius in (1500, 1501, 1750, 1999):
            centres = start_positions(radius, coins)
            for k in range(coins // 2):
                x, y = centres[k]
                assert centres[k + coins // 2] == (-x, -y)


# Pythagorean points have integer distances to the middle, so the expected answer is exact.
_TRIPLES = ((3, 4, 5), (5, 12, 13), (8, 15, 17), (7, 24, 25), (20, 21, 29))
_point = st.tuples(
    st.sampled_from(_TRIPLES), st.integers(1, 120), st.sampled_from((1, -1)), st.booleans()
)


@given(centre=_point, landing=_point, gain=st.integers(0, 400))
def test_closer_by_at_least_matches_exact_distances(
    centre: tuple[tuple[int, int, int], int, int, bool],
    landing: tuple[tuple[int, int, int], int, int, bool],
    gain: int,
) -> None:
    def make(p: tuple[tuple[int, int, int], int, int, bool]) -> tuple[tuple[int, int], int]:
        (a, b, c), scale, sign, swap = p
        x, y = sign * a * scale, b * scale
        return ((y, x) if swap else (x, y)), c * scale

    c, c_length = make(centre)
    n, n_length = make(landing)
    assert closer_by_at_least(c, n, gain) == (n_length <= c_length - gain)


def test_closer_by_at_least_on_the_boundary() -> None:
    assert closer_by_at_least((0, 1000), (0, 950), 50)
    assert not closer_by_at_least((0, 1000), (0, 951), 50)
    assert closer_by_at_least((-400, 300), (-160, 300), 160)  # 500 -> 340
    assert not closer_by_at_least((-400, 300), (-160, 300), 161)


def test_touching_includes_tangency() -> None:
    assert touches((0, 0), (240, 0), 120)
    assert touches((0, 0), (144, 192), 120)  # exactly 240 apart
    assert not touches((0, 0), (241, 0), 120)
    assert not touches((0, 0), (145, 192), 120)


def test_snapping_a_direction_vector_gives_its_direction() -> None:
    for k, (dx, dy) in enumerate(DIRECTIONS):
        assert snap_direction(dx, dy) == k
        assert snap_direction(dx // 1000, dy // 1000) in (k - 1, k, k + 1, k - 719, k + 719)


def test_snapping_picks_the_nearer_of_two_neighbours() -> None:
    for k in range(720):
        (ax, ay), (bx, by) = DIRECTIONS[k], DIRECTIONS[(k + 1) % 720]
        assert snap_direction(3 * ax + 2 * bx, 3 * ay + 2 * by) == k
        assert snap_direction(2 * ax + 3 * bx, 2 * ay + 3 * by) == (k + 1) % 720


def test_snapping_small_drags() -> None:
    assert snap_direction(1, 0) == 0
    assert snap_direction(0, 1) == 180
    assert snap_direction(-5, 0) == 360
    assert snap_direction(0, -2) == 540
    assert snap_direction(1, 1) == 90
    assert snap_direction(-3, -3) == 450
    assert snap_direction(1000, 17) == 2  # atan(0.017) = 0.97°, nearest to 1°
    with pytest.raises(ValueError, match="no direction"):
        snap_direction(0, 0)


def test_the_cognes_engine_never_uses_floats_or_libm() -> None:
    # Whole numbers only: no true division, no float literal or float(), and from math only
    # isqrt (an exact integer function).  Messages included: a float there is a float too.
    for name in ("cognes.py", "cognes_exact.py", "cognes_geometry.py"):
        tree = ast.parse((ROOT / "engines" / name).read_text())
        for node in ast.walk(tree):
            where = f"{name}:{getattr(node, 'lineno', '?')}"
            if isinstance(node, ast.BinOp | ast.AugAssign):
                assert not isinstance(node.op, ast.Div), f"{where}: true division"
            if isinstance(node, ast.Constant):
                assert not isinstance(node.value, float | complex), f"{where}: float literal"
            if isinstance(node, ast.Name):
                assert node.id not in ("float", "complex"), f"{where}: {node.id}"
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
                assert node.value.id != "math" or node.attr == "isqrt", f"{where}: math.{node.attr}"
            if isinstance(node, ast.ImportFrom):
                assert node.module != "math", f"{where}: from math import"
                assert node.module not in ("cmath", "decimal", "fractions"), where
