"""Consensus notation (rules section 8), the wire form, the step-by-step view and perft.

Also a cross-check of the two independent halves of the engine: the generator
(``legal_moves``/``next_choices``) and the one-move checker inside ``apply`` must accept
exactly the same moves, tried exhaustively on positions from random games.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from engines import IllegalMove, InvalidMove
from engines.base import Engine
from engines.consensus import ENGINE, ConsensusState, Move
from engines.consensus_board import E5
from engines.playthrough import RandomMover
from tests.engines.test_consensus_positions import move, notations, position_of, sq

OTHERS = "P2a9 P3i9 P4i1"
EXAMPLES = [
    ("P1a1 G1b1 " + OTHERS, "Gb1-e4", {}),
    ("P1a1 S2c3 " + OTHERS, "Pa1xc3@d5", {}),
    ("P1a1 G1b1 S2e4 " + OTHERS, "Gb1xe4", {}),
    ("P1a1 G1d4 P2e5 P3i9 P4i1", "Gd4xe5>c7", {}),  # the rules' "c6" is off every line
    ("P1a1 F1b2 P2e5 P3i9 P4i1", "Fb2xe5@h4>e6", {}),
    ("P1a1 F1b2 G3d4 " + OTHERS, "Fb2xd4@h4", {}),
    ("P1a1 H1c4 S2d5 " + OTHERS, "Hc4-c5xd5", {}),
    ("P1a1 H1c4 S2d5 " + OTHERS, "Hc4-c5", {}),
    ("P1a1 C1c3 s2d4 " + OTHERS, "Cc3xd4@b4", {}),
    ("P1a1 C1c3 p2e5 P3i9 P4i1", "Cc3xe5@b4>e6", {"controllers": (1, 1, 3, 4)}),
    ("P1b2 P2e5 P3i9 P4i1", "Pb2xe5@b2", {}),
    ("P1a1 " + OTHERS, "Pa1-e5", {}),
]


@pytest.mark.parametrize(("pieces", "text", "turn"), EXAMPLES, ids=[e[1] for e in EXAMPLES])
def test_rules_examples_print_and_parse(pieces: str, text: str, turn: dict[str, Any]) -> None:
    """Section 8: every form of the notation, read and written back."""
    state = position_of(pieces, **turn)
    assert text in notations(state)
    parsed = ENGINE.parse_move(state, text)
    assert ENGINE.format_move(state, parsed) == text
    assert parsed in ENGINE.legal_moves(state)


def test_notation_and_wire_forms_of_each_kind_of_move() -> None:
    state = position_of("P1a1 F1b2 P2e5 P3i9 P4i1")
    assert ENGINE.parse_move(state, "Fb2xe5@h4>e6") == move("b2", "e5", "h4", "e6")
    haussaire = position_of("P1a1 H1c4 S2d5 " + OTHERS)
    assert ENGINE.move_to_wire(ENGINE.parse_move(haussaire, "Hc4-c5")) == [sq("c4"), sq("c5"), -1]
    gign = position_of("P1a1 G1d4 P2e5 P3i9 P4i1")
    assert ENGINE.move_to_wire(ENGINE.parse_move(gign, "Gd4xe5>c7")) == [sq("d4"), E5, sq("c7")]


@pytest.mark.parametrize(
    "text", ["", "hello", "Pa1", "Pa1-a0", "Pa1-j1", "pa1-a2", "Pa1–a2", "Pa1-a2@", "Hc4-c5x"]
)
def test_unreadable_text_is_an_invalid_move(text: str) -> None:
    with pytest.raises(InvalidMove):
        ENGINE.parse_move(ENGINE.initial_state({"seats": 4}), text)


@pytest.mark.parametrize(
    ("pieces", "text", "reason"),
    [
        ("", "Ga1-a2", "no living GIGN"),
        ("", "Pa1-a3", "a2 blocks"),
        ("", "Pa1-a2", "on your side"),
        ("", "Sc1-c4", "one or two"),
        ("", "Pa1-b1xb2", "only a Haussaire"),
        ("", "Sa3-b5", "straight line"),
        ("P1a1 S2c3 " + OTHERS, "Pa1-c3@d5", "written Pa1xc3@d5"),
        ("P1a1 S2c3 " + OTHERS, "Pa1xc3", "where the corpse goes"),
        ("P1a1 S2c3 " + OTHERS, "Pa1xc3@e5", "e5"),
        ("P1a1 G1b1 S2e4 " + OTHERS, "Gb1xe4@b1", "no more choice"),
    ],
)
def test_readable_but_illegal_text_is_an_illegal_move(pieces: str, text: str, reason: str) -> None:
    state = position_of(pieces) if pieces else ENGINE.initial_state({"seats": 4})
    with pytest.raises(IllegalMove, match=reason):
        ENGINE.parse_move(state, text)


@pytest.mark.parametrize(
    "wire",
    [[], [1], [0, 1, 2, 3, 4], [1.0, 2], [True, 2], "ab", [81, 0], [0, 1, -2], [0, 1, 5, -1], None],
)
def test_malformed_wire_moves_are_invalid(wire: object) -> None:
    with pytest.raises(InvalidMove):
        ENGINE.move_from_wire(wire)


def test_step_by_step_view_of_a_centre_action() -> None:
    """The step view: pieces, destinations, the ruler's placement, then the exit."""
    state = position_of("P1a5 F1d4 s4d5 s4d6 s4e6 s4f6 s4f5 s4f4 s4e4 P2e5 P3i9 P4i1")
    assert ENGINE.next_choices(state, ()) == ((sq("d4"), sq("a5")), False)
    assert E5 in ENGINE.next_choices(state, (sq("d4"),))[0]
    places, complete = ENGINE.next_choices(state, (sq("d4"), E5))
    assert not complete and sq("d4") not in places and sq("c3") in places
    assert ENGINE.next_choices(state, (sq("d4"), E5, sq("c3"))) == ((sq("d4"),), False)
    assert ENGINE.next_choices(state, (sq("d4"), E5, sq("c3"), sq("d4"))) == ((), True)
    assert ENGINE.next_choices(state, (sq("d4"), E5, sq("d4"))) == ((), False)
    assert ENGINE.next_choices(state, (sq("e5"),)) == ((), False)  # not the mover's piece


