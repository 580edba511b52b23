"""Consensus board geometry, square names, piece codes and the start position.

Squares are ints 0..80, rank-major as in python-chess: ``square = rank * 9 + file`` with
files a..i = 0..8 and ranks 1..9 = 0..8.  So ``A1 = 0``, ``I1 = 8``, ``A2 = 9``,
``E5 = 40`` (le Pouvoir, the power square) and ``I9 = 80``.

A board is a tuple of 81 square codes:

* ``0``: empty;
* ``seat << 3 | kind``: a living piece of ``seat`` (1..4), ``kind`` one of the six kinds;
* ``DEAD | seat << 3 | kind``: a corpse.  Corpses belong to nobody and play no role by
  colour or kind; the code keeps what the piece was only so that a board can be drawn.

Everything here is computed once at import and never changes: rays are tuples of squares
walking outward from a square, so move generation never does coordinate arithmetic.
"""

from __future__ import annotations

__all__ = [
    "BETWEEN",
    "CENTRE_NEIGHBOURS",
    "COUTUMIER",
    "DEAD",
    "E5",
    "FONCTIONNAIRE",
    "GIGN",
    "HAUSSAIRE",
    "KIND_LETTERS",
    "KIND_NAMES",
    "ORTHOGONAL",
    "PRESIDENT",
    "RAYS",
    "SHORT_RAYS",
    "SQUARE_NAMES",
    "SYNDICALISTE",
    "Square",
    "board_diagram",
    "board_from_diagram",
    "is_alive",
    "kind_of",
    "parse_square",
    "piece_code",
    "seat_of",
    "square_name",
    "start_board",
]

Square = int

# fmt: off
A1, B1, C1, D1, E1, F1, G1, H1, I1 = range(0, 9)
A2, B2, C2, D2, E2, F2, G2, H2, I2 = range(9, 18)
A3, B3, C3, D3, E3, F3, G3, H3, I3 = range(18, 27)
A4, B4, C4, D4, E4, F4, G4, H4, I4 = range(27, 36)
A5, B5, C5, D5, E5, F5, G5, H5, I5 = range(36, 45)
A6, B6, C6, D6, E6, F6, G6, H6, I6 = range(45, 54)
A7, B7, C7, D7, E7, F7, G7, H7, I7 = range(54, 63)
A8, B8, C8, D8, E8, F8, G8, H8, I8 = range(63, 72)
A9, B9, C9, D9, E9, F9, G9, H9, I9 = range(72, 81)
# fmt: on

PRESIDENT, SYNDICALISTE, GIGN, HAUSSAIRE, FONCTIONNAIRE, COUTUMIER = range(1, 7)
KIND_LETTERS = "?PSGHFC"
KIND_NAMES = (
    "",
    "Président",
    "Syndicaliste",
    "GIGN",
    "Haussaire",
    "Fonctionnaire",
    "Coutumier",
)
DEAD = 64

SQUARE_NAMES: tuple[str, ...] = tuple(f"{'abcdefghi'[sq % 9]}{sq // 9 + 1}" for sq in range(81))
_SQUARE_BY_NAME = {name: sq for sq, name in enumerate(SQUARE_NAMES)}

_DIRECTIONS = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))


def _ray(square: Square, file_step: int, rank_step: int) -> tuple[Square, ...]:
    file, rank = square % 9 + file_step, square // 9 + rank_step
    squares = []
    while 0 <= file < 9 and 0 <= rank < 9:
        squares.append(rank * 9 + file)
        file, rank = file + file_step, rank + rank_step
    return tuple(squares)


RAYS: tuple[tuple[tuple[Square, ...], ...], ...] = tuple(
    tuple(ray for step in _DIRECTIONS if (ray := _ray(sq, *step))) for sq in range(81)
)
"""For each square, the non-empty rays of the eight queen directions, nearest square first."""

SHORT_RAYS: tuple[tuple[tuple[Square, ...], ...], ...] = tuple(
    tuple(ray[:2] for ray in rays) for rays in RAYS
)
"""The same rays cut to two squares: how far a Syndicaliste goes."""

ORTHOGONAL: tuple[tuple[Square, ...], ...] = tuple(
    tuple(sorted(ray[0] for step in _DIRECTIONS[::2] if (ray := _ray(sq, *step))))
    for sq in range(81)
)
"""For each square, the (up to four) squares sharing a side with it, ascending."""

