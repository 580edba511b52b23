"""Consensus turns: the state, slots in play, automatic passes, the ruler's extra moves,
holding power and the other ends of the game (rules 6 and 7).

Invariants of a ``ConsensusState``:

* ``controllers[seat - 1]`` is the player controlling ``seat``'s pieces, 0 when they are
  neutral.  A player controls anything only while its own Président lives, so every non-zero
  controller is a seat whose Président is alive, and a living Président's seat controls itself.
* The ruler is not stored: it is the seat of the living Président on e5, if any.
* While the game goes on, the turn it names always has a legal move: ``finish_turn`` plays the
  automatic passes and skips a ruler's extra move that has no legal move before it returns.
* ``since_power[slot - 1]`` says whether that slot has had a turn that began after the ruler
  took power; all ``False`` when nobody rules, so the digest carries no stale history.
* ``passed`` lists the slots that passed automatically after the last turn, in order (for
  the UI); ``quiet_plies`` counts moves (extra moves included, passes and resignations not)
  since the last kill.
"""

from __future__ import annotations

from dataclasses import dataclass

from engines.consensus_board import DEAD, E5, PRESIDENT
from engines.consensus_moves import destinations, enemy_table, pieces_of

__all__ = [
    "NOBODY_SINCE_POWER",
    "QUIET_PLY_LIMIT",
    "RESULT_AGREEMENT",
    "RESULT_LAST_ONE_IN",
    "RESULT_NONE",
    "RESULT_NO_MOVES",
    "RESULT_POWER",
    "RESULT_QUIET",
    "SEATS",
    "ConsensusState",
    "finish_turn",
    "mover_and_seats",
    "owing_slots",
    "ruler_of",
    "slots_in_play",
]

SEATS = 4
QUIET_PLY_LIMIT = 150
RESULT_NONE, RESULT_POWER, RESULT_LAST_ONE_IN, RESULT_AGREEMENT, RESULT_NO_MOVES, RESULT_QUIET = (
    range(6)
)
NOBODY_SINCE_POWER = (False,) * SEATS


@dataclass(frozen=True)
class ConsensusState:
    """A Consensus position and whose turn it is (see the module invariants)."""

    board: tuple[int, ...]
    controllers: tuple[int, ...]
    slot: int
    """The slot whose turn it is; during an extra move, the slot that extra move follows."""
    extra: bool
    """Whether the turn is the ruler's extra move."""
    since_power: tuple[bool, ...]
    quiet_plies: int
    passed: tuple[int, ...]
    result: int
    """``RESULT_NONE`` while the game goes on."""
    winner: int
    """The winning seat, 0 for none."""


def ruler_of(board: tuple[int, ...]) -> int:
    """The seat of the Président in power, 0 when nobody rules."""
    code = board[E5]
    return code >> 3 if 0 < code < DEAD and code & 7 == PRESIDENT else 0


def seats_controlled(controllers: tuple[int, ...], player: int) -> tuple[int, ...]:
    return tuple(seat for seat, c in enumerate(controllers, start=1) if c == player)


def mover_and_seats(state: ConsensusState) -> tuple[int, tuple[int, ...]]:
    """The player making the current move and the seats whose pieces may move."""
    if state.extra:
        ruler = ruler_of(state.board)
        return ruler, seats_controlled(state.controllers, ruler)
    return state.controllers[state.slot - 1], (state.slot,)


_SEAT_OF_LIVING = bytes(code >> 3 if 0 < code < DEAD else 0 for code in range(256))
"""A ``bytes.translate`` table: the seat of a living piece's code, 0 for anything else."""
_SEAT_OF_PRESIDENT = bytes(
    code >> 3 if code < DEAD and code & 7 == PRESIDENT else 0 for code in range(256)
)
"""A ``bytes.translate`` table: the seat of a living Président's code, 0 for anything else."""


def slots_in_play(
    board: tuple[int, ...], controllers: tuple[int, ...], codes: bytes | None = None
) -> tuple[int, ...]:
    """The slots that are turns: their seat has a living piece someone controls.

    ``codes`` is ``bytes(board)`` when the caller has it.
    """
    alive = (bytes(board) if codes is None else codes).translate(_SEAT_OF_LIVING)
    return tuple(seat for seat in range(1, SEATS + 1) if controllers[seat - 1] and seat in alive)


