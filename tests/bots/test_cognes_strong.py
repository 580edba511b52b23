"""The strong Cognes bot: picked by its level, deterministic for a seed, never a foul, right
where the endgame can be solved exactly, and stronger than the sensible bot and than a random
player that never fouls (slow)."""

from __future__ import annotations

import random
from functools import cache

import pytest

from client.bots import make_bot
from client.bots.cognes import (
    CarefulRandomBot,
    SensibleBot,
    movable_coins,
    winning_flips,
    wins_at_once_now,
)
from client.bots.cognes_playouts import rank
from client.bots.cognes_strong import (
    FULL_WIDTH,
    PER_RUN,
    RunsCache,
    StrongBot,
    _Search,
    search_flip,
)
from engines import find_engine
from engines.cognes import CognesState, legal_flips
from engines.cognes_flips import flip_runs
from tests.bots.matches import strong_wins

ENGINE = find_engine("cognes")


@cache
def _games(count: int = 6) -> tuple[tuple[CognesState, ...], ...]:
    """Every position of ``count`` games between sensible bots, to their end."""
    games = []
    for seed in range(count):
        bots = {1: SensibleBot(seed * 100 + 1), 2: SensibleBot(seed * 100 + 2)}
        state = ENGINE.initial_state({"seats": 2})
        states = []
        while ENGINE.outcome(state) is None:
            states.append(state)
            state = ENGINE.apply(state, bots[state.turn].choose(ENGINE, state))
        games.append(tuple(states))
    return tuple(games)


class _TooBig(Exception):
    pass


def _mover_wins(state: CognesState, seen: dict[object, bool], limit: int = 2000) -> bool:
    """Exactly, over every legal flip: the player to move can force the last legal flip
    (``_TooBig`` past ``limit`` positions; ``seen`` holds the positions decided)."""
    if state.centres in seen:
        return seen[state.centres]
    if len(seen) > limit:
        raise _TooBig
    won = False
    for flip in legal_flips(state):
        after = ENGINE.apply(state, flip)
        if ENGINE.outcome(after) is not None or not _mover_wins(after, seen, limit):
            won = True
            break
    seen[state.centres] = won
    return won


def _solved(state: CognesState) -> bool | None:
    """Whether the player to move wins, or None when the exact search is too big."""
    try:
        return _mover_wins(state, {})
    except _TooBig:
        return None


def test_the_strong_level_is_this_bot() -> None:
    assert isinstance(make_bot("cognes", "strong", 1), StrongBot)


def test_it_refuses_another_game() -> None:
    other = find_engine("discorder")
    with pytest.raises(TypeError, match="Cognes"):
        StrongBot(0).choose(other, other.initial_state(other.sample_params[0]))


def test_it_is_deterministic_for_a_seed_and_never_fouls() -> None:
    """From the start and through the endgame, where it searches."""
    game = _games()[0]
    for state in (game[0], *game[-6:]):
        move = StrongBot(3).choose(ENGINE, state)
        assert move == StrongBot(3).choose(ENGINE, state)
        assert move in legal_flips(state)


def test_its_cache_gives_the_engines_answers() -> None:
    """One cache through whole games, every coin of every position: the same runs, and the
    same "has a legal flip", as the engine computes afresh (the key holds all they read)."""
    for game in _games()[:3]:
        cache = RunsCache(game[0].coin_radius, game[0].min_gain)
        for state in game:
            for coin in range(len(state.centres)):
                legal = flip_runs(state.centres, coin, state.coin_radius, state.min_gain, False)
                assert cache.has_legal(state.centres, coin) == bool(legal[0])
                assert cache.runs(state.centres, coin) == legal[0]
                assert cache.has_legal(state.centres, coin) == bool(legal[0])


