"""Les Forbans rules on hand-made positions: one test (at least) per rule of the rules file.

Positions are written as ``{port id: count}``, Bleu positive and Vert negative, on the shipped
map.  Section numbers refer to ``docs/rules/forbans.md``.
"""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from engines import IllegalMove, InvalidMove, InvalidParams, find_engine
from engines.forbans import (
    ENGINE,
    ForbansEngine,
    ForbansState,
    Placement,
    Step,
)
from engines.forbans_board import position_key
from engines.forbans_map import parse_map

E = ENGINE
PORT = E.map.index
PORT_BITS = len(E.map.ports).bit_length()


def position(pieces: dict[str, int], ply: int = 12, seats: int = 2, **options: int) -> ForbansState:
    start = E.initial_state({"seats": seats, **options})
    board = list(start.board)
    for port_id, count in pieces.items():
        board[PORT[port_id]] = count
    return replace(start, board=tuple(board), ply=ply)


def step(text: str) -> Step:
    origin, target = text.split("-")
    return Step(PORT[origin], PORT[target])


def place(port_id: str) -> Placement:
    return Placement(PORT[port_id])


def play(state: ForbansState, *texts: str) -> ForbansState:
    for text in texts:
        state = E.apply(state, E.parse_move(state, text))
    return state


def reason(state: ForbansState) -> str | None:
    outcome = E.outcome(state)
    return None if outcome is None else outcome.reason


def winners(state: ForbansState) -> tuple[int, ...]:
    outcome = E.outcome(state)
    assert outcome is not None, "the game should be over"
    return outcome.winners


# --- registry, options, seats (sections 6 and 9) -----------------------------------------
def test_the_engine_is_registered() -> None:
    engine = find_engine("forbans")
    assert engine is E
    assert (E.ruleset, E.version, E.min_seats, E.max_seats) == ("forbans/1", "1", 2, 6)
    assert {2, 4} <= {params["seats"] for params in E.sample_params}


def test_options_have_their_defaults() -> None:
    state = E.initial_state({})
    assert (state.seats, state.setup_min_liberties, state.draw_rule, state.max_plies) == (
        2,
        2,
        False,
        400,
    )
    assert state.board == (0,) * 59 and state.ply == 0 and state.history == ()


@pytest.mark.parametrize(
    ("params", "expected"),
    [
        ({"seats": 1}, "seats must be from 2 to 6"),
        ({"seats": 7}, "seats must be from 2 to 6"),
        ({"seats": "4"}, "seats must be a whole number"),
        ({"setup_min_liberties": 3}, "setup_min_liberties must be from 1 to 2"),
        ({"draw_rule": 2}, "draw_rule must be from 0 to 1"),
        ({"max_plies": 0}, "max_plies must be from 1 to 10000"),
        ({"colour": 1}, "no option 'colour'"),
    ],
)
def test_bad_options_are_refused_with_a_reason(params: dict[str, int], expected: str) -> None:
    with pytest.raises(InvalidParams, match=expected):
        E.initial_state(params)


def _seats_in_order(seats: int, plies: int) -> list[int]:
    state = E.initial_state({"seats": seats})
    order = []
    for _ in range(plies):
        seat = E.to_move(state)
        assert seat is not None and E.controller(state, seat) == seat
        order.append(seat)
        state = E.apply(state, E.legal_moves(state)[0])
    return order


@pytest.mark.parametrize(
    ("seats", "placements", "moves"),
    [
        (2, [1, 2] * 6, [2, 1, 2, 1]),
        (3, [1, 2, 3, 2] * 3, [2, 1, 2, 3, 2, 1]),
        (4, [1, 2, 3, 4] * 3, [4, 1, 2, 3, 4, 1]),
        (5, [1, 2, 3, 4, 5, 2, 1, 4, 3, 2, 5, 4], [4, 1, 2, 3, 4, 5, 2, 1]),
        (6, [1, 2, 3, 4, 5, 6] * 2, [6, 1, 2, 3, 4, 5, 6, 1]),
    ],
)
def test_camps_alternate_and_each_side_rotates_its_players(
    seats: int, placements: list[int], moves: list[int]
) -> None:
    # Bleu = odd seats, Vert = even seats; the player of the last placement moves first.
    assert _seats_in_order(seats, 12 + len(moves)) == placements + moves


