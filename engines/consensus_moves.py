"""What a Consensus piece may do: move generation and the check of one move (rules 3-5).

Terms used throughout:

* the *mover* is the player making the move; ``enemy`` is the mover's table (indexed by
  square code) of living pieces it does not control: neutral pieces are everyone's enemy,
  corpses and empty squares are nobody's;
* ``seats`` are the seats whose pieces may move this turn: the slot's own seat, or for the
  ruler's extra move every seat the ruler controls.

A complete move is ``Move(origin, target, further)``: ``further`` holds the choices a player
makes after the target, in order: the square the victim goes to (a corpse or a displaced
piece) or, for a Haussaire, the square of the piece it kills (``NO_KILL`` for none); then,
for a centre action, the square the acting piece exits to.  A GIGN's corpse always goes to
its origin, so a GIGN kill has no placement choice.  What ``further`` holds follows from the
board (the piece on the origin, what stands on the target), and for a given origin and target
every move has the same length, so no wire form is a prefix of another.

Defined order: pieces by ascending square, a piece's destinations ascending, each further
choice ascending (``NO_KILL`` first).  That is the lexicographic order of the wire forms, so
the step-by-step view and the flat list agree.

Invariants the generator relies on: only a living Président ever rests on e5 (other pieces
only pass through it in a centre action) and a corpse may lie there; pieces never leave the
board, so at least 45 squares are always empty and a victim always has somewhere to go.
"""

from __future__ import annotations

import bisect
import functools
import operator
from itertools import compress
from typing import NamedTuple

from engines.base import IllegalMove
from engines.consensus_board import (
    BETWEEN,
    CENTRE_NEIGHBOURS,
    COUTUMIER,
    DEAD,
    E5,
    FONCTIONNAIRE,
    GIGN,
    HAUSSAIRE,
    KIND_NAMES,
    ORTHOGONAL,
    PRESIDENT,
    RAYS,
    SHORT_RAYS,
    SYNDICALISTE,
    Square,
    square_name,
)

__all__ = [
    "NO_KILL",
    "Move",
    "completions",
    "destinations",
    "enemy_table",
    "legal_moves",
    "movable_pieces",
    "pieces_of",
    "play",
]

NO_KILL = -1
"""A Haussaire's third choice when it kills nobody."""

_SQUARES = range(81)


class Move(NamedTuple):
    """A complete Consensus move; its wire form is ``[origin, target, *further]``."""

    origin: Square
    target: Square
    further: tuple[int, ...] = ()


@functools.lru_cache(maxsize=1024)
def enemy_table(controllers: tuple[int, ...], mover: int) -> tuple[bool, ...]:
    """For each square code, whether it is a living piece ``mover`` does not control.

    ``controllers[seat - 1]`` is the player controlling ``seat`` (0: neutral).
    """
    table = [False] * 128
    for seat, controller in enumerate(controllers, start=1):
        if controller != mover:
            for kind in range(PRESIDENT, COUTUMIER + 1):
                table[seat << 3 | kind] = True
    return tuple(table)


@functools.lru_cache(maxsize=64)
def _living_table(seats: tuple[int, ...]) -> tuple[bool, ...]:
    """For each square code, whether it is a living piece of one of ``seats``."""
    return tuple(0 < code < DEAD and code >> 3 in seats for code in range(128))


def pieces_of(board: tuple[int, ...], seats: tuple[int, ...]) -> list[Square]:
    """The squares of the living pieces of ``seats``, ascending."""
    # compress and map run in C: this scan of 81 squares is done several times a ply.
    return list(compress(_SQUARES, map(_living_table(seats).__getitem__, board)))


def _centre_open(board: tuple[int, ...], origin: Square, origin_filled: bool) -> bool:
    """Whether a piece on e5 could still exit once it came from ``origin``.

    The origin is free again unless a corpse went there (a GIGN's kill).  A victim that is
    placed can block at most one neighbour and always has another square to go to, so one
    free neighbour is enough.
    """
    for square in CENTRE_NEIGHBOURS:
        if square == origin:
            if not origin_filled:
                return True
        elif not board[square]:
            return True
    return False


