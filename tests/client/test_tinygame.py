"""The test engine follows its rules (it is the referee of every table test)."""

from __future__ import annotations

import random

import pytest

from engines.base import IllegalMove, InvalidMove, InvalidParams
from engines.canonical import encode_value
from tests.client.tinygame import ENGINE, GrabState


def test_take_one_to_three_and_turns_rotate() -> None:
    state = ENGINE.initial_state({"seats": 2, "pile": 21})
    assert ENGINE.legal_moves(state) == (1, 2, 3)
    state = ENGINE.apply(state, 2)
    assert (state.pile, ENGINE.to_move(state)) == (19, 2)
    with pytest.raises(IllegalMove, match="1, 2 or 3"):
        ENGINE.apply(state, 4)


def test_extra_move_on_a_multiple_of_five() -> None:
    state = ENGINE.apply(ENGINE.initial_state({"seats": 2, "pile": 21}), 1)
    assert (state.pile, ENGINE.to_move(state)) == (20, 1)


def test_capture_hands_the_next_seat_to_the_mover() -> None:
    state = ENGINE.apply(ENGINE.initial_state({"seats": 3, "pile": 30}), 3)
    assert ENGINE.to_move(state) == 2
    assert ENGINE.controller(state, 2) == 1
    assert ENGINE.controller(state, 3) == 3


def test_no_capture_with_two_seats_or_when_one_player_would_remain() -> None:
    two = ENGINE.apply(ENGINE.initial_state({"seats": 2, "pile": 30}), 3)
    assert ENGINE.controller(two, 2) == 2
    three = GrabState(30, 1, (1, 1, 3), (False,) * 3)
    after = ENGINE.apply(three, 3)  # next seat is 2 (controlled by 1): still two players
    assert after.controllers == (1, 1, 3)
    last = ENGINE.apply(GrabState(30, 2, (1, 1, 3), (False,) * 3), 3)
    assert last.controllers == (1, 1, 3)  # capturing seat 3 would leave one player


def test_last_stone_wins_for_the_controller() -> None:
    state = ENGINE.apply(GrabState(2, 2, (1, 1, 3), (False,) * 3), 2)
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.winners == (1,) and outcome.reason == "last-stone"
    with pytest.raises(IllegalMove, match="only 2 stones"):
        ENGINE.apply(GrabState(2, 2, (1, 2, 3), (False,) * 3), 3)


def test_resignation_and_draw() -> None:
    state = ENGINE.initial_state({"seats": 3})
    state = ENGINE.resign(state, 1)
    assert ENGINE.to_move(state) == 2 and state.out == (True, False, False)
    state = ENGINE.resign(state, 2)
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.winners == (3,) and outcome.reason == "resignation"
    drawn = ENGINE.agree_draw(ENGINE.initial_state({}))
    assert ENGINE.outcome(drawn) is not None and ENGINE.outcome(drawn).draw  # type: ignore[union-attr]


def test_bad_params_wire_and_notation() -> None:
    with pytest.raises(InvalidParams):
        ENGINE.initial_state({"seats": 7})
    with pytest.raises(InvalidParams):
        ENGINE.initial_state({"colour": 1})
    with pytest.raises(InvalidMove):
        ENGINE.move_from_wire([True])
    with pytest.raises(InvalidMove):
        ENGINE.parse_move(ENGINE.initial_state({}), "t4")
    state = ENGINE.initial_state({})
    for move in ENGINE.legal_moves(state):
        assert ENGINE.parse_move(state, ENGINE.format_move(state, move)) == move
        assert ENGINE.move_from_wire(ENGINE.move_to_wire(move)) == move


def test_random_playouts_end_and_encode() -> None:
    rng = random.Random(1)
    for seats in (2, 3, 4):
        state = ENGINE.initial_state({"seats": seats, "pile": 60})
        while ENGINE.outcome(state) is None:
            state = ENGINE.apply(state, rng.choice(ENGINE.legal_moves(state)))
            encode_value(state)
        assert ENGINE.to_move(state) is None