def test_wins_belong_to_the_whole_side() -> None:
    state = play(position({"tortue": -5, "nassau": -1, "cap_horn": 3}, seats=4), "nassau-tortue")
    outcome = E.outcome(state)
    assert outcome is not None and outcome.winners == (2, 4) and not outcome.draw


# --- setup (section 3) ---------------------------------------------------------------
def test_bleu_places_first_and_each_side_places_the_others_pieces() -> None:
    state = E.initial_state({"seats": 2})
    assert E.to_move(state) == 1
    assert len(E.legal_moves(state)) == 59
    assert E.format_move(state, place("tortue")) == "+vert@tortue"
    state = play(state, "+vert@tortue")
    assert state.board[PORT["tortue"]] == -1
    assert E.to_move(state) == 2
    assert E.format_move(state, place("cap_horn")) == "+bleu@cap_horn"
    state = play(state, "+bleu@cap_horn")
    assert state.board[PORT["cap_horn"]] == 1


def test_a_placement_must_name_the_colour_the_side_places() -> None:
    state = E.initial_state({"seats": 2})
    with pytest.raises(IllegalMove, match="Bleu places Vert's pieces"):
        E.parse_move(state, "+bleu@tortue")


def test_a_piece_may_not_be_placed_on_its_enemies() -> None:
    state = position({"tortue": 1, "cap_horn": -1}, ply=2)  # Bleu places a Vert piece
    assert place("tortue") not in E.legal_moves(state)
    with pytest.raises(IllegalMove, match="Île de la Tortue holds Bleu pieces"):
        E.apply(state, place("tortue"))
    # Own pieces share a port: a Vert piece may join the Vert piece on Cap Horn.
    assert place("cap_horn") in E.legal_moves(state)


def test_setup_forbids_six_pieces_on_one_port() -> None:
    state = position({"cap_horn": -5, "tortue": 1, "rio": 2, "goree": 2}, ply=10)
    with pytest.raises(IllegalMove, match="may not have 6 pieces on one port"):
        E.apply(state, place("cap_horn"))
    assert place("cap_horn") not in E.legal_moves(state)


def test_setup_keeps_two_liberties_for_every_group_by_default() -> None:
    # Veracruz has two neighbours: a Vert piece on La Havane leaves Bleu there one liberty.
    state = position({"veracruz": 1, "tortue": -1}, ply=2)
    assert place("la_havane") not in E.legal_moves(state)
    with pytest.raises(IllegalMove, match="Bleu group at Veracruz with fewer than 2 free"):
        E.apply(state, place("la_havane"))
    # The placed piece's own group counts too: Galápagos between two Bleu pieces.
    state = position({"callao": 1, "panama": 1, "tortue": -1, "macao": 1}, ply=4)
    assert place("galapagos") not in E.legal_moves(state)


def test_setup_min_liberties_one_allows_a_single_liberty() -> None:
    state = position({"veracruz": 1, "tortue": -1}, ply=2, setup_min_liberties=1)
    assert place("la_havane") in E.legal_moves(state)
    assert E.apply(state, place("la_havane")).board[PORT["la_havane"]] == -1
    # ... but never none: Acapulco would then leave Veracruz encircled.
    state = E.apply(state, place("la_havane"))
    state = play(state, "+bleu@rio")
    with pytest.raises(IllegalMove, match="Veracruz with no free port around it"):
        E.apply(state, place("acapulco"))


