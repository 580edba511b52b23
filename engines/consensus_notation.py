"""Consensus move notation (rules section 8): print a move, read one back.

A move is written from its origin, with the letter of the piece that acts:

=====================  ===================================================
``Gb1-e4``             a move to an empty square
``Pa1xc3@d5``          a Président or Syndicaliste kills; the corpse goes to d5
``Gb1xe4``             a GIGN kills; the corpse goes to b1, its origin
``Gd4xe5>c6``          a GIGN kills the ruler, then exits e5 to c6
``Fb2xd4@h4``          a Fonctionnaire displaces the piece on d4 to h4
``Fb2xe5@h4>e6``       … the ruler to h4, then exits e5 to e6
``Hc4-c5xd5``          a Haussaire moves to c5 and kills the piece on d5
``Hc4-c5``             … and kills nobody
``Cc3xd4@b4``          a Coutumier carries the corpse on d4 to b4
``Cc3xe5@b4>e6``       … the corpse on e5 to b4, then exits e5 to e6
=====================  ===================================================

Reading only turns text into a candidate ``Move``; the engine then checks it against the
position, and refuses text that is not the canonical spelling of that move.
"""

from __future__ import annotations

import re

from engines.base import IllegalMove, InvalidMove
from engines.consensus_board import (
    GIGN,
    HAUSSAIRE,
    KIND_LETTERS,
    KIND_NAMES,
    parse_square,
    square_name,
)
from engines.consensus_moves import NO_KILL, Move

__all__ = ["format_move", "read_move"]

_PATTERN = re.compile(
    r"(?P<piece>[PSGHFC])(?P<origin>[a-i][1-9])(?P<sep>[-x])(?P<target>[a-i][1-9])"
    r"(?:x(?P<shot>[a-i][1-9]))?(?:@(?P<place>[a-i][1-9]))?(?:>(?P<exit>[a-i][1-9]))?"
)


def format_move(board: tuple[int, ...], move: Move) -> str:
    """The notation of ``move`` in the position ``board`` (before the move)."""
    origin, target, further = move
    code = board[origin] if 0 <= origin < 81 else 0
    if not code:
        raise IllegalMove(f"there is no piece on {_name(origin)}")
    text = f"{KIND_LETTERS[code & 7]}{square_name(origin)}"
    if code & 7 == HAUSSAIRE:
        text += f"-{_name(target)}"
        if further and further[0] != NO_KILL:
            text += f"x{_name(further[0])}"
        return text
    if not (0 <= target < 81 and board[target]):
        return f"{text}-{_name(target)}"
    text += f"x{square_name(target)}"
    # A GIGN's only further choice is its exit; everyone else places its victim first.
    if code & 7 != GIGN and further:
        text += f"@{_name(further[0])}"
        further = further[1:]
    if further:
        text += f">{_name(further[-1])}"
    return text


def _name(square: int) -> str:
    return square_name(square) if 0 <= square < 81 else "??"


def read_move(board: tuple[int, ...], text: str) -> Move:
    """The move ``text`` writes, not yet checked against the rules.

    ``InvalidMove`` when the text cannot be read; ``IllegalMove`` when the letter does not
    name the piece standing on the origin.
    """
    found = _PATTERN.fullmatch(text.strip()) if isinstance(text, str) else None
    if found is None:
        raise InvalidMove(f"cannot read {text!r} as a move (examples: Gb1-e4, Pa1xc3@d5)")
    letter = found["piece"]
    origin = parse_square(found["origin"])
    target = parse_square(found["target"])
    assert origin is not None and target is not None  # the pattern only matches squares
    code = board[origin]
    if not code or KIND_LETTERS[code & 7] != letter:
        name = KIND_NAMES[KIND_LETTERS.index(letter)]
        raise IllegalMove(f"there is no living {name} on {found['origin']}")
    shot, place, exit_square = (parse_square(found[g] or "") for g in ("shot", "place", "exit"))
    if letter == "H":
        further = [NO_KILL if shot is None else shot]
    elif shot is not None:
        raise IllegalMove("only a Haussaire kills a piece beside its landing square")
    else:
        further = []
    further += [square for square in (place, exit_square) if square is not None]
    return Move(origin, target, tuple(further))
