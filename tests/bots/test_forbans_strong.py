"""The strong Les Forbans bot: picked by its level, deterministic for a seed, legal with two
seats or teams, and stronger than the sensible bot (slow)."""

from __future__ import annotations

import pytest

from client.bots import make_bot
from client.bots.forbans import SensibleBot
from client.bots.forbans_strong import StrongBot
from engines import find_engine
from engines.forbans import PLACEMENTS, turn_of
from tests.bots.matches import strong_wins

ENGINE = find_engine("forbans")


def _placed(seats: int, seed: int = 1) -> object:
    """A position just after the placements, by sensible bots."""
    state = ENGINE.initial_state({"seats": seats})
    placer = SensibleBot(seed)
    while state.ply < PLACEMENTS:
        state = ENGINE.apply(state, placer.choose(ENGINE, state))
    return state


def test_the_strong_level_is_this_bot() -> None:
    assert isinstance(make_bot("forbans", "strong", 1), StrongBot)


def test_it_refuses_another_game() -> None:
    other = find_engine("discorder")
    with pytest.raises(TypeError, match="Forbans"):
        StrongBot(0).choose(other, other.initial_state(other.sample_params[0]))


@pytest.mark.parametrize("seats", [2, 4])
def test_it_is_deterministic_for_a_seed_and_plays_legal_moves(seats: int) -> None:
    state = _placed(seats)
    first, again = StrongBot(3), StrongBot(3)
    for _ in range(4):
        if ENGINE.outcome(state) is not None:
            break
        move = first.choose(ENGINE, state)
        assert move == again.choose(ENGINE, state)
        assert move in ENGINE.legal_moves(state)
        state = ENGINE.apply(state, move)


def test_it_takes_a_win_at_once() -> None:
    """From positions the sensible bots reach, whenever a move wins at once it is played."""
    checked = 0
    for seed in range(6):
        state = _placed(2, seed)
        bots = [SensibleBot(seed * 10 + 1), SensibleBot(seed * 10 + 2)]
        while ENGINE.outcome(state) is None and state.ply < PLACEMENTS + 60:
            side = turn_of(state.seats, state.ply)[0]
            winning = [
                m for m in ENGINE.legal_moves(state) if ENGINE.apply(state, m).winner == side
            ]
            if winning:
                assert ENGINE.apply(state, StrongBot(seed).choose(ENGINE, state)).winner == side
                checked += 1
            state = ENGINE.apply(state, bots[state.ply % 2].choose(ENGINE, state))
    assert checked > 0  # the positions held a win to take


@pytest.mark.slow
def test_the_strong_bot_beats_the_sensible_bot() -> None:
    """8 seeded games, seats alternating (half is par): 6 won here (about 30 s of CPU), and
    see docs/BENCHMARKS.md for 200; at least 5 of 8."""
    assert strong_wins("forbans", "normal", 8) >= 5
