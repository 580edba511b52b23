"""Networked tables through real windows: several MainWindows in one trio run (qtrio), real
TCP on loopback, every action a click or typed text on the real widgets.

Two players host and join from their start screens, fill the lobby with bots, chat, and play
a whole 4-player Consensus game by clicking their boards; the move list marks a ply final
only once every peer acked it; a peer whose engine disagrees halts the table and the banner
names it with the evidence file.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import qtrio
import trio

from client.logs.log_show import game_lines
from client.logs.verifier import verify_file
from client.node.joining import JoinConfig
from client.node.peer_node import NodeConfig
from client.rules.seat_words import with_seat_names
from client.runtime.peer import Peer
from client.sessions.net_session import NetSession
from engines import find_engine
from engines.consensus import ENGINE
from net.identity import load_profile_identity
from net.invite import Invite, parse_invite
from tests.e2e.faulty_peer import PatchedEngine
from tests.ui.windows import (
    Greedy,
    Relay,
    click,
    click_move,
    free_port,
    open_window,
    type_text,
    until,
)
from ui.app import MainWindow
from ui.boards.consensus import Board

pytestmark = [pytest.mark.gui, pytest.mark.filterwarnings("error")]
qt_trio = pytest.mark.trio(run=qtrio.run)
PALABRE = (sys.executable, "-m", "client")
BOT = ("--bot", "--headless", "--bot-delay", "0")


def host_from_the_window(qtbot: Any, window: MainWindow, bots: int) -> None:
    start = window.start
    start.host_game.setCurrentIndex(start.host_game.findData("consensus"))
    start.host_bots.setValue(bots)
    start.host_port.setValue(free_port())
    click(qtbot, start.host_button)
    assert window.stack.currentWidget() is window.lobby, start.message.text()


async def loopback_invite(window: MainWindow, port: int | None = None) -> str:
    """The invite the host's lobby shows, for this machine's loopback (and ``port``)."""
    await until(lambda: window.lobby.invite.text().startswith("palabre://"))
    invite = parse_invite(window.lobby.invite.text())
    return str(Invite(("127.0.0.1",), port or invite.port, invite.table_id, invite.fingerprint))


def join_from_the_window(qtbot: Any, window: MainWindow, invite: str) -> None:
    type_text(window.start.join_target, invite)
    click(qtbot, window.start.join_button)
    assert window.stack.currentWidget() is window.lobby, window.start.message.text()


def lobby_rows(window: MainWindow) -> list[list[str]]:
    seats = window.lobby.seats
    return [
        [seats.item(row, column).text() if seats.item(row, column) else "" for column in range(5)]
        for row in range(seats.rowCount())
    ]


def session_of(window: MainWindow) -> NetSession:
    session = window.session
    assert isinstance(session, NetSession)
    return session


async def play_by_clicks(qtbot: Any, window: MainWindow, seed: int) -> list[str]:
    """Play this window's seat by clicking its board until the game ends; what it played."""
    session = session_of(window)
    board = window.table.board
    assert isinstance(board, Board)
    player = Greedy(seed)
    played: list[str] = []
    clicked_at = -1

    def my_move_or_over() -> bool:
        snapshot = session.snapshot
        if snapshot.outcome is not None or snapshot.halted is not None:
            return True
        return snapshot.my_turn and snapshot.ply != clicked_at and board.interactive

    while True:
        await until(my_move_or_over)
        snapshot = session.snapshot
        if snapshot.outcome is not None or snapshot.halted is not None:
            return played
        clicked_at = snapshot.ply
        wire = ENGINE.move_to_wire(player.choose(ENGINE, snapshot.state))
        click_move(qtbot, board, wire)
        mine = session.snapshot.plies[clicked_at]  # a bot may have answered at once
        assert (mine.ply, mine.wire) == (clicked_at + 1, tuple(wire)), window.table.error.text()
        played.append(mine.notation)


async def both_ready_and_started(qtbot: Any, ana: MainWindow, bea: MainWindow) -> NetSession:
    """Bea (seated) and Ana (the host) click ready, Ana starts; Ana's session once she can
    move (every peer confirmed the start)."""
    await until(bea.lobby.ready.isEnabled)  # Bea is seated
    click(qtbot, bea.lobby.ready)
    click(qtbot, ana.lobby.ready)
    await until(ana.lobby.start.isEnabled)
    click(qtbot, ana.lobby.start)
    await until(lambda: bea.stack.currentWidget() is bea.table)
    session = session_of(ana)
    await until(lambda: session.snapshot.my_turn)
    return session


