"""The Les Forbans map: the shipped file loads, and a broken map is refused naming the entry."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engines.forbans_map import MapError, default_map, parse_map


def _small() -> dict[str, Any]:
    """Three ports in a line, the last one across the Pacific from the first."""
    return {
        "nodes": [
            {"id": "acapulco", "name": "Acapulco", "lon": -99.9, "lat": 16.9},
            {"id": "panama", "name": "Panamá", "lon": -81.0, "lat": 6.8},
            {"id": "guam", "name": "Guam", "lon": 144.8, "lat": 13.4},
        ],
        "edges": [
            {"a": "acapulco", "b": "panama", "kind": "main", "land": True},
            {"a": "acapulco", "b": "guam", "kind": "sec"},
        ],
    }


def _error(data: object) -> str:
    with pytest.raises(MapError) as raised:
        parse_map(json.dumps(data), source="test-map")
    return str(raised.value)


def test_the_shipped_map_has_its_ports_and_routes() -> None:
    board = default_map()
    assert len(board.ports) == 59
    assert len(board.routes) == 81
    assert board.ports[0].id == "tortue" and board.ports[0].name == "Île de la Tortue"
    assert (board.ports[0].lon, board.ports[0].lat) == (-7280, 2010)
    assert sum(route.land for route in board.routes) == 4
    assert sum(route.kind == "main" for route in board.routes) == 21
    tortue, nassau = board.index["tortue"], board.index["nassau"]
    assert nassau in board.neighbours[tortue] and tortue in board.neighbours[nassau]
    assert board.neighbour_masks[tortue] == sum(1 << q for q in board.neighbours[tortue])


def test_pacific_crossings_follow_from_longitudes() -> None:
    board = default_map()
    crossing = {
        frozenset((board.ports[r.a].id, board.ports[r.b].id)) for r in board.routes if r.pacific
    }
    assert crossing == {frozenset(("acapulco", "guam")), frozenset(("marquises", "salomon"))}
    small = parse_map(json.dumps(_small()))
    assert [route.pacific for route in small.routes] == [False, True]
    assert small.routes[0].land and not small.routes[1].land


def test_exactly_half_a_turn_apart_does_not_cross_the_pacific() -> None:
    data = _small()
    data["nodes"][2]["lon"] = 80.1  # -99.9 .. 80.1 is exactly 180 degrees
    assert not parse_map(json.dumps(data)).routes[1].pacific


def test_a_duplicate_route_is_named_either_way_round() -> None:
    data = _small()
    data["edges"].append({"a": "panama", "b": "acapulco", "kind": "sec"})
    message = _error(data)
    assert "edge 2 (panama-acapulco)" in message and "repeats edge 0" in message


def test_a_self_loop_is_named() -> None:
    data = _small()
    data["edges"].append({"a": "guam", "b": "guam", "kind": "sec"})
    assert "edge 2 (guam-guam) joins a port to itself" in _error(data)


def test_a_route_to_an_unknown_port_is_named() -> None:
    data = _small()
    data["edges"][1]["b"] = "atlantis"
    message = _error(data)
    assert "edge 1 (acapulco-atlantis)" in message and "'atlantis' is not a known port" in message


def test_a_disconnected_map_names_the_port_that_cannot_be_reached() -> None:
    data = _small()
    del data["edges"][1]
    assert "node 2 (guam) cannot be reached from acapulco" in _error(data)


def test_a_repeated_port_id_is_named() -> None:
    data = _small()
    data["nodes"][2]["id"] = "panama"
    assert "node 2 repeats the port id 'panama'" in _error(data)


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (lambda d: d["nodes"][1].update(lon=-81.005), "node 1 (panama): lon -81.005 has more"),
        (lambda d: d["nodes"][1].update(lat=91), "node 1 (panama): lat 91 is outside -90..90"),
        (lambda d: d["nodes"][1].update(lon="west"), "node 1 (panama): lon must be a number"),
        (lambda d: d["nodes"][1].update(id="Panama!"), "node 1 (Panama!): id must be lowercase"),
        (lambda d: d["nodes"][1].update(name=""), "node 1 (panama): name must be a non-empty"),
        (lambda d: d["nodes"][1].update(height=3), "node 1 (panama) must have exactly the keys"),
        (lambda d: d["edges"][0].update(kind="canal"), "edge 0 (acapulco-panama): kind must be"),
        (lambda d: d["edges"][1].update(land="yes"), "edge 1 (acapulco-guam): land must be"),
        (lambda d: d["edges"][1].pop("kind"), "edge 1 (acapulco-guam) must have the keys"),
        (lambda d: d["edges"].append([1, 2]), "edge 2 is not an object"),
        (lambda d: d.update(extra=[]), 'exactly "nodes" and "edges"'),
        (lambda d: d.update(nodes=[]), '"nodes" must be a non-empty list'),
    ],
)
def test_a_bad_entry_is_refused_with_its_name(change: Any, expected: str) -> None:
    data = _small()
    change(data)
    assert expected in _error(data)


def test_text_that_is_not_json_is_refused() -> None:
    with pytest.raises(MapError, match="test-map: not valid JSON"):
        parse_map("{nodes: ", source="test-map")
