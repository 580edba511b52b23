"""One name per concept: the table's classes and the peer's events are named once in the
project, and consumers ``match`` on the event classes instead of looking handlers up by
``type(event).__name__`` (issue 22).

A handler looked up by a name that was renamed is never called again, silently: the halt or
the refusal would no longer reach the terminal or the window.  These tests are what catches
a return of that pattern.
"""

from __future__ import annotations

import ast
import dataclasses
import importlib
import inspect
import typing
from collections import defaultdict
from pathlib import Path
from types import ModuleType

from client.node.peer_events import PeerEvent

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("client", "net", "engines", "ui")


def class_places() -> dict[str, list[str]]:
    """Class name -> ``file:line`` of every class of that name in the project's packages."""
    places: dict[str, list[str]] = defaultdict(list)
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.ClassDef):
                    places[node.name].append(f"{path.relative_to(ROOT)}:{node.lineno}")
    return places


def client_module(stem: str) -> ModuleType:
    """client/'s module of that file name, in whichever of client/'s folders it lies."""
    (path,) = (ROOT / "client").rglob(f"{stem}.py")
    return importlib.import_module(".".join(path.relative_to(ROOT).with_suffix("").parts))


TABLE_BOOKS = (
    "events ballot finality presence seq_book seating divergence consent chain plies "
    "takeback removal halting records start"
)
TABLE_MODULES = [
    client_module(name)
    for name in [
        *TABLE_BOOKS.split(),
        *(path.stem for path in (ROOT / "client").rglob("table*.py")),
    ]
]
"""The table's side of client/ (issue 22): its names must not be taken elsewhere."""


def test_the_table_events_have_names_of_their_own() -> None:
    places = class_places()
    for module in TABLE_MODULES:
        for name, value in vars(module).items():
            if inspect.isclass(value) and value.__module__ == module.__name__:
                assert len(places[name]) == 1, f"{name} is defined at {places[name]}"


CONSUMERS = (
    "client/commands/headless.py",
    "client/sessions/net_session.py",
    "client/commands/terminal.py",
    "ui",
)


def test_peer_events_are_frozen_values_named_once() -> None:
    """Every member of the one event stream (``client.node.peer_events.PeerEvent``) is a frozen
    dataclass whose name no other class in the project takes (the join's ``HostReached``
    was ``Connected``, beside ``net.events.Connected``)."""
    places = class_places()
    members = typing.get_args(PeerEvent)
    assert len(members) > 25
    for member in members:
        assert dataclasses.is_dataclass(member) and member.__dataclass_params__.frozen, member
        files = [place.split(":")[0] for place in places[member.__name__]]
        assert len(files) == 1, f"{member} is in {files}"


def test_no_consumer_dispatches_on_a_class_name() -> None:
    """Consumers ``match`` on the event classes (a renamed class fails at import and in
    mypy); a handler looked up by ``type(event).__name__`` would silently stop being called."""
    found = []
    for name in CONSUMERS:
        for path in (
            sorted((ROOT / name).rglob("*.py")) if (ROOT / name).is_dir() else [ROOT / name]
        ):
            text = path.read_text(encoding="utf-8")
            if "__name__}" in text and "getattr(" in text:
                found.append(str(path.relative_to(ROOT)))
            if "Callable[[Any], None]" in text:
                found.append(f"{path.relative_to(ROOT)} (an untyped observer)")
    assert found == []


NODE_MODULES = [
    client_module(name)
    for name in [
        *(path.stem for path in (ROOT / "client").rglob("peer*.py")),
        *(path.stem for path in (ROOT / "client").rglob("lobby*.py")),
        "node_io",
        *[
            "hosting",
            "joining",
            "rematch",
            "mesh",
            "ending",
            "known_peers",
            "flood_guard",
            "evidence_budget",
        ],
        *["evidence_files", "notices", "mdns", "discovery", "net_adapter", "addresses"],
    ]
]
"""The peer node's side of client/ (issue 22): its names must not be taken elsewhere."""


def test_the_node_classes_have_names_of_their_own() -> None:
    """``joining.Notice`` beside ``notices.Notice``, ``joining.Connected`` beside
    ``net.events.Connected``, ``rematch.NextTable`` beside ``session_api.NextTable``: a
    consumer dispatching on the class name took one for the other."""
    places = class_places()
    checked = 0
    for module in NODE_MODULES:
        for name, value in vars(module).items():
            if inspect.isclass(value) and value.__module__ == module.__name__:
                assert len(places[name]) == 1, f"{name} is defined at {places[name]}"
                checked += 1
    assert checked > 40
