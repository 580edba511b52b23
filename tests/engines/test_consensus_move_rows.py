"""``legal_moves`` takes its moves from rows shared by every position (issue 23's speed-up).

What it lists must stay exactly what the rules define move by move: each piece's
``destinations`` and, for each, every ``completions`` choice, in that order.  Checked over
whole games with the shared rows kept, and again with rows dropped after every few
(the oldest-first eviction a long session reaches), so a dropped or rebuilt row cannot
change a move.
"""

from __future__ import annotations

import itertools

import pytest

from engines import consensus_moves
from engines.consensus import ENGINE, ConsensusState, Move
from engines.consensus_moves import completions, destinations, enemy_table, pieces_of
from engines.consensus_turns import mover_and_seats


def defined_moves(state: ConsensusState) -> list[Move]:
    """The legal moves straight from the rules' definition, one ``Move`` made per choice."""
    player, seats = mover_and_seats(state)
    board, enemy = state.board, enemy_table(state.controllers, player)
    return [
        Move(origin, target, further)
        for origin in pieces_of(board, seats)
        for target in destinations(board, enemy, origin)
        for further in completions(board, enemy, origin, target)
    ]


@pytest.mark.parametrize("rows_kept", [consensus_moves._MAX_ROWS, 3])
def test_listed_moves_are_the_defined_ones(monkeypatch: pytest.MonkeyPatch, rows_kept: int) -> None:
    monkeypatch.setattr(consensus_moves, "_MAX_ROWS", rows_kept)
    monkeypatch.setattr(consensus_moves, "_ROWS", {})
    plies = 0
    for game in range(6):
        state = ENGINE.initial_state({"seats": 4})
        # A fixed walk through each game (no random source): ply n of game g takes the move
        # at (g * 31 + n * 7919) modulo the count, so kills and displacements come often.
        for ply in itertools.count():
            if ENGINE.outcome(state) is not None:
                break
            listed = ENGINE.legal_moves(state)
            assert list(listed) == defined_moves(state)
            assert all(type(move) is Move and type(move.further) is tuple for move in listed)
            state = ENGINE.apply(state, listed[(game * 31 + ply * 7919) % len(listed)])
            plies += 1
        assert len(consensus_moves._ROWS) <= rows_kept
    assert plies > 300  # long enough to have met kills, displacements and Haussaire shots