def marks(window: MainWindow) -> list[str]:
    moves = window.table.moves
    return [moves.item(row).text().rsplit(" ", 1)[-1] for row in range(moves.count())]


@qt_trio
async def test_two_windows_fill_a_table_chat_and_play_consensus_by_clicks(qtbot: Any) -> None:
    async with (
        open_window(qtbot, "ana", name="Ana", bot_delay=0, activate=False) as ana,
        open_window(qtbot, "bea", name="Bea", bot_delay=0, activate=False) as bea,
    ):
        assert ana.start.fingerprint.text() == (
            f"Your fingerprint: {load_profile_identity('ana').fingerprint}"
        )
        host_from_the_window(qtbot, ana, bots=1)
        invite = await loopback_invite(ana)
        join_from_the_window(qtbot, bea, invite)
        await until(lambda: len(lobby_rows(bea)) == 4 and "Bea (you)" in lobby_rows(bea)[2][1])
        assert bea.lobby.title.text() == "Ana's table: Consensus — 4 seats"
        assert not bea.lobby.start.isVisible()  # only the host starts the game
        click(qtbot, bea.lobby.add_bot)  # Bea's palabre runs the bot of seat 4
        await until(lambda: lobby_rows(ana)[3][1] == "Bot 4 of Bea (normal)")
        click(qtbot, bea.lobby.ready)
        bea_key = load_profile_identity("bea").fingerprint
        await until(lambda: lobby_rows(ana)[2][4] == "✓")
        rows = lobby_rows(ana)
        names = ["Ana", "Bot 2 of Ana (normal)", "Bea", "Bot 4 of Bea (normal)"]
        assert [row[1] for row in rows] == ["Ana (you)", *names[1:]]  # a bot is never "you"
        assert [row[3] for row in rows] == ["person", "bot", "person", "bot"]
        assert [row[4] for row in rows] == ["", "", "✓", "✓"]  # Ana's bot waits for Ana
        assert rows[2][2] == bea_key[:9] + "…"
        assert not ana.lobby.start.isEnabled()
        click(qtbot, ana.lobby.ready)
        await until(ana.lobby.start.isEnabled)
        click(qtbot, ana.lobby.start)
        await until(lambda: ana.stack.currentWidget() is ana.table)
        await until(lambda: bea.stack.currentWidget() is bea.table)
        recent = bea.store.settings.recent
        assert (recent[0].address, recent[0].game, recent[0].label) == (invite, "consensus", "Ana")

        # The chat, both ways, accents and all.
        type_text(ana.table.chat.field, "À toi de jouer, Bea !")
        click(qtbot, ana.table.chat.button)
        lines = bea.table.chat.lines
        await until(lambda: lines.count() > 0 and "À toi" in lines.item(lines.count() - 1).text())
        assert lines.item(lines.count() - 1).text() == "Ana: À toi de jouer, Bea !"
        type_text(bea.table.chat.field, "Ça vient.")
        click(qtbot, bea.table.chat.button)
        ana_lines = ana.table.chat.lines
        await until(lambda: ana_lines.item(ana_lines.count() - 1).text() == "Bea: Ça vient.")

        players = ana.table.players
        assert players.item(0).text().startswith("▶ ") and "Ana (you)" in players.item(0).text()
        assert [players.item(row).text().lstrip("▶ ") for row in range(4)] == [
            "Ana (you)",
            *names[1:],
        ]
        assert session_of(bea).snapshot.my_seat == 3

        async with trio.open_nursery() as nursery:
            played: dict[str, list[str]] = {}

            async def play(window: MainWindow, seed: int) -> None:
                played[window.store.settings.name] = await play_by_clicks(qtbot, window, seed)

            nursery.start_soon(play, ana, 1)
            nursery.start_soon(play, bea, 2)

        assert played["Ana"] and played["Bea"]
        for window in (ana, bea):
            snapshot = session_of(window).snapshot
            assert snapshot.outcome is not None
            plies = snapshot.ply
            await until(lambda w=window, n=plies: session_of(w).snapshot.final_ply == n)
            await until(lambda w=window: set(marks(w)) == {"✓"})
            assert window.table.banner.isVisible()
            said = with_seat_names(snapshot.outcome.summary, snapshot.seat_name)
            assert said in window.table.banner.text()
            status = window.table.details.text()
            assert f"Ply {snapshot.ply}/{snapshot.ply} final" in status and "2 peers" in status
        assert session_of(ana).snapshot.digest == session_of(bea).snapshot.digest
        assert [p.notation for p in session_of(ana).snapshot.plies] == [
            p.notation for p in session_of(bea).snapshot.plies
        ]
        # The same names in the replay of Ana's game file and in `palabre log show`.
        game_file = session_of(ana).peer.file
        assert game_file is not None
        ana.replay.open_file(game_file.path)
        await until(lambda: ana.replay.players.count() == 4)
        shown = [ana.replay.players.item(row).text() for row in range(4)]
        assert shown == [f"Seat {seat}: {name}" for seat, name in enumerate(names, 1)]
        verification = verify_file(game_file.path)
        assert [p.name for p in verification.report.players] == names
        log = "\n".join(game_lines(verification))
        assert "Bot 2 of Ana (normal)" in log and "Bot 4 of Bea (normal)" in log


