"""Random playouts: a judge of crowded Cognes endings for the strong bot.

The strong bot's search ends on the coins' lone-coin Grundy sum, which is right while the
coins are far apart and often wrong once they crowd the middle, where one coin's landing
takes another's room.  A playout does not care: both sides flip at random (a legal flip,
never a foul) to the end, and the share of playouts the player to move wins says how easy the
position is to win against a player who errs, the very player the strong bot must beat.

``rank`` shares a budget of playout flips (a count, not a clock, so a seed plays the same game
on any machine) among candidate flips by successive halving: every candidate gets a few
playouts, the better half gets as many more, and so on, so the budget goes to the flips that
still look best.  The coins' legal runs come from the bot's ``RunsCache``.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from engines.cognes import CognesState, Flip
from engines.cognes_exact import Point, displacements

__all__ = ["PLAYOUT_BUDGET", "rank"]

PLAYOUT_BUDGET = 2500
"""Flips played in playouts, at most, a move (about 0.1 ms of CPU each)."""
FIRST_ROUND = 4
"""Playouts of every candidate in the first round; each next round doubles it."""

Centres = tuple[Point, ...]
RunsOf = Callable[[Centres, int], list[tuple[int, int]]]


def _playout(
    centres: Centres, runs_of: RunsOf, vectors: tuple[Point, ...], rng: random.Random
) -> int:
    """Flips played at random from ``centres`` until no legal flip is left."""
    plies = 0
    coins = range(len(centres))
    while True:
        runs = [runs_of(centres, coin) for coin in coins]
        total = sum(stop - start for coin_runs in runs for start, stop in coin_runs)
        if total == 0:
            return plies
        pick = rng.randrange(total)
        for coin, coin_runs in enumerate(runs):
            for start, stop in coin_runs:
                if pick < stop - start:
                    x, y = centres[coin]
                    vx, vy = vectors[start + pick]
                    centres = (*centres[:coin], (x + vx, y + vy), *centres[coin + 1 :])
                    break
                pick -= stop - start
            else:
                continue
            break
        plies += 1


def rank(
    state: CognesState,
    candidates: list[tuple[Flip, Centres]],
    runs_of: RunsOf,
    rng: random.Random,
    budget: int = PLAYOUT_BUDGET,
) -> list[tuple[Flip, float]]:
    """``candidates`` (a flip and the position it leaves) by random playouts, best first,
    each with the share of its playouts won:
    the last round's survivors by the share of playouts won by the player who flips, then
    the others by the same share (a candidate the budget never reached is left out); ties
    keep the order given."""
    vectors = displacements(2 * state.coin_radius)
    won = {flip: 0 for flip, _ in candidates}
    played = {flip: 0 for flip, _ in candidates}
    alive = list(candidates)
    per = FIRST_ROUND
    spent = 0
    while alive and spent < budget:
        for flip, after in alive:
            if spent >= budget:
                break
            for _ in range(per):
                plies = _playout(after, runs_of, vectors, rng)
                spent += plies + 1
                # An even count after our flip: we made the last legal flip.
                won[flip] += plies % 2 == 0
                played[flip] += 1
        alive = [item for item in alive if played[item[0]]]
        alive.sort(key=lambda item: -won[item[0]] / played[item[0]])
        if len(alive) <= 1:
            break
        alive = alive[: (len(alive) + 1) // 2]
        per *= 2
    best = [flip for flip, _ in alive]
    kept = set(best)
    rest = [flip for flip, _ in candidates if flip not in kept and played[flip]]
    rest.sort(key=lambda flip: -won[flip] / played[flip])
    return [(flip, won[flip] / played[flip]) for flip in best + rest]
