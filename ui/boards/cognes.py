"""The Cognes board: drag from a coin to aim; the ghost shows the landing before it is played.

A drag that starts on a coin the engine offers (``engine.next_choices``) aims it: the drag
vector is snapped to one of the 720 directions by the engine's ``snap_direction``, then to
the nearest direction the engine offers for that coin (within ``SNAP_REACH``), so a rough
drag still finds a flip.  The ghost of the landing shows the gain and whether it touches,
from the engine's ``judge_flip``.  Releasing plays a legal flip at once; a foul (it touches,
the player would be out) waits for a confirmation; a direction the engine does not offer
sends nothing.  Nothing here decides what is legal.

Frozen coins wear frost; eliminated players are crossed out in the line above the table.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QLocale
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from engines import AnyEngine, IllegalMove
from engines.cognes import Flip, judge_flip
from engines.cognes_exact import displacements, snap_direction
from engines.cognes_geometry import DIRECTION_COUNT
from ui.boards.base import BoardWidget
from ui.boards.cognes_canvas import CognesCanvas, Ghost, millimetres
from ui.boards.mark_geometry import cognes_geometry
from ui.side_marks import side_glyph
from ui.theme import seat_colour

SNAP_REACH = 40
"""How far (in half-degree steps, 20°) a drag may miss the nearest offered direction."""


def nearest_offered(direction: int, offered: tuple[int, ...]) -> int | None:
    """The offered direction closest to ``direction`` around the circle, within reach."""
    best, best_gap = None, SNAP_REACH + 1
    for candidate in offered:
        gap = abs(candidate - direction)
        gap = min(gap, DIRECTION_COUNT - gap)
        if gap < best_gap:
            best, best_gap = candidate, gap
    return best


class Board(BoardWidget):
    def __init__(self) -> None:
        super().__init__()
        self.canvas = CognesCanvas()
        # The numbers drawn on the coins are their names, nothing to count or score.
        self.canvas.setToolTip(
            self.tr(
                "Each coin's number is its name: the move list and the messages "
                "say which coin was flipped by that number."
            )
        )
        self.players = QLabel()
        self.prompt = QLabel()
        self.prompt.setWordWrap(True)
        self.confirm = QWidget()
        row = QHBoxLayout(self.confirm)
        row.setContentsMargins(0, 0, 0, 0)
        self.confirm_text = QLabel()
        self.confirm_text.setWordWrap(True)
        self.confirm_text.setStyleSheet("color: #b00020; font-weight: bold;")
        self.play_foul = QPushButton(self.tr("Play the foul"))
        self.cancel_foul = QPushButton(self.tr("Cancel"))
        row.addWidget(self.confirm_text, 1)
        row.addWidget(self.play_foul)
        row.addWidget(self.cancel_foul)
        self.confirm.hide()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.players)
        layout.addWidget(self.canvas, 1)
        layout.addWidget(self.confirm)
        layout.addWidget(self.prompt)

        self.engine: AnyEngine | None = None
        self.state: Any = None
        self.interactive = False
        self.pending_foul: tuple[int, int] | None = None
        self._offered: dict[int, tuple[int, ...]] = {}

        self.canvas.aimed.connect(self.aim)
        self.play_foul.clicked.connect(self._confirm_foul)
        self.cancel_foul.clicked.connect(self._cancel_foul)
        self.attach_pointing(self.canvas, *cognes_geometry(self.canvas), game="cognes")

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
        canvas = self.canvas
        canvas.centres, canvas.frozen = state.centres, state.frozen
        canvas.radius, canvas.start_radius = state.coin_radius, state.start_radius
        canvas.min_gain = state.min_gain
        canvas.last_coin = canvas.last_from = None
        if last_move and len(last_move) == 2:
            coin, direction = last_move
            vx, vy = displacements(2 * state.coin_radius)[direction]
            x, y = state.centres[coin]
            canvas.last_coin, canvas.last_from = coin, (x - vx, y - vy)
        if not same:
            self._offered = {}
            canvas.ghost = canvas.aim = None
            self.pending_foul = None
            self.confirm.hide()
        canvas.movable = tuple(engine.next_choices(state, [])[0]) if interactive else ()
        self.players.setText(self._players_text(state, my_seat))
        self.prompt.setText(self._idle_prompt())
        canvas.update()

    def ply_marks(self, wire: tuple[int, ...]) -> tuple[int, ...]:
        """A flip names its coin (a mark) and a direction (not one): the coin only."""
        return wire[:1]

    def seat_notes(self, engine: AnyEngine, state: Any) -> dict[int, str]:
        return {seat: self.tr("out") for seat in range(1, state.seats + 1) if state.out[seat - 1]}

    def status_note(
        self, engine: AnyEngine, state: Any, name_of: Callable[[int], str] | None = None
    ) -> str:
        frozen = sum(state.frozen)
        free = len(state.centres) - frozen
        return self.tr("%n coin(s) free", "", free) + ", " + self.tr("%n frozen", "", frozen)

    # --- aiming -------------------------------------------------------------------------
    def offered(self, coin: int) -> tuple[int, ...]:
        """The directions the engine offers for ``coin`` (legal flips and fouls)."""
        if coin not in self._offered:
            assert self.engine is not None
            self._offered[coin] = tuple(self.engine.next_choices(self.state, [coin])[0])
        return self._offered[coin]

    def aim(self, coin: int, dx: int, dy: int, released: bool) -> None:
        if not self.interactive or self.engine is None or self.pending_foul is not None:
            return
        canvas = self.canvas
        if dx == 0 and dy == 0:
            canvas.ghost = canvas.aim = None
            canvas.update()
            return
        ghost = self._ghost(coin, snap_direction(dx, dy))
        canvas.ghost = ghost
        if not released:
            self.prompt.setText(self._aim_prompt(ghost))
        elif not ghost.allowed:
            canvas.ghost = canvas.aim = None
            self.prompt.setText(
                self.tr(
                    "Coin {coin} cannot be flipped that way: it would not come {gain} mm "
                    "closer to the middle. Drag toward the middle."
                ).format(coin=coin, gain=millimetres(self.state.min_gain))
            )
        elif ghost.foul:
            self.pending_foul = (coin, ghost.direction)
            self.confirm_text.setText(
                self.tr(
                    "Coin {coin} would land touching {touched}: a foul. "
                    "You would be out and the touching coins would freeze."
                ).format(coin=coin, touched=self._touched_words(ghost))
            )
            self.confirm.show()
        else:
            canvas.ghost = canvas.aim = None
            self._send(coin, ghost.direction)
        canvas.update()

    def _ghost(self, coin: int, snapped: int) -> Ghost:
        offered = self.offered(coin)
        direction = snapped if snapped in offered else nearest_offered(snapped, offered)
        allowed = direction is not None
        if direction is None:
            direction = snapped
        state = self.state
        vx, vy = displacements(2 * state.coin_radius)[direction]
        x, y = state.centres[coin]
        landing = (x + vx, y + vy)
        gain = round(math.hypot(x, y) - math.hypot(*landing))
        touched: tuple[int, ...] = ()
        middle = False
        if allowed:
            try:
                verdict = judge_flip(state, Flip(coin, direction))
                touched, middle = verdict.touched, verdict.touches_middle
            except IllegalMove:
                allowed = False
        return Ghost(coin, direction, landing, gain, allowed, touched, middle)

    def _send(self, coin: int, direction: int) -> None:
        assert self.engine is not None
        nexts, complete = self.engine.next_choices(self.state, [coin, direction])
        if complete and not nexts:
            self.moveChosen.emit((coin, direction))

    def _confirm_foul(self) -> None:
        if self.pending_foul is not None:
            coin, direction = self.pending_foul
            self._cancel_foul()
            self._send(coin, direction)

    def _cancel_foul(self) -> None:
        self.pending_foul = None
        self.confirm.hide()
        self.canvas.ghost = self.canvas.aim = None
        self.prompt.setText(self._idle_prompt())
        self.canvas.update()

    # --- words --------------------------------------------------------------------------
    def _touched_words(self, ghost: Ghost) -> str:
        names = [self.tr("coin {coin}").format(coin=j) for j in ghost.touched]
        if ghost.touches_middle:
            names.insert(0, self.tr("the middle coin"))
        return self.tr(" and ").join(names)

    def _aim_prompt(self, ghost: Ghost) -> str:
        angle = QLocale().toString(ghost.direction / 2, "g", 6) + "°"  # 70,5° in French
        if not ghost.allowed:
            text = self.tr(
                "Coin {coin} toward {angle}: not closer to the middle. Release to cancel."
            )
        elif ghost.foul:
            text = self.tr("Coin {coin} toward {angle}: lands touching {touched} — a foul.")
        else:
            text = self.tr("Coin {coin} toward {angle}: {gain} mm closer. Release to flip.")
        return text.format(
            coin=ghost.coin,
            angle=angle,
            touched=self._touched_words(ghost),
            gain=millimetres(ghost.gain),
        )

    def _idle_prompt(self) -> str:
        if not self.interactive:
            return ""
        return self.tr(
            "Your turn: drag from a ringed coin toward the middle to aim, release to flip."
        )

    def _players_text(self, state: Any, my_seat: int | None) -> str:
        parts = []
        for seat in range(1, state.seats + 1):
            shape = side_glyph("cognes", seat)
            dot = f'<span style="color:{seat_colour(seat).name()}">{shape}</span>'
            name = self.tr("you") if seat == my_seat else self.tr("seat {seat}").format(seat=seat)
            if state.out[seat - 1]:
                parts.append(dot + " " + self.tr("<s>{name}</s> out").format(name=name))
            elif seat == state.turn:
                turn = (
                    self.tr("<b>you to flip</b>")
                    if seat == my_seat
                    else self.tr("<b>seat {seat} to flip</b>").format(seat=seat)
                )
                parts.append(f"{dot} {turn}")
            else:
                parts.append(f"{dot} {name}")
        return " &nbsp; ".join(parts)
