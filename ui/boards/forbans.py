"""The Les Forbans board: the world map, placements during the setup, moves by two clicks.

Every choice comes from the engine's step view (``engine.next_choices``): during the setup
the ports the engine offers for the next placement are ringed and one click places the piece
(a ghost of it follows the mouse over those ports); afterwards the stacks that can move are
ringed, a click selects one, its legal neighbours are ringed, and a click there sends the
move.  Escape or a right click steps back.  Nothing here decides what is legal.

Groups with one liberty left are marked (dashed red rings, the last free port dotted), from
the engine's own group and liberty helpers (``engines.forbans_board``).  The camps of a team
game are named in the legend and in the players list.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QLabel, QVBoxLayout

from engines import AnyEngine
from engines.forbans import (
    PLACEMENTS,
    SIDE_NAMES,
    other,
    side_of_seat,
    side_seats,
    turn_of,
)
from engines.forbans_board import bits, groups, liberty_count, side_masks
from ui.boards.base import BoardWidget
from ui.boards.forbans_canvas import ForbansCanvas
from ui.boards.mark_geometry import forbans_geometry
from ui.boards.step_clicks import click_step
from ui.theme import ERROR


def danger(engine: AnyEngine, board: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(ports of groups with exactly one liberty, those groups' last free ports)."""
    masks = engine.map.neighbour_masks  # type: ignore[attr-defined]
    bleu, vert = side_masks(board)
    empty = ((1 << len(board)) - 1) & ~(bleu | vert)
    ports: list[int] = []
    liberties: set[int] = set()
    for side in (bleu, vert):
        for group in groups(side, masks):
            if liberty_count(group, empty, masks) == 1:
                ports.extend(bits(group))
                around = 0
                for port in bits(group):
                    around |= masks[port]
                liberties.update(bits(around & empty))
    return tuple(sorted(ports)), tuple(sorted(liberties))


