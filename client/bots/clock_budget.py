"""How a bot spends its clock (a clocked table): how long it waits before moving, and
whether it has the time to think at its level.

A bot on a clock is charged like a person (``client.rules.clock``), and its own table resigns
for it once its clock passes its limit, so it must never think or wait past its share.  Its
share of the clock for one move is ``remaining / MOVES_LEFT + 3/4 of the increment`` (a
game's length is unknown: this share keeps a reserve whatever it is, as chess programs do).
Of that share it waits at most a quarter (``--bot-delay`` is for people to follow, never a
reason to lose), and it searches at its level only when the share is at least
``FULL_THOUGHT_MS`` (a strong bot's move takes up to about a second of CPU); short of that it
plays the normal level's move, found in milliseconds.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["FULL_THOUGHT_MS", "MOVES_LEFT", "Budget", "budget"]

MOVES_LEFT = 30
FULL_THOUGHT_MS = 1_500


@dataclass(frozen=True)
class Budget:
    """What a bot may spend on its next move."""

    share_ms: int
    max_delay: float
    """Seconds it may wait before moving (its ``--bot-delay`` is cut to this)."""
    full_thought: bool
    """Whether it thinks at its own level (else it plays the normal level's move)."""


def budget(remaining_ms: int, increment_ms: int) -> Budget:
    share = max(0, remaining_ms) // MOVES_LEFT + increment_ms * 3 // 4
    return Budget(share, share / 4000, share >= FULL_THOUGHT_MS)
