"""Every pair of side colours a game shows stays at least 40 apart (CIE76 ΔE) with normal
vision and under the Machado et al. 2009 simulations of protanopia, deuteranopia and
tritanopia, measured from the palette the board and the lists paint (issue 30)."""

from __future__ import annotations

import pytest

from tests.colour_vision import (
    VISIONS,
    closest,
    delta_e,
    lab,
    pair_distances,
    parse,
    simulate,
    simulate_rgb_bytes,
)
from ui import theme
from ui.boards import discorder_canvas, forbans_canvas
from ui.side_palette import game_palettes

FLOOR = 40.0


@pytest.mark.parametrize("vision", VISIONS)
@pytest.mark.parametrize("game", ["consensus", "forbans", "cognes", "discorder"])
def test_every_pair_of_sides_stays_apart(game: str, vision: str) -> None:
    colours = game_palettes()[game]
    far = pair_distances(colours, vision)
    assert far, "a game has at least two sides"
    near = {pair: round(value, 1) for pair, value in far.items() if value < FLOOR}
    assert not near, f"{game} with {vision}: too close {near} in {colours}"


def test_the_measured_palette_is_the_one_painted() -> None:
    """The tuples measured are the ones the boards and the lists draw with."""
    painted = {
        "consensus": tuple(theme.side_colour("consensus", seat).name() for seat in range(1, 5)),
        "cognes": tuple(theme.seat_colour(seat).name() for seat in range(1, 7)),
        "forbans": tuple(colour.name() for colour in forbans_canvas.SIDE_COLOURS.values()),
        "discorder": tuple(colour.name() for colour in discorder_canvas.TILE_COLOURS.values()),
    }
    assert painted == game_palettes()
    listed = tuple(theme.side_colour("forbans", seat).name() for seat in (1, 2))
    assert listed == game_palettes()["forbans"]


def test_the_measure_catches_the_old_palette() -> None:
    """The palette before issue 30 painted red #d1495b and green #3aa655 on Consensus'
    board: the same olive with deuteranopia (about 6.5 apart)."""
    old = ("#d1495b", "#2e86de", "#3aa655", "#f2a93b")
    assert closest(old, "normal") > FLOOR
    assert closest(old, "deuteranopia") == pytest.approx(6.5, abs=0.1)
    assert closest(old, "protanopia") < FLOOR and closest(old, "tritanopia") < FLOOR


def test_the_simulation_and_the_distance_are_the_published_ones() -> None:
    # White stays white and black black: every row of the matrices sums to 1.
    for vision in VISIONS:
        assert simulate((255, 255, 255), vision) == (255, 255, 255)
        assert simulate((0, 0, 0), vision) == (0, 0, 0)
    # Pure red with protanopia: the first column of the matrix, clipped, on the sRGB curve.
    assert simulate((255, 0, 0), "protanopia") == (109, 95, 0)
    # CIELAB of sRGB white and of pure red (D65), and ΔE between black and white.
    assert lab((255, 255, 255)) == pytest.approx((100.0, 0.0, 0.0), abs=0.01)
    assert lab(parse("#ff0000")) == pytest.approx((53.24, 80.09, 67.20), abs=0.05)
    assert delta_e((0, 0, 0), (255, 255, 255)) == pytest.approx(100.0, abs=0.01)


def test_a_picture_is_simulated_pixel_by_pixel() -> None:
    """What the screenshots of docs/ACCESSIBILITY.md go through: each pixel as ``simulate``."""
    pixels = [(209, 73, 91), (58, 166, 85), (209, 73, 91)]
    data = bytes(channel for pixel in pixels for channel in pixel)
    seen = simulate_rgb_bytes(data, "deuteranopia")
    assert seen == bytes(c for pixel in pixels for c in simulate(pixel, "deuteranopia"))
    assert simulate_rgb_bytes(data, "normal") == data
