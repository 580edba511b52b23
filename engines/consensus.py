"""Consensus (ruleset ``consensus/1``): the four-seat Djambi variant of ../shared/rules.

The rules live in four sibling modules, one concept each:

* ``consensus_board``: squares (ints 0..80, ``a1 = 0``, ``e5 = 40``, ``i9 = 80``), rays,
  piece codes, the start position;
* ``consensus_moves``: the ``Move`` value type, what each piece may do, the check of one move;
* ``consensus_turns``: the state, slots, passes, extra moves, power and the ends of the game;
* ``consensus_notation``: ``Gb1-e4``, ``Pa1xc3@d5`` … printed and read.

This module ties them into the ``Engine`` contract and adds the queries the UI and bots use:
``movable_pieces``, ``destinations``, ``destinations_by_piece``, ``power_status``.  The wire
form of a move is ``[origin, target, *further]`` (see ``consensus_moves``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import ClassVar

from engines.base import Engine, IllegalMove, InvalidMove, InvalidParams, Outcome, Params
from engines.consensus_board import DEAD, PRESIDENT, Square, piece_code, start_board
from engines.consensus_moves import (
    NO_KILL,
    Move,
    completions,
    destinations,
    enemy_table,
    legal_moves,
    movable_pieces,
    pieces_of,
    play,
)
from engines.consensus_notation import format_move, read_move
from engines.consensus_turns import (
    NOBODY_SINCE_POWER,
    RESULT_AGREEMENT,
    RESULT_LAST_ONE_IN,
    RESULT_NO_MOVES,
    RESULT_NONE,
    RESULT_POWER,
    RESULT_QUIET,
    SEATS,
    ConsensusState,
    finish_turn,
    mover_and_seats,
    owing_slots,
    ruler_of,
    slots_in_play,
)

__all__ = ["ENGINE", "NO_KILL", "ConsensusEngine", "ConsensusState", "Move", "PowerStatus"]


@dataclass(frozen=True)
class PowerStatus:
    """Who rules and which slots still owe a turn before the ruler wins (rules section 7)."""

    ruler: int | None
    owing: tuple[int, ...]


_REASONS = {
    RESULT_POWER: ("power", "Seat {winner} wins by holding power on e5."),
    RESULT_LAST_ONE_IN: ("last-one-in", "Seat {winner} wins: its Président is the last alive."),
    RESULT_AGREEMENT: ("agreement", "Draw by agreement."),
    RESULT_NO_MOVES: ("no-moves", "Draw: a whole round passed with no legal move."),
    RESULT_QUIET: ("quiet", "Draw: 150 plies in a row without a kill."),
}


class ConsensusEngine(Engine[ConsensusState, Move]):
    """The Consensus rules; every method is a pure function of its arguments."""

    name: ClassVar[str] = "consensus"
    ruleset: ClassVar[str] = "consensus/1"
    version: ClassVar[str] = "1"
    min_seats: ClassVar[int] = SEATS
    max_seats: ClassVar[int] = SEATS
    sample_params: ClassVar[tuple[Params, ...]] = ({"seats": SEATS},)

    # --- the game ---------------------------------------------------------------------
    def initial_state(self, params: Params) -> ConsensusState:
        unknown = sorted(set(params) - {"seats"})
        if unknown:
            raise InvalidParams(f"Consensus has no option {', '.join(unknown)}; only 'seats'")
        seats = params.get("seats", SEATS)
        if type(seats) is not int or seats != SEATS:
            raise InvalidParams(f"Consensus is played by exactly {SEATS} seats, not {seats!r}")
        controllers = tuple(range(1, SEATS + 1))
        return ConsensusState(
            start_board(), controllers, 1, False, NOBODY_SINCE_POWER, 0, (), RESULT_NONE, 0
        )

    def seat_count(self, state: ConsensusState) -> int:
        return SEATS

    def to_move(self, state: ConsensusState) -> int | None:
        """The slot to move; for an extra move, the ruler's own seat."""
        if state.result:
            return None
        return ruler_of(state.board) if state.extra else state.slot

    def controller(self, state: ConsensusState, seat: int) -> int:
        """The player controlling ``seat``'s pieces; 0 once they are neutral."""
        return state.controllers[seat - 1]

    def legal_moves(self, state: ConsensusState) -> tuple[Move, ...]:
        if state.result:
            return ()
        player, seats = mover_and_seats(state)
        return tuple(legal_moves(state.board, enemy_table(state.controllers, player), seats))

    def apply(self, state: ConsensusState, move: Move) -> ConsensusState:
        if state.result:
            raise IllegalMove("the game is over")
        if not isinstance(move, Move):
            raise IllegalMove(f"not a Consensus move: {move!r}")
        player, seats = mover_and_seats(state)
        enemy = enemy_table(state.controllers, player)
        board, killed = play(state.board, enemy, seats, move)
        controllers = state.controllers
        if killed & 7 == PRESIDENT:
            # The killer takes everything the dead Président's player controlled.
            beaten = (killed >> 3) & 7
            controllers = tuple(player if c == beaten else c for c in controllers)
        return finish_turn(
            board,
            controllers,
            slot=state.slot,
            extra=state.extra,
            player=player,
            ruler_before=ruler_of(state.board),
            since_power=state.since_power,
            quiet_plies=0 if killed else state.quiet_plies + 1,
        )

    def resign(self, state: ConsensusState, seat: int) -> ConsensusState:
        """The player of ``seat`` resigns on its own turn (one of its slots or its extra move).

        Its Président is turned dead where it stands and every piece it controlled becomes
        neutral.  The resignation is that player's turn; it is not a kill.
        """
        if state.result:
            raise IllegalMove("the game is over")
        player, _ = mover_and_seats(state)
        if seat != player:
            raise IllegalMove(f"seat {seat} may resign only on its own turn; seat {player} plays")
        board = list(state.board)
        president = board.index(piece_code(seat, PRESIDENT))
        board[president] |= DEAD
        return finish_turn(
            tuple(board),
            tuple(0 if c == seat else c for c in state.controllers),
            slot=state.slot,
            extra=state.extra,
            player=player,
            ruler_before=ruler_of(state.board),
            since_power=state.since_power,
            quiet_plies=state.quiet_plies,
        )

    def agree_draw(self, state: ConsensusState) -> ConsensusState:
        if state.result:
            raise IllegalMove("the game is over")
        return replace(state, extra=False, passed=(), result=RESULT_AGREEMENT, winner=0)

    def outcome(self, state: ConsensusState) -> Outcome | None:
        if not state.result:
            return None
        reason, summary = _REASONS[state.result]
        winners = (state.winner,) if state.winner else ()
        return Outcome(winners, not winners, reason, summary.format(winner=state.winner))

    # --- moves on the wire and in notation --------------------------------------------
    def move_to_wire(self, move: Move) -> list[int]:
        return [move.origin, move.target, *move.further]

    def move_from_wire(self, obj: object) -> Move:
        if not isinstance(obj, list | tuple) or not 2 <= len(obj) <= 4:
            raise InvalidMove("a Consensus move is a list of 2 to 4 square numbers")
        if not all(type(choice) is int for choice in obj):
            raise InvalidMove("a Consensus move holds integers only")
        origin, target, *further = obj
        if not all(0 <= square < 81 for square in (origin, target, *further[1:])):
            raise InvalidMove("squares are numbered 0 to 80")
        if further and not (0 <= further[0] < 81 or further[0] == NO_KILL):
            raise InvalidMove(f"a third choice is a square 0 to 80 or {NO_KILL} (no kill)")
        return Move(origin, target, tuple(further))

    def format_move(self, state: ConsensusState, move: Move) -> str:
        return format_move(state.board, move)

    def parse_move(self, state: ConsensusState, text: str) -> Move:
        """The move ``text`` writes: ``InvalidMove`` if unreadable, ``IllegalMove`` if it is
        not a legal move here (or not written the way the notation writes it)."""
        move = read_move(state.board, text)
        self.apply(state, move)
        canonical = format_move(state.board, move)
        if canonical != text.strip():
            raise IllegalMove(f"that move is written {canonical}")
        return move

    # --- step-by-step view --------------------------------------------------------------
    def next_choices(
        self, state: ConsensusState, partial: Sequence[int]
    ) -> tuple[tuple[int, ...], bool]:
        """Same result as ``Engine.next_choices`` without listing every complete move."""
        if state.result:
            return (), False
        player, seats = mover_and_seats(state)
        board = state.board
        enemy = enemy_table(state.controllers, player)
        if not partial:
            return tuple(movable_pieces(board, enemy, seats)), False
        origin = partial[0]
        if (
            not _is_square(origin)
            or not (0 < board[origin] < DEAD)
            or board[origin] >> 3 not in seats
        ):
            return (), False
        reachable = destinations(board, enemy, origin)
        if len(partial) == 1:
            return tuple(reachable), False
        target = partial[1]
        if target not in reachable:
            return (), False
        done = tuple(partial[2:])
        nexts: list[int] = []
        complete = False
        for further in completions(board, enemy, origin, target):
            if further[: len(done)] != done:
                continue
            if len(further) == len(done):
                complete = True
            elif further[len(done)] not in nexts:
                nexts.append(further[len(done)])
        return tuple(nexts), complete

    # --- queries for the UI and bots ----------------------------------------------------
    def movable_pieces(self, state: ConsensusState) -> tuple[Square, ...]:
        """The squares of the pieces that can move this turn, ascending."""
        return self.next_choices(state, ())[0]

    def destinations(self, state: ConsensusState, square: Square) -> tuple[Square, ...]:
        """Where the piece on ``square`` can go this turn (empty if it cannot move)."""
        return self.next_choices(state, (square,))[0]

    def destinations_by_piece(
        self, state: ConsensusState
    ) -> tuple[tuple[Square, tuple[Square, ...]], ...]:
        """Every piece that can move this turn with its destinations, in one pass."""
        if state.result:
            return ()
        player, seats = mover_and_seats(state)
        board = state.board
        enemy = enemy_table(state.controllers, player)
        found = []
        for square in pieces_of(board, seats):
            reachable = destinations(board, enemy, square)
            if reachable:
                found.append((square, tuple(reachable)))
        return tuple(found)

    def power_status(self, state: ConsensusState) -> PowerStatus:
        """The ruler (``None`` when nobody rules) and the slots that still owe it a turn."""
        ruler = ruler_of(state.board)
        return PowerStatus(ruler or None, owing_slots(state))

    def slots_in_play(self, state: ConsensusState) -> tuple[int, ...]:
        """The slots that are still turns."""
        return slots_in_play(state.board, state.controllers)


def _is_square(value: object) -> bool:
    return type(value) is int and 0 <= value < 81


ENGINE = ConsensusEngine()
