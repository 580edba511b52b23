"""Les Forbans (``forbans/1``): the pirates' world-map game of gathering and encircling.

Rules: ``docs/rules/forbans.md`` (palabre's reading of the spec's ``rules/forbans.md``).

Invariants:

* A state holds the options, the board (one signed count per port of the shipped map,
  ``+n`` Bleu, ``-n`` Vert; see ``engines.forbans_board``), the number of plies made
  (placements and moves), the repetition history and the result.  Ints, bools and tuples only.
* Plies 0-11 are the setup: Bleu places a Vert piece on even plies, Vert a Bleu piece on odd
  ones, so Vert places last and therefore moves first (ply 12); then the sides alternate.
* Bleu holds the odd seats, Vert the even ones; a side's turns go round its seats in
  increasing order, and the player of the last placement also makes the first move.
  ``turn_of`` derives side and seat from the ply alone.
* ``history`` holds one exact position key per position of the movement phase, the first
  being the position after the last placement; it is empty during the setup.
* ``result`` is 0 while the game goes on; then ``winner`` is the winning side (0 for a draw)
  and ``detail`` a port or seat the summary names.
* A move on the wire: ``[port]`` for a placement, ``[origin, target]`` for a move.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from engines.base import Engine, IllegalMove, InvalidMove, InvalidParams, Outcome, Params
from engines.forbans_board import encircled_group, groups, liberty_count, position_key, side_masks
from engines.forbans_map import ForbansMap, default_map

__all__ = ["ENGINE", "ForbansEngine", "ForbansMove", "ForbansState", "Placement", "Step"]

BLEU, VERT = 1, 2
SIDE_NAMES = {BLEU: "Bleu", VERT: "Vert"}
COLOURS = {BLEU: "bleu", VERT: "vert"}
PIECES = 6
PLACEMENTS = 2 * PIECES
FIRST_MOVER = VERT  # the side of the 12th placement (Bleu places first, sides alternate)

# Results (``ForbansState.result``) and the reason words of ``Outcome``.
ON, GATHERING, ENCIRCLEMENT, NO_MOVE, RESIGNATION, DRAW_RULE, REPETITION, MOVE_LIMIT = range(8)
AGREEMENT = 8
REASONS = (
    "",
    "gathering",
    "encirclement",
    "no-move",
    "resignation",
    "draw-rule",
    "repetition",
    "move-limit",
    "agreement",
)

# option -> (default, lowest, highest)
OPTIONS: dict[str, tuple[int, int, int]] = {
    "seats": (2, 2, 6),
    "setup_min_liberties": (2, 1, 2),
    "draw_rule": (0, 0, 1),
    "max_plies": (400, 1, 10_000),
}


@dataclass(frozen=True)
class ForbansState:
    seats: int
    setup_min_liberties: int
    draw_rule: bool
    max_plies: int
    board: tuple[int, ...]
    ply: int
    history: tuple[int, ...]
    result: int = ON
    winner: int = 0
    detail: int = 0


@dataclass(frozen=True, order=True)
class Placement:
    """The side to act puts one of the other side's pieces on ``port``."""

    port: int


@dataclass(frozen=True, order=True)
class Step:
    """One piece of the side to move goes from ``origin`` along a route to ``target``."""

    origin: int
    target: int


ForbansMove = Placement | Step


def other(side: int) -> int:
    return VERT if side == BLEU else BLEU


def sign(side: int) -> int:
    """How a side's pieces count on the board: Bleu positive, Vert negative."""
    return 1 if side == BLEU else -1


def side_of_seat(seat: int) -> int:
    return BLEU if seat % 2 == 1 else VERT


def side_seats(seats: int, side: int) -> tuple[int, ...]:
    return tuple(range(side, seats + 1, 2))


