"""A sensible Les Forbans bot: wins when it can, never hands the enemy a win, gathers.

Placing (the enemy's pieces): on ports with few routes, far from the enemy's other pieces, so
they are easy to encircle and slow to gather.  Moving, in order of preference:

1. a move that wins at once;
2. among the moves after which the enemy has no winning answer (all moves if none is safe):
   the most winning threats for the next turn, then the least total route distance from the
   own pieces to a gathering port, then the fewest liberties left to the weakest enemy group.

Ties are broken by a ``random.Random(seed)``, so a bot is deterministic given its seed.  The
bot reads the board through ``ForbansEngine``'s public helpers and never mutates a state.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable
from functools import cache

from engines.forbans import (
    BLEU,
    ON,
    PLACEMENTS,
    ForbansEngine,
    ForbansMove,
    ForbansState,
    Placement,
    Step,
    other,
    sign,
    turn_of,
)
from engines.forbans_board import groups, liberty_count, side_masks
from engines.forbans_map import ForbansMap

__all__ = ["SensibleBot", "position_score"]

_FAR = 99  # a distance no route on the map reaches


@cache
def _distances(board_map: ForbansMap) -> tuple[tuple[int, ...], ...]:
    """Route distances between every two ports (the map is fixed, so once per map)."""
    return tuple(
        _bfs(board_map, start, blocked=frozenset()) for start in range(len(board_map.ports))
    )


def _bfs(board_map: ForbansMap, start: int, blocked: frozenset[int]) -> tuple[int, ...]:
    found = [_FAR] * len(board_map.ports)
    found[start] = 0
    queue = deque([start])
    while queue:
        port = queue.popleft()
        for nxt in board_map.neighbours[port]:
            if found[nxt] == _FAR and nxt not in blocked:
                found[nxt] = found[port] + 1
                queue.append(nxt)
    return tuple(found)


class SensibleBot:
    """Deterministic given ``seed``; plays any seat of a ``forbans`` game."""

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)

    def choose(self, engine: object, state: object) -> ForbansMove:
        if not isinstance(engine, ForbansEngine) or not isinstance(state, ForbansState):
            raise TypeError("SensibleBot plays Les Forbans only")
        moves = engine.legal_moves(state)
        side = turn_of(state.seats, state.ply)[0]
        if state.ply < PLACEMENTS:
            return self._best(moves, lambda m: self._placement_score(engine, state, m))
        return self._choose_step(engine, state, side, moves)

    def _best(
        self, moves: tuple[ForbansMove, ...], score: Callable[[ForbansMove], tuple[int, ...]]
    ) -> ForbansMove:
        scored = [(score(move), self._rng.random(), move) for move in moves]
        return max(scored, key=lambda item: (item[0], item[1]))[2]

    # --- placing the enemy's pieces ----------------------------------------------------
    def _placement_score(
        self, engine: ForbansEngine, state: ForbansState, move: ForbansMove
    ) -> tuple[int, ...]:
        assert isinstance(move, Placement)
        enemy = other(turn_of(state.seats, state.ply)[0])
        distance = _distances(engine.map)[move.port]
        spread = min(
            (distance[p] for p, count in enumerate(state.board) if count * sign(enemy) > 0),
            default=_FAR,
        )
        return (-len(engine.map.neighbours[move.port]), min(spread, 6))

    # --- moving ---------------------------------------------------------------------------
    def _choose_step(
        self, engine: ForbansEngine, state: ForbansState, side: int, moves: tuple[ForbansMove, ...]
    ) -> ForbansMove:
        board = state.board
        steps = [move for move in moves if isinstance(move, Step)]
        for move in steps:
            if engine.move_effect(board, side, move.origin, move.target) > ON:
                return move
        after: dict[ForbansMove, tuple[int, ...]] = {m: _moved(board, side, m) for m in steps}
        safe = [move for move in steps if not engine.has_winning_move(after[move], other(side))]
        gather = self._gathering_distances(engine, board, side)
        return self._best(
            tuple(safe or steps),
            lambda move: self._step_score(engine, after[move], side, gather),
        )

    def _gathering_distances(
        self, engine: ForbansEngine, board: tuple[int, ...], side: int
    ) -> tuple[int, ...]:
        """Distances (around enemy pieces) to the port where the own pieces gather best."""
        own = [
            (port, count * sign(side)) for port, count in enumerate(board) if count * sign(side) > 0
        ]
        table = _distances(engine.map)
        candidates = [port for port, count in enumerate(board) if count * sign(side) >= 0]
        target = min(
            candidates,
            key=lambda g: (
                sum(table[port][g] * count for port, count in own),
                -len(engine.map.neighbours[g]),
                g,
            ),
        )
        blocked = frozenset(p for p, count in enumerate(board) if count * sign(side) < 0)
        return _bfs(engine.map, target, blocked)

    def _step_score(
        self,
        engine: ForbansEngine,
        board: tuple[int, ...],
        side: int,
        gather: tuple[int, ...],
    ) -> tuple[int, ...]:
        threats = sum(
            1
            for origin, count in enumerate(board)
            if count * sign(side) > 0
            for target in engine.map.neighbours[origin]
            if board[target] * sign(side) >= 0
            and engine.move_effect(board, side, origin, target) > ON
        )
        distance = sum(
            gather[p] * count * sign(side)
            for p, count in enumerate(board)
            if count * sign(side) > 0
        )
        bleu, vert = side_masks(board)
        enemy = vert if side == BLEU else bleu
        empty = ((1 << len(board)) - 1) & ~(bleu | vert)
        masks = engine.map.neighbour_masks
        weakest = min((liberty_count(g, empty, masks) for g in groups(enemy, masks)), default=0)
        return (min(threats, 2), -distance, -weakest)


def position_score(engine: ForbansEngine, board: tuple[int, ...], side: int) -> tuple[int, ...]:
    """How the sensible bot ranks ``board`` for ``side`` once it has moved, best highest: its
    winning threats (at most 2), then minus the route distance of its pieces to where they
    gather best, then minus the fewest liberties of an enemy group."""
    bot = SensibleBot(0)  # its scoring draws nothing from the generator
    return bot._step_score(engine, board, side, bot._gathering_distances(engine, board, side))


def _moved(board: tuple[int, ...], side: int, move: Step) -> tuple[int, ...]:
    cells = list(board)
    cells[move.origin] -= sign(side)
    cells[move.target] += sign(side)
    return tuple(cells)
