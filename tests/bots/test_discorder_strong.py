"""The strong Discorder bot: picked by its level, deterministic for a seed, legal, and stronger
than the sensible bot (slow)."""

from __future__ import annotations

import pytest

from client.bots import make_bot
from client.bots.discorder_strong import SEARCH
from client.bots.reply_search import SearchBot
from engines import find_engine
from tests.bots.matches import strong_wins

ENGINE = find_engine("discorder")


def strong(seed: int) -> SearchBot:
    return SearchBot(seed, SEARCH)


def _is_strong(bot: object) -> bool:
    return isinstance(bot, SearchBot) and bot.search is SEARCH


def test_the_strong_level_is_this_bot() -> None:
    assert _is_strong(make_bot("discorder", "strong", 1))


def test_it_refuses_another_game() -> None:
    other = find_engine("cognes")
    with pytest.raises(TypeError, match="Discorder"):
        strong(0).choose(other, other.initial_state(other.sample_params[0]))


def test_it_is_deterministic_for_a_seed_and_plays_legal_moves() -> None:
    state = ENGINE.initial_state({"seats": 2})
    first, again = strong(3), strong(3)
    for _ in range(2):
        move = first.choose(ENGINE, state)
        assert move == again.choose(ENGINE, state)
        assert move in ENGINE.legal_moves(state)
        state = ENGINE.apply(state, move)


@pytest.mark.slow
def test_the_strong_bot_beats_the_sensible_bot() -> None:
    """6 seeded games, seats alternating (half is par): 5 won here (about 25 s of CPU), and
    see docs/BENCHMARKS.md for 200; at least 4 of 6."""
    assert strong_wins("discorder", "normal", 6) >= 4