@qt_trio
async def test_a_ply_is_marked_final_only_once_every_peer_acked_it(qtbot: Any) -> None:
    """Bea's link is held: Ana's move stays pending (…) until Bea's ack crosses."""
    async with (
        open_window(qtbot, "ana", name="Ana", bot_delay=0, activate=False) as ana,
        open_window(qtbot, "bea", name="Bea", bot_delay=0, activate=False) as bea,
        trio.open_nursery() as nursery,
    ):
        host_from_the_window(qtbot, ana, bots=2)
        relay = Relay(ana.start.host_port.value())
        await nursery.start(relay.serve)
        join_from_the_window(qtbot, bea, await loopback_invite(ana, relay.port))
        session = await both_ready_and_started(qtbot, ana, bea)
        assert not session.snapshot.starting and session.peer.table.final_ply == 0

        relay.hold()
        board = ana.table.board
        assert isinstance(board, Board)
        state = session.snapshot.state
        click_move(qtbot, board, ENGINE.move_to_wire(ENGINE.legal_moves(state)[0]))
        await until(lambda: session.snapshot.ply >= 3)  # Ana's two bots answered at once
        await trio.sleep(0.3)
        assert session.snapshot.final_ply == 0
        assert marks(ana)[:3] == ["…", "…", "…"]
        assert "Ply 0/3 final" in ana.table.details.text()
        assert session_of(bea).snapshot.ply == 0  # nothing reached Bea yet

        relay.release()
        await until(lambda: marks(ana)[:3] == ["✓", "✓", "✓"])
        await until(lambda: marks(bea)[:3] == ["✓", "✓", "✓"])
        assert "Ply 3/3 final" in ana.table.details.text()
        nursery.cancel_scope.cancel()


