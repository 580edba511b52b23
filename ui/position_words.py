"""A position in sentences, for a screen reader: the pieces by square, per player.

The table gives this text to its board's accessibility interface (``ui.accessible_board``),
so a player who cannot see the board hears what ``palabre log show`` prints as a diagram:
Consensus' pieces and corpses by square and who rules e5, Discorder's tiles, pegs and
scores, Les Forbans' pieces by port, Cognes' coins.  It reads the state and the engines' own
helpers only; nothing here decides anything.  ``name_of`` names a seat as the table does.

Invariant: a game without words here, or a state of another game, gives ``""``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QCoreApplication

from client.logs.board_text import forbans_camps
from engines import AnyEngine

__all__ = ["position_words"]

NameOf = Callable[[int], str]


def position_words(engine: AnyEngine, state: Any, name_of: NameOf) -> str:
    """The position ``state`` of ``engine``'s game in sentences ("" when not known)."""
    say = _GAMES.get(engine.name)
    if say is None or state is None:
        return ""
    try:
        return say(engine, state, name_of)
    except (AttributeError, IndexError, TypeError, ValueError):  # a state of another game
        return ""


def _consensus(engine: AnyEngine, state: Any, name_of: NameOf) -> str:
    from engines.consensus_board import DEAD, KIND_NAMES, SQUARE_NAMES

    pieces: dict[int, list[str]] = {}
    corpses: list[str] = []
    for square, code in enumerate(state.board):
        if not code:
            continue
        seat, kind = (code >> 3) & 7, KIND_NAMES[code & 7]
        if code & DEAD:
            corpses.append(
                QCoreApplication.translate("PositionWords", "{name}'s {piece} on {square}").format(
                    name=name_of(seat), piece=kind, square=SQUARE_NAMES[square]
                )
            )
        else:
            pieces.setdefault(seat, []).append(f"{kind} {SQUARE_NAMES[square]}")
    sentences = [
        QCoreApplication.translate("PositionWords", "{name}: {pieces}.").format(
            name=name_of(seat), pieces=", ".join(pieces[seat])
        )
        for seat in sorted(pieces)
    ]
    sentences.append(
        QCoreApplication.translate("PositionWords", "Corpses: {corpses}.").format(
            corpses=", ".join(corpses)
        )
        if corpses
        else QCoreApplication.translate("PositionWords", "No corpse on the board.")
    )
    ruler = engine.power_status(state).ruler
    if ruler is not None:
        sentences.append(
            QCoreApplication.translate("PositionWords", "{name} rules e5.").format(
                name=name_of(ruler)
            )
        )
    return " ".join(sentences)


def _discorder(engine: AnyEngine, state: Any, name_of: NameOf) -> str:
    from engines.discorder import COLOUR_NAMES, SITES, WIDTH, provisional_scores, site_name

    sentences = []
    for colour, side in enumerate(COLOUR_NAMES, 1):
        cells = [
            f"{'abcdefgh'[cell % WIDTH]}{cell // WIDTH + 1}"
            for cell, tile in enumerate(state.board)
            if tile == colour
        ]
        sentences.append(
            QCoreApplication.translate("PositionWords", "{side} ({name}) tiles: {cells}.").format(
                side=side,
                name=name_of(colour),
                cells=", ".join(cells) or QCoreApplication.translate("PositionWords", "none"),
            )
        )
    pegs = [site_name(site) for site in range(SITES) if state.pegs[site]]
    sentences.append(
        QCoreApplication.translate("PositionWords", "Pegs: {pegs}.").format(
            pegs=", ".join(pegs) or QCoreApplication.translate("PositionWords", "none")
        )
    )
    jaune, noir = provisional_scores(state)
    sentences.append(
        QCoreApplication.translate(
            "PositionWords",
            "Tiles left: Jaune {jaune_tiles}, Noir {noir_tiles}; pegs left: {pegs}; "
            "score so far: Jaune {jaune}, Noir {noir}.",
        ).format(
            jaune_tiles=state.tiles_left[0],
            noir_tiles=state.tiles_left[1],
            pegs=state.pegs_left,
            jaune=jaune,
            noir=noir,
        )
    )
    return " ".join(sentences)


def _forbans(engine: AnyEngine, state: Any, name_of: NameOf) -> str:
    sentences = []
    for camp, seats, held in forbans_camps(engine, state):
        ports = ", ".join(f"{port.name} {count}" for port, count in held)
        sentences.append(
            QCoreApplication.translate("PositionWords", "{camp} ({names}): {ports}.").format(
                camp=camp,
                names=", ".join(name_of(seat) for seat in seats),
                ports=ports or QCoreApplication.translate("PositionWords", "no piece on the map"),
            )
        )
    return " ".join(sentences)


def _cognes(engine: AnyEngine, state: Any, name_of: NameOf) -> str:
    coins = []
    for coin, (x, y) in enumerate(state.centres):
        where = QCoreApplication.translate("PositionWords", "coin {coin} at {x} mm, {y} mm").format(
            coin=coin, x=_mm(x), y=_mm(y)
        )
        coins.append(
            where
            + (
                QCoreApplication.translate("PositionWords", " (frozen)")
                if state.frozen[coin]
                else ""
            )
        )
    listed = "; ".join(coins)
    sentences = [
        QCoreApplication.translate(
            "PositionWords", "Coins, measured from the middle one: {coins}."
        ).format(coins=listed)
    ]
    out = [name_of(seat) for seat, gone in enumerate(state.out, 1) if gone]
    if out:
        sentences.append(
            QCoreApplication.translate("PositionWords", "Out of the game: {names}.").format(
                names=", ".join(out)
            )
        )
    return " ".join(sentences)


def _mm(units: int) -> str:
    sign = "-" if units < 0 else ""
    return f"{sign}{abs(units) // 10}.{abs(units) % 10}"


_GAMES: dict[str, Callable[[AnyEngine, Any, NameOf], str]] = {
    "cognes": _cognes,
    "consensus": _consensus,
    "discorder": _discorder,
    "forbans": _forbans,
}