def destinations(board: tuple[int, ...], enemy: tuple[bool, ...], origin: Square) -> list[Square]:
    """The squares the piece on ``origin`` can reach in at least one complete legal move."""
    kind = board[origin] & 7
    found: list[Square] = []
    for ray in (SHORT_RAYS if kind == SYNDICALISTE else RAYS)[origin]:
        for square in ray:
            code = board[square]
            if not code:
                # Anyone crosses an empty e5; only a Président stops there.
                if square != E5 or kind == PRESIDENT:
                    found.append(square)
                continue
            if code & DEAD:
                if kind == COUTUMIER and (square != E5 or _centre_open(board, origin, False)):
                    found.append(square)
            elif enemy[code]:
                # A living piece on e5 is always a Président in power.
                if kind == PRESIDENT:
                    found.append(square)
                elif kind == SYNDICALISTE:
                    if square != E5:
                        found.append(square)
                elif kind == GIGN:
                    if square != E5 or _centre_open(board, origin, True):
                        found.append(square)
                elif kind == FONCTIONNAIRE and (square != E5 or _centre_open(board, origin, False)):
                    found.append(square)
            break
    found.sort()
    return found


def movable_pieces(
    board: tuple[int, ...], enemy: tuple[bool, ...], seats: tuple[int, ...]
) -> list[Square]:
    """The squares of the pieces of ``seats`` that have at least one legal move."""
    return [sq for sq in pieces_of(board, seats) if destinations(board, enemy, sq)]


def _free_squares(board: tuple[int, ...], origin: Square, centre: bool) -> list[Square]:
    """Where a victim may go once the acting piece left ``origin``: every empty square,
    the origin included, and e5 only when ``centre`` (a Président displaced there)."""
    free = list(compress(_SQUARES, map(operator.not_, board)))
    bisect.insort(free, origin)  # the origin holds the acting piece: it is not in the list
    if not centre and (origin == E5 or not board[E5]):
        free.remove(E5)
    return free


def _exits(board: tuple[int, ...], origin: Square, filled: Square) -> list[Square]:
    """Where a piece on e5 can exit to, once it left ``origin`` and ``filled`` got a piece."""
    found: list[Square] = []
    for ray in RAYS[E5]:
        for square in ray:
            if square == filled or (board[square] and square != origin):
                break
            found.append(square)
    found.sort()
    return found


def completions(
    board: tuple[int, ...], enemy: tuple[bool, ...], origin: Square, target: Square
) -> list[tuple[int, ...]]:
    """Every ``further`` that completes a move from ``origin`` to one of its destinations."""
    kind = board[origin] & 7
    victim = board[target]
    if not victim:
        if kind == HAUSSAIRE:
            return [(NO_KILL,), *((sq,) for sq in ORTHOGONAL[target] if enemy[board[sq]])]
        return [()]
    if kind == GIGN:
        return [(x,) for x in _exits(board, origin, origin)] if target == E5 else [()]
    places = _free_squares(
        board, origin, kind == FONCTIONNAIRE and victim & 7 == PRESIDENT and target != E5
    )
    if target != E5 or kind == PRESIDENT:
        return [(place,) for place in places]
    return [(place, x) for place in places for x in _exits(board, origin, place)]


def legal_moves(
    board: tuple[int, ...], enemy: tuple[bool, ...], seats: tuple[int, ...]
) -> list[Move]:
    """Every complete legal move of the pieces of ``seats``, in the defined order."""
    moves: list[Move] = []
    add = moves.append
    new = tuple.__new__  # Move(...) without NamedTuple's Python-level __new__
    for origin in pieces_of(board, seats):
        haussaire = board[origin] & 7 == HAUSSAIRE
        for target in destinations(board, enemy, origin):
            if not board[target] and not haussaire:
                add(new(Move, (origin, target, ())))  # a plain move: no further choice
                continue
            for further in completions(board, enemy, origin, target):
                add(new(Move, (origin, target, further)))
    return moves


# --- checking and playing one move ---------------------------------------------------------