def test_setup_relaxes_to_one_liberty_when_no_port_keeps_two() -> None:
    # Bleu on Veracruz already has one liberty and Bleu's placing a Vert piece cannot help.
    state = position({"veracruz": 1, "acapulco": -1}, ply=2)
    moves = E.legal_moves(state)
    assert place("tortue") in moves
    assert place("la_havane") not in moves  # that would take the last liberty
    assert place("veracruz") not in moves  # enemies
    assert len(moves) == 59 - 2
    E.apply(state, place("tortue"))


def test_setup_relaxes_to_the_texts_rule_alone_when_nothing_else_qualifies() -> None:
    # Bleu on Veracruz is already encircled: only "not on an enemy" remains, 6-stack included.
    state = position({"veracruz": 5, "acapulco": -3, "la_havane": -3}, ply=11)
    moves = E.legal_moves(state)
    assert len(moves) == 59 - 2
    assert place("veracruz") in moves
    with pytest.raises(IllegalMove, match="holds Vert pieces"):
        E.apply(state, place("acapulco"))
    after = E.apply(state, place("veracruz"))
    assert after.board[PORT["veracruz"]] == 6 and E.outcome(after) is None


def test_the_last_placer_moves_first_and_that_position_counts_once() -> None:
    state = E.initial_state({"seats": 2})
    for _ in range(12):
        state = E.apply(state, E.legal_moves(state)[0])
    assert E.to_move(state) == 2
    assert all(isinstance(move, Step) for move in E.legal_moves(state))
    assert state.history == (position_key(state.board, 2, PORT_BITS),)
    assert sum(count for count in state.board if count > 0) == 6
    assert sum(-count for count in state.board if count < 0) == 6
    with pytest.raises(IllegalMove, match="all 12 pieces are placed"):
        E.apply(state, Placement(E.map.index["salomon"]))


def test_the_first_mover_with_no_move_loses_at_the_end_of_setup() -> None:
    # Vert's six pieces sit encircled on Veracruz; Vert places the last Bleu piece.
    state = position({"veracruz": -6, "la_havane": 2, "acapulco": 3}, ply=11)
    state = E.apply(state, place("tortue"))
    assert reason(state) == "no-move" and winners(state) == (1,)


# --- moves (section 4) ---------------------------------------------------------------
def test_a_move_goes_one_route_to_a_port_without_enemies() -> None:
    state = position({"tortue": 2, "la_havane": -1, "cap_horn": -1}, ply=13)  # Bleu to move
    moves = E.legal_moves(state)
    assert set(moves) == {
        step("tortue-port_royal"),
        step("tortue-nassau"),
        step("tortue-porto_rico"),
    }
    after = E.apply(state, step("tortue-nassau"))
    assert after.board[PORT["tortue"]] == 1 and after.board[PORT["nassau"]] == 1
    with pytest.raises(IllegalMove, match="no route joins"):
        E.apply(state, step("tortue-la_havane"))
    with pytest.raises(IllegalMove, match="no Bleu piece on Cap Horn"):
        E.apply(state, step("cap_horn-buenos_aires"))
    blocked = position({"tortue": 1, "nassau": -1, "la_havane": -1}, ply=13)
    with pytest.raises(IllegalMove, match="Nassau holds Vert pieces"):
        E.apply(blocked, step("tortue-nassau"))


def test_own_pieces_share_a_port() -> None:
    state = position({"tortue": 1, "nassau": 2, "cap_horn": -1}, ply=13)
    after = E.apply(state, step("tortue-nassau"))
    assert after.board[PORT["nassau"]] == 3 and after.board[PORT["tortue"]] == 0


def test_routes_across_the_pacific_and_over_land_move_pieces_like_any_other() -> None:
    state = position({"acapulco": 1, "portobelo": 1, "tortue": -1}, ply=13)
    moves = E.legal_moves(state)
    assert step("acapulco-guam") in moves and step("portobelo-panama") in moves


