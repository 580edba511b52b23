#!/usr/bin/env python3
"""Count client/'s import graph: sub-packages, arrows between them, arrows back up, circles.

Usage: scripts/import_graph.py [--json] [--runtime-only]

The numbers issue 22 asks about, read from the code with grimp (import-linter's own graph):

* **modules** and **module arrows**: client/'s modules and the distinct imports between them
  (client/__init__.py is left out: it holds a docstring, and ``import client`` for
  ``client.__file__`` depends on no module of client/);
* **floors**: how many levels the module graph has once each circle is taken as one node
  (a module's floor is one more than the highest floor it imports);
* **sub-packages** and **package arrows**: the folders directly under client/ (a module lying
  in client/ itself counts in ``client``) and the distinct imports from one to another;
* **arrows back up**: module imports that go from a lower layer to a higher one of the
  ``containers = ["client"]`` layers contract in pyproject.toml (``-`` when there is none),
  the ``ignore_imports`` of that contract included, since they are the ones it tolerates;
* **circles**: strongly connected groups of modules (and of sub-packages), each listed.

Imports under ``if TYPE_CHECKING:`` count, as they do for lint-imports; ``--runtime-only``
leaves them out.  ``--json`` prints the same as one JSON object (the shape
tests/client/test_import_cycles.py reads).  Exit code 0.
"""

from __future__ import annotations

import argparse
import json
import sys
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "client"


@dataclass(frozen=True)
class ImportGraph:
    """client/'s modules and the direct imports between them (importer -> imported)."""

    arrows: frozenset[tuple[str, str]]
    modules: frozenset[str]
    subpackages: tuple[str, ...]

    def group(self, module: str) -> str:
        """The sub-package a module lies in (``client`` for one in client/ itself)."""
        for package in self.subpackages:
            if module == package or module.startswith(package + "."):
                return package
        return PACKAGE


def read_graph(root: Path = ROOT, *, runtime_only: bool = False) -> ImportGraph:
    """client/'s import graph as grimp finds it under ``root``."""
    sys.path.insert(0, str(root))
    graph = grimp.build_graph(PACKAGE, exclude_type_checking_imports=runtime_only)
    modules = frozenset(m for m in graph.modules if m.startswith(PACKAGE + "."))
    arrows = frozenset(
        (importer, imported)
        for importer in modules
        for imported in graph.find_modules_directly_imported_by(importer)
        if imported in modules and imported != importer
    )
    folder = root / PACKAGE
    subpackages = tuple(
        sorted(f"{PACKAGE}.{d.name}" for d in folder.iterdir() if (d / "__init__.py").is_file())
    )
    return ImportGraph(arrows=arrows, modules=modules, subpackages=subpackages)


def circles(nodes: Iterable[str], arrows: Iterable[tuple[str, str]]) -> list[list[str]]:
    """The strongly connected groups of more than one node (Tarjan's algorithm), sorted."""
    out: dict[str, list[str]] = {node: [] for node in nodes}
    for importer, imported in arrows:
        out[importer].append(imported)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in out[node]:
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    for node in sorted(out):
        if node not in index:
            visit(node)
    return sorted(groups)


def floors(graph: ImportGraph) -> int:
    """How many levels the module graph has, each circle counted as one node."""
    home = {m: m for m in graph.modules}
    for group in circles(graph.modules, graph.arrows):
        for member in group:
            home[member] = group[0]
    below: dict[str, set[str]] = {home[m]: set() for m in graph.modules}
    for importer, imported in graph.arrows:
        if home[importer] != home[imported]:
            below[home[importer]].add(home[imported])
    level: dict[str, int] = {}

    def floor(node: str) -> int:
        if node not in level:
            level[node] = 1 + max((floor(n) for n in below[node]), default=-1)
        return level[node]

    return 1 + max((floor(n) for n in below), default=-1)


def client_layers(pyproject: Path = ROOT / "pyproject.toml") -> list[list[str]] | None:
    """The layers (top first, each a list of sibling sub-packages) of the client contract."""
    config = tomllib.loads(pyproject.read_text(encoding="utf-8"))
    contracts = config.get("tool", {}).get("importlinter", {}).get("contracts", [])
    for contract in contracts:
        if contract.get("type") == "layers" and contract.get("containers") == [PACKAGE]:
            return [
                [f"{PACKAGE}.{name.strip()}" for name in layer.replace(":", "|").split("|")]
                for layer in contract["layers"]
            ]
    return None


def back_up(graph: ImportGraph, layers: list[list[str]]) -> list[tuple[str, str]]:
    """Module imports from a lower layer to a higher one, sorted."""
    rank = {package: i for i, layer in enumerate(layers) for package in layer}
    return sorted(
        (a, b)
        for a, b in graph.arrows
        if graph.group(a) in rank
        and graph.group(b) in rank
        and rank[graph.group(a)] > rank[graph.group(b)]
    )


def summary(graph: ImportGraph, layers: list[list[str]] | None) -> dict[str, object]:
    """Every number the script prints, as plain data."""
    package_arrows: dict[tuple[str, str], int] = {}
    for a, b in graph.arrows:
        pair = (graph.group(a), graph.group(b))
        if pair[0] != pair[1]:
            package_arrows[pair] = package_arrows.get(pair, 0) + 1
    groups = sorted({graph.group(m) for m in graph.modules})
    upward = None if layers is None else back_up(graph, layers)
    return {
        "modules": len(graph.modules),
        "module_arrows": len(graph.arrows),
        "floors": floors(graph),
        "subpackages": list(graph.subpackages),
        "package_arrows": {f"{a} -> {b}": n for (a, b), n in sorted(package_arrows.items())},
        "back_up": None if upward is None else [f"{a} -> {b}" for a, b in upward],
        "module_circles": circles(graph.modules, graph.arrows),
        "package_circles": circles(groups, package_arrows),
    }


def report(numbers: Mapping[str, object]) -> str:
    """The summary in lines a reader takes in at a glance."""
    subpackages = numbers["subpackages"]
    package_arrows = numbers["package_arrows"]
    upward = numbers["back_up"]
    module_circles = numbers["module_circles"]
    package_circles = numbers["package_circles"]
    assert isinstance(subpackages, list) and isinstance(package_arrows, dict)
    assert isinstance(module_circles, list) and isinstance(package_circles, list)
    lines = [
        f"modules: {numbers['modules']}, module arrows: {numbers['module_arrows']}, "
        f"floors: {numbers['floors']}",
        f"sub-packages: {len(subpackages)} ({', '.join(subpackages) or 'none'})",
        f"package arrows: {len(package_arrows)}",
        *(f"  {pair} ({n} imports)" for pair, n in package_arrows.items()),
        "arrows back up the layers: "
        + ("- (no client layers contract)" if upward is None else str(len(upward))),
        *(f"  {pair}" for pair in upward or []),
        f"module circles: {len(module_circles)}",
        *(f"  {' '.join(group)}" for group in module_circles),
        f"package circles: {len(package_circles)}",
        *(f"  {' '.join(group)}" for group in package_circles),
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--runtime-only", action="store_true", help="leave out imports under TYPE_CHECKING"
    )
    args = parser.parse_args(argv)
    numbers = summary(read_graph(runtime_only=args.runtime_only), client_layers())
    print(json.dumps(numbers, indent=2) if args.json else report(numbers))
    return 0


if __name__ == "__main__":
    sys.exit(main())