def _expect(further: tuple[int, ...], count: int, what: str) -> None:
    if len(further) != count:
        raise IllegalMove(f"this move needs {what}" if count else "this move takes no more choice")


def _place(board: list[int], square: int, code: int, what: str) -> None:
    if not (0 <= square < 81) or board[square]:
        raise IllegalMove(f"{what} must go to an empty square")
    if square == E5 and not (code < DEAD and code & 7 == PRESIDENT):
        raise IllegalMove(f"{what} may not be put on e5: only a Président stands there")
    board[square] = code


def _exit(board: list[int], exit_square: int) -> None:
    """Move the piece on e5 out along a clear line to the empty ``exit_square``."""
    path = BETWEEN[E5][exit_square] if 0 <= exit_square < 81 else None
    if path is None or board[exit_square] or any(board[sq] for sq in path):
        raise IllegalMove("the piece must exit e5 by a clear straight line to an empty square")
    board[exit_square] = board[E5]
    board[E5] = 0


def play(
    board: tuple[int, ...], enemy: tuple[bool, ...], seats: tuple[int, ...], move: Move
) -> tuple[tuple[int, ...], int]:
    """Check ``move`` and play it: the new board and the code of the piece killed (or 0).

    Raises ``IllegalMove`` saying what is wrong.  Only this one move is examined.
    """
    origin, target, further = move
    if not (0 <= origin < 81 and 0 <= target < 81):
        raise IllegalMove("there is no such square")
    code = board[origin]
    if not 0 < code < DEAD:
        raise IllegalMove(f"there is no living piece on {square_name(origin)}")
    kind = code & 7
    name = KIND_NAMES[kind]
    if code >> 3 not in seats:
        raise IllegalMove(f"the {name} on {square_name(origin)} cannot move this turn")
    path = BETWEEN[origin][target]
    if path is None:
        raise IllegalMove(f"a piece moves along a straight line, not to {square_name(target)}")
    if kind == SYNDICALISTE and len(path) > 1:
        raise IllegalMove("a Syndicaliste moves one or two squares")
    for square in path:
        if board[square]:
            raise IllegalMove(f"{square_name(square)} blocks the way")
    victim = board[target]
    new = list(board)
    new[origin] = 0
    new[target] = code
    killed = 0
    if not victim:
        if target == E5 and kind != PRESIDENT:
            raise IllegalMove("only a Président may stop on e5")
        if kind != HAUSSAIRE:
            _expect(further, 0, "")
            return tuple(new), 0
        _expect(further, 1, "a victim square or none")
        shot = further[0]
        if shot != NO_KILL:
            if shot not in ORTHOGONAL[target] or not enemy[board[shot]]:
                raise IllegalMove("a Haussaire kills an enemy piece on a square beside it")
            killed = board[shot]
            new[shot] = killed | DEAD
        return tuple(new), killed
    if victim & DEAD:
        if kind != COUTUMIER:
            raise IllegalMove("only a Coutumier lands on a corpse")
        _expect(further, 2 if target == E5 else 1, "where the corpse goes")
        _place(new, further[0], victim, "the corpse")
    elif not enemy[victim]:
        raise IllegalMove(f"the piece on {square_name(target)} is on your side")
    elif kind in (HAUSSAIRE, COUTUMIER):
        raise IllegalMove(f"a {name} only moves to an empty square")
    elif kind == SYNDICALISTE and target == E5:
        raise IllegalMove("a Syndicaliste may not act on the Président in power")
    elif kind == GIGN:
        _expect(further, 1 if target == E5 else 0, "the exit square")
        killed = victim
        new[origin] = victim | DEAD
    elif kind == FONCTIONNAIRE:
        _expect(further, 2 if target == E5 else 1, "where the piece goes")
        _place(new, further[0], victim, "the displaced piece")
    else:  # Président or Syndicaliste: the mover puts the corpse anywhere empty but e5.
        _expect(further, 1, "where the corpse goes")
        killed = victim
        _place(new, further[0], victim | DEAD, "the corpse")
    if target == E5 and kind != PRESIDENT:
        _exit(new, further[-1])
    return tuple(new), killed