def _random_states(seeds: range, every: int) -> list[ConsensusState]:
    states = []
    for seed in seeds:
        bot = RandomMover(seed)
        state = ENGINE.initial_state({"seats": 4})
        ply = 0
        while ENGINE.outcome(state) is None:
            if ply % every == 0 or state.extra or state.board[E5]:
                states.append(state)
            state = ENGINE.apply(state, bot.choose(ENGINE, state))
            ply += 1
    return states


def test_the_fast_step_view_matches_the_contracts_definition_on_any_prefix() -> None:
    rng = random.Random(7)
    for state in _random_states(range(4), every=9):
        wires = [ENGINE.move_to_wire(m) for m in ENGINE.legal_moves(state)]
        prefixes = {tuple(w[:cut]) for w in wires for cut in range(len(w) + 1)}
        prefixes |= {(rng.randrange(-1, 82), rng.randrange(81)) for _ in range(20)}
        prefixes |= {(*w[:2], rng.randrange(-1, 81)) for w in rng.sample(wires, min(5, len(wires)))}
        for prefix in prefixes:
            assert ENGINE.next_choices(state, prefix) == Engine.next_choices(ENGINE, state, prefix)
        pieces = ENGINE.movable_pieces(state)
        assert ENGINE.destinations_by_piece(state) == tuple(
            (square, ENGINE.destinations(state, square)) for square in pieces
        )


def _apply_accepts(state: ConsensusState, candidate: Move) -> bool:
    try:
        ENGINE.apply(state, candidate)
    except IllegalMove:
        return False
    return True


def _exhaustive_check(state: ConsensusState) -> None:
    """apply accepts a move iff legal_moves lists it, over every origin, target and choice."""
    legal = set(ENGINE.legal_moves(state))
    accepted = set()
    origins = [o for o in range(81) if state.board[o] and not state.board[o] & 64]
    for origin in origins:
        for target in range(81):
            candidates = [Move(origin, target)]
            candidates += [Move(origin, target, (x,)) for x in range(-1, 81)]
            if target == E5:
                candidates += [Move(origin, target, (d, x)) for d in range(81) for x in range(81)]
            accepted |= {c for c in candidates if _apply_accepts(state, c)}
    assert accepted == legal


@pytest.mark.parametrize("seed", [3])
def test_apply_and_the_generator_agree_on_every_candidate_move(seed: int) -> None:
    states = _random_states(range(seed, seed + 1), every=40)
    for state in states[:4]:
        _exhaustive_check(state)


@pytest.mark.slow
def test_apply_and_the_generator_agree_on_many_positions() -> None:
    states = _random_states(range(20), every=30)
    centre = [s for s in states if s.board[E5]]
    assert centre, "no random position put anything on e5"
    for state in states[::4] + centre[::3]:
        _exhaustive_check(state)


def perft(state: ConsensusState, depth: int) -> int:
    moves = ENGINE.legal_moves(state)
    if depth == 1:
        return len(moves)
    return sum(perft(ENGINE.apply(state, m), depth - 1) for m in moves)


def test_perft_one_and_two_from_the_start() -> None:
    """Section 9: perft(1) = 30, perft(2) = 1,205."""
    start = ENGINE.initial_state({"seats": 4})
    assert perft(start, 1) == 30
    assert perft(start, 2) == 1205


@pytest.mark.slow
def test_perft_three_from_the_start() -> None:
    """Section 9: perft(3) = 49,206, seats 1, 2, 3 moving."""
    assert perft(ENGINE.initial_state({"seats": 4}), 3) == 49206
