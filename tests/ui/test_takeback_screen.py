"""The table screen's takeback: the button (enabled when the last ply is mine), the consent
prompt another player's ask shows, and the status while consents are awaited.

Real sessions: a local game against bots, and a networked table hosted from the window with a
bot peer joining it in the same trio loop.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import qtrio
import trio
from PySide6.QtCore import Qt

from client.bots.answers import MAX_BOT_TAKEBACKS
from client.node.joining import JoinConfig
from client.node.peer_node import NodeConfig
from client.runtime.peer import Peer
from engines import find_engine
from engines.consensus import ENGINE
from net.identity import load_profile_identity
from net.invite import Invite, parse_invite
from tests.client.gamelogs import LoggedTable
from tests.ui.test_window import click_move, free_port, open_window, start_local_game, until
from ui.boards.consensus import Board
from ui.move_list import move_lines
from ui.replay_page import replay_page
from ui.screens.replay import ReplayScreen

pytestmark = [pytest.mark.gui, pytest.mark.filterwarnings("error")]
qt_trio = pytest.mark.trio(run=qtrio.run)


@qt_trio
async def test_my_last_move_is_taken_back_against_bots(qtbot: Any) -> None:
    async with open_window(qtbot) as window:
        session = start_local_game(qtbot, window, pace_ms=5000)
        table = window.table
        assert not table.takeback_button.isEnabled()  # nothing played yet
        board = table.board
        assert isinstance(board, Board)
        start = session.snapshot.state
        target = ENGINE.destinations(start, 20)[0]
        click_move(qtbot, board, [20, target])
        assert table.takeback_button.isEnabled()
        qtbot.mouseClick(table.takeback_button, Qt.MouseButton.LeftButton)
        snapshot = session.snapshot
        assert [ply.kind for ply in snapshot.plies] == ["move", "takeback"]
        assert snapshot.state == start and snapshot.my_turn and snapshot.last_move is None
        assert not table.takeback_button.isEnabled()  # a takeback is never taken back
        assert table.moves.item(1).text().startswith("  2. ply 1 taken back")
        assert table.moves.item(0).font().strikeOut()  # the undone move, struck through
        # the takeback line is in the asker's colour, as its name says (seen: seat 2's blue)
        moves = table.moves
        swatch = [moves.item(row).icon().pixmap(12).toImage() for row in (0, 1)]
        assert swatch[0] == swatch[1]
        assert board.interactive


@qt_trio
async def test_the_bots_answer_take_back_by_their_rule_and_say_why_they_decline(
    qtbot: Any,
) -> None:
    """Two takebacks a game, then the bots decline, in the chat: the click is never lost."""
    async with open_window(qtbot) as window:
        session = start_local_game(qtbot, window, pace_ms=5000)
        table = window.table
        board = table.board
        assert isinstance(board, Board)
        start = session.snapshot.state
        for _ in range(MAX_BOT_TAKEBACKS + 1):
            click_move(qtbot, board, [20, ENGINE.destinations(start, 20)[0]])
            qtbot.mouseClick(table.takeback_button, Qt.MouseButton.LeftButton)
        kinds = [ply.kind for ply in session.snapshot.plies]
        assert kinds == ["move", "takeback"] * MAX_BOT_TAKEBACKS + ["move"]
        lines = [table.chat.lines.item(i).text() for i in range(table.chat.lines.count())]
        me = session.snapshot.seat_name(1)  # the profile's name
        assert lines[-1] == (
            f"Bot 2 of {me} (easy) declines the takeback: it allows 2 takebacks a game, "
            "and they are used."
        )
        assert session.snapshot.ply == 2 * MAX_BOT_TAKEBACKS + 1  # play goes on, the bots' turn


async def host_with_a_bot_guest(qtbot: Any, window: Any, nursery: trio.Nursery) -> Peer:
    start = window.start
    start.host_game.setCurrentIndex(start.host_game.findData("discorder"))
    start.host_port.setValue(free_port())
    qtbot.mouseClick(start.host_button, Qt.MouseButton.LeftButton)
    lobby = window.lobby
    await until(lambda: lobby.invite.text().startswith("palabre://"))
    invite = parse_invite(lobby.invite.text())
    target = Invite(("127.0.0.1",), invite.port, invite.table_id, invite.fingerprint)
    guest = Peer(
        load_profile_identity("guest"),
        JoinConfig(target, "Guest"),
        NodeConfig(profile="guest", bot_me=True, bot_delay=0.5),
    )
    nursery.start_soon(guest.run)
    await until(lambda: lobby.seats.rowCount() == 2 and lobby.seats.item(1, 1) is not None)
    qtbot.mouseClick(lobby.ready, Qt.MouseButton.LeftButton)
    await until(lobby.start.isEnabled)
    qtbot.mouseClick(lobby.start, Qt.MouseButton.LeftButton)
    await until(lambda: window.stack.currentWidget() is window.table)
    return guest


@qt_trio
async def test_takebacks_at_a_networked_table_ask_consent_and_refuse(qtbot: Any) -> None:
    async with open_window(qtbot) as window, trio.open_nursery() as nursery:
        guest = await host_with_a_bot_guest(qtbot, window, nursery)
        session, table = window.session, window.table
        assert session is not None
        await until(lambda: window.session.peer.table.final_ply >= 0)  # the genesis is acked

        async def my_move(plies: int) -> None:
            await until(lambda: session.snapshot.my_turn and session.snapshot.ply == plies)
            engine, state = session.snapshot.engine, session.snapshot.state
            session.move(engine.move_to_wire(engine.legal_moves(state)[0]))
            assert table.takeback_button.isEnabled()  # my own move is the last ply

        # I ask: the guest, a bot peer, consents and its bot (to move) appends the takeback
        await my_move(0)
        qtbot.mouseClick(table.takeback_button, Qt.MouseButton.LeftButton)
        assert not table.takeback_button.isEnabled()
        assert "Takeback of ply 1: waiting for Guest." in table.status.text()
        await until(lambda: session.snapshot.ply == 2)
        assert session.snapshot.plies[1].kind == "takeback"
        assert session.snapshot.state == session.snapshot.engine.initial_state({"seats": 2})
        assert "Takeback" not in table.status.text()
        # The guest's bot appended it, but the line is mine (I asked); my move is struck.
        me = session.snapshot.seat_name(session.snapshot.my_seat)
        await until(lambda: table.moves.count() == 2)
        asked = table.moves.item(1).text()
        assert asked.startswith("  2. ply 1 taken back") and me in asked and "Guest" not in asked
        assert table.moves.item(0).font().strikeOut()
        assert not table.moves.item(1).font().strikeOut()

        async def guest_asks(plies: int) -> None:
            await my_move(plies)
            await until(lambda: session.snapshot.ply == plies + 2)  # the guest's bot answered
            assert not table.takeback_button.isEnabled()
            guest.act(lambda t, now: t.ask_takeback(now))
            await until(table.takeback_prompt.isVisible)

        # the guest asks and I consent: I am to move, so my table appends the takeback
        await guest_asks(2)
        assert table.takeback_question.text() == "Guest asks to take back ply 4. Do you agree?"
        qtbot.mouseClick(table.takeback_yes, Qt.MouseButton.LeftButton)
        await until(lambda: session.snapshot.ply == 5)
        assert session.snapshot.plies[4].notation == "ply 4 taken back"
        assert not table.takeback_prompt.isVisible()
        assert table.moves.item(4).text().startswith("  5. ply 4 taken back")
        assert "Guest" in table.moves.item(4).text()  # the guest asked; I appended it
        assert table.moves.item(3).font().strikeOut()
        assert not table.moves.item(2).font().strikeOut()

        # the guest asks again and I refuse: nothing is signed, the chat says so
        await until(lambda: session.snapshot.ply == 6)  # the guest's bot moved again
        await guest_asks(6)
        qtbot.mouseClick(table.takeback_no, Qt.MouseButton.LeftButton)
        assert not table.takeback_prompt.isVisible()
        assert session.snapshot.chat[-1].text == "I would rather not take back ply 8."
        assert session.snapshot.takeback is not None and session.snapshot.takeback.refused
        assert session.snapshot.ply == 8
        qtbot.mouseClick(table.leave_button, Qt.MouseButton.LeftButton)
        if table.leave_confirm.isVisible():  # mid-game, leaving is asked first
            qtbot.mouseClick(table.leave_yes, Qt.MouseButton.LeftButton)
        await until(lambda: session.peer.done.is_set())
        nursery.cancel_scope.cancel()  # the guest plays on until the host is away (the mesh)


def test_the_replay_screen_lists_a_takeback_and_steps_back_to_the_position_before(
    qtbot: Any, tmp_path: Path
) -> None:
    engine = find_engine("discorder")
    game = LoggedTable(tmp_path, ["A", "B"], engine, bots="none")

    def move(name: str) -> None:
        own = game.tables[name]
        game.act(name, own.move(engine.legal_moves(own.head.engine_state)[0], game.router.now))

    move("A")
    game.act("A", game.tables["A"].ask_takeback(game.router.now))
    game.act("B", game.tables["B"].consent_takeback(game.router.now))  # B, to move, appends
    move("A")
    path = game.close()["B"]
    screen = ReplayScreen()
    qtbot.addWidget(screen)
    screen.show()
    screen.open_file(path)
    qtbot.waitUntil(lambda: screen.worker is None, timeout=30_000)
    texts = [screen.record.item(row).text().strip() for row in range(screen.record.count())]
    ask = texts.index("A asks to take back ply 1")
    consent = texts.index("B consents to take back ply 1")
    taken = next(row for row, text in enumerate(texts) if text.startswith("2. ply 1 taken back"))
    assert texts[1].startswith("1. ") and 1 < ask < taken and 1 < consent < taken
    assert texts[taken + 1].startswith("3. ")
    # B, to move, appended the TAKEBACK; A asked for it, and A's undone move is struck.
    assert " A " in f" {texts[taken]} " and " B " not in f" {texts[taken]} "
    struck = [
        row for row in range(screen.record.count()) if screen.record.item(row).font().strikeOut()
    ]
    assert struck == [1]
    replay = screen.replay
    assert replay is not None
    assert replay.frames[2].engine_state == replay.frames[0].engine_state
    assert move_lines(replay)[1].startswith("2. A: ")
    page = replay_page(replay, 120, "2026-12-03")
    assert page.count('class="ply undone"') == 1 and 'class="ply undone" data-ply="1"' in page
