"""Every way a table ends reaches the table screen as an ending (issue 21, "Leaving, crashing
and coming back"): a real window at a table with a real second peer (a `palabre host
--headless` process) over loopback.

When that other peer crashes or quits, the window's peer ends the 2-peer table as abandoned
after the away timeout (5 s here, the shortest the table accepts); the screen then says so in
words (a banner with the result and the reason), the status line stops naming a player to
move, and the board and the game buttons stop taking input.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import qtrio
import trio

from client.sessions.net_session import NetSession
from engines.consensus import ENGINE
from tests.ui.windows import click, click_move, free_port, open_window, type_text, until
from ui.app import MainWindow
from ui.boards.consensus import Board as ConsensusBoard
from ui.i18n import install_language

pytestmark = [pytest.mark.gui, pytest.mark.filterwarnings("error")]
qt_trio = pytest.mark.trio(run=qtrio.run)
PALABRE = (sys.executable, "-m", "client")
SHOTS = os.environ.get("PALABRE_SHOTS")
"""A folder to save screenshots of the ended table in (for the docs), when set."""


def session_of(window: MainWindow) -> NetSession:
    session = window.session
    assert isinstance(session, NetSession)
    return session


def headless_host(
    home: Path, port: int, *options: str, bot_delay: str = "0"
) -> subprocess.Popen[str]:
    """A second peer in its own process: hosts Consensus with two bots of its own (unless
    ``options`` say otherwise), plays its seat by bot, away timeout 5 s."""
    command = [
        *PALABRE,
        *("--profile", "host", "host", "--game", "consensus", *(options or ("--bots", "2"))),
        *("--port", str(port), "--away-timeout", "5", "--no-announce"),
        *("--bot", "--headless", "--bot-delay", bot_delay, "--name", "Hugo"),
    ]
    env = {**os.environ, "PALABRE_HOME": str(home), "PALABRE_MDNS": "off"}
    return subprocess.Popen(
        command, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, text=True
    )


async def accepting(port: int) -> None:
    """Until the host process listens on ``port``."""
    with trio.fail_after(30):
        while True:
            try:
                stream = await trio.open_tcp_stream("127.0.0.1", port)
            except OSError:
                await trio.sleep(0.05)
                continue
            await stream.aclose()
            return


@pytest.mark.parametrize("leaves", ["crashes", "quits"])
@qt_trio
async def test_a_table_abandoned_when_the_other_peer_goes_ends_on_screen(
    qtbot: Any, palabre_home: Path, leaves: str
) -> None:
    """The other peer crashes (killed) or quits (Ctrl-C in its terminal: its links close
    cleanly, as *Leave table* closes them)."""
    port = free_port()
    host = headless_host(palabre_home, port)
    try:
        await accepting(port)
        async with open_window(qtbot, "ana", name="Ana", bot_delay=0, activate=False) as ana:
            type_text(ana.start.join_target, f"127.0.0.1:{port}")
            click(qtbot, ana.start.join_button)
            assert ana.stack.currentWidget() is ana.lobby, ana.start.message.text()
            await until(ana.lobby.ready.isEnabled)
            click(qtbot, ana.lobby.ready)
            await until(lambda: ana.stack.currentWidget() is ana.table)
            session = session_of(ana)
            await until(lambda: session.snapshot.final_ply >= 0 and session.snapshot.ply >= 1)
            table = ana.table

            if leaves == "crashes":
                host.kill()
            else:
                host.send_signal(signal.SIGINT)
            await trio.to_thread.run_sync(host.wait)
            peer_table = session.peer.table
            assert peer_table is not None
            await until(lambda: peer_table.abandoned is not None, timeout=60)
            await until(table.banner.isVisible, timeout=5)

            banner = table.banner.text()
            why = "stayed away" if leaves == "crashes" else "left the table"  # Ctrl-C: a LEAVE
            assert banner == f"Game over — no winner. The table was abandoned: Hugo {why}."
            assert table.status.text().startswith("Game over."), table.status.text()
            assert "to move" not in table.status.text() and "Your move" not in table.status.text()
            board = table.board
            assert board is not None and not board.interactive
            for button in (table.resign_button, table.offer_button, table.takeback_button):
                assert not button.isEnabled(), button.text()
            snapshot = session.snapshot
            assert snapshot.outcome is not None and snapshot.outcome.reason == "abandoned"
            assert not snapshot.my_turn
            summary = table.summary  # the same summary as every ending
            assert summary.isVisible() and summary.headline.text() == banner
            # Hugo's palabre plays his seat by a bot (--bot): the standings name it so
            assert "<b>Bot 1 of Hugo (normal)</b>: no result" in summary.standings.text()
            assert summary.facts.text().startswith(f"{snapshot.ply} plies · ")
            if SHOTS:
                Path(SHOTS).mkdir(parents=True, exist_ok=True)
                ana.grab().save(str(Path(SHOTS) / f"abandoned-table-{leaves}.png"))

            install_language("fr")  # the same ending, in the player's words
            table.refresh()
            assert "abandonnée" in table.banner.text() and "Hugo" in table.banner.text()
            assert table.status.text().startswith("Partie terminée."), table.status.text()
            assert "pas de résultat" in summary.standings.text()
            install_language("en")

            assert summary.replay_button.isEnabled()  # the table's game file, replayed
            click(qtbot, summary.replay_button)
            assert ana.stack.currentWidget() is ana.replay
            await until(lambda: ana.replay.replay is not None, timeout=30)
            assert ana.replay.replay is not None and ana.replay.replay.plies == snapshot.ply
    finally:
        if host.poll() is None:
            host.kill()
            host.wait()


@qt_trio
async def test_a_player_voted_off_for_never_moving_is_told_on_screen(
    qtbot: Any, palabre_home: Path
) -> None:
    """A three-peer table (a headless host and a headless joiner, bots both, idle timeout
    3 s, bots at their usual pace): Ana's window never plays her turn; the others vote her
    off and a bot takes her seat.  Her table screen says so in a banner and offers no move
    any more."""
    port = free_port()
    host = headless_host(palabre_home, port, "--bots", "1", "--idle-timeout", "3", bot_delay="300")
    env = {**os.environ, "PALABRE_HOME": str(palabre_home), "PALABRE_MDNS": "off"}
    jo = ("--profile", "jo", "join", f"127.0.0.1:{port}", "--name", "Jo")
    procs = [host]
    try:
        await accepting(port)
        procs.append(
            subprocess.Popen(
                [*PALABRE, *jo, "--bot", "--headless", "--bot-delay", "300"],
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                text=True,
            )
        )
        async with open_window(qtbot, "ana", name="Ana", bot_delay=0, activate=False) as ana:
            type_text(ana.start.join_target, f"127.0.0.1:{port}")
            click(qtbot, ana.start.join_button)
            await until(ana.lobby.ready.isEnabled)
            click(qtbot, ana.lobby.ready)
            await until(lambda: ana.stack.currentWidget() is ana.table)
            session = session_of(ana)
            table = ana.table
            await until(lambda: session.snapshot.my_turn)  # she plays her first turn ...
            board = table.board
            assert isinstance(board, ConsensusBoard)
            state = session.snapshot.state
            click_move(qtbot, board, ENGINE.move_to_wire(ENGINE.legal_moves(state)[0]))
            mine = session.snapshot.ply
            await until(lambda: session.snapshot.my_turn and session.snapshot.ply > mine)
            # ... and never her second
            await until(lambda: session.snapshot.my_seat is None, timeout=60)
            await until(table.banner.isVisible, timeout=5)
            assert "voted off" in table.banner.text(), table.banner.text()
            lines = [table.chat.lines.item(row).text() for row in range(table.chat.lines.count())]
            assert any("votes to remove Ana;" in line for line in lines), lines
            assert not any("peer " in line for line in lines), lines  # names, not key labels
            # The removal in the move list and the line under the board: her name, not the
            # record's key label, bracketed seat numbers or a "seat 0" as its author.
            moves = [table.moves.item(row).text() for row in range(table.moves.count())]
            removal = [line for line in moves if "voted off" in line]
            assert len(removal) == 1 and "Ana voted off the table" in removal[0], moves
            # Her own ply stays hers: the bot that took her seat played none before it.
            (played,) = [line for line in moves if line.lstrip().startswith(f"{mine}. ")]
            assert "Ana" in played and "Bot" not in played, moves
            said = " ".join((*moves, *table.recent_line.parts))
            for word in ("peer ", "seat 0", "bots take seats", "["):
                assert word not in said, said
            board = table.board
            assert board is not None and not board.interactive
            for button in (table.resign_button, table.offer_button, table.takeback_button):
                assert not button.isEnabled(), button.text()
            if SHOTS:
                ana.grab().save(str(Path(SHOTS) / "voted-off.png"))
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()


@qt_trio
async def test_a_player_who_left_and_comes_back_to_watch_is_told_she_left(
    qtbot: Any, palabre_home: Path
) -> None:
    """Ana leaves mid-game (*Leave table*, confirmed): a bot takes her seat at once.  She
    joins the same table again from her window and watches: the banner says she left, not
    that she was voted off for being away or idle, and the game's end offers her no
    *Play again* (both seen in a real window)."""
    port = free_port()
    host = headless_host(palabre_home, port, "--bots", "1", "--rematch", bot_delay="100")
    env = {**os.environ, "PALABRE_HOME": str(palabre_home), "PALABRE_MDNS": "off"}
    jo = ("--profile", "jo", "join", f"127.0.0.1:{port}", "--name", "Jo")
    procs = [host]  # three peers: one leaving does not end the table
    try:
        await accepting(port)
        procs.append(
            subprocess.Popen(
                [*PALABRE, *jo, "--bot", "--headless", "--bot-delay", "100", "--rematch"],
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                text=True,
            )
        )
        async with open_window(qtbot, "ana", name="Ana", bot_delay=0, activate=False) as ana:
            type_text(ana.start.join_target, f"127.0.0.1:{port}")
            click(qtbot, ana.start.join_button)
            await until(ana.lobby.ready.isEnabled)
            click(qtbot, ana.lobby.ready)
            await until(lambda: ana.stack.currentWidget() is ana.table)
            first = session_of(ana)
            await until(lambda: first.snapshot.ply >= 1)
            table = ana.table
            click(qtbot, table.leave_button)
            assert table.leave_confirm.isVisible()  # mid-game, leaving is asked first
            click(qtbot, table.leave_yes)
            await until(lambda: ana.stack.currentWidget() is ana.start)
            await until(first.peer.done.is_set)

            ana.start.join_target.clear()
            type_text(ana.start.join_target, f"127.0.0.1:{port}")
            click(qtbot, ana.start.join_button)
            await until(lambda: ana.stack.currentWidget() is ana.table, timeout=30)
            again = session_of(ana)
            await until(lambda: again.snapshot.removed, timeout=30)
            await until(table.banner.isVisible, timeout=5)
            banner = table.banner.text()
            assert "You left this table" in banner, banner
            assert "voted off" not in banner and "away or idle" not in banner, banner
            # The game ends without her: a watcher has no seat to play again with.
            await until(lambda: again.snapshot.outcome is not None, timeout=90)
            await until(table.summary.isVisible, timeout=5)
            assert not table.rematch.isVisible() and not table.again_button.isVisible()
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
