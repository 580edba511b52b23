"""The Les Forbans world map: ports and routes, loaded from package data and validated.

The map ships as ``engines/data/forbans-map.json`` (a copy of the spec's map)::

    {"nodes": [{"id": "tortue", "name": "Île de la Tortue", "lon": -72.8, "lat": 20.1}, ...],
     "edges": [{"a": "tortue", "b": "port_royal", "kind": "main"},
               {"a": "portobelo", "b": "panama", "kind": "main", "land": true}, ...]}

Invariants of a loaded ``ForbansMap`` (``MapError`` naming the faulty entry otherwise):

* Ports are numbered from 0 in file order; that number is the port in engine states and on
  the wire, the ``id`` (lowercase letters, digits, ``_``) is the port in notation.
* Longitude and latitude are integers in hundredths of a degree, read from the decimal text
  exactly (no float is ever made): ``-72.8`` becomes ``-7280``.
* Routes join two different known ports, at most one route per pair; ``kind`` is ``main``
  (drawn bold) or ``sec``; ``land`` marks a road.  A route whose ends lie more than 180° of
  longitude apart crosses the Pacific (``pacific``) and is drawn across the map's edge.
* Every port can be reached from every other one.
* ``neighbours[p]`` lists the ports one route away from ``p`` in increasing order and
  ``neighbour_masks[p]`` is the same set as a bit mask (bit ``q`` for port ``q``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from functools import cache
from importlib import resources

__all__ = ["ForbansMap", "MapError", "Port", "Route", "default_map", "parse_map"]

MAP_RESOURCE = "data/forbans-map.json"
ROUTE_KINDS = ("main", "sec")
_ID = re.compile(r"[a-z0-9_]+\Z")
_NODE_KEYS = {"id", "name", "lon", "lat"}
_EDGE_KEYS = {"a", "b", "kind", "land"}
_HALF_TURN = 18000  # 180 degrees, in hundredths


class MapError(ValueError):
    """The map file is not a valid Les Forbans map; the message names the faulty entry."""


@dataclass(frozen=True)
class Port:
    id: str
    name: str
    lon: int
    """Longitude in hundredths of a degree, east positive."""
    lat: int
    """Latitude in hundredths of a degree, north positive."""


@dataclass(frozen=True)
class Route:
    a: int
    b: int
    kind: str
    land: bool
    pacific: bool
    """The route crosses the Pacific: drawn leaving one edge of the map, entering the other."""


@dataclass(frozen=True, eq=False)  # compared and hashed by identity: one object per map
class ForbansMap:
    ports: tuple[Port, ...]
    routes: tuple[Route, ...]
    neighbours: tuple[tuple[int, ...], ...]
    neighbour_masks: tuple[int, ...]
    index: Mapping[str, int]
    """Port id -> port number."""

    def port_named(self, port_id: str) -> int | None:
        """The number of the port with that id, or ``None``."""
        return self.index.get(port_id)

    def route_between(self, a: int, b: int) -> Route | None:
        """The route joining ``a`` and ``b`` (either way round), if any."""
        for route in self.routes:
            if {route.a, route.b} == {a, b}:
                return route
        return None


@cache
def default_map() -> ForbansMap:
    """The map shipped with the package (read and validated once per process)."""
    text = resources.files("engines").joinpath(MAP_RESOURCE).read_text(encoding="utf-8")
    return parse_map(text, source="forbans-map.json")


def parse_map(text: str, source: str = "map") -> ForbansMap:
    """Read and validate a map from its JSON text; ``MapError`` names what is wrong."""
    try:
        data = json.loads(text, parse_float=Decimal)
    except json.JSONDecodeError as error:
        raise MapError(f"{source}: not valid JSON ({error})") from None
    if not isinstance(data, dict) or set(data) != {"nodes", "edges"}:
        raise MapError(f'{source}: expected an object with exactly "nodes" and "edges"')
    nodes, edges = data["nodes"], data["edges"]
    if not isinstance(nodes, list) or not nodes:
        raise MapError(f'{source}: "nodes" must be a non-empty list')
    if not isinstance(edges, list):
        raise MapError(f'{source}: "edges" must be a list')
    ports = tuple(_read_port(source, number, node) for number, node in enumerate(nodes))
    index: dict[str, int] = {}
    for number, port in enumerate(ports):
        if port.id in index:
            raise MapError(f"{source}: node {number} repeats the port id {port.id!r}")
        index[port.id] = number
    routes: list[Route] = []
    seen: dict[frozenset[int], int] = {}
    for number, edge in enumerate(edges):
        route = _read_route(source, number, edge, ports, index)
        pair = frozenset((route.a, route.b))
        if pair in seen:
            raise MapError(
                f"{source}: edge {number} ({ports[route.a].id}-{ports[route.b].id}) "
                f"repeats edge {seen[pair]}"
            )
        seen[pair] = number
        routes.append(route)
    neighbours = _neighbours(len(ports), routes)
    _check_connected(source, ports, neighbours)
    masks = tuple(sum(1 << q for q in around) for around in neighbours)
    return ForbansMap(ports, tuple(routes), neighbours, masks, index)


def _read_port(source: str, number: int, node: object) -> Port:
    if not isinstance(node, dict):
        raise MapError(f"{source}: node {number} is not an object")
    where = f"{source}: node {number}"
    if isinstance(node.get("id"), str):
        where += f" ({node['id']})"
    if set(node) != _NODE_KEYS:
        raise MapError(f"{where} must have exactly the keys {', '.join(sorted(_NODE_KEYS))}")
    port_id, name = node["id"], node["name"]
    if not isinstance(port_id, str) or not _ID.match(port_id):
        raise MapError(f"{where}: id must be lowercase letters, digits and '_'")
    if not isinstance(name, str) or not name.strip():
        raise MapError(f"{where}: name must be a non-empty string")
    lon = _hundredths(where, "lon", node["lon"], 180)
    lat = _hundredths(where, "lat", node["lat"], 90)
    return Port(port_id, name, lon, lat)


def _hundredths(where: str, key: str, value: object, limit: int) -> int:
    """A decimal number of degrees as exact hundredths, within ``-limit..limit``."""
    if isinstance(value, bool) or not isinstance(value, int | Decimal):
        raise MapError(f"{where}: {key} must be a number of degrees")
    try:
        scaled = Decimal(value) * 100
        exact = scaled == scaled.to_integral_value()
    except InvalidOperation:
        exact = False
    if not exact:
        raise MapError(f"{where}: {key} {value} has more than two decimals")
    result = int(scaled)
    if not -limit * 100 <= result <= limit * 100:
        raise MapError(f"{where}: {key} {value} is outside -{limit}..{limit}")
    return result


def _read_route(
    source: str, number: int, edge: object, ports: tuple[Port, ...], index: Mapping[str, int]
) -> Route:
    if not isinstance(edge, dict):
        raise MapError(f"{source}: edge {number} is not an object")
    where = f"{source}: edge {number}"
    if isinstance(edge.get("a"), str) and isinstance(edge.get("b"), str):
        where += f" ({edge['a']}-{edge['b']})"
    if not {"a", "b", "kind"} <= set(edge) <= _EDGE_KEYS:
        raise MapError(f"{where} must have the keys a, b, kind and optionally land")
    ends = []
    for key in ("a", "b"):
        port = index.get(edge[key]) if isinstance(edge[key], str) else None
        if port is None:
            raise MapError(f"{where}: {key} {edge[key]!r} is not a known port")
        ends.append(port)
    a, b = ends
    if a == b:
        raise MapError(f"{where} joins a port to itself")
    if edge["kind"] not in ROUTE_KINDS:
        raise MapError(f"{where}: kind must be one of {', '.join(ROUTE_KINDS)}")
    land = edge.get("land", False)
    if not isinstance(land, bool):
        raise MapError(f"{where}: land must be true or false")
    pacific = abs(ports[a].lon - ports[b].lon) > _HALF_TURN
    return Route(a, b, edge["kind"], land, pacific)


def _neighbours(count: int, routes: list[Route]) -> tuple[tuple[int, ...], ...]:
    around: list[set[int]] = [set() for _ in range(count)]
    for route in routes:
        around[route.a].add(route.b)
        around[route.b].add(route.a)
    return tuple(tuple(sorted(ports)) for ports in around)


def _check_connected(
    source: str, ports: tuple[Port, ...], neighbours: tuple[tuple[int, ...], ...]
) -> None:
    reached = {0}
    frontier = [0]
    while frontier:
        port = frontier.pop()
        for other in neighbours[port]:
            if other not in reached:
                reached.add(other)
                frontier.append(other)
    for number, port_data in enumerate(ports):
        if number not in reached:
            raise MapError(
                f"{source}: node {number} ({port_data.id}) cannot be reached from "
                f"{ports[0].id}: the map must be connected"
            )