@qt_trio
async def test_a_peer_whose_engine_disagrees_halts_the_table_with_a_banner(
    qtbot: Any, tmp_path: Path
) -> None:
    async with (
        open_window(qtbot, "ana", name="Ana", bot_delay=0, activate=False) as ana,
        trio.open_nursery() as nursery,
    ):
        host_from_the_window(qtbot, ana, bots=1)
        invite = parse_invite(await loopback_invite(ana))
        rogue_engine: Callable[[str], Any] = lambda name: PatchedEngine(  # noqa: E731
            find_engine(name), None, 2
        )
        guests = [
            Peer(
                load_profile_identity("cleo"),
                JoinConfig(invite, "Cléo"),
                NodeConfig(bot_me=True, bot_delay=0, profile="cleo"),
            ),
            Peer(
                load_profile_identity("rogue"),
                JoinConfig(invite, "Rogue"),
                NodeConfig(bot_me=True, bot_delay=0, profile="rogue", engine_for=rogue_engine),
            ),
        ]
        for guest in guests:
            nursery.start_soon(guest.run)
        await until(lambda: {"Cléo", "Rogue"} <= {row[1] for row in lobby_rows(ana)})
        click(qtbot, ana.lobby.ready)
        await until(ana.lobby.start.isEnabled)
        click(qtbot, ana.lobby.start)
        await until(lambda: ana.stack.currentWidget() is ana.table)
        await play_by_clicks(qtbot, ana, 3)  # until the table halts

        table = ana.table
        halted = session_of(ana).snapshot.halted
        assert halted is not None and halted.ply == 2
        # The verdict grows as the peers' claims arrive: first alone, then a majority.
        await until(lambda: "(Rogue) disagrees with the others" in table.divergence.text())
        await until(lambda: "Evidence: /" in table.divergence.text())
        text = table.divergence.text()
        assert table.divergence.isVisible() and text.startswith("The table halted at ply 2: peer ")
        assert "(Rogue) disagrees with the majority (2 of 3 peers) on ply 2" in text
        evidence = Path(text.rsplit("Evidence: ", 1)[1])
        assert evidence.is_file() and evidence.name.endswith(".halt.json")
        session = session_of(ana)
        assert session.peer.table is not None
        agreed = session.peer.table.chain.at(1).engine_state
        assert session.snapshot.state == agreed  # the board stays on the last agreed position
        assert marks(ana)[:2] == ["✓", "…"] and set(marks(ana)[1:]) == {"…"}
        board = table.board
        assert isinstance(board, Board) and not board.interactive
        assert table.status.text().startswith("Halted.")
        nursery.cancel_scope.cancel()


