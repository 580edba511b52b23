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
from itertools import compress, repeat
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
    "empty_squares",
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
def _living_table(seats: tuple[int, ...]) -> bytes:
    """A ``bytes.translate`` table: 1 for a living piece of one of ``seats``, else 0."""
    return bytes(0 < code < DEAD and code >> 3 in seats for code in range(256))


_EMPTY_TABLE = bytes(code == 0 for code in range(256))
"""A ``bytes.translate`` table: 1 for an empty square, else 0."""


def pieces_of(
    board: tuple[int, ...], seats: tuple[int, ...], codes: bytes | None = None
) -> list[Square]:
    """The squares of the living pieces of ``seats``, ascending.

    ``codes`` is ``bytes(board)`` when the caller has it (square codes are below 128).
    """
    # One scan in C: a Python loop over 81 squares costs several times more, and this is done
    # at least twice a ply.
    if codes is None:
        codes = bytes(board)
    return list(compress(_SQUARES, codes.translate(_living_table(seats))))


def empty_squares(codes: bytes) -> list[Square]:
    """The empty squares, ascending, of the board whose ``bytes`` are ``codes``."""
    return list(compress(_SQUARES, codes.translate(_EMPTY_TABLE)))


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
    free = empty_squares(bytes(board))
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
    """Every complete legal move of the pieces of ``seats``, in the defined order.

    The same list as ``completions`` gives for each destination, built in bulk: a kill or a
    displacement has one move per free square (about 45), so those moves are taken from the
    shared rows of ``_one_choice_moves``, and the free squares are listed once
    per position, not once per victim.
    """
    moves: list[Move] = []
    add = moves.append
    codes = bytes(board)
    empty: list[Square] | None = None
    for origin in pieces_of(board, seats, codes):
        kind = board[origin] & 7
        plain = _PLAIN[origin]
        free: list[Square] | None = None  # where a victim may go, e5 excluded
        for target in destinations(board, enemy, origin):
            victim = board[target]
            if not victim:
                if kind != HAUSSAIRE:
                    add(plain[target])  # a plain move: no further choice
                    continue
                shots = [sq for sq in ORTHOGONAL[target] if enemy[board[sq]]]
                moves.extend(_one_choice_moves(origin, target, [NO_KILL, *shots]))
                continue
            if kind == GIGN:
                if target != E5:
                    add(plain[target])  # the corpse goes to the origin: no choice
                else:
                    moves.extend(_one_choice_moves(origin, target, _exits(board, origin, origin)))
                continue
            if empty is None:
                empty = empty_squares(codes)
            if kind == FONCTIONNAIRE and victim & 7 == PRESIDENT and target != E5:
                places = _with_origin(board, empty, origin, keep_centre=True)
            else:
                if free is None:
                    free = _with_origin(board, empty, origin, keep_centre=False)
                places = free
            if target != E5 or kind == PRESIDENT:
                moves.extend(_one_choice_moves(origin, target, places))
            else:
                for place in places:
                    for x in _exits(board, origin, place):
                        add(Move(origin, target, (place, x)))
    return moves


def _with_origin(
    board: tuple[int, ...], empty: list[Square], origin: Square, keep_centre: bool
) -> list[Square]:
    """``_free_squares`` from the position's ``empty`` squares (ascending)."""
    free = empty.copy()
    bisect.insort(free, origin)
    if not keep_centre and (origin == E5 or not board[E5]):
        free.remove(E5)
    return free


_new_move = tuple.__new__  # Move(...) without NamedTuple's Python-level __new__
_ONE_CHOICE: tuple[tuple[int], ...] = (*((square,) for square in _SQUARES), (NO_KILL,))
"""``_ONE_CHOICE[choice]`` is ``(choice,)``, ``NO_KILL`` (the last entry) included."""

_PLAIN: tuple[tuple[Move, ...], ...] = tuple(
    tuple(map(_new_move, repeat(Move), zip(repeat(origin), _SQUARES, repeat(()))))
    for origin in _SQUARES
)
"""``_PLAIN[origin][target]``: the move without further choice, made once.

Moves are immutable values, so every list shares them: making a ``Move`` (a tuple subclass)
costs several times more than fetching one, and a position lists about a hundred."""

_ROWS: dict[int, list[Move | None]] = {}
_MAX_ROWS = 1024
"""Rows kept, the oldest dropped first: at most 6 kB a row, so at most about 6 MB (a game
uses a few hundred rows; 2,112 origin-target pairs share a line)."""


def _one_choice_moves(origin: Square, target: Square, choices: list[int]) -> list[Move]:
    """``[Move(origin, target, (choice,)) for choice in choices]`` (a square or ``NO_KILL``),
    taken from the row every position shares: ``row[choice]``, ``row[NO_KILL]`` being its
    last entry; a move is made the first time it is asked for (``None`` until then)."""
    key = origin * 81 + target
    row = _ROWS.get(key)
    if row is None:
        if len(_ROWS) >= _MAX_ROWS:
            del _ROWS[next(iter(_ROWS))]
        row = _ROWS[key] = [None] * 82
    moves = list(map(row.__getitem__, choices))
    if not all(moves):  # some are asked for the first time (a Move is never empty)
        for index, choice in enumerate(choices):
            if moves[index] is None:
                moves[index] = row[choice] = _new_move(Move, (origin, target, _ONE_CHOICE[choice]))
    return moves  # type: ignore[return-value]  # no None left


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
