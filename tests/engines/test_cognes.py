"""Cognes rules on hand-made positions: at least one test per rule of rules/cognes.md.

Positions are built from a real start state with ``dataclasses.replace``.  Directions used:
0 = +x, 180 = +y, 360 = -x, 540 = -y; with the default coin radius 120 the flip length is
D = 240 and those four flips are exactly (±240, 0) and (0, ±240).
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest

from engines import IllegalMove, InvalidMove, InvalidParams, find_engine
from engines.cognes import CognesState, Flip, has_legal_flip, legal_flips
from engines.playthrough import RandomMover

ENGINE = find_engine("cognes")
FAR = ((0, 1750), (-1750, 0), (0, -1750), (1750, 0))  # the 4-coin start, out of the way


def position(
    centres: tuple[tuple[int, int], ...],
    frozen: tuple[bool, ...] | None = None,
    **params: Any,
) -> CognesState:
    """A state with the given outer coins, from a real start position of as many coins."""
    state = ENGINE.initial_state({"coins": len(centres), **params})
    if frozen is None:
        frozen = (False,) * len(centres)
    return replace(state, centres=centres, frozen=frozen)


def legal(state: CognesState) -> list[Flip]:
    return [move for move in ENGINE.legal_moves(state) if not is_foul(state, move)]


def is_foul(state: CognesState, move: Flip) -> bool:
    return ENGINE.format_move(state, move).endswith("!")


# --- 1. geometry and options --------------------------------------------------------------


def test_defaults_put_seven_coins_on_the_start_circle_coin_0_at_twelve() -> None:
    state = ENGINE.initial_state({})
    assert (state.seats, state.coin_radius, state.start_radius, state.min_gain) == (
        2,
        120,
        1750,
        50,
    )
    assert state.allow_fouls
    assert len(state.centres) == 7
    assert state.centres[0] == (0, 1750)
    # coin 1 is 360/7 degrees counter-clockwise from twelve o'clock: up and to the left
    x, y = state.centres[1]
    assert x < 0 < y
    # every coin is on the circle up to the rounding of each coordinate
    for x, y in state.centres:
        assert abs(x * x + y * y - 1750 * 1750) <= 2 * 1750


def test_start_positions_round_half_away_from_zero() -> None:
    # 6 coins on a circle of odd radius: sin 150° = 1/2 makes y = 750.5 exactly.
    state = ENGINE.initial_state({"coins": 6, "start_radius": 1501})
    assert state.centres[0] == (0, 1501)
    assert state.centres[1] == (-1300, 751)  # 1501·cos 150° = -1299.9..., 750.5 -> 751
    assert state.centres[2] == (-1300, -751)
    assert state.centres[4] == (1300, -751)
    assert state.centres[3] == (0, -1501)


def test_four_coins_sit_at_the_four_quarters() -> None:
    state = ENGINE.initial_state({"coins": 4})
    assert state.centres == FAR


@pytest.mark.parametrize(
    ("params", "words"),
    [
        ({"seats": 1}, "seats"),
        ({"seats": 7}, "seats"),
        ({"coins": 3}, "coins"),
        ({"coins": 25}, "coins"),
        ({"coin_radius": 59}, "coin_radius"),
        ({"coin_radius": 201}, "coin_radius"),
        ({"start_radius": 1499}, "start_radius"),
        ({"start_radius": 2001}, "start_radius"),
        ({"min_gain": 0}, "min_gain"),
        ({"allow_fouls": 2}, "allow_fouls"),
        ({"coins": "7"}, "whole number"),
        ({"coin_radius": True}, "whole number"),
        ({"colour": 1}, "unknown option"),
    ],
)
def test_each_option_is_validated(params: dict[str, Any], words: str) -> None:
    with pytest.raises(InvalidParams, match=words):
        ENGINE.initial_state(params)


def test_min_gain_must_be_less_than_the_flip_length() -> None:
    with pytest.raises(InvalidParams, match="less than the flip length"):
        ENGINE.initial_state({"min_gain": 240})  # D = 2 × 120
    with pytest.raises(InvalidParams, match="less than the flip length"):
        ENGINE.initial_state({"coin_radius": 60, "min_gain": 130})
    assert ENGINE.initial_state({"min_gain": 239}).min_gain == 239


def test_layouts_where_coins_touch_at_the_start_are_refused() -> None:
    # 24 coins of radius 20 mm on a 150 mm circle: neighbours are 39.2 mm apart (< 40 mm).
    with pytest.raises(InvalidParams, match="coins 0 and 1 touch at the start"):
        ENGINE.initial_state({"coins": 24, "coin_radius": 200, "start_radius": 1500})
    # On a 200 mm circle they are 52.2 mm apart: accepted.
    ENGINE.initial_state({"coins": 24, "coin_radius": 200, "start_radius": 2000})


def test_allow_fouls_accepts_booleans() -> None:
    assert not ENGINE.initial_state({"allow_fouls": False}).allow_fouls
    assert ENGINE.initial_state({"allow_fouls": True}).allow_fouls


# --- 2. moves -------------------------------------------------------------------------------


def test_a_legal_flip_moves_the_coin_by_the_flip_vector_and_passes_the_turn() -> None:
    state = position(((0, 1000), *FAR[1:]))
    after = ENGINE.apply(state, Flip(0, 540))
    assert after.centres[0] == (0, 760)
    assert after.centres[1:] == state.centres[1:]
    assert ENGINE.to_move(after) == 2
    assert not any(after.frozen) and not any(after.out)


def test_the_middle_coin_has_no_number_and_never_moves() -> None:
    state = ENGINE.initial_state({})
    with pytest.raises(IllegalMove, match="no coin 7"):
        ENGINE.apply(state, Flip(7, 540))
    assert all(move.coin < 7 for move in ENGINE.legal_moves(state))


def test_a_flip_must_gain_at_least_min_gain_exactly() -> None:
    # From (-400, 300) (500 from the middle) the flip (+240, 0) lands at (-160, 300),
    # 340 from the middle: a gain of exactly 160.
    centres = ((-400, 300), *FAR[1:])
    assert ENGINE.apply(position(centres, min_gain=160), Flip(0, 0)).centres[0] == (-160, 300)
    with pytest.raises(IllegalMove, match=r"at least 16\.1 mm closer"):
        ENGINE.apply(position(centres, min_gain=161), Flip(0, 0))


def test_a_flip_away_from_the_middle_is_refused() -> None:
    state = ENGINE.initial_state({})
    with pytest.raises(IllegalMove, match="closer to the middle"):
        ENGINE.apply(state, Flip(0, 180))  # coin 0 is at twelve o'clock: +y is outward
    assert Flip(0, 180) not in ENGINE.legal_moves(state)


def test_a_frozen_coin_never_moves() -> None:
    state = position(((0, 1000), *FAR[1:]), frozen=(True, False, False, False))
    with pytest.raises(IllegalMove, match="coin 0 is frozen"):
        ENGINE.apply(state, Flip(0, 540))
    assert all(move.coin != 0 for move in ENGINE.legal_moves(state))


def test_tangency_touches_but_one_unit_more_is_clear() -> None:
    # Coin 0 lands at (0, 760); coin 1 sits 2r = 240 to its right, then 241.
    touching = position(((0, 1000), (240, 760), *FAR[2:]))
    clear = position(((0, 1000), (241, 760), *FAR[2:]))
    assert is_foul(touching, Flip(0, 540))
    assert not is_foul(clear, Flip(0, 540))
    assert ENGINE.apply(clear, Flip(0, 540)).out == (False, False)


def test_only_the_landing_counts_not_the_path() -> None:
    # Coin 1 is 230 from the line the centre of coin 0 travels along (it would be grazed
    # by a coin sliding there) but 259 from the landing: the flip is legal.
    state = position(((0, 1000), (230, 880), *FAR[2:]))
    assert not is_foul(state, Flip(0, 540))
    assert ENGINE.to_move(ENGINE.apply(state, Flip(0, 540))) == 2


def test_a_foul_puts_the_mover_out_and_freezes_every_coin_it_touches() -> None:
    # Coin 0 lands at (0, 760) touching coins 1 and 2; coin 3 is clear.
    state = position(((0, 1000), (200, 760), (-100, 600), (0, -1750)), seats=3)
    move = Flip(0, 540)
    assert is_foul(state, move)
    after = ENGINE.apply(state, move)
    assert after.centres[0] == (0, 760)  # the coin stays where it landed
    assert after.frozen == (True, True, True, False)
    assert after.out == (True, False, False)
    assert ENGINE.to_move(after) == 2


def test_landing_on_the_middle_coin_is_a_foul() -> None:
    state = position(((0, 400), *FAR[1:]), seats=3)
    after = ENGINE.apply(state, Flip(0, 540))  # lands at (0, 160): over the middle coin
    assert after.out == (True, False, False)
    assert after.frozen == (True, False, False, False)


def test_fouls_are_refused_when_the_table_does_not_allow_them() -> None:
    state = position(((0, 1000), (200, 760), *FAR[2:]), allow_fouls=0)
    with pytest.raises(IllegalMove, match="fouls are not allowed"):
        ENGINE.apply(state, Flip(0, 540))
    assert Flip(0, 540) not in ENGINE.legal_moves(state)
    with pytest.raises(IllegalMove, match="fouls are not allowed"):
        ENGINE.parse_move(state, "0@540!")


def test_legal_moves_list_each_coins_legal_flips_then_its_fouls() -> None:
    state = position(((0, 1000), (200, 760), *FAR[2:]))
    moves = ENGINE.legal_moves(state)
    assert [m.coin for m in moves] == sorted(m.coin for m in moves)
    for coin in range(4):
        flags = [is_foul(state, m) for m in moves if m.coin == coin]
        assert flags == sorted(flags), f"coin {coin}: a foul is listed before a legal flip"
        directions = [m.direction for m in moves if m.coin == coin]
        legal_part = directions[: flags.count(False)]
        assert legal_part == sorted(legal_part)
    assert any(is_foul(state, m) for m in moves) and Flip(0, 540) in moves


def test_any_player_may_flip_any_free_coin() -> None:
    state = position(((0, 1000), *FAR[1:]))
    after = ENGINE.apply(ENGINE.apply(state, Flip(0, 540)), Flip(0, 540))
    assert after.centres[0] == (0, 520)
    assert ENGINE.to_move(after) == 1


def test_turns_go_round_and_skip_players_who_are_out() -> None:
    state = position(((0, 1000), (200, 760), (0, -1000), (1750, 0)), seats=3)
    state = ENGINE.apply(state, Flip(2, 180))  # seat 1: legal
    state = ENGINE.apply(state, Flip(0, 540))  # seat 2: a foul, out
    assert ENGINE.to_move(state) == 3
    state = ENGINE.apply(state, Flip(3, 360))  # seat 3
    assert ENGINE.to_move(state) == 1
    state = ENGINE.apply(state, Flip(3, 360))  # seat 1
    assert ENGINE.to_move(state) == 3  # seat 2 is skipped


def test_there_is_no_pass_every_move_is_a_flip() -> None:
    # There is no pass: every listed move is a flip of a free outer coin.
    state = ENGINE.initial_state({"coins": 5})
    assert all(isinstance(move, Flip) for move in ENGINE.legal_moves(state))
    move = RandomMover(3).choose(ENGINE, state)
    assert move in ENGINE.legal_moves(state)


# --- 3. end ---------------------------------------------------------------------------------


def test_when_one_player_is_left_that_player_wins() -> None:
    state = position(((0, 1000), (200, 760), *FAR[2:]))
    after = ENGINE.apply(state, Flip(0, 540))
    outcome = ENGINE.outcome(after)
    assert outcome is not None and outcome.winners == (2,) and outcome.reason == "last-one-in"
    assert ENGINE.to_move(after) is None
    assert ENGINE.legal_moves(after) == ()


def test_with_no_legal_flip_left_the_last_legal_flipper_wins() -> None:
    # Every coin but 0 is frozen.  Seat 1 flips it from (0, 770) to (0, 530), seat 2 from
    # there to (0, 290) = 2r + G: any flip gaining 50 more would land on the middle coin, so
    # no legal flip remains before seat 3's turn and seat 2 wins.
    frozen = (False, True, True, True)
    state = position(((0, 770), *FAR[1:]), frozen=frozen, seats=3)
    state = ENGINE.apply(state, Flip(0, 540))
    assert ENGINE.outcome(state) is None and ENGINE.to_move(state) == 2
    state = ENGINE.apply(state, Flip(0, 540))
    assert state.centres[0] == (0, 290)
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.winners == (2,) and outcome.reason == "last-flip"
    assert ENGINE.to_move(state) is None


def test_a_foul_is_not_a_legal_move_for_the_end() -> None:
    # Seat 1 flips legally; seat 2's foul freezes the last free coins; seat 1 wins.
    frozen = (False, False, True, True)
    state = position(((0, 1000), (0, 1500), *FAR[2:]), frozen=frozen, seats=3)
    state = ENGINE.apply(state, Flip(1, 540))  # seat 1: (0, 1500) -> (0, 1260), legal
    assert ENGINE.outcome(state) is None
    state = ENGINE.apply(state, Flip(1, 540))  # seat 2: lands at (0, 1020) on coin 0
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.winners == (1,) and outcome.reason == "last-flip"


def test_a_draw_when_no_legal_flip_remains_and_nobody_made_one() -> None:
    # The very first move is a foul that freezes the last free coins: two players are still
    # in, no legal flip exists and none was ever made (the foul does not count).
    frozen = (False, False, True, True)
    state = position(((0, 1000), (0, 1260), *FAR[2:]), frozen=frozen, seats=3)
    state = ENGINE.apply(state, Flip(1, 540))  # seat 1: lands at (0, 1020) on coin 0
    assert state.out == (True, False, False)
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.draw and outcome.winners == ()
    assert outcome.reason == "no-flip"


def test_the_end_test_agrees_with_an_exhaustive_listing() -> None:
    # has_legal_flip prunes coins and stops early; it must agree with listing every flip,
    # all the way to the end of games where nobody fouls.
    for index, params in enumerate(ENGINE.sample_params):
        rng = random.Random(index)
        state = ENGINE.initial_state(params)
        while ENGINE.outcome(state) is None:
            moves = legal(state)
            state = ENGINE.apply(state, moves[rng.randrange(len(moves))])
            assert has_legal_flip(state) == bool(legal_flips(state))
        outcome = ENGINE.outcome(state)
        assert outcome is not None and outcome.reason == "last-flip"


# --- 4. resigning and draws -----------------------------------------------------------------


def test_resigning_puts_the_player_out_without_moving_any_coin() -> None:
    state = ENGINE.initial_state({"seats": 3})
    after = ENGINE.resign(state, 1)
    assert after.out == (True, False, False)
    assert after.centres == state.centres and after.frozen == state.frozen
    assert ENGINE.to_move(after) == 2
    assert ENGINE.outcome(after) is None
    with pytest.raises(IllegalMove, match="already out"):
        ENGINE.resign(after, 1)


def test_a_resignation_that_leaves_one_player_ends_the_game() -> None:
    state = ENGINE.initial_state({"seats": 3})
    state = ENGINE.resign(ENGINE.resign(state, 1), 3)  # seat 3 resigns out of turn
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.winners == (2,) and outcome.reason == "last-one-in"


def test_resigning_out_of_turn_keeps_the_turn_where_it_was() -> None:
    state = ENGINE.initial_state({"seats": 4})
    after = ENGINE.resign(state, 3)
    assert ENGINE.to_move(after) == 1
    after = ENGINE.apply(after, ENGINE.legal_moves(after)[0])
    after = ENGINE.apply(after, ENGINE.legal_moves(after)[0])
    assert ENGINE.to_move(after) == 4  # seat 3 is skipped


def test_a_player_out_of_the_game_cannot_win_by_the_last_flip() -> None:
    # Seat 1 flips legally, then resigns out of turn; seat 2 fouls and freezes the last
    # free coins.  Seats 3 and 4 are still in but never flipped: a draw, not a win for seat 1.
    frozen = (False, False, True, True)
    state = position(((0, 1000), (0, 1500), *FAR[2:]), frozen=frozen, seats=4)
    state = ENGINE.apply(state, Flip(1, 540))  # seat 1: legal, to (0, 1260)
    state = ENGINE.resign(state, 1)
    state = ENGINE.apply(state, Flip(1, 540))  # seat 2: foul on coin 0
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.draw and outcome.reason == "no-flip"


def test_a_draw_by_agreement_ends_the_game() -> None:
    state = ENGINE.agree_draw(ENGINE.initial_state({"seats": 5}))
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.draw and outcome.reason == "agreement"
    with pytest.raises(IllegalMove, match="over"):
        ENGINE.agree_draw(state)
    with pytest.raises(IllegalMove, match="over"):
        ENGINE.resign(state, 1)
    with pytest.raises(IllegalMove, match="over"):
        ENGINE.apply(state, Flip(0, 540))


def test_resign_refuses_a_seat_that_does_not_exist() -> None:
    with pytest.raises(IllegalMove, match="no seat 3"):
        ENGINE.resign(ENGINE.initial_state({}), 3)


# --- 5. notation and wire -------------------------------------------------------------------


def test_notation_names_coin_and_direction() -> None:
    state = position(((0, 1000), *FAR[1:]))
    assert ENGINE.parse_move(state, "0@540") == Flip(0, 540)
    assert ENGINE.parse_move(state, " 0@540 ") == Flip(0, 540)
    assert ENGINE.format_move(state, Flip(0, 540)) == "0@540"
    assert ENGINE.format_move(state, Flip(1, 250)) == "1@250"


def test_a_foul_must_be_written_with_a_bang_and_a_legal_flip_without() -> None:
    state = position(((0, 1000), (200, 760), *FAR[2:]))
    assert ENGINE.format_move(state, Flip(0, 540)) == "0@540!"
    assert ENGINE.parse_move(state, "0@540!") == Flip(0, 540)
    with pytest.raises(IllegalMove, match="write it 0@540!"):
        ENGINE.parse_move(state, "0@540")
    with pytest.raises(IllegalMove, match="without '!'"):
        ENGINE.parse_move(state, "1@540!")


@pytest.mark.parametrize("text", ["", "3", "3@", "@140", "3@140!!", "3-140", "a@b", "3@ 140"])
def test_unreadable_notation_is_an_invalid_move(text: str) -> None:
    with pytest.raises(InvalidMove):
        ENGINE.parse_move(ENGINE.initial_state({}), text)


def test_notation_out_of_range_is_an_invalid_move() -> None:
    state = ENGINE.initial_state({})
    with pytest.raises(InvalidMove, match="direction 720"):
        ENGINE.parse_move(state, "0@720")
    with pytest.raises(IllegalMove, match="no coin 9"):
        ENGINE.parse_move(state, "9@540")


@pytest.mark.parametrize(
    "obj", [None, [], [1], [1, 2, 3], [1, "2"], [True, 2], [1, 720], [-1, 3], [24, 0], (1.0, 2)]
)
def test_malformed_wire_moves_are_invalid(obj: object) -> None:
    with pytest.raises(InvalidMove):
        ENGINE.move_from_wire(obj)


def test_wire_form_is_coin_then_direction() -> None:
    assert ENGINE.move_to_wire(Flip(3, 140)) == [3, 140]
    assert ENGINE.move_from_wire([3, 140]) == Flip(3, 140)


def test_step_view_lists_only_the_coin_asked_about() -> None:
    state = position(((0, 1000), (200, 760), *FAR[2:]), frozen=(False, False, False, True))
    coins, complete = ENGINE.next_choices(state, [])
    assert coins == (0, 1, 2) and not complete
    directions, _ = ENGINE.next_choices(state, [0])
    assert 540 in directions
    assert ENGINE.next_choices(state, [0, 540]) == ((), True)
    assert ENGINE.next_choices(state, [0, 180]) == ((), False)
    assert ENGINE.next_choices(state, [3]) == ((), False)
    no_fouls = replace(state, allow_fouls=False)
    assert ENGINE.next_choices(no_fouls, [0, 540]) == ((), False)