class Board(BoardWidget):
    def __init__(self) -> None:
        super().__init__()
        self.canvas = ForbansCanvas()
        self.prompt = QLabel()
        self.prompt.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.canvas, 1)
        layout.addWidget(self.prompt)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.canvas.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        self.canvas.setFocusProxy(self)

        self.engine: AnyEngine | None = None
        self.state: Any = None
        self.my_seat: int | None = None
        self.interactive = False
        self.partial: list[int] = []
        self.choices: tuple[int, ...] = ()
        self.refusal = ""
        """Why the last click did nothing (shown in the prompt until the next choice)."""

        self.canvas.portClicked.connect(self.click_port)
        self.canvas.backClicked.connect(self.step_back)
        self.canvas.portHovered.connect(self._hover)
        self.attach_pointing(
            self.canvas, *forbans_geometry(self.canvas), self._back_on_right, game="forbans"
        )

    # --- BoardWidget --------------------------------------------------------------------
    def show_position(
        self,
        engine: AnyEngine,
        state: Any,
        *,
        last_move: tuple[int, ...] | None,
        my_seat: int | None,
        interactive: bool,
    ) -> None:
        same = state is self.state and interactive == self.interactive
        self.engine, self.state, self.interactive = engine, state, interactive
        self.my_seat = my_seat
        self.canvas.board = state.board
        self.canvas.last = tuple(last_move or ())
        self.canvas.threatened, self.canvas.last_liberties = danger(engine, state.board)
        legend = []
        if state.seats > 2:
            legend.append(self.camps(state.seats))
        if my_seat is not None:
            legend.append(self.tr("You play {side}").format(side=SIDE_NAMES[side_of_seat(my_seat)]))
        self.canvas.legend = tuple(legend)
        if not same:
            self.partial = []
            self.refusal = ""
        self.redraw()

    def camps(self, seats: int) -> str:
        """``Bleu: seats 1, 3 · Vert: seats 2, 4`` for a team game."""
        parts = []
        for side in (1, 2):
            members = side_seats(seats, side)
            count = len(members)  # lupdate reads no call in the plural argument
            text = self.tr("{side}: seat(s) {seats}", "", count)
            parts.append(text.format(side=SIDE_NAMES[side], seats=", ".join(map(str, members))))
        return " · ".join(parts)

    def seat_notes(self, engine: AnyEngine, state: Any) -> dict[int, str]:
        return {
            seat: self.tr("camp {side}").format(side=SIDE_NAMES[side_of_seat(seat)])
            for seat in range(1, state.seats + 1)
        }

    def status_note(
        self, engine: AnyEngine, state: Any, name_of: Callable[[int], str] | None = None
    ) -> str:
        if engine.outcome(state) is not None:
            return ""
        if state.ply < PLACEMENTS:
            placer = turn_of(state.seats, state.ply)[0]
            return self.tr(
                "Setup: {placed} of {total} pieces placed; {placer} places a {colour} piece"
            ).format(
                placed=state.ply,
                total=PLACEMENTS,
                placer=SIDE_NAMES[placer],
                colour=SIDE_NAMES[other(placer)],
            )
        threatened, _ = danger(engine, state.board)
        sides = sorted({1 if state.board[port] > 0 else 2 for port in threatened})
        if not sides:
            return ""
        names = self.tr(" and ").join(SIDE_NAMES[side] for side in sides)
        return self.tr("{names} in danger (one free port)").format(names=names)

    # --- building a move ----------------------------------------------------------------
    def click_port(self, port: int) -> None:
        if not self.interactive or self.engine is None:
            return
        click_step(self, port)

    def starts(self) -> tuple[int, ...]:
        assert self.engine is not None
        return self.engine.next_choices(self.state, [])[0]

    def why_not(self, port: int) -> str:
        """Why a click on ``port`` does nothing at this step, in a sentence."""
        ports = self.engine.map.ports  # type: ignore[union-attr]
        name = ports[port].name
        if self._placing():
            return self.tr("No piece can be placed on {name} now: choose a ringed port.").format(
                name=name
            )
        if self.partial:
            return self.tr(
                "The stack on {origin} cannot reach {name}: only a ringed port one route away."
            ).format(origin=ports[self.partial[0]].name, name=name)
        count = self.state.board[port]
        side, _ = turn_of(self.state.seats, self.state.ply)
        if count == 0:
            return self.tr("{name} holds none of your pieces.").format(name=name)
        owner = 1 if count > 0 else 2
        if owner != side:
            return self.tr("The stack on {name} is {side}'s, not yours.").format(
                name=name, side=SIDE_NAMES[owner]
            )
        return self.tr("Your stack on {name} cannot move: no free port one route away.").format(
            name=name
        )

    def step_back(self) -> None:
        if self.partial:
            self.partial.pop()
            self.refusal = ""
            self.redraw()

    def _back_on_right(self) -> bool:
        """While a move is being built a right click steps back, as it does without pointing."""
        if not self.partial:
            return False
        self.step_back()
        return True

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Escape:
            self.step_back()
        else:
            super().keyPressEvent(event)

    def choose(self, port: int) -> None:
        if self.engine is None or port not in self.choices:
            return
        self.partial.append(port)
        self.refusal = ""
        nexts, complete = self.engine.next_choices(self.state, self.partial)
        if complete and not nexts:
            wire = tuple(self.partial)
            self.partial = []
            self.canvas.ghost = None
            self.redraw()
            self.moveChosen.emit(wire)
            return
        self.redraw()

    def _placing(self) -> bool:
        return self.state is not None and self.state.ply < PLACEMENTS

    def _hover(self, port: int | None) -> None:
        ghost = None
        if self.interactive and self._placing() and port in self.choices:
            ghost = (port, other(turn_of(self.state.seats, self.state.ply)[0]))
        if ghost != self.canvas.ghost:
            self.canvas.ghost = ghost
            self.canvas.update()

    def redraw(self) -> None:
        self.choices = ()
        if self.interactive and self.engine is not None:
            self.choices = self.engine.next_choices(self.state, self.partial)[0]
        canvas = self.canvas
        canvas.selected = self.partial[0] if self.partial else None
        canvas.movable = self.choices if not self.partial else ()
        canvas.targets = self.choices if self.partial else ()
        if not self.interactive:
            canvas.ghost = None
        self.prompt.setStyleSheet(f"color: {ERROR};" if self.refusal and self.interactive else "")
        self.prompt.setText(self._prompt())
        canvas.update()

    def _prompt(self) -> str:
        if not self.interactive or self.state is None:
            return ""
        if self.refusal:
            return self.refusal + ("  " + self.tr("(Esc: back)") if self.partial else "")
        side, _ = turn_of(self.state.seats, self.state.ply)
        if self._placing():
            return self.tr(
                "Setup, piece {number} of {total}: you place a {colour} piece. Click a ringed port."
            ).format(number=self.state.ply + 1, total=PLACEMENTS, colour=SIDE_NAMES[other(side)])
        if not self.partial:
            return self.tr("Your move ({side}): click one of your ringed stacks.").format(
                side=SIDE_NAMES[side]
            )
        name = self.engine.map.ports[self.partial[0]].name  # type: ignore[union-attr]
        return self.tr("From {name}: click a ringed port one route away.").format(name=name) + (
            "  " + self.tr("(Esc: back)")
        )
