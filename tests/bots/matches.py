"""The slow tests' seeded match: the strong bot against another level, seats rotated."""

from __future__ import annotations

from collections.abc import Callable

from client.bots import Bot
from client.bots.arena import median, percentile, play_rotation


def strong_wins(
    game: str, against: str, games: int, opponent: Callable[[int], Bot] | None = None
) -> int:
    """Games won by the strong bot in ``games`` seeded games (seeds 0 on), against the
    ``against`` level or, when given, ``opponent(seed)``; every one of its moves is asserted
    to take under 1 s of CPU at the 95th percentile."""
    summary = play_rotation(game, "strong", against, range(games), opponent=opponent)
    cpu = summary.tested_cpu
    name = against if opponent is None else opponent.__name__
    print(
        f"{game}: strong bot won {summary.wins} of {games} against {name}; CPU per move "
        f"median {median(cpu) * 1000:.0f} ms, p95 {percentile(cpu, 0.95) * 1000:.0f} ms"
    )
    assert percentile(cpu, 0.95) < 1.0
    return summary.wins