def test_no_suicide() -> None:
    # Bleu's stack on Veracruz moving to Acapulco would have no free port around it.
    pieces = {"veracruz": 2, "la_havane": -1, "panama": -1, "guam": -1}
    state = position(pieces, ply=13)
    assert step("veracruz-acapulco") not in E.legal_moves(state)
    with pytest.raises(IllegalMove, match="no suicide"):
        E.apply(state, step("veracruz-acapulco"))


def test_a_suicide_that_wins_is_allowed() -> None:
    # Same shape, but Bleu on Manille: Vert on Guam loses its last liberty first.
    pieces = {"veracruz": 2, "la_havane": -1, "panama": -1, "guam": -1, "manille": 1}
    state = position(pieces, ply=13)
    assert step("veracruz-acapulco") in E.legal_moves(state)
    after = E.apply(state, step("veracruz-acapulco"))
    assert reason(after) == "encirclement" and winners(after) == (1,)


# After Bleu's quiet move la_havane-port_royal, both Vert stacks have a liberty, but stepping
# into it would be suicide: Vert has no legal move.
NO_MOVE_AFTER_QUIET_MOVE = {
    "veracruz": -3,
    "cap_horn": -3,
    "la_havane": 2,
    "panama": 1,
    "guam": 1,
    "buenos_aires": 1,
    "callao": 1,
}


def test_the_side_with_no_legal_move_loses() -> None:
    state = play(position(NO_MOVE_AFTER_QUIET_MOVE, ply=13), "la_havane-port_royal")
    outcome = E.outcome(state)
    assert outcome is not None and outcome.reason == "no-move" and outcome.winners == (1,)
    assert E.to_move(state) is None and E.legal_moves(state) == ()


# --- winning (section 5) -------------------------------------------------------------
def test_gathering_six_pieces_on_one_port_wins() -> None:
    state = position({"tortue": 5, "nassau": 1, "cap_horn": -6}, ply=13)
    after = E.apply(state, step("nassau-tortue"))
    outcome = E.outcome(after)
    assert outcome is not None and outcome.reason == "gathering" and outcome.winners == (1,)
    assert outcome.summary == "Bleu (seat 1) wins by gathering its 6 pieces on Île de la Tortue."
    assert E.to_move(after) is None


def test_encircling_an_enemy_group_wins() -> None:
    state = position({"veracruz": -1, "la_havane": 1, "panama": 1, "cap_horn": -1}, ply=13)
    after = E.apply(state, step("panama-acapulco"))
    outcome = E.outcome(after)
    assert outcome is not None and outcome.reason == "encirclement" and outcome.winners == (1,)
    assert "encircling the Vert group at Veracruz" in outcome.summary


def test_pieces_in_line_are_encircled_together() -> None:
    pieces = {"new_york": -1, "terre_neuve": -1, "charleston": 1, "saint_malo": 1, "lisbonne": 1}
    after = E.apply(position(pieces, ply=13), step("lisbonne-acores"))
    assert reason(after) == "encirclement"


def test_a_free_port_between_two_pieces_saves_both() -> None:
    pieces = {
        "new_york": -1,
        "saint_malo": -1,
        "charleston": 1,
        "lisbonne": 1,
        "acores": 1,
        "tortue": 1,
    }
    state = position(pieces, ply=13)
    assert reason(E.apply(state, step("tortue-nassau"))) is None
    assert reason(E.apply(state, step("acores-terre_neuve"))) == "encirclement"


def _tiny_engine() -> ForbansEngine:
    """A four-port map: Leaf hangs off Hub; Side and Far are also next to Hub."""
    nodes = [
        {"id": port, "name": port.title(), "lon": lon, "lat": 0}
        for port, lon in (("hub", 0), ("leaf", 1), ("side", 2), ("far", 3))
    ]
    edges = [
        {"a": "hub", "b": "leaf", "kind": "sec"},
        {"a": "hub", "b": "side", "kind": "sec"},
        {"a": "side", "b": "far", "kind": "sec"},
    ]
    return ForbansEngine(parse_map(json.dumps({"nodes": nodes, "edges": edges})))


