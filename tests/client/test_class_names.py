"""One name per concept: the table's classes are named once in the project, and the two
consumers that dispatch on ``type(event).__name__`` (``client.headless.Printer``,
``client.net_session.NetSession``) handle only names that exist.

A handler whose event was renamed is never called again, silently: the halt or the refusal
would no longer reach the terminal or the window.  These tests are what catches it.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import typing
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

from client.headless import Printer
from client.net_session import NetSession

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


TABLE_BOOKS = (
    "events ballot finality presence seq_book seating divergence consent chain plies "
    "takeback removal halting records start"
)
TABLE_MODULES = [
    importlib.import_module(f"client.{name}")
    for name in [
        *TABLE_BOOKS.split(),
        *(path.stem for path in (ROOT / "client").glob("table*.py")),
    ]
]
"""The table's side of client/ (issue 22): its names must not be taken elsewhere."""


def test_the_table_events_have_names_of_their_own() -> None:
    places = class_places()
    for module in TABLE_MODULES:
        for name, value in vars(module).items():
            if inspect.isclass(value) and value.__module__ == module.__name__:
                assert len(places[name]) == 1, f"{name} is defined at {places[name]}"


@pytest.mark.parametrize("consumer", [Printer, NetSession])
def test_every_event_handler_is_named_after_the_class_it_takes(consumer: type) -> None:
    """``_on_TableHalted(self, event: TableHalted)``: a renamed event whose handler kept the
    old name fails here (the annotation names the class, the handler's name does not)."""
    checked = 0
    for name, handler in vars(consumer).items():
        if not name.startswith("_on_") or name == "_on_event":
            continue
        event = typing.get_type_hints(handler)["event"]
        if event is not Any:
            assert event.__name__ == name[4:], f"{consumer.__name__}.{name} takes {event}"
            checked += 1
    assert checked > 10


NODE_MODULES = [
    importlib.import_module(f"client.{name}")
    for name in [
        *(path.stem for path in (ROOT / "client").glob("peer*.py")),
        *(path.stem for path in (ROOT / "client").glob("lobby*.py")),
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
