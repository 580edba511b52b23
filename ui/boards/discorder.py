"""The Discorder board: tiles on cells and pegs on the sites between cells, one click each.

The legal cells and peg sites come from the engine's step view (``engine.next_choices``):
they are marked (a dot on a legal cell, a dashed outline on a legal site) and a click on one
sends the move; a click anywhere else does nothing.  Nothing here decides what is legal.

Every run of three or more is outlined with its status from the engine's ``run_views``
(secured: solid green, pending: dashed blue, given away: solid red) and a badge naming whom
it scores for; the provisional score above the board is the engine's
``provisional_scores``.  The supply tray below shows the pegs left and each player's tiles.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QLabel, QVBoxLayout

from engines import AnyEngine
from engines.discorder import CELLS, GIVEN_AWAY, PENDING, SECURED, cell_name, site_name
from ui.boards.base import BoardWidget
from ui.boards.discorder_canvas import RUN_PENS, TILE_NAMES, DiscorderCanvas
from ui.boards.mark_geometry import discorder_geometry


def score_text(engine: AnyEngine, state: Any) -> str:
    jaune, noir = engine.provisional_scores(state)  # type: ignore[attr-defined]
    if engine.outcome(state) is not None:
        word = QCoreApplication.translate("Board", "Score")
    else:
        word = QCoreApplication.translate("Board", "Provisional score")
    statuses = (
        (SECURED, QCoreApplication.translate("Board", "secured")),
        (PENDING, QCoreApplication.translate("Board", "pending")),
        (GIVEN_AWAY, QCoreApplication.translate("Board", "given away")),
    )
    legend = " ".join(
        f'<span style="color:{RUN_PENS[status].name()}">■ {words}</span>'
        for status, words in statuses
    )
    text = QCoreApplication.translate(
        "Board", "<b>{word}: Jaune {jaune} – Noir {noir}</b> &nbsp; runs: {legend}"
    )
    return text.format(word=word, jaune=jaune, noir=noir, legend=legend)


class Board(BoardWidget):
    def __init__(self) -> None:
        super().__init__()
        self.canvas = DiscorderCanvas()
        self.score = QLabel()
        # Bigger text or a narrow window: the legend goes on a second line rather than past
        # the board's edge.
        self.score.setWordWrap(True)
        self.prompt = QLabel()
        self.prompt.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.score)
        layout.addWidget(self.canvas, 1)
        layout.addWidget(self.prompt)

        self.engine: AnyEngine | None = None
        self.state: Any = None
        self.interactive = False
        self.choices: frozenset[int] = frozenset()

        self.canvas.cellClicked.connect(self.click_cell)
        self.canvas.siteClicked.connect(self.click_site)
        self.attach_pointing(self.canvas, *discorder_geometry(self.canvas), game="discorder")

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
        self.engine, self.state, self.interactive = engine, state, interactive
        canvas = self.canvas
        canvas.flipped = my_seat == 2  # seat 2 sits across the table
        canvas.board, canvas.pegs = state.board, state.pegs
        canvas.tiles_left, canvas.pegs_left = state.tiles_left, state.pegs_left
        canvas.runs = engine.run_views(state)  # type: ignore[attr-defined]
        number = last_move[0] if last_move else None
        canvas.last_cell = number if number is not None and number < CELLS else None
        canvas.last_site = number - CELLS if number is not None and number >= CELLS else None
        self.choices = frozenset()
        if interactive:
            self.choices = frozenset(engine.next_choices(state, [])[0])
        canvas.cell_choices = frozenset(n for n in self.choices if n < CELLS)
        canvas.site_choices = frozenset(n - CELLS for n in self.choices if n >= CELLS)
        canvas.ghost_colour = state.to_move if interactive else 0
        self.score.setText(score_text(engine, state))
        self.prompt.setText(self._prompt())
        canvas.update()

    def seat_notes(self, engine: AnyEngine, state: Any) -> dict[int, str]:
        notes = {
            seat: f"{TILE_NAMES[seat]}, " + self.tr("%n tile(s)", "", state.tiles_left[seat - 1])
            for seat in (1, 2)
        }
        for seat in (1, 2):
            if state.banned[seat - 1]:
                notes[seat] += self.tr(", no peg this turn (made a line of three)")
        return notes

    def status_note(
        self, engine: AnyEngine, state: Any, name_of: Callable[[int], str] | None = None
    ) -> str:
        jaune, noir = engine.provisional_scores(state)  # type: ignore[attr-defined]
        note = f"Jaune {jaune} – Noir {noir}, " + self.tr("%n peg(s) left", "", state.pegs_left)
        if state.passed:
            note += self.tr("; {colour} passed (no tile, no legal peg)").format(
                colour=TILE_NAMES[state.passed]
            )
        return note

    # --- moves --------------------------------------------------------------------------
    def click_cell(self, cell: int) -> None:
        self._send(cell)

    def click_site(self, site: int) -> None:
        self._send(CELLS + site)

    def _send(self, number: int) -> None:
        if not self.interactive or self.engine is None or number not in self.choices:
            return
        nexts, complete = self.engine.next_choices(self.state, [number])
        if complete and not nexts:
            self.moveChosen.emit((number,))

    def _prompt(self) -> str:
        state = self.state
        if not self.interactive or state is None:
            return ""
        seat = state.to_move
        parts = [self.tr("Your move ({colour}):").format(colour=TILE_NAMES[seat])]
        can_tile = any(n < CELLS for n in self.choices)
        can_peg = any(n >= CELLS for n in self.choices)
        if can_tile and can_peg:
            parts.append(self.tr("click an empty cell for a tile, or a dashed site for a peg."))
        elif can_tile:
            parts.append(self.tr("click an empty cell for a tile."))
        else:
            parts.append(self.tr("no tile left: click a dashed site for a peg."))
        if state.banned[seat - 1]:
            parts.append(self.tr("No peg this turn: your last tile made a line of three."))
        elif state.pegs_left == 0:
            parts.append(self.tr("No peg is left in the supply."))
        return " ".join(parts)

    def describe(self, number: int) -> str:
        """The notation of a wire number (a cell or a peg site)."""
        return cell_name(number) if number < CELLS else site_name(number - CELLS)
