"""A sensible Consensus bot: head for e5, keep the Président out of reach, hold power.

It looks one move ahead.  Every (piece, destination) is tried with a few representative
further choices (corpse and displacement squares around e5, the origin, the far corners;
every Haussaire choice; every exit), each result is scored, and the best one is played;
ties are broken by the bot's own seeded generator, so a bot is deterministic given its seed.

The score, from the point of view of the player the bot plays:
* the game's result dominates everything;
* being in power, and each slot that no longer owes the ruler a turn (the same counts
  against us when another player rules);
* enemy pieces that could hit our Président next (kill it, or for the ruler, throw it off e5):
  heavily for the player who moves next, less for the others;
* the way to e5: pieces standing between our Président and e5, or how far it is;
* pieces alive on each side, and e5's neighbours filled while we rule (they block lines).
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from engines import AnyEngine
from engines.consensus import ConsensusState, Move
from engines.consensus_board import (
    BETWEEN,
    CENTRE_NEIGHBOURS,
    DEAD,
    E5,
    FONCTIONNAIRE,
    HAUSSAIRE,
    ORTHOGONAL,
    PRESIDENT,
    piece_code,
)
from engines.consensus_moves import destinations, enemy_table, pieces_of
from engines.consensus_turns import owing_slots, ruler_of, slots_in_play

__all__ = ["SensibleBot"]

WIN = 1_000_000
DRAW = -50_000
RULING = 600
PER_SLOT_DONE = 150
THREAT_NEXT = 1000
THREAT_LATER = 300
BLOCKER = 40
DISTANCE = 25
PIECE = 30
PRESIDENT_KILLED = 150
CENTRE_GUARD = 15


class SensibleBot:
    """One-move lookahead with a Consensus-specific score."""

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)

    def choose(self, engine: AnyEngine, state: ConsensusState) -> Move:
        seat = engine.to_move(state)
        assert seat is not None, "asked to move in a finished game"
        me = engine.controller(state, seat)
        best: list[Move] = []
        best_score = -(10**12)
        for move in _candidates(engine, state):
            score = _score(engine, engine.apply(state, move), me)
            if score > best_score:
                best, best_score = [move], score
            elif score == best_score:
                best.append(move)
        return best[self._rng.randrange(len(best))]


def _candidates(engine: AnyEngine, state: ConsensusState) -> Iterator[Move]:
    """Every (origin, target) once, each with a few representative further choices."""
    groups: dict[tuple[int, int], list[Move]] = {}
    for move in engine.legal_moves(state):
        groups.setdefault((move.origin, move.target), []).append(move)
    for (origin, _target), moves in groups.items():
        if len(moves) <= 12:
            yield from moves
            continue
        wanted = {origin, *CENTRE_NEIGHBOURS, 0, 8, 72, 80}
        chosen = [m for m in moves if m.further[0] in wanted]
        yield from chosen or moves[:: max(1, len(moves) // 8)]


def _score(engine: AnyEngine, state: ConsensusState, me: int) -> int:
    outcome = engine.outcome(state)
    if outcome is not None:
        if outcome.draw:
            return DRAW
        return WIN if me in outcome.winners else -WIN
    board = state.board
    mine = piece_code(me, PRESIDENT)
    if mine not in board:
        return -WIN
    president = board.index(mine)
    controllers = state.controllers
    score = 0
    ruler = ruler_of(board)
    if ruler:
        # Someone else's progress toward holding power is our loss, ours our gain.
        in_play = [s for s in slots_in_play(board, controllers) if controllers[s - 1] != ruler]
        power = RULING + PER_SLOT_DONE * (len(in_play) - len(owing_slots(state)))
        score += power if ruler == me else -power
    if ruler == me:
        score += CENTRE_GUARD * sum(1 for sq in CENTRE_NEIGHBOURS if board[sq])
    else:
        score -= _way_to_centre(board, president)
    soon = _movers_before_me(state, me)
    for player in set(controllers) - {0, me}:
        hits = _threats(board, controllers, player, president)
        score -= hits * (THREAT_NEXT if player in soon else THREAT_LATER)
    for code in board:
        if 0 < code < DEAD:
            side = controllers[(code >> 3) - 1]
            if side == me:
                score += PIECE
            elif side:
                score -= PIECE
        elif code & DEAD and code & 7 == PRESIDENT and code != mine | DEAD:
            score += PRESIDENT_KILLED
    return score


def _movers_before_me(state: ConsensusState, me: int) -> set[int]:
    """The players who move before our Président can move again (ignoring passes and
    changes of power)."""
    ruler = ruler_of(state.board)
    in_play = slots_in_play(state.board, state.controllers)
    movers: set[int] = set()
    start = state.slot
    if state.extra:
        if ruler == me:
            return movers
        movers.add(ruler)
        start += 1
    upcoming = [s for s in in_play if s >= start] + [s for s in in_play if s < start]
    for slot in upcoming:
        player = state.controllers[slot - 1]
        if slot == me:  # only on its own slot can our Président step away
            break
        if player == me:
            continue
        movers.add(player)
        if ruler == me:
            break
        if ruler:
            movers.add(ruler)
    return movers


def _way_to_centre(board: tuple[int, ...], president: int) -> int:
    """How far our Président is from e5: pieces in the way, or squares away."""
    if president == E5:
        return 0
    between = BETWEEN[president][E5]
    if between is not None:
        return BLOCKER * sum(2 if board[sq] & DEAD else 1 for sq in between if board[sq])
    rank, file = divmod(president, 9)
    return BLOCKER + DISTANCE * max(abs(rank - 4), abs(file - 4))


def _threats(
    board: tuple[int, ...], controllers: tuple[int, ...], player: int, president: int
) -> int:
    """How many of ``player``'s pieces could kill (or throw off e5) our Président."""
    enemy = enemy_table(controllers, player)
    seats = tuple(s for s, c in enumerate(controllers, start=1) if c == player)
    landing = {sq for sq in ORTHOGONAL[president] if not board[sq]}
    hits = 0
    for square in pieces_of(board, seats):
        kind = board[square] & 7
        reach = destinations(board, enemy, square)
        if kind == HAUSSAIRE:
            hits += bool(landing.intersection(reach))
        elif kind != FONCTIONNAIRE or president == E5:
            hits += president in reach
    return hits