def test_gathering_is_checked_before_encirclement() -> None:
    tiny = _tiny_engine()
    state = replace(tiny.initial_state({}), board=(5, -1, 1, -1), ply=13)
    after = tiny.apply(state, Step(2, 0))  # side -> hub: six on Hub, Leaf encircled as well
    outcome = tiny.outcome(after)
    assert outcome is not None and outcome.reason == "gathering" and outcome.winners == (1,)


# --- the draw rule (section 5) -------------------------------------------------------
DRAW_RULE_PIECES = {"tortue": -5, "nassau": -1, "cap_horn": 5, "buenos_aires": 1}


def test_without_the_draw_rule_the_first_mover_simply_wins() -> None:
    state = E.apply(position(DRAW_RULE_PIECES, ply=12), step("nassau-tortue"))
    assert reason(state) == "gathering" and winners(state) == (2,)


def test_the_draw_rule_gives_the_other_side_one_more_move() -> None:
    state = position(DRAW_RULE_PIECES, ply=12, draw_rule=1)
    after = E.apply(state, step("nassau-tortue"))
    outcome = E.outcome(after)
    assert outcome is not None and outcome.draw and outcome.reason == "draw-rule"
    assert outcome.winners == ()
    assert outcome.summary == (
        "Draw by the draw rule: Vert (seat 2) won by gathering, "
        "but Bleu (seat 1) could have won too with one more move."
    )
    # Without Bleu's answer ready, Vert's win stands.
    pieces = {**DRAW_RULE_PIECES, "buenos_aires": 0, "rio": 1}
    after = E.apply(position(pieces, ply=12, draw_rule=1), step("nassau-tortue"))
    assert reason(after) == "gathering"


def test_the_draw_rule_only_helps_the_side_that_moved_second() -> None:
    pieces = {"tortue": 5, "nassau": 1, "cap_horn": -5, "buenos_aires": -1}
    after = E.apply(position(pieces, ply=13, draw_rule=1), step("nassau-tortue"))
    assert reason(after) == "gathering" and winners(after) == (1,)


# --- repetition and the ply cap (section 5) -------------------------------------------
SHUTTLE = ("cap_horn-buenos_aires", "tortue-nassau", "buenos_aires-cap_horn", "nassau-tortue")


def _movement_start(seats: int = 2, **options: int) -> ForbansState:
    """Vert to move first, its start position counted once in the history."""
    state = position({"tortue": 1, "cap_horn": -1, "rio": 5, "macao": -5}, seats=seats, **options)
    key = position_key(state.board, E.to_move(state) or 0, PORT_BITS)
    return replace(state, history=(key,))


def test_a_third_repetition_is_a_draw() -> None:
    state = play(_movement_start(), *SHUTTLE)
    assert reason(state) is None and len(state.history) == 5
    state = play(state, *SHUTTLE[:3])
    assert reason(state) is None
    state = play(state, SHUTTLE[3])  # the start position, Vert to move, a third time
    outcome = E.outcome(state)
    assert outcome is not None and outcome.draw and outcome.reason == "repetition"
    assert E.to_move(state) is None


def test_a_repetition_needs_the_same_player_to_move() -> None:
    # Three players: Bleu's turns go to seats 1 and 3 in turn.
    state = play(_movement_start(seats=3), "cap_horn-buenos_aires")
    assert E.to_move(state) == 1
    with_seat_1 = position_key(state.board, 1, PORT_BITS)
    with_seat_3 = position_key(state.board, 3, PORT_BITS)
    assert with_seat_1 != with_seat_3
    # Say this board was seen twice before with seat 3 to move: that does not count.
    state = replace(state, history=(with_seat_3, with_seat_3, with_seat_1))
    cycle = ("tortue-nassau", "buenos_aires-cap_horn", "nassau-tortue", "cap_horn-buenos_aires")
    state = play(state, *cycle)
    assert E.to_move(state) == 1 and state.history[-1] == with_seat_1
    assert reason(state) is None
    state = play(state, *cycle)
    assert reason(state) == "repetition"


