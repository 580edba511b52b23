"""The colours of the sides, per game, chosen so that no two sides of a game look alike with
normal vision or with any of the three common kinds of colour blindness.

Each pair of colours a game can put on its board at once stays at least 40 apart (CIE76 ΔE
in CIELAB) as a person with normal vision sees them and as the simulations of protanopia,
deuteranopia and tritanopia (Machado et al. 2009, full severity) show them; the tests
measure it from these very tuples.  Colour blindness mostly folds hues onto one axis, so the
palettes spread their colours in lightness too: crimson and mint, blue and amber, a dark
aubergine and a pale lavender.  Colour is never the only sign, though: every side also has a
shape (``ui.side_marks``).

Plain strings, no Qt: the palette is data that the board, the lists, the exports and the
measurements all read.
"""

from __future__ import annotations

SEAT_COLOURS = (
    "#a61c2f",  # 1 crimson
    "#1a58b9",  # 2 blue
    "#69e2a3",  # 3 mint
    "#f1a936",  # 4 amber
    "#2a1440",  # 5 aubergine
    "#c4b1eb",  # 6 lavender
)
"""Seat colours, by seat number: Consensus (four seats), Cognes (up to six), and the authors of
pointing marks in every game.  No game has more than six seats."""

FORBANS_SIDES = {1: "#18428b", 2: "#40bf60"}
"""Les Forbans: Bleu (the odd seats) and Vert (the even ones), a deep blue and a light green
(a blue and a green of one lightness are one colour with tritanopia)."""

DISCORDER_SIDES = {1: "#f2c230", 2: "#262626"}
"""Discorder: Jaune (seat 1) and Noir (seat 2)."""


def game_palettes() -> dict[str, tuple[str, ...]]:
    """Every colour each game can show for its sides at once (what the tests measure)."""
    return {
        "consensus": SEAT_COLOURS[:4],
        "cognes": SEAT_COLOURS[:6],
        "forbans": tuple(FORBANS_SIDES.values()),
        "discorder": tuple(DISCORDER_SIDES.values()),
    }
