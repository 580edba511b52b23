"""Where the Les Forbans map puts each port, in map units, independent of any widget size.

The projection is equirectangular: ``x = lon · K``, ``y = lat`` (degrees), with
``K = cos 55°`` (standard parallel 55°): the map is taller than a plate carrée, so it fills
a squarish board and the crowded low latitudes get more room.  The window is the ports' extent
plus a margin, not the whole globe: the Pacific crossings are drawn leaving one edge toward
their far end and entering the other edge from it.

Crowded ports (the Antilles, Lisbon and Cádiz, Alexandria and Suez are a few degrees apart,
a few pixels at table size) are nudged apart until no two are closer than ``SEPARATION``
units, each pulled back toward its true place; the nudge is at most a few degrees and is
computed once, deterministically (under 6 units for the shipped map).  Everything else on the
board (discs, labels, hit tests) is sized from ``SEPARATION`` so it never overlaps at any
widget size.

Invariants: ``positions()`` has one point per port of the shipped map, in port order; every
point lies inside ``WINDOW``; no two points are closer than ``SEPARATION`` less a hair.
"""

from __future__ import annotations

import math
from functools import cache

from engines.forbans_map import ForbansMap, default_map

K = math.cos(math.radians(55))
SEPARATION = 7.0
"""Least distance between two ports, in map units (about degrees of latitude)."""
DISC = 2.9
"""A stack's radius, in map units."""
PERIOD = 360.0 * K
"""The width of the whole globe: a Pacific route's far end lies one period away."""
_MARGIN_X, _MARGIN_TOP, _MARGIN_BOTTOM = 9.0, 7.0, 6.0


def project(lon_hundredths: int, lat_hundredths: int) -> tuple[float, float]:
    """Map units of a point given in hundredths of a degree (north is +y)."""
    return lon_hundredths / 100 * K, lat_hundredths / 100


@cache
def positions(board_map: ForbansMap | None = None) -> tuple[tuple[float, float], ...]:
    """Each port's drawn place: its projection, nudged apart from crowded neighbours."""
    ports = (board_map or default_map()).ports
    true = [project(port.lon, port.lat) for port in ports]
    points = [list(point) for point in true]
    count = len(points)
    # Only ports that start within a few separations of each other can ever meet.
    near = [
        (i, j)
        for i in range(count)
        for j in range(i + 1, count)
        if math.dist(true[i], true[j]) < 4 * SEPARATION
    ]
    for _ in range(300):
        for i, j in near:
            dx = points[j][0] - points[i][0]
            dy = points[j][1] - points[i][1]
            distance = math.hypot(dx, dy)
            if distance >= SEPARATION:
                continue
            if distance == 0.0:  # two ports at one place: part them east-west
                dx, dy, distance = 1.0, 0.0, 1.0
            push = (SEPARATION - distance) / 2 / distance
            points[i][0] -= dx * push
            points[i][1] -= dy * push
            points[j][0] += dx * push
            points[j][1] += dy * push
        for point, (x, y) in zip(points, true, strict=True):
            point[0] += (x - point[0]) * 0.02
            point[1] += (y - point[1]) * 0.02
    # A last pass without the pull home, so the separation holds exactly.
    for _ in range(50):
        for i, j in near:
            dx = points[j][0] - points[i][0]
            dy = points[j][1] - points[i][1]
            distance = math.hypot(dx, dy) or 1.0
            if distance < SEPARATION:
                push = (SEPARATION - distance) / 2 / distance
                points[i][0] -= dx * push
                points[i][1] -= dy * push
                points[j][0] += dx * push
                points[j][1] += dy * push
    return tuple((x, y) for x, y in points)


@cache
def window(board_map: ForbansMap | None = None) -> tuple[float, float, float, float]:
    """(west, south, east, north) of the drawn map, in map units."""
    points = positions(board_map)
    xs = [x for x, _ in points]
    ys = [y for _, y in points]
    return (
        min(xs) - _MARGIN_X,
        min(ys) - _MARGIN_BOTTOM,
        max(xs) + _MARGIN_X,
        max(ys) + _MARGIN_TOP,
    )


def short_name(name: str) -> str:
    """A port's name for a small label: without its parenthesis."""
    return name.split(" (")[0]