def test_the_ply_cap_draws_after_max_plies_moves() -> None:
    state = _movement_start(max_plies=3)
    state = play(state, "cap_horn-buenos_aires", "tortue-nassau")
    assert reason(state) is None
    state = play(state, "buenos_aires-juan_fernandez")
    outcome = E.outcome(state)
    assert outcome is not None and outcome.reason == "move-limit" and outcome.draw
    assert "3 moves were played" in outcome.summary


def test_a_win_on_the_last_allowed_ply_still_wins() -> None:
    pieces = {"tortue": 5, "nassau": 1, "cap_horn": -6}
    state = position(pieces, ply=13, max_plies=2)
    assert reason(E.apply(state, step("nassau-tortue"))) == "gathering"


def test_repetition_is_checked_before_the_ply_cap_and_the_cap_before_no_move() -> None:
    state = _movement_start(max_plies=1)
    target = E.apply(state, step("cap_horn-buenos_aires"))
    key = target.history[-1]
    primed = replace(state, history=(*state.history, key, key))
    assert reason(E.apply(primed, step("cap_horn-buenos_aires"))) == "repetition"
    # The quiet move that leaves Vert without a move, made on the last allowed ply.
    capped = position(NO_MOVE_AFTER_QUIET_MOVE, ply=13, max_plies=2)
    assert reason(play(capped, "la_havane-port_royal")) == "move-limit"


# --- resigning and draws (section 7) ----------------------------------------------------
def test_a_player_resigns_for_the_whole_side_at_its_own_turn() -> None:
    state = _movement_start(seats=4)
    assert E.to_move(state) == 4
    with pytest.raises(IllegalMove, match="own turn"):
        E.resign(state, 2)
    resigned = E.resign(state, 4)
    outcome = E.outcome(resigned)
    assert outcome is not None and outcome.reason == "resignation"
    assert outcome.winners == (1, 3)
    assert outcome.summary == "Seat 4 resigned for Vert (seats 2, 4): Bleu (seats 1, 3) wins."
    with pytest.raises(IllegalMove, match="over"):
        E.resign(resigned, 1)


def test_a_draw_by_agreement_ends_the_game() -> None:
    state = E.agree_draw(E.initial_state({"seats": 6}))
    outcome = E.outcome(state)
    assert outcome is not None and outcome.draw and outcome.reason == "agreement"
    with pytest.raises(IllegalMove, match="over"):
        E.agree_draw(state)
    with pytest.raises(IllegalMove, match="over"):
        E.apply(state, place("tortue"))


# --- notation and wire (section 8) -----------------------------------------------------
def test_notation_and_wire_forms() -> None:
    state = _movement_start()
    move = E.parse_move(state, "  CAP_HORN-Buenos_Aires ")
    assert move == step("cap_horn-buenos_aires")
    assert E.format_move(state, move) == "cap_horn-buenos_aires"
    assert E.move_to_wire(move) == [PORT["cap_horn"], PORT["buenos_aires"]]
    assert E.move_from_wire([PORT["tortue"]]) == place("tortue")
    with pytest.raises(IllegalMove, match="pieces are still being placed"):
        E.parse_move(E.initial_state({}), "tortue-nassau")


@pytest.mark.parametrize(
    "text", ["", "tortue", "+rouge@tortue", "+vert@atlantis", "+vert tortue", "tortue-"]
)
def test_unreadable_notation_is_an_invalid_move(text: str) -> None:
    with pytest.raises(InvalidMove):
        E.parse_move(E.initial_state({}), text)


@pytest.mark.parametrize("wire", [[], [59], [-1], [1, 2, 3], [True], ["tortue"], "1", None])
def test_malformed_wire_moves_are_invalid(wire: object) -> None:
    with pytest.raises(InvalidMove):
        E.move_from_wire(wire)
