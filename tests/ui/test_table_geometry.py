"""The table keeps still: selecting a piece, a banner appearing or the status wrapping onto
a second line moves neither the board nor the buttons; the window has a minimum size that
shows the whole table (issue 21)."""

from __future__ import annotations

from typing import Any

import pytest
import qtrio
from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtWidgets import QApplication, QWidget

from tests.ui.windows import open_window, start_local, until
from ui.boards.consensus import Board

pytestmark = [pytest.mark.gui, pytest.mark.filterwarnings("error")]
qt_trio = pytest.mark.trio(run=qtrio.run)


def placed(widget: QWidget) -> QRect:
    """Where ``widget`` is in its window."""
    return QRect(widget.mapTo(widget.window(), QPoint(0, 0)), widget.size())


@qt_trio
async def test_nothing_jumps_on_a_selection_a_banner_or_a_wrapped_status(qtbot: Any) -> None:
    async with open_window(qtbot, name="Zoé") as window:
        start_local(qtbot, window, "consensus", pace_ms=60_000)
        table = window.table
        board = table.board
        assert isinstance(board, Board)
        watched = [
            board.canvas,
            table.resign_button,
            table.takeback_button,
            table.leave_button,
            table.details_button,
        ]

        def places() -> list[QRect]:
            QApplication.processEvents()
            return [placed(widget) for widget in watched]

        before = places()
        qtbot.mouseClick(
            board.canvas, Qt.MouseButton.LeftButton, pos=board.canvas.square_center(20)
        )
        assert board.canvas.selected == (20,)
        assert places() == before, "selecting a piece"
        table.alert_line.setText("You lost control: Bea plays your pieces now.")
        table.alert_line.show()
        assert places() == before, "an alert banner"
        table.banner.setText("Game over — Bea won. " * 3)
        table.banner.show()
        assert places() == before, "the game-over banner"
        table.status.setText("A status long enough to wrap onto a second line. " * 4)
        table.error.setText("You cannot move that piece: it is not yours.")
        await until(lambda: table.status.height() > table.status.fontMetrics().height())
        assert places() == before, "a wrapped status and an error"


@qt_trio
async def test_the_window_cannot_shrink_below_a_usable_table(qtbot: Any) -> None:
    async with open_window(qtbot, name="Zoé") as window:
        start_local(qtbot, window, "consensus", pace_ms=60_000)
        least = window.minimumSize()
        assert least.width() >= 800 and least.height() >= 560
        window.resize(100, 100)
        QApplication.processEvents()
        assert window.width() >= least.width() and window.height() >= least.height()
        table = window.table
        for widget in (table.resign_button, table.leave_button, table.status, table.board):
            assert widget is not None and widget.isVisible()
            assert table.rect().contains(placed(widget).translated(-placed(table).topLeft()))


@qt_trio
async def test_the_line_of_plies_since_my_move_moves_nothing(qtbot: Any) -> None:
    """Seen in a real window: the board shrank when the since-your-move line came on two
    lines and grew back when it went, moving every square under the pointer."""
    async with open_window(qtbot, name="Zoé") as window:
        session = start_local(qtbot, window, "consensus", pace_ms=0)
        table = window.table
        board = table.board
        assert isinstance(board, Board)
        watched = [board.canvas, table.resign_button, table.leave_button]

        def places() -> list[QRect]:
            QApplication.processEvents()
            return [placed(widget) for widget in watched]

        before = places()
        assert table.recent_line.text() == ""
        engine = session.snapshot.engine
        session.move(engine.move_to_wire(engine.legal_moves(session.snapshot.state)[0]))
        await until(lambda: session.snapshot.my_turn and len(session.snapshot.plies) == 4)
        QApplication.processEvents()
        said = table.recent_line.toolTip()  # the whole line, when the label has no room
        assert said.count("·") == 2, said  # the three bots' plies, said
        assert table.recent_line.text().endswith(said.rpartition("·")[2])
        assert places() == before, "the line of plies since my move"


@qt_trio
async def test_asking_to_resign_or_leave_moves_no_button(qtbot: Any) -> None:
    """Seen in a real window: the question of *Leave table* pushed the buttons up, and put
    its own *Leave* where *Leave table* was: a double click left without being asked."""
    async with open_window(qtbot, name="Zoé") as window:
        start_local(qtbot, window, "consensus", pace_ms=60_000)
        table = window.table
        assert table.board is not None
        watched = [table.board, table.resign_button, table.offer_button, table.leave_button]

        def places() -> list[QRect]:
            QApplication.processEvents()
            return [placed(widget) for widget in watched]

        before = places()
        leave_at = placed(table.leave_button)
        qtbot.mouseClick(table.leave_button, Qt.MouseButton.LeftButton)
        assert table.leave_confirm.isVisible()
        assert places() == before, "the leave question"
        assert not placed(table.leave_yes).intersects(leave_at)
        qtbot.mouseClick(table.leave_no, Qt.MouseButton.LeftButton)
        qtbot.mouseClick(table.resign_button, Qt.MouseButton.LeftButton)
        assert table.confirm.isVisible()
        assert places() == before, "the resign question"
        qtbot.mouseClick(table.confirm_no, Qt.MouseButton.LeftButton)
        assert places() == before
