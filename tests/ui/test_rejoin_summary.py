"""A player who came back to a table is not told a game length it cannot know (issue 21).

Seen in a real window: Bruno's palabre was killed mid-game and he rejoined; when the table
ended, his summary said "7 plies · 0 min 0 s" (the time his new window had watched) while
the game had gone on for minutes.  Here the host's window plays the first ply by clicks,
its palabre stops abruptly, a new window on the same profile rejoins through Ana, and Ana
leaves: the table of two ends as abandoned, and the summary says the window came in during
the game instead of a length.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest
import qtrio
import trio

from client.runtime.peer import Peer
from engines.consensus import ENGINE
from tests.ui.test_rejoin_window import host_for_ana
from tests.ui.windows import click, click_move, open_window, until
from ui.app import MainWindow
from ui.boards.consensus import Board

pytestmark = [pytest.mark.gui, pytest.mark.filterwarnings("error")]
qt_trio = pytest.mark.trio(run=qtrio.run)


@asynccontextmanager
async def rejoined(qtbot: Any, others: trio.Nursery) -> AsyncIterator[tuple[MainWindow, Peer]]:
    """Hugo's window hosts Ana, plays the first ply by clicks, its palabre stops abruptly,
    and a new window on its profile rejoins through Ana: that window and Ana's peer."""
    async with trio.open_nursery() as crashed:  # the host's palabre, cancelled at once
        window, ana, _port = await host_for_ana(qtbot, crashed, others)
        session = window.session
        assert session is not None
        await until(lambda: session.snapshot.my_turn)
        board = window.table.board
        assert isinstance(board, Board)
        first = ENGINE.legal_moves(session.snapshot.state)[0]
        click_move(qtbot, board, ENGINE.move_to_wire(first))
        await until(lambda: session.snapshot.final_ply >= 1)  # Ana has it too
        crashed.cancel_scope.cancel()  # no goodbye: the process is gone
    window.session = None
    async with open_window(qtbot, "hugo", activate=False) as again:
        again.start.recent.setCurrentRow(0)
        click(qtbot, again.start.rejoin_button)
        await until(lambda: again.stack.currentWidget() is again.table, timeout=20)
        session = again.session
        assert session is not None
        await until(lambda: any(link.key == ana.me for link in session.peer.links))
        yield again, ana


@qt_trio
async def test_a_rejoined_window_says_when_it_came_in_not_a_length(qtbot: Any) -> None:
    async with trio.open_nursery() as others:
        async with rejoined(qtbot, others) as (again, ana):
            table = again.table
            session = again.session
            assert session is not None
            # Hugo's bots play plies 2 and 3, then it is Ana's turn: she leaves once all agree
            await until(lambda: session.snapshot.final_ply == session.snapshot.ply == 3)
            ana.leave_table(0)  # a table of two: it ends at once, as abandoned
            await until(lambda: table.summary.isVisible(), timeout=20)
            facts = table.summary.facts.text()
            assert "came in during the game" in facts, facts
            assert " min " not in facts, facts
        others.cancel_scope.cancel()


@qt_trio
async def test_a_player_who_leaves_just_after_a_rejoin_is_told_at_once(qtbot: Any) -> None:
    async with trio.open_nursery() as others:
        async with rejoined(qtbot, others) as (again, ana):
            session = again.session
            assert session is not None
            ana.leave_table(0)  # at once: her LEAVE must still reach Hugo
            # the away timeout is 60 s: an ending within 10 s is the LEAVE's
            await until(lambda: session.snapshot.outcome is not None, timeout=10)
        others.cancel_scope.cancel()
