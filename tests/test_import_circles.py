"""No import circle in engines/, net/, client/ or ui/: read from the source with ``ast``.

This graph is our own (only the search for circles in it is scripts/import_graph.py's),
not grimp's (import-linter's ``acyclic_siblings`` contract in pyproject.toml checks the
second check below through grimp), and it is stricter than importing: every
``import`` counts, at the top of a module, under ``if TYPE_CHECKING:`` or inside a function,
because a circle hidden in a function is still two modules that cannot be read one before
the other.  Two checks:

* **modules**: no module reaches itself through the modules it imports;
* **siblings**: inside each package, no two of its children (modules or sub-packages, each
  taken with everything under it) reach each other, so each folder reads bottom to top.

``from package import name`` is an arrow to ``package.name`` when that is a module, else to
``package``.  The checks are tested on a small made-up tree first, so that they can fail.
"""

from __future__ import annotations

import ast
import functools
import importlib.util
import sys
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("engines", "net", "client", "ui")


def module_files(root: Path, packages: Iterable[str]) -> dict[str, Path]:
    """Every module of ``packages`` under ``root`` by dotted name (a package by its own)."""
    files: dict[str, Path] = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            files[".".join(parts)] = path
    return files


def imported_modules(module: str, path: Path, files: Mapping[str, Path]) -> set[str]:
    """The modules of ``files`` that ``module`` imports anywhere in its file."""
    here = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = here[: len(here) - node.level + 1] if node.level else []
            package = ".".join(base + ([node.module] if node.module else []))
            for alias in node.names:
                submodule = f"{package}.{alias.name}"
                found.add(submodule if submodule in files else package)
    return {name for name in found if name in files and name != module}


def import_arrows(files: Mapping[str, Path]) -> set[tuple[str, str]]:
    """(importer, imported) for every import between two of ``files``' modules."""
    return {
        (module, imported)
        for module, path in files.items()
        for imported in imported_modules(module, path, files)
    }


def _circle_search() -> Callable[[Iterable[str], Iterable[tuple[str, str]]], list[list[str]]]:
    """scripts/import_graph.py's search for strongly connected groups (tested beside it)."""
    spec = importlib.util.spec_from_file_location("import_graph", ROOT / "scripts/import_graph.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("import_graph", module)  # its dataclasses look their module up
    spec.loader.exec_module(module)
    search: Callable[[Iterable[str], Iterable[tuple[str, str]]], list[list[str]]]
    search = module.circles
    return search


circles = _circle_search()
"""The strongly connected groups of more than one node, each sorted, in order."""


def sibling_circles(files: Mapping[str, Path], arrows: set[tuple[str, str]]) -> list[list[str]]:
    """Inside each package, the circles among its children, each child with all below it."""
    found: list[list[str]] = []
    packages = {m for m, path in files.items() if path.name == "__init__.py"}
    for package in sorted(packages):
        depth = package.count(".") + 1

        def child(module: str, package: str = package, depth: int = depth) -> str | None:
            if not module.startswith(package + "."):
                return None
            return ".".join(module.split(".")[: depth + 1])

        children = {c for m in files if (c := child(m)) is not None}
        between = {
            (ca, cb)
            for a, b in arrows
            if (ca := child(a)) is not None and (cb := child(b)) is not None and ca != cb
        }
        found += circles(children, between)
    return found


@functools.cache
def project() -> tuple[dict[str, Path], set[tuple[str, str]]]:
    """The four packages' modules and arrows, read once for the two tests."""
    files = module_files(ROOT, PACKAGES)
    return files, import_arrows(files)


def test_no_module_imports_itself_through_others() -> None:
    files, arrows = project()
    assert len(files) > 200 and len(arrows) > 800  # the four packages were found and read
    assert circles(files, arrows) == []


def test_no_two_children_of_a_package_import_each_other() -> None:
    files, arrows = project()
    assert sibling_circles(files, arrows) == []


def _tree(root: Path, modules: Mapping[str, str]) -> dict[str, Path]:
    for name, text in modules.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return module_files(root, ["pkg"])


def test_a_circle_through_a_function_or_type_checking_is_found(tmp_path: Path) -> None:
    files = _tree(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/a.py": "from pkg.b import thing\n",
            "pkg/b.py": "def later():\n    from . import c\n",
            "pkg/c.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import pkg.a\n",
            "pkg/d.py": "from pkg import a, helper\n",
            "pkg/e.py": "from pkg.d import x\nfrom pkg import d\n",
        },
    )
    arrows = import_arrows(files)
    assert ("pkg.d", "pkg.a") in arrows and ("pkg.d", "pkg") in arrows  # helper: not a module
    assert ("pkg.e", "pkg") not in arrows  # only modules named: no arrow to the package
    assert circles(files, arrows) == [["pkg.a", "pkg.b", "pkg.c"]]


def test_a_circle_between_two_folders_is_found(tmp_path: Path) -> None:
    """No module circle, but the folders ``low`` and ``high`` use each other."""
    files = _tree(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/low/__init__.py": "",
            "pkg/low/base.py": "",
            "pkg/low/names.py": "from ..high import texts\n",
            "pkg/high/__init__.py": "",
            "pkg/high/texts.py": "",
            "pkg/high/figures.py": "from pkg.low.base import x\n",
        },
    )
    arrows = import_arrows(files)
    assert circles(files, arrows) == []
    assert sibling_circles(files, arrows) == [["pkg.high", "pkg.low"]]
