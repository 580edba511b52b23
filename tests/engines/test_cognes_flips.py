"""The block search of a coin's flips gives exactly what the rules give read one by one.

``engines.cognes_flips.coin_flips`` decides whole blocks of directions from bounding
boxes; ``coin_flips_plainly`` tests every direction.  They must agree on every position,
in particular where a landing is exactly tangent to a coin or exactly ``min_gain`` closer
(the edges of the boxes' verdicts), which the strategies below aim at.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from client.bots import RandomBot
from engines import find_engine
from engines.cognes_exact import Point, displacements
from engines.cognes_flips import coin_flips, coin_flips_plainly

ENGINE = find_engine("cognes")


def assert_same(centres: tuple[Point, ...], radius: int, min_gain: int) -> None:
    for coin in range(len(centres)):
        for stop in (False, True):
            assert coin_flips(centres, coin, radius, min_gain, stop) == coin_flips_plainly(
                centres, coin, radius, min_gain, stop
            ), (centres, coin, radius, min_gain, stop)


def test_every_position_of_random_games_with_every_sample_option() -> None:
    checked = 0
    for params in ENGINE.sample_params:
        for seed in range(4):
            bot = RandomBot(seed)
            state = ENGINE.initial_state(params)
            while ENGINE.outcome(state) is None:
                assert_same(state.centres, state.coin_radius, state.min_gain)
                checked += 1
                state = ENGINE.apply(state, bot.choose(ENGINE, state))
    assert checked > 100


coordinate = st.integers(-2100, 2100)


@settings(max_examples=300, deadline=None)
@given(
    centres=st.lists(st.tuples(coordinate, coordinate), min_size=1, max_size=10),
    radius=st.integers(60, 200),
    gain=st.integers(1, 399),
)
def test_anywhere(centres: list[Point], radius: int, gain: int) -> None:
    assert_same(tuple(centres), radius, min(gain, 2 * radius - 1))


@st.composite
def grazing(draw: Any) -> tuple[tuple[Point, ...], int, int]:
    """A coin and neighbours placed within a few units of touching one of its landings
    exactly, and a ``min_gain`` within a unit of what one of its flips gains exactly."""
    radius = draw(st.integers(60, 200))
    vectors = displacements(2 * radius)
    cx, cy = draw(coordinate), draw(coordinate)
    centres = [(cx, cy)]
    for _ in range(draw(st.integers(1, 5))):
        vx, vy = vectors[draw(st.integers(0, 719))]
        wx, wy = vectors[draw(st.integers(0, 719))]  # a vector of length 2r, rounded
        dx, dy = draw(st.integers(-3, 3)), draw(st.integers(-3, 3))
        centres.append((cx + vx + wx + dx, cy + vy + wy + dy))
    # The gain of one flip, squared distances compared, so the edge direction is exercised.
    vx, vy = vectors[draw(st.integers(0, 719))]
    before = (cx * cx + cy * cy) ** 0.5
    after = ((cx + vx) ** 2 + (cy + vy) ** 2) ** 0.5
    gain = int(before - after) + draw(st.integers(-1, 1))
    return tuple(centres), radius, max(1, min(gain, 2 * radius - 1))


@settings(max_examples=400, deadline=None)
@given(grazing())
def test_at_the_edges_of_touching_and_of_the_gain(case: tuple[tuple[Point, ...], int, int]) -> None:
    centres, radius, gain = case
    assert_same(centres, radius, gain)


def test_a_neighbour_on_a_whole_block_of_landings_makes_each_a_foul() -> None:
    # Coin 1 sits where coin 0 lands flipped straight at the middle (direction 360, -x):
    # within 2r of the landings of the whole block 352..367, which is decided at once.
    centres = ((1750, 0), (1510, 0))
    legal, fouls = coin_flips(centres, 0, 120, 50, False)
    assert (legal, fouls) == coin_flips_plainly(centres, 0, 120, 50, False)
    assert set(range(352, 368)) <= set(fouls)
    assert not set(range(352, 368)) & set(legal)
    assert legal  # the flips that turn away enough are legal
