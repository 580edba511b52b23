"""Opening a game file from the start screen: a real game's file, verified and shown
read-only (its plies and their finality, the chat, the result, the verdict); picking a ply
shows its position; a file that is no game log is explained."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import qtrio
import trio
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QLineEdit

from client.hosting import HostPeer
from client.peer import TableStarted, game_dir
from engines.consensus import ENGINE
from net.identity import load_profile_identity
from tests.ui.windows import click, open_window, until
from ui.app import MainWindow
from ui.boards.consensus import Board

pytestmark = [pytest.mark.gui, pytest.mark.filterwarnings("error")]
qt_trio = pytest.mark.trio(run=qtrio.run)


async def play_a_game(profile: str) -> Path:
    """A real table (a host and its three bots, on loopback) played to its end; its file."""
    host = HostPeer(
        load_profile_identity(profile),
        ENGINE,
        {"seats": 4},
        name="Hugo",
        bots=3,
        bot_me=True,
        bot_delay=0,
        profile=profile,
    )
    started: list[Path] = []

    def chat_once(event: Any) -> None:
        if isinstance(event, TableStarted):
            started.append(event.path)
            host.call_soon(lambda: host.act(lambda table, now: table.chat("Bonne partie !", now)))

    host.observers.append(chat_once)
    await host.open(0)
    assert await host.run() == 0
    assert started and started[0].parent == game_dir(profile)
    return started[0]


def open_file(window: MainWindow, path: Path) -> None:
    """What a player does: the start screen's button, then the file in the dialog."""
    click_in(window, window.start.open_file)
    dialog = window.start.file_dialog
    assert dialog is not None and dialog.isVisible()
    name = dialog.findChild(QLineEdit, "fileNameEdit")  # typed, as selectFile is not under X
    name.setText(str(path))
    QTest.keyClick(name, Qt.Key.Key_Return)


def click_in(window: MainWindow, widget: Any) -> None:
    QTest.mouseClick(widget, Qt.MouseButton.LeftButton)


def replayed(plies: Any, count: int) -> Any:
    state = ENGINE.initial_state({"seats": 4})
    for ply in plies[:count]:
        state = ENGINE.apply(state, ENGINE.move_from_wire(list(ply.wire)))
    return state


@qt_trio
async def test_a_game_file_opens_read_only_and_its_plies_can_be_picked(qtbot: Any) -> None:
    path = await play_a_game("hugo")
    async with open_window(qtbot, "hugo") as window:
        dialog = window.start.choose_game_file()
        assert Path(dialog.directory().absolutePath()) == path.parent  # where games are kept
        dialog.reject()
        open_file(window, path)
        await until(lambda: window.stack.currentWidget() is window.table)
        table = window.table
        session = window.session
        assert session is not None
        snapshot = session.snapshot
        assert snapshot.read_only and snapshot.outcome is not None
        assert table.title.text().endswith(f"game file {path.name}: valid and complete")
        assert table.moves.count() == snapshot.ply > 0
        assert all(table.moves.item(row).text().endswith("✓") for row in range(snapshot.ply))
        assert snapshot.outcome.summary in table.banner.text()
        chat = table.chat
        assert chat.lines.item(0).text() == "Hugo: Bonne partie !"
        assert not chat.field.isVisible() and not table.resign_button.isVisible()
        board = table.board
        assert isinstance(board, Board) and not board.interactive

        qtbot.mouseClick(
            table.moves.viewport(),
            Qt.MouseButton.LeftButton,
            pos=table.moves.visualItemRect(table.moves.item(2)).center(),
        )
        assert session.snapshot.shown_ply == 3
        assert "the position after ply 3 of" in table.status.text()
        assert board.state == replayed(snapshot.plies, 3) != snapshot.state
        session.move(list(snapshot.plies[3].wire))  # a file is never played on
        assert "game file" in table.error.text() and session.snapshot.ply == snapshot.ply
        assert table.leave_button.text() == "Close the file"
        click(qtbot, table.leave_button)
        assert window.stack.currentWidget() is window.start
        await trio.sleep(0)


@qt_trio
async def test_a_file_that_is_no_game_log_is_explained(qtbot: Any, tmp_path: Path) -> None:
    notes = tmp_path / "notes.palabre-log"
    notes.write_text("not a game\n")
    async with open_window(qtbot) as window:
        open_file(window, notes)
        assert window.stack.currentWidget() is window.start
        message = window.start.message.text()
        assert message.startswith("Cannot open notes.palabre-log: ") and "log" in message, message
