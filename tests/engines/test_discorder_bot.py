"""The sensible Discorder bot: sound choices on hand-made positions, determinism, strength."""

from __future__ import annotations

import pytest

from client.bots import RandomBot, make_bot
from client.bots.discorder import SensibleBot, evaluate
from client.bots.match import play_match
from engines.discorder import ENGINE
from tests.engines.test_discorder import position, tile


def test_the_bot_is_the_sensible_bot_of_discorder() -> None:
    assert isinstance(make_bot("discorder", "sensible", 3), SensibleBot)


def test_it_makes_a_secured_three_rather_than_a_four() -> None:
    # a1 b1 Jaune, d1 Noir: c1 makes a1-c1, closed by the edge and d1.
    state = position(
        """
        ........
        ........
        ........
        ........
        ........
        ......N.
        JJ.N....
        """
    )
    assert SensibleBot(0).choose(ENGINE, state) == tile("c1")


def test_it_does_not_give_a_point_away() -> None:
    # Every empty cell of row 1 but h1 lengthens Jaune's a1-c1 or e1-g1 to four or more.
    state = position(
        """
        ........
        ........
        ........
        NNJNNJNN
        JJNJJNJJ
        NNJNNJNN
        JJJ.JJJ.
        """
    )
    for seed in range(5):
        assert SensibleBot(seed).choose(ENGINE, state) not in (tile("d1"), tile("h1"))
    assert evaluate(ENGINE.apply(state, tile("h1")), 1) < evaluate(state, 1)


def test_the_same_seed_plays_the_same_game() -> None:
    def game(seed: int) -> list[str]:
        bots = {1: SensibleBot(seed), 2: SensibleBot(seed + 1)}
        return [ply.notation for ply in play_match(ENGINE, {"seats": 2}, bots).plies]

    assert game(4) == game(4)


@pytest.mark.slow
def test_it_beats_the_random_bot_in_at_least_80_of_100_games() -> None:
    wins = 0
    for seed in range(100):
        seat = 1 if seed % 2 == 0 else 2
        bots = {seat: SensibleBot(seed), 3 - seat: RandomBot(seed)}
        wins += play_match(ENGINE, {"seats": 2}, bots).outcome.winners == (seat,)
    assert wins >= 80, f"the sensible bot won only {wins} of 100 games"