async def palabre(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    """Run ``palabre ARGS…`` to its end in a thread (the window's loop goes on meanwhile)."""
    command = [*PALABRE, *args]
    return await trio.to_thread.run_sync(
        lambda: subprocess.run(command, env=env, capture_output=True, text=True, timeout=60)
    )


@qt_trio
async def test_a_host_window_plays_a_whole_game_against_three_bot_processes(
    qtbot: Any, palabre_home: Path
) -> None:
    """What the README promises: host from the window, three `palabre join --bot --headless`
    peers (separate processes) take the seats, and the game is played to its end; then a
    player joining again and a spectator joining the finished table get its verified result."""
    async with open_window(qtbot, "ana", name="Ana", bot_delay=0, activate=False) as ana:
        host_from_the_window(qtbot, ana, bots=0)
        invite = await loopback_invite(ana)
        env = {**os.environ, "PALABRE_HOME": str(palabre_home)}
        bots = [
            subprocess.Popen(
                [*PALABRE, "--profile", f"bot{n}", "join", invite, *BOT, "--name", f"Robot {n}"],
                env=env,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
            )
            for n in (2, 3, 4)
        ]
        try:
            await until(lambda: [row[4] for row in lobby_rows(ana)] == ["", "✓", "✓", "✓"])
            # each joiner's palabre plays its seat by a bot (--bot): the lobby says so
            rows = lobby_rows(ana)[1:]
            assert [row[3] for row in rows] == ["bot", "bot", "bot"]
            names = sorted(re.sub(r"^Bot \d of (.+) \(normal\)$", r"\1", row[1]) for row in rows)
            assert names == ["Robot 2", "Robot 3", "Robot 4"]  # in the order they came
            click(qtbot, ana.lobby.ready)
            click(qtbot, ana.lobby.start)
            await until(lambda: ana.stack.currentWidget() is ana.table)
            assert await play_by_clicks(qtbot, ana, 4)
            snapshot = session_of(ana).snapshot
            assert snapshot.outcome is not None and snapshot.peers == 4
            await until(lambda: set(marks(ana)) == {"✓"})
            assert ana.table.banner.isVisible()
            outputs = [await trio.to_thread.run_sync(bot.communicate, None, 20) for bot in bots]
            for bot, (output, _) in zip(bots, outputs, strict=True):
                assert bot.returncode == 0, output
                assert f"{snapshot.ply} plies, {snapshot.ply} final here" in output
            # the game is over and Ana's window still holds the table: a player who joins
            # again and a spectator who comes now are each given the verified result
            [result] = re.findall(r"^Result: .*$", outputs[0][0], re.M)
            [chain] = re.findall(r"^chain: .*$", outputs[0][0], re.M)
            address = f"127.0.0.1:{parse_invite(invite).port}"
            again = await palabre(env, "--profile", "bot2", "join", address, *BOT)
            watch = await palabre(env, "--profile", "eve", "join", address, "--watch", "--headless")
            for late in (again, watch):
                assert late.returncode == 0, late.stdout + late.stderr
                assert re.findall(r"^(?:Result|chain): .*$", late.stdout, re.M) == [result, chain]
            took_up = rf"^Rejoined: took the table up again from .* \(at ply {snapshot.ply}\)$"
            assert re.search(took_up, again.stdout, re.M), again.stdout
            assert "your seats: none (watching)" in watch.stdout
            [path] = (palabre_home / "profiles" / "eve" / "games").glob("*.palabre-log")
            checked = await palabre(env, "verify", str(path))
            assert checked.returncode == 0, checked.stdout
        finally:
            for bot in bots:
                if bot.poll() is None:
                    bot.kill()
                    bot.wait()
                if bot.stdout is not None:
                    bot.stdout.close()  # not read to its end when the test failed early


@qt_trio
async def test_leaving_mid_game_asks_first_then_the_table_of_two_ends_at_once(qtbot: Any) -> None:
    """*Leave table* mid-game asks first (Stay keeps the player at the table); Leave tells
    the other peer, whose table of two ends as abandoned at once — not after the away
    timeout (60 s) — and says who left."""
    async with (
        open_window(qtbot, "ana", name="Ana", bot_delay=0, activate=False) as ana,
        open_window(qtbot, "bea", name="Bea", bot_delay=0, activate=False) as bea,
    ):
        host_from_the_window(qtbot, ana, bots=2)
        join_from_the_window(qtbot, bea, await loopback_invite(ana))
        session = await both_ready_and_started(qtbot, ana, bea)

        click(qtbot, bea.table.leave_button)
        assert bea.table.leave_confirm.isVisible() and bea.stack.currentWidget() is bea.table
        click(qtbot, bea.table.leave_no)  # Stay
        assert not bea.table.leave_confirm.isVisible() and bea.stack.currentWidget() is bea.table
        click(qtbot, bea.table.leave_button)
        click(qtbot, bea.table.leave_yes)
        assert bea.stack.currentWidget() is bea.start
        left_at = trio.current_time()
        await until(lambda: session.snapshot.outcome is not None, timeout=30)
        assert trio.current_time() - left_at < 30  # the away timeout is 60 s
        assert session.snapshot.outcome is not None
        assert session.snapshot.outcome.reason == "abandoned"
        assert "Bea left the table." in [entry.text for entry in session.snapshot.chat]
        # The ending on Ana's screen says Bea left, not that she stayed away (it did).
        await until(lambda: "left the table" in ana.table.banner.text())
        assert "stayed away" not in ana.table.banner.text() + ana.table.summary.headline.text()


@qt_trio
async def test_a_player_who_left_joins_again_and_finds_the_table_ended(qtbot: Any) -> None:
    """A leave is final: Bea leaves mid-game, Ana's table of two ends as abandoned at once,
    and Bea, joining the same table again from her start screen with the same profile, is
    shown that ended game; she does not play it again."""
    async with (
        open_window(qtbot, "ana", name="Ana", bot_delay=0, activate=False) as ana,
        open_window(qtbot, "bea", name="Bea", bot_delay=0, activate=False) as bea,
    ):
        host_from_the_window(qtbot, ana, bots=2)
        invite = await loopback_invite(ana)
        join_from_the_window(qtbot, bea, invite)
        session = await both_ready_and_started(qtbot, ana, bea)

        click(qtbot, bea.table.leave_button)
        click(qtbot, bea.table.leave_yes)  # mid-game, leaving is asked first
        await until(lambda: session.snapshot.outcome is not None, timeout=30)

        bea.start.join_target.clear()
        join_from_the_window(qtbot, bea, invite)
        await until(lambda: bea.stack.currentWidget() is bea.table, timeout=40)
        again = session_of(bea)
        await until(lambda: again.snapshot.outcome is not None, timeout=40)
        assert again.snapshot.outcome is not None
        assert again.snapshot.outcome.reason == "abandoned"
