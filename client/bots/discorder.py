"""A sensible Discorder bot: one ply of look-ahead over a hand-tuned evaluation.

For every legal move the bot applies it (so bans and automatic passes are the engine's) and
scores the position for its own colour against the opponent's, in integer points:

* runs that already score (secured threes, given-away fours) count fully;
* a pending three counts part of a point, more when a peg could still close it;
* an empty cell where one colour would make a three is an opportunity for that colour, one
  where it would make four or more is a trap it may later be forced into.

Ties are broken by the bot's own seeded generator, so a bot is deterministic given its seed.
"""

from __future__ import annotations

import random

from engines import AnyEngine
from engines.discorder import (
    CELLS,
    GIVEN_AWAY,
    SECURED,
    DiscorderState,
    Move,
    column_run,
    row_run,
    run_views,
)

__all__ = ["SensibleBot", "evaluate"]

POINT = 100
PENDING_ROW = 45
PENDING_PEGGABLE = 60
OPPORTUNITY = 9
TRAP = 14


def evaluate(state: DiscorderState, seat: int) -> int:
    """How good ``state`` is for ``seat``, in hundredths of a point (higher is better)."""
    per_colour = [0, 0, 0]  # indexed by colour: 1 Jaune, 2 Noir
    for view in run_views(state):
        if view.status == GIVEN_AWAY:
            per_colour[3 - view.owner] += POINT
        elif view.status == SECURED:
            per_colour[view.owner] += POINT
        elif view.vertical and state.pegs_left:
            per_colour[view.owner] += PENDING_PEGGABLE  # a peg may still close it
        else:
            per_colour[view.owner] += PENDING_ROW
    board, pegs = state.board, state.pegs
    for cell in range(CELLS):
        if board[cell] == 0:
            for colour in (1, 2):
                made = max(row_run(board, cell, colour), column_run(board, pegs, cell, colour))
                if made == 3:
                    per_colour[colour] += OPPORTUNITY
                elif made >= 4:
                    per_colour[colour] -= TRAP
    return per_colour[seat] - per_colour[3 - seat]


class SensibleBot:
    """Plays the move whose resulting position ``evaluate`` likes best."""

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)

    def choose(self, engine: AnyEngine, state: DiscorderState) -> Move:
        seat: int = state.to_move
        best: list[Move] = []
        best_value = 0
        for move in engine.legal_moves(state):
            value = evaluate(engine.apply(state, move), seat)
            if not best or value > best_value:
                best, best_value = [move], value
            elif value == best_value:
                best.append(move)
        return best[self._rng.randrange(len(best))]
