"""Bots: a random one for every game, a sensible and a strong one per game, deterministic
given a seed.

A player picks a **level**: easy (the random bot), normal (the sensible one), strong (a
search over the sensible bot's evaluation, where the game has one; else the sensible bot).
``make_bot`` takes a level or the bot kind it names.

A bot is asked for a move only when the seat to move is controlled by the player it plays
(``engine.controller(state, engine.to_move(state))``); it then returns one of
``engine.legal_moves(state)``.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from typing import Protocol

from engines import AnyEngine

__all__ = [
    "BOT_KINDS",
    "BOT_LEVELS",
    "Bot",
    "RandomBot",
    "kind_of_level",
    "level_of_kind",
    "make_bot",
]

BOT_KINDS = ("random", "sensible", "strong")
BOT_LEVELS = ("easy", "normal", "strong")
_KIND_OF_LEVEL = dict(zip(BOT_LEVELS, BOT_KINDS, strict=True))

# game name -> module exposing ``SensibleBot(seed)``.
_SENSIBLE: dict[str, str] = {
    "consensus": "client.bots.consensus",
    "discorder": "client.bots.discorder",
    "forbans": "client.bots.forbans",
    "cognes": "client.bots.cognes",
}
# game name -> module exposing ``SEARCH`` for ``client.bots.reply_search.SearchBot`` (or a
# ``StrongBot(seed)`` of its own); a game missing here plays its sensible bot at the strong
# level.
_STRONG: dict[str, str] = {
    "consensus": "client.bots.consensus_strong",
    "discorder": "client.bots.discorder_strong",
    "forbans": "client.bots.forbans_strong",
    "cognes": "client.bots.cognes_strong",
}


class Bot(Protocol):
    """Something that picks a legal move."""

    def choose(self, engine: AnyEngine, state: object) -> object:
        """One of ``engine.legal_moves(state)``."""
        ...


class RandomBot:
    """Picks uniformly among the legal moves with its own seeded generator."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self._rng = random.Random(seed)

    def choose(self, engine: AnyEngine, state: object) -> object:
        moves = engine.legal_moves(state)
        return moves[self._rng.randrange(len(moves))]


def kind_of_level(level: str) -> str:
    """The bot kind a level names ("easy" -> "random" ...); a kind is its own answer."""
    if level in BOT_KINDS:
        return level
    if level not in _KIND_OF_LEVEL:
        choices = ", ".join(BOT_LEVELS)
        raise ValueError(f"unknown bot level {level!r}; choose one of {choices}")
    return _KIND_OF_LEVEL[level]


def level_of_kind(kind: str) -> str:
    """The level a kind plays at ("random" -> "easy" ...); a level is its own answer."""
    return BOT_LEVELS[BOT_KINDS.index(kind_of_level(kind))]


def make_bot(game: str, kind: str, seed: int) -> Bot:
    """A new bot of ``kind`` ("random", "sensible", "strong", or the level naming one) for
    ``game``."""
    kind = kind_of_level(kind)
    if kind == "random":
        return RandomBot(seed)
    if kind == "strong" and game in _STRONG:
        from client.bots.reply_search import SearchBot

        module = importlib.import_module(_STRONG[game])
        own: Callable[[int], Bot] | None = getattr(module, "StrongBot", None)
        return own(seed) if own is not None else SearchBot(seed, module.SEARCH)
    module_name = _SENSIBLE.get(game)
    if module_name is None:
        return RandomBot(seed)
    bot: Bot = importlib.import_module(module_name).SensibleBot(seed)
    return bot
