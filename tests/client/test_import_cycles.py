"""No import circle may appear in client/, among its modules or between its sub-packages.

The graph is grimp's (import-linter's own), read by scripts/import_graph.py; imports under
``if TYPE_CHECKING:`` count, as they do for lint-imports.  The circles that exist today are
named below so that the test fails on any new one *and* on a named one that has been cut (the
list then only shrinks); issue 22 asks for none.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]

# What is left of the circles for issue 22 to cut: the command and its headless driver, the
# node's parts naming each other (most only under TYPE_CHECKING), and mDNS with the runtime.
KNOWN_MODULE_CIRCLES = [
    ["client.commands.cli", "client.commands.headless"],
    [
        "client.node.hosting",
        "client.node.joining",
        "client.node.node_io",
        "client.node.peer_events",
        "client.node.peer_node",
        "client.node.rematch",
    ],
    ["client.runtime.mdns", "client.runtime.peer"],
]
# The module arrow without which no two sub-packages import each other in a circle: (before
# client/ had sub-packages) the bots' arena playing whole games through client.bots.match.
KNOWN_PACKAGE_CIRCLE_ARROWS = [
    ("client.bots.arena", "client.bots.match"),
]


def load_import_graph() -> ModuleType:
    spec = importlib.util.spec_from_file_location("import_graph", ROOT / "scripts/import_graph.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["import_graph"] = module
    spec.loader.exec_module(module)
    return module


def test_no_import_circle_but_the_named_ones() -> None:
    import_graph = load_import_graph()
    graph = import_graph.read_graph(ROOT)
    numbers = import_graph.summary(graph, None)
    expected = sorted(sorted(group) for group in KNOWN_MODULE_CIRCLES)
    assert numbers["module_circles"] == expected
    assert set(KNOWN_PACKAGE_CIRCLE_ARROWS) <= graph.arrows
    arrows = {
        (graph.group(a), graph.group(b))
        for a, b in graph.arrows - set(KNOWN_PACKAGE_CIRCLE_ARROWS)
        if graph.group(a) != graph.group(b)
    }
    assert import_graph.circles({graph.group(m) for m in graph.modules}, arrows) == []


def test_circles_are_found() -> None:
    """The search itself: a circle of three and one of two, beside a module in none."""
    import_graph = load_import_graph()
    arrows = [("a", "b"), ("b", "c"), ("c", "a"), ("d", "e"), ("e", "d"), ("f", "a")]
    assert import_graph.circles("abcdef", arrows) == [["a", "b", "c"], ["d", "e"]]
