"""How colours look with the common kinds of colour blindness, and how far apart they are.

The simulations are Machado, Oliveira and Fernandes (2009), "A Physiologically-based Model
for Simulation of Color Vision Deficiency", at severity 1.0: one published 3x3 matrix per
kind, applied to linear RGB (sRGB with its transfer curve taken off), the result clipped to
the gamut and put back on the curve.  Distances are CIE76 ΔE: the straight distance in CIELAB
(D65 white).  Plain Python on purpose: the project has no numpy, and a palette is a handful
of colours (``simulate_rgb_bytes`` does whole pictures with a cache, for the screenshots).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from itertools import combinations

RGB = tuple[int, int, int]
Matrix = tuple[tuple[float, float, float], ...]

MACHADO: dict[str, Matrix] = {
    "protanopia": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    "deuteranopia": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
    "tritanopia": (
        (1.255528, -0.076749, -0.178779),
        (-0.078411, 0.930809, 0.147602),
        (0.004733, 0.691367, 0.303900),
    ),
}
VISIONS = ("normal", *MACHADO)
"""Normal vision first, then the three simulated ones."""


def parse(colour: str) -> RGB:
    """``"#rrggbb"`` as three bytes."""
    text = colour.lstrip("#")
    return int(text[0:2], 16), int(text[2:4], 16), int(text[4:6], 16)


def to_linear(byte: int) -> float:
    value = byte / 255
    return value / 12.92 if value <= 0.04045 else ((value + 0.055) / 1.055) ** 2.4


def to_byte(linear: float) -> int:
    value = min(1.0, max(0.0, linear))
    encoded = value * 12.92 if value <= 0.0031308 else 1.055 * value ** (1 / 2.4) - 0.055
    return round(encoded * 255)


def simulate(rgb: RGB, vision: str) -> RGB:
    """``rgb`` as someone with ``vision`` sees it (``"normal"``: unchanged)."""
    if vision == "normal":
        return rgb
    linear = [to_linear(byte) for byte in rgb]
    rows = MACHADO[vision]
    r, g, b = (sum(m * c for m, c in zip(row, linear, strict=True)) for row in rows)
    return to_byte(r), to_byte(g), to_byte(b)


def lab(rgb: RGB) -> tuple[float, float, float]:
    """CIELAB (D65) of an sRGB colour."""
    r, g, b = (to_linear(byte) for byte in rgb)
    x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047
    y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
    z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29

    fx, fy, fz = f(x), f(y), f(z)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def delta_e(first: RGB, second: RGB) -> float:
    """CIE76: the distance between two colours in CIELAB."""
    return math.dist(lab(first), lab(second))


def pair_distances(colours: Sequence[str], vision: str) -> dict[tuple[int, int], float]:
    """ΔE of every pair of ``colours`` (by index) as seen with ``vision``."""
    seen = [simulate(parse(colour), vision) for colour in colours]
    return {(i, j): delta_e(seen[i], seen[j]) for i, j in combinations(range(len(seen)), 2)}


def closest(colours: Sequence[str], vision: str) -> float:
    """The smallest ΔE between two of ``colours`` with ``vision`` (infinite for one colour)."""
    return min(pair_distances(colours, vision).values(), default=math.inf)


def simulate_rgb_bytes(data: bytes, vision: str) -> bytes:
    """A picture's RGB bytes (three per pixel) as seen with ``vision``."""
    cache: dict[bytes, bytes] = {}
    out = bytearray(len(data))
    for start in range(0, len(data), 3):
        pixel = data[start : start + 3]
        seen = cache.get(pixel)
        if seen is None:
            seen = bytes(simulate((pixel[0], pixel[1], pixel[2]), vision))
            cache[pixel] = seen
        out[start : start + 3] = seen
    return bytes(out)


def report(palettes: Iterable[tuple[str, Sequence[str]]]) -> str:
    """One line per palette: its closest pair per vision."""
    lines = []
    for name, colours in palettes:
        cells = "  ".join(f"{vision} {closest(colours, vision):5.1f}" for vision in VISIONS)
        lines.append(f"{name:<12} {cells}")
    return "\n".join(lines)
