"""Helpers the window tests share: open real MainWindows in one trio run (qtrio), wait for a
condition, type and click the way a player does, find a free port, relay TCP with a pause."""

from __future__ import annotations

import random
import socket
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

import trio
from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QApplication

from client.commands.launcher import Launcher
from client.profile.settings import SettingsStore
from client.sessions.session_api import GameSession
from engines.consensus import ENGINE, NO_KILL
from ui.app import MainWindow
from ui.boards.consensus import Board


async def until(predicate: Callable[[], bool], timeout: float = 30.0) -> None:
    with trio.fail_after(timeout):
        while not predicate():
            await trio.sleep(0.005)


@asynccontextmanager
async def open_window(
    qtbot: Any,
    profile: str = "default",
    *,
    name: str | None = None,
    bot_delay: float | None = None,
    activate: bool = True,
) -> AsyncIterator[MainWindow]:
    """A shown MainWindow for ``profile`` (its own key and settings), with its own nursery;
    ``name`` is typed into the start screen's name field as a player would."""
    async with trio.open_nursery() as nursery:
        launcher = Launcher(profile=profile, bot_delay=bot_delay)
        window = MainWindow(nursery, launcher, SettingsStore(profile))
        qtbot.addWidget(window)
        window.show()
        if activate:
            window.activateWindow()
            await until(lambda: QApplication.activeWindow() is window, timeout=5)
        if name is not None:
            window.start.name.clear()
            type_text(window.start.name, name)
            window.start.name.editingFinished.emit()
        try:
            yield window
        finally:
            window.close()
            nursery.cancel_scope.cancel()


def start_local(
    qtbot: Any,
    window: MainWindow,
    game: str,
    *,
    my_seat: int = 1,
    pace_ms: int = 0,
    seats: int | None = None,
) -> GameSession:
    """Start a local game of ``game`` against bots from the start screen, as a player does:
    choose the game, the seat and how long the bots wait, click *Play against bots*."""
    start = window.start
    start.local_game.setCurrentIndex(start.local_game.findData(game))
    if seats is not None:
        start.local_seats.setValue(seats)
    start.local_my_seat.setValue(my_seat)
    start.local_pace.setValue(pace_ms)
    qtbot.mouseClick(start.local_play, Qt.MouseButton.LeftButton)
    assert window.stack.currentWidget() is window.table, start.message.text()
    assert window.session is not None
    return window.session


def type_text(widget: Any, text: str) -> None:
    """Type ``text`` as key events carrying it (qtbot.keyClicks dies on accents offscreen)."""
    for char in text:
        press = QKeyEvent(QEvent.Type.KeyPress, 0, Qt.KeyboardModifier.NoModifier, char)
        QApplication.sendEvent(widget, press)


def click(qtbot: Any, widget: Any) -> None:
    qtbot.mouseClick(widget, Qt.MouseButton.LeftButton)


def click_move(qtbot: Any, board: Board, wire: list[int]) -> None:
    """Build ``wire`` on the Consensus board the way a player does: one click per choice."""
    for choice in wire:
        if choice == NO_KILL:
            qtbot.mouseClick(board.no_kill, Qt.MouseButton.LeftButton)
        else:
            point = board.canvas.square_center(choice)
            qtbot.mouseClick(board.canvas, Qt.MouseButton.LeftButton, pos=point)


def greedy_choice(rng: random.Random, state: Any) -> Any:
    """A player who likes a centre action, else a kill, else anything."""
    moves = ENGINE.legal_moves(state)
    for mark in (">", "x"):
        best = [move for move in moves if mark in ENGINE.format_move(state, move)]
        if best:
            return best[rng.randrange(len(best))]
    return moves[rng.randrange(len(moves))]


class Greedy:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, engine: Any, state: Any) -> Any:
        return greedy_choice(self.rng, state)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Relay:
    """A TCP relay on loopback in front of ``port``, whose traffic can be held.

    While ``hold`` is set nothing crosses in either direction (the bytes wait in the
    sockets), as when a player's Wi-Fi stalls; ``release`` lets everything through."""

    def __init__(self, port: int) -> None:
        self.target = port
        self.port = 0
        self.open = trio.Event()
        self.open.set()

    def hold(self) -> None:
        self.open = trio.Event()

    def release(self) -> None:
        self.open.set()

    async def serve(self, *, task_status: Any = trio.TASK_STATUS_IGNORED) -> None:
        listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
        self.port = int(listeners[0].socket.getsockname()[1])
        task_status.started()
        await trio.serve_listeners(self._handle, listeners)

    async def _handle(self, incoming: trio.SocketStream) -> None:
        async with incoming:  # closed even when the target cannot be reached
            outgoing = await trio.open_tcp_stream("127.0.0.1", self.target)
            async with outgoing, trio.open_nursery() as nursery:
                nursery.start_soon(self._pump, incoming, outgoing, nursery.cancel_scope)
                nursery.start_soon(self._pump, outgoing, incoming, nursery.cancel_scope)

    async def _pump(
        self, source: trio.SocketStream, sink: trio.SocketStream, scope: trio.CancelScope
    ) -> None:
        try:
            while data := await source.receive_some(65536):
                await self.open.wait()
                await sink.send_all(data)
        except trio.BrokenResourceError:
            pass
        scope.cancel()
