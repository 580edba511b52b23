"""Discorder (``discorder/1``): two players, tiles and shared pegs on an 8 × 7 board.

The rules as palabre plays them are in ``docs/rules/discorder.md``; this module follows them.

Numbering and invariants of ``DiscorderState``:

* A cell is ``row * 8 + col`` (``a1`` = 0, ``h1`` = 7, ``a7`` = 48).  ``board[cell]`` is
  0 (empty), 1 (a Jaune tile, seat 1) or 2 (a Noir tile, seat 2).
* A peg site is the segment between a cell and the one above it, numbered like its lower
  cell (``c3|4`` = cell ``c3`` = 18), so the site above cell ``c`` is ``pegs[c]`` for the
  48 cells of rows 1–6.  Pegs cut columns only; rows are never cut.
* ``tiles_left[seat - 1]`` plus that seat's tiles on the board is always 28, and
  ``pegs_left`` plus the pegs on the board is always 10.
* ``to_move`` is 0 exactly when the game is over (``finish`` says why).  While it goes on,
  the seat to move always has a legal move: a player with no tile and no legal peg passes
  inside ``apply``, which records it in ``passed`` and clears that player's ban (a pass is
  its turn).  So a game lasts at most 56 + 10 plies.
* ``banned[seat - 1]``: that seat's previous turn placed a tile that made a line of exactly
  three of its colour, so this turn it may not place a peg.
* Every move adds a tile or a peg, so no position repeats and no draw rule is needed.

Run statuses for the UI (``run_views``) and the provisional score come from the same scan of
maximal runs that scores the finished board, so they agree with it at the end.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, replace

from engines.base import (
    Engine,
    IllegalMove,
    InvalidMove,
    InvalidParams,
    Outcome,
    Params,
    WireMove,
)

__all__ = [
    "CELLS",
    "ENGINE",
    "GIVEN_AWAY",
    "HEIGHT",
    "PEGS",
    "PENDING",
    "SECURED",
    "SITES",
    "TILES_PER_PLAYER",
    "WIDTH",
    "DiscorderEngine",
    "DiscorderState",
    "Move",
    "Peg",
    "RunView",
    "Tile",
    "cell_name",
    "column_run",
    "provisional_scores",
    "row_run",
    "run_views",
    "site_name",
]

WIDTH = 8
HEIGHT = 7
CELLS = WIDTH * HEIGHT  # 56
SITES = WIDTH * (HEIGHT - 1)  # 48
TILES_PER_PLAYER = 28
PEGS = 10
COLOUR_NAMES = ("Jaune", "Noir")

EMPTY = 0
# Why the game ended (``DiscorderState.finish``).
PLAYING, BOARD_FULL, RESIGNED, AGREED = 0, 1, 2, 3

SECURED, PENDING, GIVEN_AWAY = "secured", "pending", "given-away"


@dataclass(frozen=True)
class DiscorderState:
    board: tuple[int, ...]
    pegs: tuple[bool, ...]
    tiles_left: tuple[int, int]
    pegs_left: int
    to_move: int
    banned: tuple[bool, bool]
    passed: int
    """The seat whose turn was passed automatically just before this position, or 0."""
    finish: int
    resigned: int
    """The seat that resigned, or 0."""


@dataclass(frozen=True)
class Tile:
    """Put one of one's tiles on an empty cell."""

    cell: int


@dataclass(frozen=True)
class Peg:
    """Put a peg from the shared supply on a site (between ``site`` and the cell above)."""

    site: int


Move = Tile | Peg


@dataclass(frozen=True)
class RunView:
    """One maximal run of three or more tiles of one colour, as the UI shows it.

    ``status`` is ``"secured"`` (exactly three, both ends closed: it scores for ``owner``),
    ``"pending"`` (exactly three, an end still open) or ``"given-away"`` (four or more: it
    scores for the opponent).  ``cells`` run left to right or bottom to top.
    """

    owner: int
    cells: tuple[int, ...]
    vertical: bool
    status: str

    @property
    def name(self) -> str:
        return f"{cell_name(self.cells[0])}-{cell_name(self.cells[-1])}"

    @property
    def scorer(self) -> int | None:
        """The seat this run gives a point to as things stand, or ``None`` (pending)."""
        if self.status == SECURED:
            return self.owner
        if self.status == GIVEN_AWAY:
            return 3 - self.owner
        return None


