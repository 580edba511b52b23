"""A strong Cognes bot: the sensible bot until the coins crowd the middle, then a search.

Cognes between two careful players is an impartial game won by the last legal flip, and the
sensible bot (``client.bots.cognes``) plays it by the coins' Grundy values, each coin counted
alone.  That is right while the coins are far apart and wrong once they crowd the middle,
where one coin's landing takes another's room: that is where games between sensible players
are decided.  So, with two players left and at most ``ENDGAME_FLIPS`` legal flips on the
table, this bot searches:

* every free coin's legal directions come from the engine's own exact search
  (``engines.cognes_flips.flip_runs``, contiguous runs of directions); of each run it tries
  at most ``PER_RUN`` directions spread evenly, both ends included, so it weighs every coin,
  both sides of it and every distance a flip of it can reach;
* a position with at most ``FULL_WIDTH`` legal flips has every one of them tried, and a loss
  counts as proven only where every legal flip was tried: a sample once let the search call
  a flip a proven win that an unsampled answer refuted (and stop deepening there);
* a position with no legal flip at all is lost for the player to move (the rules' end, found
  exactly since the runs are exact); at the search's horizon a position counts as won for the
  player to move when the sensible bot's Grundy sum is not zero;
* it is a negamax over won/lost with a table of positions already decided, deepened one ply
  at a time while ``WORK_BUDGET`` allows (a count, not a clock, so that a seed
  plays the same game on any machine), flips the Grundy sum likes first;
* a coin's runs are kept (``RunsCache``) by its centre and the coins near enough to matter,
  from node to node and move to move: a flip moves one coin, so most coins of a position
  keep the answer they had in its sibling; the budget still counts every coin looked at;
* a flip after which no legal flip is left wins at once: it looks for one among every legal
  flip first, as the sensible bot does;
* a flip the search proves won (every line decided without reaching the horizon) is
  played; where it proves nothing, the horizon's Grundy sum misjudged crowded endings (the
  lost games traced showed it), so random playouts judge instead
  (``client.bots.cognes_playouts``): a spread of the legal flips, ``JUDGED_PER_RUN`` a
  run, and the search's own, ranked by the share of playouts won, the best one not
  refuted by a reply that ends the game at once.  Against a player who errs that share is
  what counts, and in a lost position it finds the flip that leaves the most ways to err;
  when every one checked is refuted it plays the search's flip, else the sensible bot's
  move.

Only legal flips are ever played (never a foul).  Measured against the sensible bot and a
random player that never fouls: docs/BENCHMARKS.md ("Cognes").
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import TypeVar

from client.bots.cognes import SensibleBot, movable_coins, winning_flips, wins_at_once_now
from client.bots.cognes_playouts import rank
from engines import AnyEngine
from engines.cognes import CognesEngine, CognesState, Flip, legal_flips
from engines.cognes_exact import Point, displacements
from engines.cognes_flips import Runs, flip_runs

__all__ = [
    "ENDGAME_FLIPS",
    "PER_RUN",
    "ROOT_PER_RUN",
    "WORK_BUDGET",
    "RunsCache",
    "StrongBot",
    "search_flip",
]

ENDGAME_FLIPS = 1000
"""The search starts once at most this many legal flips are left (about the last 20 plies
of a default game); before that the coins barely touch and the Grundy sum is right."""
PER_RUN = 4
"""Directions tried per run of legal directions inside the search."""
ROOT_PER_RUN = 8
"""Directions tried per run for the move itself."""
FULL_WIDTH = 48
"""A position of the search with at most this many legal flips has every one tried: near
the end a sample misses the one flip that refutes a win (random players found them)."""
ROOT_FULL_WIDTH = 48
"""The same for the move itself."""
DIRECTIONS = 720
WORK_BUDGET = 30000
"""Work per move, at most, counted in coins looked at: a coin's full list of runs counts
``FULL_COST``, a look for one legal flip (at the horizon) counts 1.  A count, not a clock."""
FULL_COST = 4
MAX_DEPTH = 40
JUDGED_PER_RUN = 3
"""Directions per run the playouts judge where the search proved nothing."""
JUDGED_CHECKS = 4
"""The playouts' best flips checked for a reply that ends the game at once, at most."""
_V = TypeVar("_V")