CENTRE_NEIGHBOURS: tuple[Square, ...] = tuple(sorted(ray[0] for ray in RAYS[E5]))
"""The eight squares around e5: a piece exits the centre through one of them."""


def _between(origin: Square, target: Square) -> tuple[Square, ...] | None:
    for ray in RAYS[origin]:
        if target in ray:
            return ray[: ray.index(target)]
    return None


BETWEEN: tuple[tuple[tuple[Square, ...] | None, ...], ...] = tuple(
    tuple(_between(origin, target) for target in range(81)) for origin in range(81)
)
"""``BETWEEN[a][b]``: the squares strictly between ``a`` and ``b`` on a queen line, or
``None`` when ``b`` is not on a queen line from ``a`` (or is ``a``)."""


def square_name(square: Square) -> str:
    """``"a1"`` … ``"i9"``."""
    return SQUARE_NAMES[square]


def parse_square(text: str) -> Square | None:
    """The square named ``text`` (``"e5"``), or ``None`` when it names none."""
    return _SQUARE_BY_NAME.get(text)


def piece_code(seat: int, kind: int) -> int:
    """The square code of a living piece."""
    return seat << 3 | kind


def is_alive(code: int) -> bool:
    """Whether a square code is a living piece (not empty, not a corpse)."""
    return 0 < code < DEAD


def seat_of(code: int) -> int:
    """The seat a piece (or corpse) started with."""
    return (code >> 3) & 7


def kind_of(code: int) -> int:
    """The kind of a piece or corpse (``PRESIDENT`` …)."""
    return code & 7


# Each seat fills its corner's 3 x 3 block: (step along the rank, step along the file) from
# the corner, toward the centre.
_SETUP = (
    (PRESIDENT, 0, 0),
    (GIGN, 1, 0),
    (HAUSSAIRE, 0, 1),
    (FONCTIONNAIRE, 1, 1),
    (COUTUMIER, 2, 2),
    (SYNDICALISTE, 2, 0),
    (SYNDICALISTE, 2, 1),
    (SYNDICALISTE, 0, 2),
    (SYNDICALISTE, 1, 2),
)
# seat -> (corner file, corner rank, file step toward the centre, rank step toward it);
# a1 -> a9 -> i9 -> i1 is clockwise.
_CORNERS = {1: (0, 0, 1, 1), 2: (0, 8, 1, -1), 3: (8, 8, -1, -1), 4: (8, 0, -1, 1)}


def start_board() -> tuple[int, ...]:
    """The board at the start of a four-seat game."""
    board = [0] * 81
    for seat, (file, rank, file_dir, rank_dir) in _CORNERS.items():
        for kind, along_rank, along_file in _SETUP:
            square = (rank + along_file * rank_dir) * 9 + file + along_rank * file_dir
            board[square] = piece_code(seat, kind)
    return tuple(board)


def board_diagram(board: tuple[int, ...]) -> str:
    """The board as nine lines, rank 9 first: ``.`` empty, ``P1`` a living Président of
    seat 1, ``p1`` its corpse (letters ``PSGHFC``)."""
    rows = []
    for rank in range(8, -1, -1):
        tokens = []
        for code in board[rank * 9 : rank * 9 + 9]:
            if not code:
                tokens.append(" .")
            else:
                letter = KIND_LETTERS[code & 7]
                tokens.append(f"{letter.lower() if code & DEAD else letter}{seat_of(code)}")
        rows.append(" ".join(tokens))
    return "\n".join(rows)


def board_from_diagram(text: str) -> tuple[int, ...]:
    """The board a ``board_diagram`` draws (``ValueError`` naming the first bad token)."""
    rows = [line.split() for line in text.strip().splitlines() if line.strip()]
    if len(rows) != 9 or any(len(row) != 9 for row in rows):
        raise ValueError("a board diagram has 9 lines of 9 tokens, rank 9 first")
    board = [0] * 81
    for rank, row in zip(range(8, -1, -1), rows, strict=True):
        for file, token in enumerate(row):
            if token == ".":
                continue
            letter, seat = token[:1], token[1:]
            if len(token) != 2 or letter.upper() not in KIND_LETTERS[1:] or seat not in "1234":
                raise ValueError(f"bad token {token!r} on {square_name(rank * 9 + file)}")
            code = piece_code(int(seat), KIND_LETTERS.index(letter.upper()))
            board[rank * 9 + file] = code | (DEAD if letter.islower() else 0)
    return tuple(board)