def cell_name(cell: int) -> str:
    return f"{'abcdefgh'[cell % WIDTH]}{cell // WIDTH + 1}"


def site_name(site: int) -> str:
    row = site // WIDTH + 1
    return f"{'abcdefgh'[site % WIDTH]}{row}|{row + 1}"


# --- runs ---------------------------------------------------------------------------------


def row_run(board: tuple[int, ...], cell: int, colour: int) -> int:
    """Length of the row run of ``colour`` through ``cell`` if ``cell`` held that colour."""
    col = cell % WIDTH
    left = right = 0
    while col - left > 0 and board[cell - left - 1] == colour:
        left += 1
    while col + right < WIDTH - 1 and board[cell + right + 1] == colour:
        right += 1
    return left + right + 1


def column_run(board: tuple[int, ...], pegs: tuple[bool, ...], cell: int, colour: int) -> int:
    """Length of the column run of ``colour`` through ``cell`` (a peg ends it), likewise."""
    low = high = cell
    while low >= WIDTH and not pegs[low - WIDTH] and board[low - WIDTH] == colour:
        low -= WIDTH
    while high < CELLS - WIDTH and not pegs[high] and board[high + WIDTH] == colour:
        high += WIDTH
    return (high - low) // WIDTH + 1


def _lines(state: DiscorderState) -> Iterator[tuple[tuple[int, ...], tuple[int, ...], bool]]:
    """Each row and column as (cells, cut_after, vertical).

    ``cut_after[i]`` is true when nothing may join ``cells[i]`` to ``cells[i + 1]`` (a peg).
    """
    for row in range(HEIGHT):
        cells = tuple(range(row * WIDTH, row * WIDTH + WIDTH))
        yield cells, (False,) * (WIDTH - 1), False
    for col in range(WIDTH):
        cells = tuple(range(col, CELLS, WIDTH))
        yield cells, tuple(state.pegs[cell] for cell in cells[:-1]), True


def run_views(state: DiscorderState) -> tuple[RunView, ...]:
    """Every maximal run of three or more, rows first (bottom up) then columns (a to h)."""
    views: list[RunView] = []
    board = state.board
    for cells, cut_after, vertical in _lines(state):
        start = 0
        while start < len(cells):
            colour = board[cells[start]]
            end = start
            while end + 1 < len(cells) and not cut_after[end] and board[cells[end + 1]] == colour:
                end += 1
            length = end - start + 1
            if colour != EMPTY and length >= 3:
                if length > 3:
                    status = GIVEN_AWAY
                else:
                    open_low = (
                        start > 0 and not cut_after[start - 1] and not board[cells[start - 1]]
                    )
                    open_high = (
                        end + 1 < len(cells) and not cut_after[end] and not board[cells[end + 1]]
                    )
                    status = PENDING if open_low or open_high else SECURED
                views.append(RunView(colour, cells[start : end + 1], vertical, status))
            start = end + 1
    return tuple(views)


def provisional_scores(state: DiscorderState) -> tuple[int, int]:
    """(Jaune, Noir): secured runs for their owner plus given-away runs for the opponent.

    On a full board no run is pending, so this is the final score.
    """
    scores = [0, 0]
    for view in run_views(state):
        scorer = view.scorer
        if scorer is not None:
            scores[scorer - 1] += 1
    return scores[0], scores[1]


# --- legality -----------------------------------------------------------------------------


def _peg_refusal(state: DiscorderState, site: int) -> str | None:
    """Why a peg may not go on ``site`` now, or ``None`` when it may."""
    if not 0 <= site < SITES:
        return f"there is no peg site number {site}"
    if state.pegs_left == 0:
        return "no peg is left in the supply"
    if state.banned[state.to_move - 1]:
        return "you made a line of three on your last turn, so you may not place a peg now"
    name = site_name(site)
    if state.pegs[site]:
        return f"{name} already holds a peg"
    low, high = state.board[site], state.board[site + WIDTH]
    if low and high:
        return f"both cells of {name} hold tiles; a peg never splits placed tiles"
    col = site % WIDTH
    beside = (col > 0 and state.pegs[site - 1]) or (col < WIDTH - 1 and state.pegs[site + 1])
    if not (low or high or beside):
        return f"{name} follows no tile and no peg"
    return None