Centres = tuple[Point, ...]
CACHE_LIMIT = 50_000
"""Coins' answers kept at most per table of ``RunsCache`` (emptied when full), a few tens of
MB at worst: a whole default game fills about 12,000 of them."""


class RunsCache:
    """A coin's legal runs, and whether it has a legal flip at all, by what decides them.

    ``flip_runs`` reads only the coin's centre and the coins within 2r + D + 1 of it (plus the
    fixed radius and gain), so that is the key: a flip moves one coin, and every coin far from
    both its ends keeps its answer, in the sibling positions of the search and in the next
    move's.  The answers are the engine's own, so the search plays exactly the same flips; it
    only stops computing them again (most of its time went there).  Its work budget still
    counts every coin looked at, found here or not, so the count stays machine-independent.
    """

    def __init__(self, radius: int, gain: int) -> None:
        self.radius, self.gain = radius, gain
        self.reach2 = (4 * radius + 2) ** 2  # as engines.cognes_flips gathers a coin's near ones
        self.full: dict[Centres, Runs] = {}
        self.any: dict[Centres, bool] = {}

    def key(self, centres: Centres, coin: int) -> Centres:
        centre = centres[coin]
        cx, cy = centre
        reach2 = self.reach2
        # The points themselves, not copies: the positions of a search share them.
        near = [
            point
            for j, point in enumerate(centres)
            if j != coin and (point[0] - cx) ** 2 + (point[1] - cy) ** 2 <= reach2
        ]
        return (centre, *near)

    def runs(self, centres: Centres, coin: int) -> Runs:
        key = self.key(centres, coin)
        found = self.full.get(key)
        if found is None:
            found = flip_runs(centres, coin, self.radius, self.gain, False)[0]
            _bounded_put(self.full, key, found)
        return found

    def has_legal(self, centres: Centres, coin: int) -> bool:
        key = self.key(centres, coin)
        runs = self.full.get(key)
        if runs is not None:
            return bool(runs)
        found = self.any.get(key)
        if found is None:
            found = bool(flip_runs(centres, coin, self.radius, self.gain, True)[0])
            _bounded_put(self.any, key, found)
        return found


def _bounded_put(table: dict[Centres, _V], key: Centres, value: _V) -> None:
    if len(table) >= CACHE_LIMIT:
        table.clear()
    table[key] = value


class _OutOfNodes(Exception):
    """The node budget ran out in the middle of a depth: that depth's answer is dropped."""


