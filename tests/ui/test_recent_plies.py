"""Every ply since my last move is numbered on the board, faded by age, and a line under it
says what each did (issue 21): in Consensus a sentence ("Bea's GIGN killed your Syndicaliste
on e4"), told from the position before the ply."""

from __future__ import annotations

from typing import Any

import pytest
import qtrio
from PySide6.QtCore import QPoint

from engines.consensus import ENGINE
from engines.consensus_board import KIND_NAMES, SQUARE_NAMES
from tests.ui.conftest import consensus_state
from tests.ui.test_consensus_board import POSITION, sq
from tests.ui.windows import click_move, open_window, start_local, until
from ui.boards.consensus import Board
from ui.boards.recent_plies import age_alpha
from ui.ply_words import consensus_words
from ui.theme import seat_colour

pytestmark = [pytest.mark.gui, pytest.mark.filterwarnings("error")]
qt_trio = pytest.mark.trio(run=qtrio.run)


@qt_trio
async def test_the_plies_since_my_move_are_numbered_on_the_board_and_said(qtbot: Any) -> None:
    async with open_window(qtbot, name="Zoé") as window:
        session = start_local(qtbot, window, "consensus")
        table = window.table
        assert isinstance(table.board, Board)
        board = table.board
        assert board.recent is not None and board.recent.recent == ()
        click_move(qtbot, board, [20, 29])
        await until(lambda: session.snapshot.my_turn and session.snapshot.ply == 4)
        plies = session.snapshot.plies
        shown = board.recent.recent
        assert [mark.number for mark in shown] == [1, 2, 3]
        assert [mark.marks for mark in shown] == [ply.wire[:2] for ply in plies[1:]]
        assert [mark.colour for mark in shown] == [seat_colour(seat) for seat in (2, 3, 4)]
        assert age_alpha(1, 3) < age_alpha(2, 3) < age_alpha(3, 3) == 255
        line = table.recent_line.text()
        assert line.startswith("Since your move: 1. ")
        state = ENGINE.initial_state({"seats": 4})
        for count, ply in enumerate(plies):  # each told from the position before it
            if count:
                origin, target = ply.wire[:2]
                piece = KIND_NAMES[state.board[origin] & 7]
                said = f"{count}. {session.snapshot.seat_name(ply.seat)}'s {piece} "
                assert said in line and SQUARE_NAMES[target] in line, (said, line)
            state = ENGINE.apply(state, ENGINE.move_from_wire(list(ply.wire)))

        # The newest badge is drawn on the canvas, in its seat's colour.
        canvas = board.canvas
        image = canvas.grab().toImage()
        end = canvas.square_center(plies[-1].wire[1])
        size = board.recent.mark_size()
        radius = max(7.0, size * 0.2)  # below the number, inside the badge's white edge
        badge = QPoint(round(end.x() - size * 0.3), round(end.y() - size * 0.3 + radius * 0.7))
        drawn, expected = image.pixelColor(badge), seat_colour(4)
        assert all(
            abs(a - b) <= 12 for a, b in zip(drawn.getRgb()[:3], expected.getRgb()[:3], strict=True)
        ), drawn.name()

        # My next move starts the count again.
        state = session.snapshot.state
        wire = ENGINE.move_to_wire(ENGINE.legal_moves(state)[0])
        click_move(qtbot, board, wire)
        await until(lambda: session.snapshot.ply >= 5)
        if session.snapshot.ply == 5:
            assert board.recent.recent == () and table.recent_line.text() == ""
        await until(lambda: session.snapshot.my_turn or session.snapshot.outcome is not None)
        assert len(board.recent.recent) <= 3


def test_a_consensus_ply_is_told_in_words() -> None:
    state = consensus_state(POSITION)  # Ana's Syndicaliste on c3 faces Bea's on c4
    names = {1: "Ana", 2: "Bea"}.get
    kill = (sq("c3"), sq("c4"), sq("h8"))
    assert kill in [tuple(ENGINE.move_to_wire(m)) for m in ENGINE.legal_moves(state)]
    assert (
        consensus_words(state, kill, 2, names)
        == "Ana's Syndicaliste killed your Syndicaliste on c4"
    )
    assert (
        consensus_words(state, kill, 1, names)
        == "your Syndicaliste killed Bea's Syndicaliste on c4"
    )
    step = (sq("c3"), sq("d4"))
    assert consensus_words(state, step, None, names) == "Ana's Syndicaliste went from c3 to d4"
    assert consensus_words(state, (sq("d5"), sq("d6")), 1, names) is None  # no piece there
    assert consensus_words(state, (999, 3), 1, names) is None
