"""No import circle may appear in client/, among its modules or between its sub-packages.

The graph is grimp's (import-linter's own), read by scripts/import_graph.py; imports under
``if TYPE_CHECKING:`` count, as they do for lint-imports.  tests/test_import_circles.py checks
the same over engines/, net/, client/ and ui/ with a graph of its own, read with ``ast``.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]


def load_import_graph() -> ModuleType:
    spec = importlib.util.spec_from_file_location("import_graph", ROOT / "scripts/import_graph.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["import_graph"] = module
    spec.loader.exec_module(module)
    return module


def test_no_import_circle() -> None:
    import_graph = load_import_graph()
    graph = import_graph.read_graph(ROOT)
    numbers = import_graph.summary(graph, None)
    assert numbers["module_circles"] == []
    assert numbers["package_circles"] == []


def test_circles_are_found() -> None:
    """The search itself: a circle of three and one of two, beside a module in none."""
    import_graph = load_import_graph()
    arrows = [("a", "b"), ("b", "c"), ("c", "a"), ("d", "e"), ("e", "d"), ("f", "a")]
    assert import_graph.circles("abcdef", arrows) == [["a", "b", "c"], ["d", "e"]]
