"""The Consensus board: draw a position, build a compound move click by click.

Building a move is a walk down the engine's step view (``engine.next_choices``): click a
piece, then one of its destinations, then each further choice the move needs (where the
corpse goes, where a displaced piece goes, which neighbour a Haussaire kills or none, where a
piece leaves e5 to).  Only the squares the engine offers for the current step are
highlighted and accepted; Escape (or a right click, or Back) steps back one choice, Cancel
starts again; a move is emitted only when the engine says it is complete.  Nothing here
decides what is legal.

While a move is being built the board shows it as it would be so far (the piece on its new
square, the victim lifted off, placed pieces where they were put), so each later choice is
made on the position the rules say it sees.  That preview is drawing, not rules.

Who rules and which slots still owe a turn come from ``engine.power_status``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from engines import AnyEngine
from engines.consensus_board import (
    COUTUMIER,
    DEAD,
    E5,
    FONCTIONNAIRE,
    GIGN,
    HAUSSAIRE,
    KIND_NAMES,
    SQUARE_NAMES,
)
from engines.consensus_moves import NO_KILL
from ui.boards.base import BoardWidget
from ui.boards.consensus_canvas import ConsensusCanvas, quarter_turns_for
from ui.boards.mark_geometry import consensus_geometry
from ui.boards.step_clicks import click_step
from ui.theme import ERROR


def preview(board: tuple[int, ...], partial: list[int]) -> tuple[tuple[int, ...], int]:
    """The board as a move built so far leaves it, and the lifted victim's code (0: none).

    ``partial`` is a prefix of a legal wire move: origin, target, then the further choices.
    """
    if len(partial) < 2:
        return board, 0
    squares = list(board)
    origin, target, *further = partial
    piece, victim = squares[origin], squares[target]
    kind = piece & 7
    squares[origin] = 0
    squares[target] = piece
    if kind == HAUSSAIRE:
        if further and further[0] != NO_KILL:
            squares[further[0]] |= DEAD
        return tuple(squares), 0
    lifted = victim  # the victim (or, for a Coutumier, the corpse) waiting to be placed
    if kind == GIGN and victim:
        squares[origin] = victim | DEAD  # a GIGN's victim falls where the GIGN came from
        lifted = 0
    elif victim and further:
        squares[further.pop(0)] = victim if kind == FONCTIONNAIRE else victim | DEAD
        lifted = 0
    if target == E5 and further:  # what is left is the square the piece exits e5 to
        squares[E5] = 0
        squares[further[0]] = piece
    return tuple(squares), lifted


def step_prompt(board: tuple[int, ...], partial: list[int], lifted: int) -> str:
    """What the player chooses next, in words (piece names are the game's own, in French)."""
    origin = partial[0]
    piece = KIND_NAMES[board[origin] & 7]
    where = SQUARE_NAMES[origin]
    if len(partial) == 1:
        text = QCoreApplication.translate(
            "Board", "{piece} on {where}: click a highlighted square."
        )
        return text.format(piece=piece, where=where)
    kind, target = board[origin] & 7, partial[1]
    index = len(partial) - 2
    victim = KIND_NAMES[lifted & 7] if lifted else QCoreApplication.translate("Board", "piece")
    exits = target == E5 and (
        (kind == GIGN and index == 0) or (kind in (FONCTIONNAIRE, COUTUMIER) and index == 1)
    )
    if exits:
        text = QCoreApplication.translate(
            "Board", "Your {piece} must leave e5: click the square it exits to."
        )
    elif kind == HAUSSAIRE:
        text = QCoreApplication.translate(
            "Board", "Click a highlighted neighbour to kill it, or No kill."
        )
    elif kind == FONCTIONNAIRE:
        text = QCoreApplication.translate(
            "Board", "Click the empty square where the displaced {victim} goes."
        )
    else:
        text = QCoreApplication.translate(
            "Board", "Click the empty square where the corpse ({victim}) goes."
        )
    return text.format(piece=piece, victim=victim)


class Board(BoardWidget):
    def __init__(self) -> None:
        super().__init__()
        self.canvas = ConsensusCanvas()
        self.prompt = QLabel()
        self.prompt.setWordWrap(True)
        self.no_kill = QPushButton(self.tr("No kill"))
        self.back = QPushButton(self.tr("Back"))
        self.cancel = QPushButton(self.tr("Cancel"))
        # The prompt's row keeps one height (two lines of text, or a button's if taller), so
        # the board does not move as the buttons come and go and the prompt wraps.
        self.bar = QWidget()
        bar = QHBoxLayout(self.bar)
        bar.setContentsMargins(0, 0, 0, 0)
        bar.addWidget(self.prompt, 1)
        for button in (self.no_kill, self.back, self.cancel):
            bar.addWidget(button)
        lines = 2 * self.prompt.fontMetrics().lineSpacing() + 4
        self.bar.setFixedHeight(max(lines, self.no_kill.sizeHint().height()))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.canvas, 1)
        layout.addWidget(self.bar)
        # Clicking the board gives it the keyboard, so Escape steps back.
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.canvas.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        self.canvas.setFocusProxy(self)

        self.engine: AnyEngine | None = None
        self.state: Any = None
        self.interactive = False
        self.partial: list[int] = []
        self.choices: tuple[int, ...] = ()
        self.refusal = ""
        """Why the last click did nothing (shown in the prompt until the next choice)."""

        self.canvas.squareClicked.connect(self.click_square)
        self.canvas.backClicked.connect(self.step_back)
        self.no_kill.clicked.connect(lambda: self.choose(NO_KILL))
        self.back.clicked.connect(self.step_back)
        self.cancel.clicked.connect(self.reset)
        self.attach_pointing(
            self.canvas, *consensus_geometry(self.canvas), self._back_on_right, game="consensus"
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
        self.canvas.turns = quarter_turns_for(my_seat)
        self.canvas.controllers = tuple(engine.controller(state, seat) for seat in range(1, 5))
        self.canvas.last = tuple(square for square in (last_move or ()) if square != NO_KILL)
        if not same:
            self.partial = []
            self.refusal = ""
        self.redraw()

    def seat_notes(self, engine: AnyEngine, state: Any) -> dict[int, str]:
        notes: dict[int, str] = {}
        status = engine.power_status(state)  # type: ignore[attr-defined]
        for seat in range(1, 5):
            if engine.controller(state, seat) == 0:
                notes[seat] = self.tr("resigned: pieces neutral")
        if status.ruler is not None:
            notes[status.ruler] = self.tr("♛ rules e5")
        for seat in status.owing:
            notes[seat] = self.tr("owes the ruler a turn")
        return notes

    def status_note(
        self, engine: AnyEngine, state: Any, name_of: Callable[[int], str] | None = None
    ) -> str:
        status = engine.power_status(state)  # type: ignore[attr-defined]
        if status.ruler is None:
            return self.tr("Nobody rules e5")
        if name_of is not None:  # the players by name, as the table and the replay say them
            ruler = name_of(status.ruler)
            if not status.owing:
                return self.tr("{ruler} rules e5").format(ruler=ruler)
            owing = ", ".join(name_of(seat) for seat in status.owing)
            return self.tr("{ruler} rules e5; wins after a turn of {owing}").format(
                ruler=ruler, owing=owing
            )
        if not status.owing:
            return self.tr("Seat {ruler} rules e5").format(ruler=status.ruler)
        owing = ", ".join(str(seat) for seat in status.owing)
        return self.tr("Seat {ruler} rules e5; wins after a turn of seat {owing}").format(
            ruler=status.ruler, owing=owing
        )

    # --- building a move ----------------------------------------------------------------
    def click_square(self, square: int) -> None:
        if not self.interactive or self.engine is None:
            return
        if len(self.partial) >= 2 and square == self.partial[1] and NO_KILL in self.choices:
            square = NO_KILL  # clicking the Haussaire itself spares its neighbours
        click_step(self, square)

    def starts(self) -> tuple[int, ...]:
        assert self.engine is not None
        return self.engine.next_choices(self.state, [])[0]

    def why_not(self, square: int) -> str:
        """Why a click on ``square`` does nothing at this step, in a sentence."""
        board, where = self.state.board, SQUARE_NAMES[square]
        if self.partial:
            piece = KIND_NAMES[board[self.partial[0]] & 7]
            if len(self.partial) == 1:
                return self.tr("That {piece} cannot reach {where}.").format(
                    piece=piece, where=where
                )
            return self.tr("{where} is not one of the highlighted squares.").format(where=where)
        code = board[square]
        if not code:
            return self.tr("{where} is empty: click one of your pieces.").format(where=where)
        piece = KIND_NAMES[code & 7]
        if code & DEAD:
            return self.tr("{where} holds a corpse: corpses never move by themselves.").format(
                where=where
            )
        assert self.engine is not None
        mover = self.engine.to_move(self.state)
        seat = (code >> 3) & 7
        if mover is None or self.engine.controller(self.state, seat) != self.engine.controller(
            self.state, mover
        ):
            return self.tr("The {piece} on {where} is not yours.").format(piece=piece, where=where)
        return self.tr("Your {piece} on {where} has no legal move.").format(
            piece=piece, where=where
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

    def reset(self) -> None:
        self.partial = []
        self.refusal = ""
        self.redraw()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Escape:
            self.step_back()
        else:
            super().keyPressEvent(event)

    def choose(self, choice: int) -> None:
        if not self.interactive or choice not in self.choices or self.engine is None:
            return
        self.partial.append(choice)
        self.refusal = ""
        nexts, complete = self.engine.next_choices(self.state, self.partial)
        if complete and not nexts:
            wire = tuple(self.partial)
            self.partial = []
            self.redraw()
            self.moveChosen.emit(wire)
            return
        self.redraw()

    def redraw(self) -> None:
        board: tuple[int, ...] = self.state.board if self.state is not None else self.canvas.board
        self.choices = ()
        if self.interactive and self.engine is not None:
            self.choices = self.engine.next_choices(self.state, self.partial)[0]
        shown, lifted = preview(board, self.partial)
        self.canvas.board = shown
        self.canvas.selected = tuple(self.partial[:1])
        self.canvas.movable = self.choices if not self.partial else ()
        self.canvas.targets = tuple(c for c in self.choices if c != NO_KILL) if self.partial else ()
        ruler = None
        if self.engine is not None and self.state is not None:
            status = self.engine.power_status(self.state)  # type: ignore[attr-defined]
            # While a move is built the ruler keeps its halo unless that move takes e5.
            if status.ruler is not None and shown[E5] == board[E5]:
                ruler = E5
        self.canvas.ruler_square = ruler
        self.no_kill.setVisible(NO_KILL in self.choices)
        self.back.setVisible(bool(self.partial))
        self.cancel.setVisible(bool(self.partial))
        self.prompt.setStyleSheet(f"color: {ERROR};" if self.refusal else "")
        if not self.interactive:
            self.prompt.setText("")
        elif self.refusal:
            back = "  " + self.tr("(Esc: back)") if self.partial else ""
            self.prompt.setText(self.refusal + back)
        elif not self.partial:
            extra = self._is_extra_move()
            self.prompt.setText(
                self.tr("Your extra move as ruler: click any piece you control.")
                if extra
                else self.tr("Your move: click one of your pieces.")
            )
        else:
            self.prompt.setText(
                step_prompt(board, self.partial, lifted) + "  " + self.tr("(Esc: back)")
            )
        self.canvas.update()

    def _is_extra_move(self) -> bool:
        return bool(getattr(self.state, "extra", False))
