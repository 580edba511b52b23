"""Seeded matches between bot levels, seats rotated: what the benchmarks and slow tests measure.

Game ``n`` of a match uses the seed ``first_seed + n``; the bot under test sits at seat
``n % seats + 1`` (so every seat gets its share) and every other seat gets the opposing level.
The bot of seat ``s`` is seeded ``seed * 100 + s``, as the demo and the peers seed theirs, so
a game is the same whenever it is played again.  Every move is timed in CPU time of this
process (``time.process_time``), which other processes on a shared machine do not inflate.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from client.bots import Bot, make_bot
from client.bots.match import play_match
from engines import AnyEngine, find_engine

__all__ = [
    "GameResult",
    "MatchSummary",
    "TimedBot",
    "median",
    "percentile",
    "play_one",
    "play_rotation",
    "rotation",
]


class TimedBot:
    """A bot whose every move's CPU time is appended to ``times`` (seconds)."""

    def __init__(self, bot: Bot, times: list[float]) -> None:
        self._bot, self.times = bot, times

    def choose(self, engine: AnyEngine, state: object) -> object:
        began = time.process_time()
        move = self._bot.choose(engine, state)
        self.times.append(time.process_time() - began)
        return move


@dataclass(frozen=True)
class GameResult:
    seed: int
    seat: int  # the seat of the bot under test
    won: bool
    draw: bool
    reason: str
    plies: int


@dataclass
class MatchSummary:
    """Everything a match table shows."""

    games: list[GameResult] = field(default_factory=list)
    tested_cpu: list[float] = field(default_factory=list)  # seconds per move
    others_cpu: list[float] = field(default_factory=list)

    def add(self, other: MatchSummary) -> None:
        """Take in another summary's games and times (games kept in the order added)."""
        self.games += other.games
        self.tested_cpu += other.tested_cpu
        self.others_cpu += other.others_cpu

    @property
    def wins(self) -> int:
        return sum(game.won for game in self.games)

    @property
    def draws(self) -> int:
        return sum(game.draw for game in self.games)


def percentile(values: list[float], part: float) -> float:
    """The value below which ``part`` of ``values`` lie (nearest rank, no interpolation)."""
    ordered = sorted(values)
    return ordered[int(part * (len(ordered) - 1))] if ordered else 0.0


def median(values: list[float]) -> float:
    return statistics.median(values) if values else 0.0


def play_one(
    game: str,
    level: str,
    against: str,
    seed: int,
    tested_seat: int,
    *,
    params: dict[str, int | str] | None = None,
    opponent: Callable[[int], Bot] | None = None,
) -> MatchSummary:
    """One game: ``level``'s bot at ``tested_seat``, ``against`` (or ``opponent(seed)``,
    for a bot that is no level) at every other seat; a summary of that game alone."""
    engine = find_engine(game)
    chosen = dict(params if params is not None else engine.sample_params[0])
    summary = MatchSummary()
    bots: dict[int, Bot] = {}
    for seat in range(1, engine.seat_count(engine.initial_state(chosen)) + 1):
        bot_seed = seed * 100 + seat
        if seat == tested_seat:
            bots[seat] = TimedBot(make_bot(game, level, bot_seed), summary.tested_cpu)
        else:
            other = opponent(bot_seed) if opponent else make_bot(game, against, bot_seed)
            bots[seat] = TimedBot(other, summary.others_cpu)
    record = play_match(engine, chosen, bots)
    summary.games.append(
        GameResult(
            seed,
            tested_seat,
            tested_seat in record.outcome.winners,
            record.outcome.draw,
            record.outcome.reason,
            len(record.plies),
        )
    )
    return summary


def rotation(
    game: str, seeds: Iterable[int], params: dict[str, int | str] | None = None
) -> list[tuple[int, int]]:
    """(seed, seat of the bot under test) for each game of a match: the seat turns round."""
    engine = find_engine(game)
    chosen = dict(params if params is not None else engine.sample_params[0])
    seat_count = engine.seat_count(engine.initial_state(chosen))
    return [(seed, index % seat_count + 1) for index, seed in enumerate(seeds)]


def play_rotation(
    game: str,
    level: str,
    against: str,
    seeds: Iterable[int],
    *,
    params: dict[str, int | str] | None = None,
    opponent: Callable[[int], Bot] | None = None,
) -> MatchSummary:
    """One game per seed, the bot under test's seat rotated (``rotation``), in this process."""
    summary = MatchSummary()
    for seed, seat in rotation(game, seeds, params):
        summary.add(play_one(game, level, against, seed, seat, params=params, opponent=opponent))
    return summary