def owing_slots(state: ConsensusState) -> tuple[int, ...]:
    """The slots in play, controlled by another player than the ruler, that have not had a
    turn since the ruler took power (empty when nobody rules)."""
    ruler = ruler_of(state.board)
    if not ruler:
        return ()
    return tuple(
        slot
        for slot in slots_in_play(state.board, state.controllers)
        if state.controllers[slot - 1] != ruler and not state.since_power[slot - 1]
    )


def _can_move(
    board: tuple[int, ...],
    codes: bytes,
    controllers: tuple[int, ...],
    player: int,
    seats: tuple[int, ...],
) -> bool:
    enemy = enemy_table(controllers, player)
    return any(destinations(board, enemy, square) for square in pieces_of(board, seats, codes))


def _with_turn(since_power: tuple[bool, ...], slot: int) -> tuple[bool, ...]:
    return (*since_power[: slot - 1], True, *since_power[slot:])


def _end(
    presidents: bytes,
    in_play: tuple[int, ...],
    ruler: int,
    controllers: tuple[int, ...],
    since_power: tuple[bool, ...],
    quiet_plies: int,
    passes: int,
) -> tuple[int, int]:
    """(result, winner) after a turn, checked in the rules' order; ``presidents`` are the
    seats of the living Présidents, ``in_play`` the slots in play, ``ruler`` the ruler."""
    if len(presidents) == 1:
        return RESULT_LAST_ONE_IN, presidents[0]
    if ruler and all(since_power[slot - 1] for slot in in_play if controllers[slot - 1] != ruler):
        return RESULT_POWER, ruler
    if passes >= len(in_play):
        return RESULT_NO_MOVES, 0
    if quiet_plies >= QUIET_PLY_LIMIT:
        return RESULT_QUIET, 0
    return RESULT_NONE, 0


def finish_turn(
    board: tuple[int, ...],
    controllers: tuple[int, ...],
    *,
    slot: int,
    extra: bool,
    player: int,
    ruler_before: int,
    since_power: tuple[bool, ...],
    quiet_plies: int,
) -> ConsensusState:
    """The state after a turn (a move, an extra move or a resignation) played by ``player``
    on ``slot`` (or, when ``extra``, as the extra move following ``slot``).

    Checks the ends of the game, then hands the turn on: the ruler's extra move if one is
    owed and playable, else the next slot in play, passing for every slot that cannot move.
    """
    ruler = ruler_of(board)
    if not ruler or ruler != ruler_before:
        # Nobody rules, or power was taken in this very turn, which does not count.
        since_power = NOBODY_SINCE_POWER
    elif not extra:
        since_power = _with_turn(since_power, slot)
    # The board and the controllers are fixed from here on (only passes are played), so
    # what depends on them alone is worked out once, not once per pass.
    codes = bytes(board)
    presidents = codes.translate(_SEAT_OF_PRESIDENT).replace(b"\0", b"")  # their seats
    in_play = slots_in_play(board, controllers, codes)
    passed: list[int] = []
    while True:
        result, winner = _end(
            presidents, in_play, ruler, controllers, since_power, quiet_plies, len(passed)
        )
        if result:
            return ConsensusState(
                board,
                controllers,
                slot,
                False,
                since_power,
                quiet_plies,
                (*passed,),
                result,
                winner,
            )
        if (
            not extra
            and ruler
            and ruler != player
            and _can_move(board, codes, controllers, ruler, seats_controlled(controllers, ruler))
        ):
            return ConsensusState(
                board, controllers, slot, True, since_power, quiet_plies, (*passed,), 0, 0
            )
        slot = next((s for s in in_play if s > slot), in_play[0])
        extra = False
        player = controllers[slot - 1]
        if _can_move(board, codes, controllers, player, (slot,)):
            return ConsensusState(
                board, controllers, slot, False, since_power, quiet_plies, (*passed,), 0, 0
            )
        # The automatic pass is that slot's turn: it counts for holding power and earns
        # the ruler its extra move like any other turn.
        passed.append(slot)
        if ruler:
            since_power = _with_turn(since_power, slot)