class _Search:
    """One move's search: the fixed part of the position and the table of decided ones."""

    def __init__(self, state: CognesState, cache: RunsCache) -> None:
        self.cache = cache
        self.radius = state.coin_radius
        self.gain = state.min_gain
        self.frozen = state.frozen
        self.vectors = displacements(2 * state.coin_radius)
        self.stuck2 = (2 * state.coin_radius + state.min_gain) ** 2
        self.work = 0
        # position -> (depth searched, won for the player to move, proven without a horizon)
        self.table: dict[Centres, tuple[int, bool, bool]] = {}

    # --- the position's flips and its value at the horizon -------------------------------
    def runs(self, centres: Centres, coin: int) -> list[tuple[int, int]]:
        if self.frozen[coin]:
            return []
        x, y = centres[coin]
        if x * x + y * y <= self.stuck2:  # it could only land on the middle coin
            return []
        self._spend(FULL_COST)
        return self.cache.runs(centres, coin)

    def _spend(self, cost: int) -> None:
        self.work += cost
        if self.work > WORK_BUDGET:
            raise _OutOfNodes

    def grundy(self, centre: Point) -> int:
        room = math.isqrt(centre[0] ** 2 + centre[1] ** 2) - 2 * self.radius
        if room <= self.gain:
            return 0
        return ((room - 1) % (self.gain + 2 * self.radius)) // self.gain

    def children(self, centres: Centres) -> tuple[list[tuple[Flip, Centres]], bool]:
        """The tried flips and the positions they leave, the Grundy sum's choice first, and
        whether they are every legal flip (else a sample)."""
        tried, every = self.keyed(centres, PER_RUN, FULL_WIDTH)
        return [(flip, after) for _, flip, after in sorted(tried, key=_first)], every

    def keyed(
        self, centres: Centres, per_run: int, full_width: int
    ) -> tuple[list[tuple[int, Flip, Centres]], bool]:
        """The tried flips, each with 0 when it leaves the lone-coin Grundy sum at zero (else
        1) and the position it leaves, in the coins' order; and whether they are every legal
        flip: all of them when at most ``full_width`` are legal, else ``per_run`` a run."""
        tried: list[tuple[int, Flip, Centres]] = []
        values = []
        coin_runs = []
        legal = 0
        for coin, centre in enumerate(centres):
            runs = self.runs(centres, coin)
            coin_runs.append(runs)
            values.append(self.grundy(centre) if runs else 0)
            legal += sum(stop - start for start, stop in runs)
        every = legal <= full_width
        width = DIRECTIONS if every else per_run
        every = every or all(stop - start <= per_run for runs in coin_runs for start, stop in runs)
        total = 0
        for value in values:
            total ^= value
        for coin, runs in enumerate(coin_runs):
            cx, cy = centres[coin]
            rest = total ^ values[coin]
            for direction in _spread(runs, width):
                vx, vy = self.vectors[direction]
                landing = (cx + vx, cy + vy)
                after = (*centres[:coin], landing, *centres[coin + 1 :])
                # 0 sorts first: the flip leaves the (lone-coin) Grundy sum at zero.
                key = 0 if rest ^ self.grundy(landing) == 0 else 1
                tried.append((key, Flip(coin, direction), after))
        return tried, every

    def horizon(self, centres: Centres) -> bool:
        """Won for the player to move, by the Grundy sum of the coins that can still flip."""
        total = 0
        for coin, centre in enumerate(centres):
            if self.runs_any(centres, coin):
                total ^= self.grundy(centre)
        return total != 0

    def runs_any(self, centres: Centres, coin: int) -> bool:
        if self.frozen[coin]:
            return False
        x, y = centres[coin]
        if x * x + y * y <= self.stuck2:
            return False
        self._spend(1)
        return self.cache.has_legal(centres, coin)

    # --- negamax over won/lost ---------------------------------------------------------
    def won(self, centres: Centres, depth: int) -> tuple[bool, bool]:
        """(won for the player to move, proven: decided without reaching the horizon)."""
        known = self.table.get(centres)
        if known is not None and (known[0] >= depth or known[2]):
            return known[1], known[2]
        if depth == 0:
            return self.horizon(centres), False
        children, every = self.children(centres)
        if not children:
            self.table[centres] = (depth, False, True)
            return False, True
        proven = every  # a loss is proven only when every legal flip was tried
        for _, after in children:
            lost, exact = self.won(after, depth - 1)
            if not lost:
                self.table[centres] = (depth, True, exact)
                return True, exact
            proven = proven and exact
        self.table[centres] = (depth, False, proven)
        return False, proven


def _first(item: tuple[int, Flip, Centres]) -> int:
    return item[0]