def turn_of(seats: int, ply: int) -> tuple[int, int]:
    """(side, seat) acting at ``ply`` (0-based): who places or moves next."""
    if ply < PLACEMENTS:
        side, index = (BLEU if ply % 2 == 0 else VERT), ply // 2
    else:
        moves = ply - PLACEMENTS
        # Vert's first move is its 6th turn again: the last placer moves first.
        side = VERT if moves % 2 == 0 else BLEU
        index = (PIECES - 1 if side == VERT else PIECES) + moves // 2
    members = side_seats(seats, side)
    return side, members[index % len(members)]


class ForbansEngine(Engine[ForbansState, ForbansMove]):
    name = "forbans"
    ruleset = "forbans/1"
    version = "1"
    min_seats = 2
    max_seats = 6
    sample_params = (
        {"seats": 2},
        {"seats": 4},
        {"seats": 3, "setup_min_liberties": 1, "draw_rule": 1},
        {"seats": 5, "draw_rule": 1, "max_plies": 120},
    )

    def __init__(self, board_map: ForbansMap | None = None) -> None:
        self.map = board_map if board_map is not None else default_map()
        self._masks = self.map.neighbour_masks
        self._everywhere = (1 << len(self.map.ports)) - 1
        self._port_bits = len(self.map.ports).bit_length()

    # --- the game ---------------------------------------------------------------------
    def initial_state(self, params: Params) -> ForbansState:
        values = _read_options(params)
        return ForbansState(
            seats=values["seats"],
            setup_min_liberties=values["setup_min_liberties"],
            draw_rule=values["draw_rule"] == 1,
            max_plies=values["max_plies"],
            board=(0,) * len(self.map.ports),
            ply=0,
            history=(),
        )

    def seat_count(self, state: ForbansState) -> int:
        return state.seats

    def to_move(self, state: ForbansState) -> int | None:
        if state.result != ON:
            return None
        return turn_of(state.seats, state.ply)[1]

    def controller(self, state: ForbansState, seat: int) -> int:
        return seat

    def legal_moves(self, state: ForbansState) -> tuple[ForbansMove, ...]:
        if state.result != ON:
            return ()
        side = turn_of(state.seats, state.ply)[0]
        if state.ply < PLACEMENTS:
            return tuple(Placement(port) for port in self._placements(state, other(side)))
        return tuple(
            Step(origin, target)
            for origin, target, effect in self._steps(state.board, side)
            if effect >= 0
        )

    def apply(self, state: ForbansState, move: ForbansMove) -> ForbansState:
        if state.result != ON:
            raise IllegalMove("the game is over")
        if isinstance(move, Placement):
            return self._place(state, move.port)
        if isinstance(move, Step):
            return self._move(state, move.origin, move.target)
        raise InvalidMove(f"not a Les Forbans move: {move!r}")

    def resign(self, state: ForbansState, seat: int) -> ForbansState:
        if state.result != ON:
            raise IllegalMove("the game is over")
        if seat != self.to_move(state):
            raise IllegalMove(f"seat {seat} may resign only at its own turn")
        side = side_of_seat(seat)
        return replace(state, result=RESIGNATION, winner=other(side), detail=seat)

    def agree_draw(self, state: ForbansState) -> ForbansState:
        if state.result != ON:
            raise IllegalMove("the game is over")
        return replace(state, result=AGREEMENT, winner=0, detail=0)

    def outcome(self, state: ForbansState) -> Outcome | None:
        if state.result == ON:
            return None
        winners = side_seats(state.seats, state.winner) if state.winner else ()
        return Outcome(winners, not winners, REASONS[state.result], self._summary(state))

    # --- moves on the wire and in notation --------------------------------------------
    def move_to_wire(self, move: ForbansMove) -> list[int]:
        if isinstance(move, Placement):
            return [move.port]
        return [move.origin, move.target]

    def move_from_wire(self, obj: object) -> ForbansMove:
        if not isinstance(obj, list | tuple) or len(obj) not in (1, 2):
            raise InvalidMove("a Les Forbans move is [port] or [origin, target]")
        count = len(self.map.ports)
        for value in obj:
            if type(value) is not int or not 0 <= value < count:
                raise InvalidMove(f"ports are numbered 0 to {count - 1}, not {value!r}")
        if len(obj) == 1:
            return Placement(obj[0])
        return Step(obj[0], obj[1])

    def format_move(self, state: ForbansState, move: ForbansMove) -> str:
        ports = self.map.ports
        if isinstance(move, Placement):
            colour = COLOURS[other(turn_of(state.seats, state.ply)[0])]
            return f"+{colour}@{ports[move.port].id}"
        return f"{ports[move.origin].id}-{ports[move.target].id}"

    def parse_move(self, state: ForbansState, text: str) -> ForbansMove:
        """Read ``+vert@tortue`` or ``tortue-nassau``; ``IllegalMove`` if not allowed here."""
        words = text.strip().lower()
        move: ForbansMove
        if words.startswith("+"):
            colour, at, port_id = words[1:].partition("@")
            if not at or colour not in COLOURS.values():
                raise InvalidMove(f"{text!r}: a placement reads like +vert@tortue")
            move = Placement(self._port(port_id))
            placer = turn_of(state.seats, state.ply)[0]
            if state.ply < PLACEMENTS and colour != COLOURS[other(placer)]:
                raise IllegalMove(
                    f"{SIDE_NAMES[placer]} places {SIDE_NAMES[other(placer)]}'s pieces: "
                    f"+{COLOURS[other(placer)]}@{port_id}"
                )
        else:
            origin, dash, target = words.partition("-")
            if not dash:
                raise InvalidMove(f"{text!r}: a move reads like tortue-nassau")
            move = Step(self._port(origin), self._port(target))
        self.apply(state, move)  # raises IllegalMove with the reason when not allowed here
        return move

    def _port(self, port_id: str) -> int:
        port = self.map.port_named(port_id)
        if port is None:
            raise InvalidMove(f"no port called {port_id!r} on the map")
        return port

    # --- setup ------------------------------------------------------------------------
    def _levels(self, state: ForbansState) -> tuple[int, ...]:
        """Liberties every group must keep, strictest first; 0 is the text's rule alone."""
        return (2, 1, 0) if state.setup_min_liberties == 2 else (1, 0)

    def _placement_fault(self, board: tuple[int, ...], port: int, colour: int, need: int) -> str:
        """Why ``colour`` may not be placed on ``port`` at this level ("" if it may)."""
        name = self.map.ports[port].name
        if board[port] * sign(colour) < 0:
            return f"{name} holds {SIDE_NAMES[other(colour)]} pieces"
        if need == 0:
            return ""
        if abs(board[port]) + 1 >= PIECES:
            return f"{SIDE_NAMES[colour]} may not have {PIECES} pieces on one port during the setup"
        after = _with(board, port, sign(colour))
        bleu, vert = side_masks(after)
        empty = self._everywhere & ~(bleu | vert)
        for side, mask in ((BLEU, bleu), (VERT, vert)):
            for group in groups(mask, self._masks):
                if liberty_count(group, empty, self._masks) < need:
                    where = self.map.ports[(group & -group).bit_length() - 1].name
                    left = "no free port" if need == 1 else f"fewer than {need} free ports"
                    return (
                        f"placing on {name} would leave the {SIDE_NAMES[side]} group at "
                        f"{where} with {left} around it"
                    )
        return ""

    def _placements(self, state: ForbansState, colour: int) -> list[int]:
        for need in self._levels(state):
            ports = [
                port
                for port in range(len(state.board))
                if not self._placement_fault(state.board, port, colour, need)
            ]
            if ports:
                return ports
        raise AssertionError("the text's rule alone always leaves a free port")

    def _place(self, state: ForbansState, port: int) -> ForbansState:
        if state.ply >= PLACEMENTS:
            raise IllegalMove("all 12 pieces are placed: move a piece along a route")
        if not 0 <= port < len(state.board):
            raise IllegalMove(f"there is no port {port}")
        colour = other(turn_of(state.seats, state.ply)[0])
        for need in self._levels(state):
            fault = self._placement_fault(state.board, port, colour, need)
            if not fault:
                break
            # The conditions relax only when no port at all meets them.
            if need == 0 or any(
                not self._placement_fault(state.board, p, colour, need)
                for p in range(len(state.board))
            ):
                raise IllegalMove(fault)
        board = _with(state.board, port, sign(colour))
        placed = replace(state, board=board, ply=state.ply + 1)
        if placed.ply < PLACEMENTS:
            return placed
        seat = turn_of(state.seats, placed.ply)[1]
        placed = replace(placed, history=(position_key(board, seat, self._port_bits),))
        if not self._has_move(board, FIRST_MOVER):
            return replace(placed, result=NO_MOVE, winner=other(FIRST_MOVER))
        return placed

    # --- moves ------------------------------------------------------------------------
    def move_effect(self, board: tuple[int, ...], side: int, origin: int, target: int) -> int:
        """What moving a piece of ``side`` from ``origin`` to ``target`` does.

        A win (GATHERING, ENCIRCLEMENT), ``ON`` for an ordinary legal move, or -1 for a
        suicide (one of the mover's groups left with no liberty, without winning).  The
        caller has checked the route and that ``target`` holds no enemy piece.
        """
        own_sign = sign(side)
        if (board[target] * own_sign) + 1 == PIECES:
            return GATHERING
        bleu, vert = side_masks(board)
        own, enemy = (bleu, vert) if side == BLEU else (vert, bleu)
        own |= 1 << target
        if board[origin] * own_sign == 1:
            own &= ~(1 << origin)
        empty = self._everywhere & ~(own | enemy)
        if encircled_group(enemy, empty, self._masks):
            return ENCIRCLEMENT
        if encircled_group(own, empty, self._masks):
            return -1
        return ON

    def _steps(self, board: tuple[int, ...], side: int) -> list[tuple[int, int, int]]:
        """Every (origin, target, effect) for ``side``, suicides (effect -1) included."""
        own_sign = sign(side)
        found = []
        for origin, count in enumerate(board):
            if count * own_sign > 0:
                for target in self.map.neighbours[origin]:
                    if board[target] * own_sign >= 0:
                        found.append(
                            (origin, target, self.move_effect(board, side, origin, target))
                        )
        return found

    def _has_move(self, board: tuple[int, ...], side: int) -> bool:
        own_sign = sign(side)
        for origin, count in enumerate(board):
            if count * own_sign > 0:
                for target in self.map.neighbours[origin]:
                    if (
                        board[target] * own_sign >= 0
                        and self.move_effect(board, side, origin, target) >= 0
                    ):
                        return True
        return False

    def has_winning_move(self, board: tuple[int, ...], side: int) -> bool:
        """Whether some move of ``side`` on ``board`` wins at once (the draw rule, bots)."""
        return any(effect > ON for _, _, effect in self._steps(board, side))

    def _move(self, state: ForbansState, origin: int, target: int) -> ForbansState:
        if state.ply < PLACEMENTS:
            raise IllegalMove("pieces are still being placed: name a port for the next piece")
        count = len(state.board)
        if not (0 <= origin < count and 0 <= target < count):
            raise IllegalMove("there is no such port")
        side, _ = turn_of(state.seats, state.ply)
        own_sign = sign(side)
        ports = self.map.ports
        if state.board[origin] * own_sign <= 0:
            raise IllegalMove(f"there is no {SIDE_NAMES[side]} piece on {ports[origin].name}")
        if target not in self.map.neighbours[origin]:
            raise IllegalMove(f"no route joins {ports[origin].name} and {ports[target].name}")
        if state.board[target] * own_sign < 0:
            raise IllegalMove(f"{ports[target].name} holds {SIDE_NAMES[other(side)]} pieces")
        effect = self.move_effect(state.board, side, origin, target)
        if effect < 0:
            raise IllegalMove(
                f"moving to {ports[target].name} would leave {SIDE_NAMES[side]} pieces "
                "with no free port around them (no suicide)"
            )
        board = _with(_with(state.board, origin, -own_sign), target, own_sign)
        moved = replace(state, board=board, ply=state.ply + 1)
        if effect != ON:
            return self._won(moved, side, effect, target)
        seat = turn_of(state.seats, moved.ply)[1]
        key = position_key(board, seat, self._port_bits)
        moved = replace(moved, history=(*state.history, key))
        if moved.history.count(key) >= 3:
            return replace(moved, result=REPETITION)
        if moved.ply - PLACEMENTS >= state.max_plies:
            return replace(moved, result=MOVE_LIMIT)
        if not self._has_move(board, other(side)):
            return replace(moved, result=NO_MOVE, winner=side)
        return moved

    def _won(self, state: ForbansState, side: int, how: int, target: int) -> ForbansState:
        if (
            state.draw_rule
            and side == FIRST_MOVER
            and self.has_winning_move(state.board, other(side))
        ):
            return replace(state, result=DRAW_RULE, winner=0, detail=how)
        if how == GATHERING:
            return replace(state, result=GATHERING, winner=side, detail=target)
        bleu, vert = side_masks(state.board)
        enemy = vert if side == BLEU else bleu
        trapped = encircled_group(enemy, self._everywhere & ~(bleu | vert), self._masks)
        port = (trapped & -trapped).bit_length() - 1
        return replace(state, result=ENCIRCLEMENT, winner=side, detail=port)

    # --- words ------------------------------------------------------------------------
    def side_label(self, state: ForbansState, side: int) -> str:
        """``Vert (seat 2)`` or ``Vert (seats 2, 4)``."""
        seats = side_seats(state.seats, side)
        plural = "s" if len(seats) > 1 else ""
        return f"{SIDE_NAMES[side]} (seat{plural} {', '.join(map(str, seats))})"

    def _summary(self, state: ForbansState) -> str:
        winner = self.side_label(state, state.winner) if state.winner else ""
        loser = self.side_label(state, other(state.winner)) if state.winner else ""
        port = self.map.ports[state.detail].name if 0 <= state.detail < len(state.board) else ""
        if state.result == GATHERING:
            return f"{winner} wins by gathering its {PIECES} pieces on {port}."
        if state.result == ENCIRCLEMENT:
            enemy = SIDE_NAMES[other(state.winner)]
            return f"{winner} wins by encircling the {enemy} group at {port}."
        if state.result == NO_MOVE:
            return f"{loser} has no legal move: {winner} wins."
        if state.result == RESIGNATION:
            return f"Seat {state.detail} resigned for {loser}: {winner} wins."
        if state.result == DRAW_RULE:
            first, second = (self.side_label(state, s) for s in (FIRST_MOVER, other(FIRST_MOVER)))
            return (
                f"Draw by the draw rule: {first} won by {REASONS[state.detail]}, "
                f"but {second} could have won too with one more move."
            )
        if state.result == REPETITION:
            return "Draw: the same position came up for the third time."
        if state.result == MOVE_LIMIT:
            return f"Draw: {state.max_plies} moves were played without a winner."
        return "Draw by agreement."


def _with(board: tuple[int, ...], port: int, change: int) -> tuple[int, ...]:
    return (*board[:port], board[port] + change, *board[port + 1 :])


def _read_options(params: Params) -> dict[str, int]:
    unknown = sorted(set(params) - set(OPTIONS))
    if unknown:
        raise InvalidParams(
            f"Les Forbans has no option {unknown[0]!r}; its options are {', '.join(OPTIONS)}"
        )
    values = {}
    for key, (default, lowest, highest) in OPTIONS.items():
        value = params.get(key, default)
        if type(value) is not int and not (key == "draw_rule" and type(value) is bool):
            raise InvalidParams(f"{key} must be a whole number from {lowest} to {highest}")
        if not lowest <= value <= highest:
            what = "seats" if key == "seats" else key
            raise InvalidParams(f"{what} must be from {lowest} to {highest}, not {value}")
        values[key] = int(value)
    return values


ENGINE = ForbansEngine()
