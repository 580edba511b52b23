"""Pure game rules: integers only, canonical state encoding, no I/O (DESIGN.md section 2).

The registry is explicit: each game module exposes one ``ENGINE`` instance and is listed in
``_MODULES``.  Modules are imported on first use, so a broken game cannot stop another from
loading.
"""

from __future__ import annotations

import importlib

from engines.base import AnyEngine, Engine, IllegalMove, InvalidMove, InvalidParams, Outcome

__all__ = [
    "AnyEngine",
    "Engine",
    "IllegalMove",
    "InvalidMove",
    "InvalidParams",
    "Outcome",
    "UnknownGame",
    "engine_names",
    "find_engine",
]

_MODULES: dict[str, str] = {
    "cognes": "engines.cognes",
    "consensus": "engines.consensus",
    "discorder": "engines.discorder",
    "forbans": "engines.forbans",
}


class UnknownGame(LookupError):
    """No engine has that name."""


def engine_names() -> tuple[str, ...]:
    """The registered game names, in a stable order."""
    return tuple(sorted(_MODULES))


def find_engine(name: str) -> AnyEngine:
    """The engine registered as ``name`` (``UnknownGame`` naming the known games otherwise)."""
    module_name = _MODULES.get(name)
    if module_name is None:
        known = ", ".join(engine_names())
        raise UnknownGame(f"no game called {name!r}; known games: {known}")
    engine: AnyEngine = importlib.import_module(module_name).ENGINE
    return engine
