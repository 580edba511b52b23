"""Golden playthroughs: a seeded random game written as text, one ply per line.

The file format (``tests/data/golden/*.txt``)::

    # game consensus ruleset consensus/1 version 1 params seats=4 seed 3
    0 - <digest of the start position>
    1 a1-b2 <digest after ply 1>
    ...
    # outcome <summary>

Any change of behaviour (legal move order, rules, encoding) changes the text.  Regenerate on
purpose with ``scripts/regen_golden.py``.
"""

from __future__ import annotations

from collections.abc import Mapping

from client.bots import RandomBot
from engines import AnyEngine

__all__ = ["golden_name", "playthrough_text"]


def _params_text(params: Mapping[str, int | str]) -> str:
    return ",".join(f"{key}={params[key]}" for key in sorted(params))


def golden_name(engine: AnyEngine, params: Mapping[str, int | str], seed: int) -> str:
    slug = _params_text(params).replace(",", "_").replace("=", "")
    return f"{engine.name}-{slug}-seed{seed}.txt"


def playthrough_text(engine: AnyEngine, params: Mapping[str, int | str], seed: int) -> str:
    """Play a random game from ``seed`` to its end and return the golden text."""
    bot = RandomBot(seed)
    state = engine.initial_state(params)
    lines = [
        f"# game {engine.name} ruleset {engine.ruleset} version {engine.version} "
        f"params {_params_text(params)} seed {seed}",
        f"0 - {engine.digest(state).hex()}",
    ]
    ply = 0
    while (outcome := engine.outcome(state)) is None:
        move = bot.choose(engine, state)
        notation = engine.format_move(state, move)
        state = engine.apply(state, move)
        ply += 1
        lines.append(f"{ply} {notation} {engine.digest(state).hex()}")
    lines.append(f"# outcome {outcome.reason}: {outcome.summary}")
    return "\n".join(lines) + "\n"