def _refusal(state: DiscorderState, move: Move) -> str | None:
    """Why ``move`` is not legal in ``state``, or ``None`` when it is."""
    if state.to_move == 0:
        return "the game is over"
    if isinstance(move, Tile):
        if not 0 <= move.cell < CELLS:
            return f"there is no cell number {move.cell}"
        if state.tiles_left[state.to_move - 1] == 0:
            return "you have no tile left"
        if state.board[move.cell]:
            return f"{cell_name(move.cell)} is not empty"
        return None
    return _peg_refusal(state, move.site)


def _can_move(state: DiscorderState, seat: int) -> bool:
    """Whether ``seat`` would have a legal move if it were its turn in ``state``."""
    if state.tiles_left[seat - 1]:
        return True
    probe = replace(state, to_move=seat)
    return any(_peg_refusal(probe, site) is None for site in range(SITES))


_TILE_TEXT = re.compile(r"([a-h])([1-7])")
_PEG_TEXT = re.compile(r"([a-h])([1-7])\|([1-7])")


class DiscorderEngine(Engine[DiscorderState, Move]):
    name = "discorder"
    ruleset = "discorder/1"
    version = "1"
    min_seats = 2
    max_seats = 2
    sample_params = ({"seats": 2},)

    # --- the game ---------------------------------------------------------------------
    def initial_state(self, params: Params) -> DiscorderState:
        for key in params:
            if key != "seats":
                raise InvalidParams(f"discorder has no option {key!r}; it takes only 'seats'")
        seats = params.get("seats", 2)
        if type(seats) is not int or seats != 2:
            raise InvalidParams(f"discorder is played by exactly 2 players, not seats={seats!r}")
        return DiscorderState(
            board=(EMPTY,) * CELLS,
            pegs=(False,) * SITES,
            tiles_left=(TILES_PER_PLAYER, TILES_PER_PLAYER),
            pegs_left=PEGS,
            to_move=1,
            banned=(False, False),
            passed=0,
            finish=PLAYING,
            resigned=0,
        )

    def seat_count(self, state: DiscorderState) -> int:
        return 2

    def to_move(self, state: DiscorderState) -> int | None:
        return state.to_move or None

    def controller(self, state: DiscorderState, seat: int) -> int:
        return seat

    def legal_moves(self, state: DiscorderState) -> tuple[Move, ...]:
        """Tiles by cell, then pegs by site (the order of their wire numbers)."""
        if state.to_move == 0:
            return ()
        moves: list[Move] = []
        if state.tiles_left[state.to_move - 1]:
            moves += [Tile(cell) for cell in range(CELLS) if not state.board[cell]]
        if state.pegs_left and not state.banned[state.to_move - 1]:
            moves += [Peg(site) for site in range(SITES) if _peg_refusal(state, site) is None]
        return tuple(moves)

    def apply(self, state: DiscorderState, move: Move) -> DiscorderState:
        if not isinstance(move, Tile | Peg):
            raise InvalidMove(f"not a discorder move: {move!r}")
        refusal = _refusal(state, move)
        if refusal is not None:
            raise IllegalMove(refusal)
        seat = state.to_move
        index = seat - 1
        banned = list(state.banned)
        if isinstance(move, Tile):
            board = list(state.board)
            board[move.cell] = seat
            tiles_left = list(state.tiles_left)
            tiles_left[index] -= 1
            after = replace(state, board=tuple(board), tiles_left=(tiles_left[0], tiles_left[1]))
            banned[index] = (
                row_run(after.board, move.cell, seat) == 3
                or column_run(after.board, after.pegs, move.cell, seat) == 3
            )
        else:
            pegs = list(state.pegs)
            pegs[move.site] = True
            after = replace(state, pegs=tuple(pegs), pegs_left=state.pegs_left - 1)
            banned[index] = False
        if after.tiles_left == (0, 0):
            return replace(
                after, banned=(banned[0], banned[1]), to_move=0, passed=0, finish=BOARD_FULL
            )
        other = 3 - seat
        after = replace(after, banned=(banned[0], banned[1]), to_move=other, passed=0)
        if _can_move(after, other):
            return after
        # The other player has no tile and no legal peg: its turn passes (ending its ban).
        # The mover then has a tile left, since the board is not full (see the header).
        banned[other - 1] = False
        return replace(after, banned=(banned[0], banned[1]), to_move=seat, passed=other)

    def resign(self, state: DiscorderState, seat: int) -> DiscorderState:
        if state.to_move == 0:
            raise IllegalMove("the game is over")
        if seat not in (1, 2):
            raise IllegalMove(f"there is no seat {seat} in discorder")
        return replace(state, to_move=0, passed=0, finish=RESIGNED, resigned=seat)

    def agree_draw(self, state: DiscorderState) -> DiscorderState:
        if state.to_move == 0:
            raise IllegalMove("the game is over")
        return replace(state, to_move=0, passed=0, finish=AGREED)

    def outcome(self, state: DiscorderState) -> Outcome | None:
        if state.finish == PLAYING:
            return None
        if state.finish == AGREED:
            return Outcome((), True, "agreement", "Draw agreed.")
        if state.finish == RESIGNED:
            loser = state.resigned
            winner = 3 - loser
            summary = f"{COLOUR_NAMES[loser - 1]} resigned; {COLOUR_NAMES[winner - 1]} wins."
            return Outcome((winner,), False, "resignation", summary)
        jaune, noir = provisional_scores(state)
        score = f"Jaune {jaune} – Noir {noir}"
        if jaune == noir:
            return Outcome((), True, "board-full", f"{score}: a draw.", (jaune, noir))
        winner = 1 if jaune > noir else 2
        summary = f"{score}: {COLOUR_NAMES[winner - 1]} wins."
        return Outcome((winner,), False, "board-full", summary, (jaune, noir))

    # --- the UI's view of the runs ------------------------------------------------------
    def run_views(self, state: DiscorderState) -> tuple[RunView, ...]:
        """See the module function ``run_views``."""
        return run_views(state)

    def provisional_scores(self, state: DiscorderState) -> tuple[int, int]:
        """See the module function ``provisional_scores``."""
        return provisional_scores(state)

    # --- moves on the wire and in notation --------------------------------------------
    def move_to_wire(self, move: Move) -> WireMove:
        """``[cell]`` (0–55) for a tile, ``[56 + site]`` (56–103) for a peg."""
        return [move.cell] if isinstance(move, Tile) else [CELLS + move.site]

    def move_from_wire(self, obj: object) -> Move:
        if not isinstance(obj, list | tuple) or len(obj) != 1 or type(obj[0]) is not int:
            raise InvalidMove(f"a discorder move is one integer in a list, not {obj!r}")
        number = obj[0]
        if 0 <= number < CELLS:
            return Tile(number)
        if CELLS <= number < CELLS + SITES:
            return Peg(number - CELLS)
        raise InvalidMove(f"a discorder move number is 0–{CELLS + SITES - 1}, not {number}")

    def format_move(self, state: DiscorderState, move: Move) -> str:
        return cell_name(move.cell) if isinstance(move, Tile) else site_name(move.site)

    def parse_move(self, state: DiscorderState, text: str) -> Move:
        """``d4`` (a tile) or ``c3|4`` (a peg; ``c4|3`` too); ``IllegalMove`` if not allowed."""
        cleaned = text.strip().lower()
        move: Move
        if tile := _TILE_TEXT.fullmatch(cleaned):
            col, row = "abcdefgh".index(tile[1]), int(tile[2]) - 1
            move = Tile(row * WIDTH + col)
        elif peg := _PEG_TEXT.fullmatch(cleaned):
            col = "abcdefgh".index(peg[1])
            low, high = sorted((int(peg[2]) - 1, int(peg[3]) - 1))
            if high != low + 1:
                raise InvalidMove(f"{text!r}: a peg goes between two neighbouring rows, like c3|4")
            move = Peg(low * WIDTH + col)
        else:
            raise InvalidMove(f"{text!r} is neither a cell like d4 nor a peg site like c3|4")
        refusal = _refusal(state, move)
        if refusal is not None:
            raise IllegalMove(refusal)
        return move


ENGINE = DiscorderEngine()
