"""engines/ imports only the standard library and itself (DESIGN.md section 1).

import-linter forbids the third-party packages we know of; this catches any other one.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ENGINES = Path(__file__).resolve().parents[1] / "engines"


def test_engines_import_only_the_standard_library() -> None:
    offenders = []
    for path in sorted(ENGINES.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                if top != "engines" and top not in sys.stdlib_module_names:
                    offenders.append(f"{path.name}: {name}")
    assert offenders == []
    assert list(ENGINES.glob("*.py")), "the check found no engine files at all"
