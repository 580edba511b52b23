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
from typing import Any

from engines import AnyEngine
from engines.discorder import CELLS, HEIGHT, WIDTH, DiscorderState, Move

__all__ = ["SensibleBot"]

POINT = 100
PENDING_ROW = 45
PENDING_PEGGABLE = 60
OPPORTUNITY = 9
TRAP = 14

_ROWS = tuple(tuple(range(row * WIDTH, row * WIDTH + WIDTH)) for row in range(HEIGHT))
_COLUMNS = tuple(tuple(range(col, CELLS, WIDTH)) for col in range(WIDTH))


def evaluate(state: DiscorderState, seat: int) -> int:
    """How good ``state`` is for ``seat``, in hundredths of a point (higher is better)."""
    per_colour = [0, 0, 0]  # index by colour: 1 Jaune, 2 Noir
    board, pegs = state.board, state.pegs
    for vertical, lines in ((False, _ROWS), (True, _COLUMNS)):
        for cells in lines:
            _score_line(board, pegs, cells, vertical, state.pegs_left > 0, per_colour)
    for cell in range(CELLS):
        if board[cell] == 0:
            for colour in (1, 2):
                made = max(_row_if(board, cell, colour), _column_if(board, pegs, cell, colour))
                if made == 3:
                    per_colour[colour] += OPPORTUNITY
                elif made >= 4:
                    per_colour[colour] -= TRAP
    return per_colour[seat] - per_colour[3 - seat]


def _score_line(
    board: tuple[int, ...],
    pegs: tuple[bool, ...],
    cells: tuple[int, ...],
    vertical: bool,
    pegs_in_supply: bool,
    per_colour: list[int],
) -> None:
    size = len(cells)
    start = 0
    while start < size:
        colour = board[cells[start]]
        end = start
        while (
            end + 1 < size
            and not (vertical and pegs[cells[end]])
            and board[cells[end + 1]] == colour
        ):
            end += 1
        length = end - start + 1
        if colour and length >= 4:
            per_colour[3 - colour] += POINT
        elif colour and length == 3:
            low_open = (
                start > 0
                and not (vertical and pegs[cells[start - 1]])
                and not board[cells[start - 1]]
            )
            high_open = (
                end + 1 < size and not (vertical and pegs[cells[end]]) and not board[cells[end + 1]]
            )
            if not (low_open or high_open):
                per_colour[colour] += POINT
            elif vertical and pegs_in_supply:
                per_colour[colour] += PENDING_PEGGABLE
            else:
                per_colour[colour] += PENDING_ROW
        start = end + 1


def _row_if(board: tuple[int, ...], cell: int, colour: int) -> int:
    """Length of the row run ``colour`` would have through the empty ``cell``."""
    col = cell % WIDTH
    length = 1
    step = 1
    while col - step >= 0 and board[cell - step] == colour:
        length += 1
        step += 1
    step = 1
    while col + step < WIDTH and board[cell + step] == colour:
        length += 1
        step += 1
    return length


def _column_if(board: tuple[int, ...], pegs: tuple[bool, ...], cell: int, colour: int) -> int:
    """Length of the column run ``colour`` would have through the empty ``cell``."""
    length = 1
    low = cell
    while low >= WIDTH and not pegs[low - WIDTH] and board[low - WIDTH] == colour:
        length += 1
        low -= WIDTH
    high = cell
    while high < CELLS - WIDTH and not pegs[high] and board[high + WIDTH] == colour:
        length += 1
        high += WIDTH
    return length


class SensibleBot:
    """Plays the move whose resulting position ``evaluate`` likes best."""

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)

    def choose(self, engine: AnyEngine, state: Any) -> Move:
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
