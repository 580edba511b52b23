"""A ply's notation as a player reads it.

Engines write a compact notation for files and terminals (Les Forbans: ``+vert@cap_horn``,
``curacao-maracaibo``: the ports' ids).  The window shows the same ply with the names a
player sees on the map ("Vert piece on Cap Horn", "Curaçao → Maracaïbo") and keeps the
engine's words in a tooltip.  Other games' notations read as they are.

Invariant: a notation this module cannot read is shown unchanged, never an error.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from engines import AnyEngine

__all__ = ["readable_notation"]


def readable_notation(engine: AnyEngine, notation: str) -> str:
    game_map = getattr(engine, "map", None) if engine.name == "forbans" else None
    if game_map is None:
        return notation

    def name(port_id: str) -> str | None:
        number = game_map.port_named(port_id)
        return None if number is None else str(game_map.ports[number].name)

    if notation.startswith("+"):
        colour, at, port_id = notation[1:].partition("@")
        port = name(port_id)
        if at and port is not None:
            return QCoreApplication.translate("Notation", "{side} piece on {port}").format(
                side=colour.capitalize(), port=port
            )
        return notation
    origin, dash, target = notation.partition("-")
    origin_name, target_name = name(origin), name(target)
    if dash and origin_name is not None and target_name is not None:
        return f"{origin_name} → {target_name}"
    return notation
