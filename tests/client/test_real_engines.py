"""Whole games of every registered engine between in-memory peers, one peer per seat."""

from __future__ import annotations

import string

import pytest

from engines import engine_names, find_engine
from tests.client.harness import Setup, play
from tests.client.test_games import assert_one_chain_all_final_all_ended

CASES = [
    (name, index)
    for name in engine_names()
    for index in range(len(find_engine(name).sample_params))
]


@pytest.mark.parametrize(("game", "index"), CASES, ids=[f"{g}-{i}" for g, i in CASES])
def test_a_registered_game_plays_to_one_final_chain(game: str, index: int) -> None:
    engine = find_engine(game)
    params = engine.sample_params[index]
    seats = engine.seat_count(engine.initial_state(params))
    setup = Setup(list(string.ascii_uppercase[:seats]), engine=engine, params=params)
    router = play(setup, seed=index, max_delay=0.02, duplicate=0.1)
    assert_one_chain_all_final_all_ended(router)


def test_a_registered_game_with_bots_run_by_other_peers() -> None:
    engine, params, seats = next(
        (engine, p, seats)
        for engine in map(find_engine, engine_names())
        for p in engine.sample_params
        if (seats := engine.seat_count(engine.initial_state(p))) >= 3
    )
    plan = ["A", "B"] + [f"bot:{'AB'[i % 2]}" for i in range(seats - 2)]
    router = play(Setup(plan, engine=engine, params=params), seed=3, max_delay=0.02)
    assert_one_chain_all_final_all_ended(router)
