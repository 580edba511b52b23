"""Picture a networked Consensus table: the lobby, then the game, through a real window.

    xvfb-run -a python scripts/screenshot_network.py [--out docs/img/consensus-network.png]

Ana hosts a Consensus table from the start screen of a real window (an X display: Xvfb
without a screen; ``QT_QPA_PLATFORM=offscreen`` works too).  Three ``palabre join --bot
--headless`` processes take the other seats over loopback TCP; the lobby (names,
fingerprints, ready marks, the invite) is grabbed; Ana starts the game and plays it by
clicking her board (a seeded player stands in for her choices) until a position on her turn
with a few corpses on the board and her pieces' destinations shown; a chat line is sent, and
the table is grabbed.  Both grabs are saved side by side in one PNG.

The bots wait ``--bot-delay`` before each move so the game can be followed on screen.  The
same seed gives the same game (the bots are seeded, Ana's stand-in too).
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("PALABRE_HOME", tempfile.mkdtemp(prefix="palabre-net-shot-"))

import qtrio  # noqa: E402
import trio  # noqa: E402
from PySide6.QtCore import QPoint, Qt  # noqa: E402
from PySide6.QtGui import QColor, QImage, QPainter  # noqa: E402
from PySide6.QtTest import QTest  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from client.commands.launcher import Launcher  # noqa: E402
from client.profile.settings import SettingsStore  # noqa: E402
from engines.consensus import ENGINE, NO_KILL  # noqa: E402
from engines.consensus_board import DEAD  # noqa: E402
from ui.app import MainWindow  # noqa: E402
from ui.boards.consensus import Board  # noqa: E402

BOTS = ("Bruno", "Chloé", "Dmitri")
PALABRE = (sys.executable, "-m", "client")
BOT = ("--bot", "--headless", "--name")
GAP = 16


async def until(predicate: Any, timeout: float = 60.0) -> None:
    with trio.fail_after(timeout):
        while not predicate():
            await trio.sleep(0.01)


def click(widget: Any, point: QPoint | None = None) -> None:
    if point is None:
        QTest.mouseClick(widget, Qt.MouseButton.LeftButton)
    else:
        QTest.mouseClick(widget, Qt.MouseButton.LeftButton, pos=point)


def type_text(widget: Any, text: str) -> None:
    widget.setFocus()
    widget.insert(text)


def click_move(board: Board, wire: list[int]) -> None:
    for choice in wire:
        if choice == NO_KILL:
            click(board.no_kill)
        else:
            click(board.canvas, board.canvas.square_center(choice))


def interesting(state: Any) -> bool:
    return sum(1 for code in state.board if code & DEAD) >= 3


async def shoot(out: Path, port: int, seed: int, bot_delay: int) -> None:
    async with trio.open_nursery() as nursery:
        window = MainWindow(nursery, Launcher(profile="ana"), SettingsStore("ana"))
        window.resize(940, 560)
        window.show()
        start = window.start
        start.name.setText("Ana")
        start.name.editingFinished.emit()
        start.host_game.setCurrentIndex(start.host_game.findData("consensus"))
        start.host_port.setValue(port)
        click(start.host_button)
        lobby = window.lobby
        await until(lambda: lobby.invite.text().startswith("palabre://"))
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        pace = ("--bot-delay", str(bot_delay), "--seed", str(seed))
        bots = [
            subprocess.Popen(
                [*PALABRE, "--profile", f"bot{n}", "join", f"127.0.0.1:{port}", *BOT, name, *pace],
                cwd=ROOT,
                env=env,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            for n, name in enumerate(BOTS, 2)
        ]
        try:
            await until(lambda: lobby.seats.rowCount() == 4 and all_ready(lobby, 3))
            click(lobby.copy_invite)
            await trio.sleep(0.3)
            lobby_shot = window.grab().toImage()

            click(lobby.ready)
            await until(lobby.start.isEnabled)
            click(lobby.start)
            await until(lambda: window.stack.currentWidget() is window.table)
            window.resize(1400, 900)
            await play(window, random.Random(seed))
            table_shot = window.grab().toImage()
        finally:
            for bot in bots:
                bot.kill()
                bot.wait()
        save_side_by_side(out, lobby_shot, table_shot)
        print(f"wrote {out} ({QApplication.platformName()} platform, seed {seed})")
        window.close()
        nursery.cancel_scope.cancel()


def all_ready(lobby: Any, count: int) -> bool:
    marks = [lobby.seats.item(row, 4) for row in range(lobby.seats.rowCount())]
    return sum(1 for mark in marks if mark is not None and mark.text() == "✓") >= count


async def play(window: MainWindow, rng: random.Random) -> None:
    """Ana's turns by clicks until an interesting position on her turn."""
    session = window.session
    board = window.table.board
    assert session is not None and isinstance(board, Board)
    played_at = [-1]

    def my_turn_or_over() -> bool:
        snapshot = session.snapshot
        return snapshot.outcome is not None or (snapshot.my_turn and snapshot.ply != played_at[0])

    while True:
        await until(my_turn_or_over)
        snapshot = session.snapshot
        if snapshot.outcome is not None:
            raise SystemExit("the game ended before an interesting position: try another --seed")
        state = snapshot.state
        if interesting(state) and snapshot.ply >= 12:
            break
        played_at[0] = snapshot.ply
        moves = ENGINE.legal_moves(state)
        click_move(board, ENGINE.move_to_wire(moves[rng.randrange(len(moves))]))
    chat = window.table.chat
    type_text(chat.field, "Whoever takes e5 next has all of us against them.")
    click(chat.button)
    state = session.snapshot.state
    piece = max(ENGINE.movable_pieces(state), key=lambda sq: len(ENGINE.destinations(state, sq)))
    click(board.canvas, board.canvas.square_center(piece))
    await trio.sleep(0.4)


def save_side_by_side(out: Path, left: QImage, right: QImage) -> None:
    width = left.width() + GAP + right.width()
    height = max(left.height(), right.height())
    image = QImage(width, height, QImage.Format.Format_RGB32)
    image.fill(QColor("#d0d0d0"))
    painter = QPainter(image)
    painter.drawImage(0, 0, left)
    painter.drawImage(left.width() + GAP, 0, right)
    painter.end()
    out.parent.mkdir(parents=True, exist_ok=True)
    if not image.save(str(out)):
        raise SystemExit(f"could not write {out}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "img" / "consensus-network.png")
    parser.add_argument("--port", type=int, default=0, help="default: a free one")
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--bot-delay", type=int, default=600, metavar="MS")
    args = parser.parse_args()
    if not (os.environ.get("DISPLAY") or os.environ.get("QT_QPA_PLATFORM")):
        print("no display: run it under xvfb-run -a (or set QT_QPA_PLATFORM)", file=sys.stderr)
        return 2
    port = args.port or free_port()
    qtrio.run(shoot, args.out, port, args.seed, args.bot_delay)
    return 0


def free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


if __name__ == "__main__":
    sys.exit(main())
