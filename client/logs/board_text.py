"""Plain-text boards for ``palabre log show --ply N``: one function per game.

Each function takes an engine state and returns lines of text (no colour, ASCII and the
letters of the game's own notation), so a position can be read in a terminal or pasted in a
message.  A game without a function here falls back to its canonical state decoded into
nested values, which is complete but not pretty.  Nothing here decides anything: it reads
states and the engine's own helpers.  Each function checks it was given its own engine's
state (a state of another class falls back to the canonical form) and imports its game's
module itself, so a broken game cannot stop ``log show`` for another.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engines import AnyEngine
from engines.canonical import decode_value

__all__ = ["board_lines", "forbans_camps"]


def board_lines(engine: AnyEngine, state: object) -> list[str]:
    """The position as text, then whose turn it is (or how the game ended)."""
    draw = _BOARDS.get(engine.name)
    lines = draw(engine, state) if draw is not None else _canonical(engine, state)
    outcome = engine.outcome(state)
    if outcome is not None:
        lines.append(f"game over: {outcome.summary}")
    else:
        seat = engine.to_move(state)
        if seat is not None:
            controller = engine.controller(state, seat)
            played = f" (played by seat {controller})" if controller != seat else ""
            lines.append(f"to move: seat {seat}{played}")
    return lines


def _canonical(engine: AnyEngine, state: object) -> list[str]:
    return ["state (canonical, decoded):", f"  {decode_value(engine.encode(state))!r}"]


def _consensus(engine: AnyEngine, state: object) -> list[str]:
    from engines.consensus import ConsensusEngine
    from engines.consensus_board import KIND_NAMES, board_diagram
    from engines.consensus_turns import ConsensusState

    if not isinstance(engine, ConsensusEngine) or not isinstance(state, ConsensusState):
        return _canonical(engine, state)

    lines = ["    a  b  c  d  e  f  g  h  i"]
    for rank, row in zip(range(9, 0, -1), board_diagram(state.board).splitlines(), strict=True):
        lines.append(f"{rank}  {row.replace(' .', '..').replace('..', ' .')}")
    letters = ", ".join(f"{name[0]} {name}" for name in KIND_NAMES[1:])
    lines.append(f"pieces: {letters}; the digit is the seat; lower case: a corpse")
    for seat in range(1, engine.seat_count(state) + 1):
        controller = engine.controller(state, seat)
        if controller == 0:
            lines.append(f"seat {seat} resigned: its pieces are neutral")
        elif controller != seat:
            lines.append(f"seat {seat} is played by seat {controller}")
    status = engine.power_status(state)
    if status.ruler is not None:
        owing = ", ".join(map(str, status.owing)) or "nobody"
        lines.append(f"seat {status.ruler} rules e5; still owing a turn: {owing}")
    return lines


def _discorder(engine: AnyEngine, state: object) -> list[str]:
    from engines.discorder import HEIGHT, WIDTH, DiscorderState, provisional_scores

    if not isinstance(state, DiscorderState):
        return _canonical(engine, state)

    tiles = {0: ".", 1: "J", 2: "N"}
    lines = ["    " + " ".join("abcdefgh"[:WIDTH])]
    for row in range(HEIGHT - 1, -1, -1):
        if row < HEIGHT - 1:  # the pegs between this row and the one above
            pegs = ["=" if state.pegs[row * WIDTH + col] else " " for col in range(WIDTH)]
            lines.append("    " + " ".join(pegs))
        cells = [tiles.get(state.board[row * WIDTH + col], "?") for col in range(WIDTH)]
        lines.append(f"{row + 1}   " + " ".join(cells))
    jaune, noir = provisional_scores(state)
    lines.append("J Jaune (seat 1), N Noir (seat 2), = a peg cutting the column")
    lines.append(
        f"tiles left: Jaune {state.tiles_left[0]}, Noir {state.tiles_left[1]}; "
        f"pegs left: {state.pegs_left}; score so far: Jaune {jaune}, Noir {noir}"
    )
    return lines


def forbans_camps(engine: Any, state: Any) -> list[tuple[str, range, list[tuple[Any, int]]]]:
    """Each camp of Les Forbans: its name, its seats and the ports it holds (the port and
    its pieces there), as the board's signed counts say (Bleu positive, Vert negative)."""
    camps = []
    for side, name, sign in ((1, "Bleu", 1), (2, "Vert", -1)):
        held = [
            (engine.map.ports[port], count * sign)
            for port, count in enumerate(state.board)
            if count * sign > 0
        ]
        camps.append((name, range(side, state.seats + 1, 2), held))
    return camps


def _forbans(engine: AnyEngine, state: object) -> list[str]:
    from engines.forbans import ForbansEngine, ForbansState

    if not isinstance(engine, ForbansEngine) or not isinstance(state, ForbansState):
        return _canonical(engine, state)
    lines = []
    for name, seats, held in forbans_camps(engine, state):
        where = ", ".join(f"{port.id} {count}" for port, count in held) or "no piece on the map"
        lines.append(f"{name} (seats {', '.join(map(str, seats))}): {where}")
    lines.append(f"plies made: {state.ply} (the first 12 place pieces)")
    return lines


def _cognes(engine: AnyEngine, state: object) -> list[str]:
    from engines.cognes import CognesState

    if not isinstance(state, CognesState):
        return _canonical(engine, state)
    span = state.start_radius + 2 * state.coin_radius
    columns, rows = 41, 21
    grid = [[" "] * columns for _ in range(rows)]

    def put(x: int, y: int, mark: str) -> None:
        column = (x + span) * (columns - 1) // (2 * span)
        row = (span - y) * (rows - 1) // (2 * span)
        if 0 <= column < columns and 0 <= row < rows:
            grid[row][column] = mark

    put(0, 0, "@")
    for coin, (x, y) in enumerate(state.centres):
        put(x, y, _COIN_MARKS[coin] if coin < len(_COIN_MARKS) else "*")
    lines = ["+" + "-" * columns + "+", *("|" + "".join(r) + "|" for r in grid)]
    lines.append("+" + "-" * columns + "+")
    lines.append("@ the middle coin; 0-9 then A-Z: the outer coins")
    for coin, (x, y) in enumerate(state.centres):
        frozen = ", frozen" if state.frozen[coin] else ""
        lines.append(f"  coin {coin}: x {_mm(x)}, y {_mm(y)}{frozen}")
    out = [str(seat) for seat, gone in enumerate(state.out, 1) if gone]
    if out:
        lines.append(f"out of the game: {', '.join(f'seat {seat}' for seat in out)}")
    return lines


_COIN_MARKS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _mm(units: int) -> str:
    sign = "-" if units < 0 else ""
    return f"{sign}{abs(units) // 10}.{abs(units) % 10} mm"


_BOARDS: dict[str, Callable[[AnyEngine, object], list[str]]] = {
    "cognes": _cognes,
    "consensus": _consensus,
    "discorder": _discorder,
    "forbans": _forbans,
}
