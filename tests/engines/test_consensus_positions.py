"""Hand-made Consensus positions from text diagrams, shared by the Consensus test files.

A diagram is nine lines of nine tokens, rank 9 first: ``.`` empty, ``P1`` a living piece
(letter ``PSGHFC`` and seat), ``p1`` a corpse.  Tests write moves in the rules' notation,
so every test reads like the rules file.
"""

from __future__ import annotations

from typing import Any

import pytest

from engines.consensus import ENGINE, ConsensusState, Move
from engines.consensus_board import board_diagram, board_from_diagram, parse_square, start_board
from engines.consensus_turns import NOBODY_SINCE_POWER

__all__ = ["move", "notations", "play", "position", "position_of", "sq"]


def position(
    diagram: str,
    *,
    slot: int = 1,
    controllers: tuple[int, ...] = (1, 2, 3, 4),
    extra: bool = False,
    since_power: tuple[bool, ...] = NOBODY_SINCE_POWER,
    quiet_plies: int = 0,
) -> ConsensusState:
    """A state with the diagram's board, ``slot`` to move (or its extra move)."""
    board = board_from_diagram(diagram)
    return ConsensusState(board, controllers, slot, extra, since_power, quiet_plies, (), 0, 0)


def position_of(pieces: str, **turn: Any) -> ConsensusState:
    """A sparse position: ``position_of("P1a1 s2d4 P2e5")`` (token, then square)."""
    rows = [["."] * 9 for _ in range(9)]
    for item in pieces.split():
        token, square = item[:2], sq(item[2:])
        rows[8 - square // 9][square % 9] = token
    return position("\n".join(" ".join(row) for row in rows), **turn)


def sq(name: str) -> int:
    square = parse_square(name)
    assert square is not None, name
    return square


def move(*names: str) -> Move:
    """``move("a1", "c3", "d5")``; ``"-"`` stands for a Haussaire's NO_KILL."""
    squares = [-1 if name == "-" else sq(name) for name in names]
    return Move(squares[0], squares[1], tuple(squares[2:]))


def notations(state: ConsensusState) -> list[str]:
    return [ENGINE.format_move(state, m) for m in ENGINE.legal_moves(state)]


def play(state: ConsensusState, *texts: str) -> ConsensusState:
    """Play moves written in notation, one after the other."""
    for text in texts:
        state = ENGINE.apply(state, ENGINE.parse_move(state, text))
    return state


START = """
    P2 G2 S2 .  .  .  S3 G3 P3
    H2 F2 S2 .  .  .  S3 F3 H3
    S2 S2 C2 .  .  .  C3 S3 S3
    .  .  .  .  .  .  .  .  .
    .  .  .  .  .  .  .  .  .
    .  .  .  .  .  .  .  .  .
    S1 S1 C1 .  .  .  C4 S4 S4
    H1 F1 S1 .  .  .  S4 F4 H4
    P1 G1 S1 .  .  .  S4 G4 P4
"""


def test_the_start_board_is_the_rules_diagram() -> None:
    assert start_board() == board_from_diagram(START)
    assert ENGINE.initial_state({"seats": 4}).board == board_from_diagram(START)


def test_diagrams_round_trip_and_keep_corpses() -> None:
    text = START.replace("P1", "p1").replace("S2 .", "s3 .")
    board = board_from_diagram(text)
    assert board_from_diagram(board_diagram(board)) == board
    assert board[sq("a1")] != start_board()[sq("a1")]


@pytest.mark.parametrize(
    ("bad", "message"),
    [("P1", "9 lines"), (START.replace("G2", "Q2"), "b9"), (START.replace("G2", "G5"), "b9")],
)
def test_bad_diagrams_name_the_problem(bad: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        board_from_diagram(bad)


def test_sparse_positions_match_diagrams() -> None:
    sparse = position_of("P1a1 G1b1 s2d4 P2e5 P3i9 P4i1", slot=2)
    assert sparse.board[sq("a1")] == start_board()[sq("a1")]
    assert sparse.board[sq("d4")] & 64 and sparse.slot == 2
    assert sum(1 for code in sparse.board if code) == 6
