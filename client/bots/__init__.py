"""Bots: a random one for every game and a sensible one per game, deterministic given a seed.

A bot is asked for a move only when the seat to move is controlled by the player it plays
(``engine.controller(state, engine.to_move(state))``); it then returns one of
``engine.legal_moves(state)``.
"""

from __future__ import annotations

import importlib
import random
from typing import Any, Protocol

from engines import AnyEngine

__all__ = ["BOT_KINDS", "Bot", "RandomBot", "make_bot"]

BOT_KINDS = ("random", "sensible")

# game name -> module exposing ``SensibleBot(seed)``.
_SENSIBLE: dict[str, str] = {
    "consensus": "client.bots.consensus",
    "discorder": "client.bots.discorder",
    "forbans": "client.bots.forbans",
    "cognes": "client.bots.cognes",
}


class Bot(Protocol):
    """Something that picks a legal move."""

    def choose(self, engine: AnyEngine, state: Any) -> Any:
        """One of ``engine.legal_moves(state)``."""
        ...


class RandomBot:
    """Picks uniformly among the legal moves with its own seeded generator."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self._rng = random.Random(seed)

    def choose(self, engine: AnyEngine, state: Any) -> Any:
        moves = engine.legal_moves(state)
        return moves[self._rng.randrange(len(moves))]


def make_bot(game: str, kind: str, seed: int) -> Bot:
    """A new bot of ``kind`` ("random" or "sensible") for ``game``."""
    if kind == "random":
        return RandomBot(seed)
    if kind == "sensible":
        module_name = _SENSIBLE.get(game)
        if module_name is None:
            return RandomBot(seed)
        bot: Bot = importlib.import_module(module_name).SensibleBot(seed)
        return bot
    raise ValueError(f"unknown bot kind {kind!r}; choose one of {', '.join(BOT_KINDS)}")