def test_a_warm_cache_changes_no_flip() -> None:
    """The search with a cache filled by the game's earlier moves picks the flip a fresh one
    does, with the same seed: the cache only saves time."""
    game = _games()[1]
    state = game[0]
    warm = RunsCache(state.coin_radius, state.min_gain)
    checked = 0
    for state in game[-8:]:
        fresh = search_flip(state, random.Random(5))
        assert search_flip(state, random.Random(5), warm) == fresh
        checked += fresh is not None
    assert checked > 0  # the search found won flips, not only None


def test_a_small_position_has_every_legal_flip_tried_and_a_sample_says_so() -> None:
    """The search's children are every legal flip at most ``FULL_WIDTH`` of them, and a
    sampled list is never taken for all of them (a loss is proven only over every flip)."""
    small = large = 0
    for game in _games()[:3]:
        for state in game[-12:]:
            legal = legal_flips(state)
            tried, every = _Search(state, RunsCache(state.coin_radius, state.min_gain)).keyed(
                state.centres, PER_RUN, FULL_WIDTH
            )
            flips = sorted(flip for _, flip, _ in tried)
            if len(legal) <= FULL_WIDTH:
                assert every and flips == sorted(legal)
                small += 1
            else:
                assert every == (flips == sorted(legal))
                large += not every
    assert small > 0 and large > 0


def test_it_takes_a_win_at_once() -> None:
    checked = 0
    for game in _games():
        for state in game[-10:]:
            if wins_at_once_now(ENGINE, state):
                after = ENGINE.apply(state, StrongBot(1).choose(ENGINE, state))
                assert ENGINE.outcome(after) is not None
                checked += 1
    assert checked > 0  # the positions held a win to take


def test_it_wins_every_small_endgame_that_can_be_won() -> None:
    """Positions of at most 40 legal flips that an exact search over every flip solves: where
    the player to move can force the last legal flip, the strong bot's flip does."""
    checked = 0
    for game in _games():
        for state in game:
            if len(legal_flips(state)) > 40 or not _solved(state):
                continue
            after = ENGINE.apply(state, StrongBot(2).choose(ENGINE, state))
            assert ENGINE.outcome(after) is not None or _solved(after) is False
            checked += 1
    assert checked > 0


@pytest.mark.slow
def test_the_strong_bot_beats_the_sensible_bot() -> None:
    """12 seeded games, seats alternating (half is par): 11 won (seeds 0-11, the first games
    of the match in docs/BENCHMARKS.md); at least 7."""
    assert strong_wins("cognes", "normal", 12) >= 7


@pytest.mark.slow
def test_the_strong_bot_beats_a_random_player_that_never_fouls() -> None:
    """12 seeded games, seats alternating: 11 won (the sensible bot wins about 70 % of such
    games; docs/BENCHMARKS.md has the match); at least 10."""
    assert strong_wins("cognes", "normal", 12, opponent=CarefulRandomBot) >= 10


def test_playouts_rank_a_flip_that_ends_the_game_first() -> None:
    """A flip after which no legal flip is left wins every playout: put last among up to 40
    of the position's flips, random playouts rank it with the flips that won every
    playout (some force the win), ahead of the others; the same for a seed."""
    checked = 0
    for game in _games():
        for state in game[-6:]:
            flips = legal_flips(state)
            wins = winning_flips(ENGINE, state, flips, movable_coins(state))
            if not wins or len(wins) == len(flips):
                continue
            cache = RunsCache(state.coin_radius, state.min_gain)
            others = [flip for flip in flips if flip not in wins][:40]
            candidates = [(flip, ENGINE.apply(state, flip).centres) for flip in (*others, wins[0])]
            ranked = rank(state, candidates, cache.runs, random.Random(4))
            shares = dict(ranked)
            assert shares[wins[0]] == 1.0  # every playout won
            flips_ranked = [flip for flip, _ in ranked]
            assert flips_ranked.index(wins[0]) < sum(share == 1.0 for _, share in ranked)
            assert ranked == rank(state, candidates, cache.runs, random.Random(4))
            checked += 1
    assert checked > 0