def _spread(runs: list[tuple[int, int]], per_run: int) -> list[int]:
    """At most ``per_run`` directions of each run, evenly spread, both ends included."""
    chosen: list[int] = []
    for start, stop in runs:
        length = stop - start
        if length <= per_run:
            chosen.extend(range(start, stop))
        else:
            last = length - 1
            chosen.extend(start + last * i // (per_run - 1) for i in range(per_run))
    return chosen


def search_flip(
    state: CognesState,
    rng: random.Random,
    cache: RunsCache | None = None,
    refuted: Callable[[Flip], bool] | None = None,
) -> Flip | None:
    """A flip the deepest finished search calls won for the player to move, or None
    (``search_root`` without saying whether the win is proven)."""
    return search_root(state, rng, cache, refuted)[0]


def search_root(
    state: CognesState,
    rng: random.Random,
    cache: RunsCache | None = None,
    refuted: Callable[[Flip], bool] | None = None,
) -> tuple[Flip | None, bool]:
    """A flip the deepest finished search calls won for the player to move, or None, and
    whether that is proven (every line decided without reaching the horizon).

    The root's flips are shuffled by ``rng`` (so seeds play different games) and each depth
    stops at the first won flip, which the next depth tries first.  ``cache`` (made here
    when missing or for other options) only saves work: the flip is the same without it.
    A flip the search calls won is checked with ``refuted`` (asked once a flip) when given:
    the search samples the replies of a wide position, and a sample can miss the one reply
    that ends the game at once, which a random player finds often enough to matter.
    """
    checked: dict[Flip, bool] = {}

    def good(flip: Flip) -> bool:
        if refuted is None:
            return True
        if flip not in checked:
            checked[flip] = not refuted(flip)
        return checked[flip]

    if cache is None or (cache.radius, cache.gain) != (state.coin_radius, state.min_gain):
        cache = RunsCache(state.coin_radius, state.min_gain)
    search = _Search(state, cache)
    keyed, every = search.keyed(state.centres, ROOT_PER_RUN, ROOT_FULL_WIDTH)
    rng.shuffle(keyed)
    root = [(flip, after) for _, flip, after in sorted(keyed, key=_first)]
    best: Flip | None = None
    best_proven = False
    depth = 1
    while True:
        found: Flip | None = None
        proven = every  # every flip tried so far was decided without the horizon
        try:
            for index, (flip, after) in enumerate(root):
                lost, exact = search.won(after, depth - 1)
                proven = proven and exact
                if not lost and good(flip):
                    found = flip
                    root.insert(0, root.pop(index))
                    proven = exact
                    break
        except _OutOfNodes:
            break
        best, best_proven = found, proven
        if proven or depth >= MAX_DEPTH:
            break  # a proven win, or every flip proven lost: nothing deeper to learn
        depth += 1
    return best, best_proven


class StrongBot:
    """The sensible bot, then the endgame search above; deterministic given ``seed``."""

    def __init__(self, seed: int) -> None:
        self._sensible = SensibleBot(seed)
        self._rng = random.Random(seed)
        self._cache: RunsCache | None = None  # kept from move to move: the game goes on

    def choose(self, engine: AnyEngine, state: CognesState) -> Flip:
        if not isinstance(engine, CognesEngine):
            raise TypeError(f"the Cognes bot plays Cognes, not {engine.name}")
        if state.out.count(False) == 2 and _few_flips(state):
            wins = winning_flips(engine, state, legal_flips(state), movable_coins(state))
            if wins:  # every legal flip looked at, not only the ones the search tries
                return wins[self._rng.randrange(len(wins))]
            if self._cache is None or (self._cache.radius, self._cache.gain) != (
                state.coin_radius,
                state.min_gain,
            ):
                self._cache = RunsCache(state.coin_radius, state.min_gain)
            refuted = _answered(engine, state)
            found, proven = search_root(state, self._rng, self._cache, refuted)
            if found is not None and proven:
                return found
            judged = self._judged(state, found, refuted)
            if judged is not None:
                return judged
            if found is not None:
                return found
        move: Flip = self._sensible.choose(engine, state)
        return move

    def _judged(
        self, state: CognesState, found: Flip | None, refuted: Callable[[Flip], bool]
    ) -> Flip | None:
        """Where the search proved nothing, the flip random playouts like best among a
        spread of the legal ones (and the search's own), not refuted by a reply that ends
        the game at once; None when every one looked at is."""
        assert self._cache is not None
        search = _Search(state, self._cache)
        keyed, _ = search.keyed(state.centres, JUDGED_PER_RUN, FULL_WIDTH)
        candidates = [(flip, after) for _, flip, after in keyed]
        if found is not None and all(flip != found for flip, _ in candidates):
            x, y = state.centres[found.coin]
            vx, vy = search.vectors[found.direction]
            after = (
                *state.centres[: found.coin],
                (x + vx, y + vy),
                *state.centres[found.coin + 1 :],
            )
            candidates.insert(0, (found, after))
        cache, frozen = self._cache, state.frozen

        def runs_of(centres: Centres, coin: int) -> Runs:
            return [] if frozen[coin] else cache.runs(centres, coin)

        for flip, _ in rank(state, candidates, runs_of, self._rng)[:JUDGED_CHECKS]:
            if not refuted(flip):
                return flip
        return None


def _answered(engine: CognesEngine, state: CognesState) -> Callable[[Flip], bool]:
    """Whether the opponent wins at once after a flip, over every one of its legal flips."""

    def refuted(flip: Flip) -> bool:
        return wins_at_once_now(engine, engine.apply(state, flip))

    return refuted


def _few_flips(state: CognesState) -> bool:
    """At most ``ENDGAME_FLIPS`` legal flips left (counted from the runs, no list made)."""
    total = 0
    radius, gain = state.coin_radius, state.min_gain
    for coin in range(len(state.centres)):
        if not state.frozen[coin]:
            legal = flip_runs(state.centres, coin, radius, gain, False)[0]
            total += sum(stop - start for start, stop in legal)
    return total <= ENDGAME_FLIPS
