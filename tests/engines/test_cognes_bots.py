"""Cognes bots and the mirror finding (rules/cognes.md section 1, last point).

With an even number of outer coins, coin k and coin k + N/2 start as exact mirror images
through the middle, and flips mirror exactly (V[k + 360] = -V[k]).  So the second of two
players can answer every legal flip with its mirror image, which is always legal too: the
first player runs out of legal flips first.  These tests play sampled games to check it.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from client.bots import RandomBot, make_bot
from client.bots.cognes import (
    CarefulRandomBot,
    MirrorBot,
    SensibleBot,
    coin_grundy,
    mirror_reply,
)
from client.bots.match import play_match
from engines import find_engine
from engines.cognes import Flip, judge_flip, legal_flips

ENGINE = find_engine("cognes")
FAR = ((0, 1750), (-1750, 0), (0, -1750), (1750, 0))


class RecordingMirror(MirrorBot):
    """A MirrorBot that counts the times it had no mirror reply."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.misses = 0

    def choose(self, engine: Any, state: Any) -> Flip:
        if mirror_reply(state) is None:
            self.misses += 1
        return super().choose(engine, state)


@pytest.mark.parametrize("coins", [4, 6, 8, 10, 12])
@pytest.mark.parametrize("seed", range(3))
def test_with_even_coins_the_mirroring_second_player_wins(coins: int, seed: int) -> None:
    mirror = RecordingMirror(seed)
    params = {"coins": coins, "allow_fouls": 0}
    match = play_match(ENGINE, params, {1: CarefulRandomBot(seed), 2: mirror})
    assert match.outcome.winners == (2,)
    assert match.outcome.reason == "last-flip"
    assert mirror.misses == 0, "a legal flip had no legal mirror image"


@pytest.mark.parametrize(
    "params",
    [
        {"coins": 6, "coin_radius": 60, "min_gain": 7},
        {"coins": 8, "coin_radius": 200, "start_radius": 1999, "min_gain": 333},
        {"coins": 24, "coin_radius": 150, "start_radius": 2000},
    ],
)
def test_the_mirror_finding_holds_with_other_options(params: dict[str, int]) -> None:
    mirror = RecordingMirror(7)
    match = play_match(ENGINE, {**params, "allow_fouls": 0}, {1: CarefulRandomBot(7), 2: mirror})
    assert match.outcome.winners == (2,) and mirror.misses == 0


@pytest.mark.slow
def test_the_mirror_beats_the_sensible_bot_too() -> None:
    for seed in range(2):
        mirror = RecordingMirror(seed)
        match = play_match(ENGINE, {"coins": 8}, {1: SensibleBot(seed), 2: mirror})
        assert match.outcome.winners == (2,) and mirror.misses == 0


def test_with_odd_coins_there_is_no_mirror_to_restore() -> None:
    state = ENGINE.initial_state({"coins": 7})
    state = ENGINE.apply(state, legal_flips(state)[0])
    assert mirror_reply(state) is None


def test_mirror_reply_restores_the_mirror_image() -> None:
    state = ENGINE.initial_state({"coins": 6})
    state = ENGINE.apply(state, Flip(1, 700))
    reply = mirror_reply(state)
    assert reply is not None and reply.coin == 4
    after = ENGINE.apply(state, reply)
    for k in range(3):
        x, y = after.centres[k]
        assert after.centres[k + 3] == (-x, -y)


def test_sensible_bot_never_fouls_and_is_deterministic() -> None:
    params = {"seats": 3, "coins": 6}
    first = play_match(ENGINE, params, {seat: SensibleBot(seat) for seat in (1, 2, 3)})
    again = play_match(ENGINE, params, {seat: SensibleBot(seat) for seat in (1, 2, 3)})
    assert [p.notation for p in first.plies] == [p.notation for p in again.plies]
    assert not any(p.notation.endswith("!") for p in first.plies)
    assert first.outcome.reason == "last-flip"


def test_sensible_bot_takes_the_last_legal_flip_when_it_can() -> None:
    # Only coin 0 is free, at (0, 770): a flip landing within 2r + G = 290 of the middle
    # (and clear of it) leaves no legal flip, and wins.
    state = ENGINE.initial_state({"coins": 4})
    state = replace(state, centres=((0, 530), *FAR[1:]), frozen=(False, True, True, True))
    flip = SensibleBot(0).choose(ENGINE, state)
    after = ENGINE.apply(state, flip)
    outcome = ENGINE.outcome(after)
    assert outcome is not None and outcome.winners == (1,)


def test_sensible_bot_mirrors_as_the_second_of_two_players() -> None:
    state = ENGINE.initial_state({"coins": 8})
    state = ENGINE.apply(state, Flip(2, 10))
    assert SensibleBot(0).choose(ENGINE, state) == mirror_reply(state) == Flip(6, 370)


def test_coin_grundy_follows_the_subtraction_game() -> None:
    state = ENGINE.initial_state({})  # r = 120, D = 240, G = 50: ring at 240, period 290
    assert coin_grundy(state, (0, 241)) == 0  # room 1
    assert coin_grundy(state, (0, 290)) == 0  # room 50 = G: stuck against the middle
    assert coin_grundy(state, (0, 291)) == 1  # room 51: one flip of at least G is left
    assert coin_grundy(state, (0, 240 + 290)) == 5
    assert coin_grundy(state, (0, 240 + 291)) == 0  # a full period: back to zero


def test_make_bot_gives_the_cognes_sensible_bot() -> None:
    assert isinstance(make_bot("cognes", "sensible", 1), SensibleBot)


@pytest.mark.slow
def test_sensible_bot_beats_random_in_80_of_100_games() -> None:
    wins = 0
    for seed in range(100):
        seat = 1 + seed % 2
        bots = {seat: SensibleBot(seed), 3 - seat: RandomBot(seed)}
        match = play_match(ENGINE, {"seats": 2}, bots)
        wins += seat in match.outcome.winners
        for ply in match.plies:
            if ply.seat == seat:
                assert not ply.notation.endswith("!")
    assert wins >= 80, f"the sensible bot won only {wins} of 100 games"


def test_every_listed_flip_of_a_bot_is_legal() -> None:
    state = ENGINE.initial_state({"coins": 5, "seats": 4})
    for seed in range(3):
        flip = SensibleBot(seed).choose(ENGINE, state)
        assert not judge_flip(state, flip).is_foul
