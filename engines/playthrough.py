"""Seeded random games, for the engines' own tests: playouts and golden playthroughs.

Engines are checked with the engines alone (no bot, no client): a ``RandomMover`` picks
uniformly among the legal moves with its own seeded generator, so the same seed gives the
same game on every machine.  A golden playthrough is such a game written as text, one ply
per line (``tests/data/golden/*.txt``)::

    # game consensus ruleset consensus/1 version 1 params seats=4 seed 3
    0 - <digest of the start position>
    1 a1-b2 <digest after ply 1>
    ...
    # outcome <summary>

Any change of behaviour (legal move order, rules, encoding) changes the text.  Regenerate on
purpose with ``scripts/regen_golden.py``.  The golden files were written with
``client.bots.RandomBot``, which picks the same way: the same seed gives the same game.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from typing import Any

from engines.base import AnyEngine

__all__ = ["PLAYOUT_LIMIT", "RandomMover", "golden_name", "playout", "playthrough_text"]

PLAYOUT_LIMIT = 100_000
"""Plies after which a random game that has not ended is an engine's bug."""


class RandomMover:
    """Picks uniformly among the legal moves with its own seeded generator."""

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)

    def choose(self, engine: AnyEngine, state: Any) -> Any:
        moves = engine.legal_moves(state)
        return moves[self._rng.randrange(len(moves))]


def playout(engine: AnyEngine, params: Mapping[str, int | str], seed: int) -> Iterator[Any]:
    """Every state of a random game from ``seed``, start to end (``AssertionError`` if it
    has not ended after ``PLAYOUT_LIMIT`` plies)."""
    mover = RandomMover(seed)
    state = engine.initial_state(params)
    yield state
    for _ in range(PLAYOUT_LIMIT):
        if engine.outcome(state) is not None:
            return
        state = engine.apply(state, mover.choose(engine, state))
        yield state
    raise AssertionError(f"{engine.name}: a random game did not end in {PLAYOUT_LIMIT} plies")


def _params_text(params: Mapping[str, int | str]) -> str:
    return ",".join(f"{key}={params[key]}" for key in sorted(params))


def golden_name(engine: AnyEngine, params: Mapping[str, int | str], seed: int) -> str:
    slug = _params_text(params).replace(",", "_").replace("=", "")
    return f"{engine.name}-{slug}-seed{seed}.txt"


def playthrough_text(engine: AnyEngine, params: Mapping[str, int | str], seed: int) -> str:
    """Play a random game from ``seed`` to its end and return the golden text."""
    mover = RandomMover(seed)
    state = engine.initial_state(params)
    lines = [
        f"# game {engine.name} ruleset {engine.ruleset} version {engine.version} "
        f"params {_params_text(params)} seed {seed}",
        f"0 - {engine.digest(state).hex()}",
    ]
    ply = 0
    while (outcome := engine.outcome(state)) is None:
        move = mover.choose(engine, state)
        notation = engine.format_move(state, move)
        state = engine.apply(state, move)
        ply += 1
        lines.append(f"{ply} {notation} {engine.digest(state).hex()}")
    lines.append(f"# outcome {outcome.reason}: {outcome.summary}")
    return "\n".join(lines) + "\n"
