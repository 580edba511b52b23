"""The replay screen on real game files: verified in a worker thread, stepped ply by ply on
the verifier's chain, pointing and chat in place, a tampered ply shown failing, exports; and
``palabre log export --apng``: one frame per ply plus the start, decoded back.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import qtrio
import trio
from PIL import Image, ImageSequence
from PySide6.QtCore import Qt
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication, QFileDialog

from client.logs.verifier import verify_file
from client.rules.net_adapter import open_envelope
from client.rules.records import CHAIN_KINDS
from client.sessions.replay import Replay
from tests.client.gamelogs import records_of, rewrite
from tests.client.test_replay import pointed_game
from ui.app import MainWindow
from ui.board_render import BoardRenderer, rgb_bytes
from ui.screens.replay import ReplayScreen

pytestmark = [pytest.mark.gui, pytest.mark.filterwarnings("error")]
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def game_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A Discorder game with marks at plies 2 and 3 and a chat line (7 plies)."""
    return pointed_game(tmp_path_factory.mktemp("pointed")).paths["B"]


def opened(qtbot: Any, path: Path) -> ReplayScreen:
    screen = ReplayScreen()
    qtbot.addWidget(screen)
    screen.resize(1200, 800)
    screen.show()
    screen.open_file(path)
    qtbot.waitUntil(lambda: screen.worker is None, timeout=30_000)
    return screen


def key(qtbot: Any, screen: ReplayScreen, which: Qt.Key) -> None:
    qtbot.keyClick(screen, which)


def test_the_screen_steps_through_the_verifiers_chain(qtbot: Any, game_file: Path) -> None:
    screen = opened(qtbot, game_file)
    replay, board = screen.replay, screen.board
    assert replay is not None and board is not None
    chain = verify_file(game_file).chain
    assert chain is not None
    assert screen.verdict.text().startswith("Valid and complete: 7 plies, every ply final")
    assert screen.slider.maximum() == 7 and screen.position.text() == "0/7"
    assert board.state is replay.frames[0].engine_state  # type: ignore[attr-defined]
    assert board.state == chain.at(0).engine_state  # type: ignore[attr-defined]
    seen = [0]
    for _ in range(7):
        qtbot.mouseClick(screen.next_button, Qt.MouseButton.LeftButton)
        seen.append(screen.ply)
        state = chain.at(screen.ply)
        assert board.state is replay.frames[screen.ply].engine_state  # type: ignore[attr-defined]
        assert engine_digest(replay, board.state) == state.engine_digest  # type: ignore[attr-defined]
    assert seen == list(range(8))
    assert not screen.next_button.isEnabled() and screen.position.text() == "7/7"
    key(qtbot, screen, Qt.Key.Key_Home)
    assert screen.ply == 0
    key(qtbot, screen, Qt.Key.Key_Right)
    key(qtbot, screen, Qt.Key.Key_Right)
    assert screen.ply == 2
    key(qtbot, screen, Qt.Key.Key_Left)
    assert screen.ply == 1
    key(qtbot, screen, Qt.Key.Key_End)
    assert screen.ply == 7
    screen.slider.setValue(3)
    assert screen.ply == 3 and screen.record.currentItem().text().startswith("  3. ")
    assert "resigns" in screen.record.item(screen.record.count() - 1).text()


def engine_digest(replay: Replay, state: Any) -> bytes:
    return replay.engine.digest(state)


def test_pointing_and_chat_are_shown_at_their_place(qtbot: Any, game_file: Path) -> None:
    screen = opened(qtbot, game_file)
    board = screen.board
    assert board is not None and board.pointing is not None
    screen.go_to(2)
    (marks,) = board.pointing.shown
    assert marks.marks.arrows == ((3, 17),) and marks.since == 0  # never fades
    assert "Pointing on this position: A." in screen.frame_text.text()
    screen.go_to(3)
    assert [m.marks.squares for m in board.pointing.shown] == [(5, 6)]
    screen.go_to(4)
    assert board.pointing.shown == ()
    texts = [screen.record.item(row).text() for row in range(screen.record.count())]
    chat = next(row for row, text in enumerate(texts) if "B: look at d4" in text)
    assert texts[chat - 1].startswith("  3. ")
    screen.record.itemClicked.emit(screen.record.item(chat))
    assert screen.ply == 3  # a chat line shows the position it was said on


def test_a_tampered_ply_is_shown_failing_at_its_ply(
    qtbot: Any, game_file: Path, tmp_path: Path
) -> None:
    records = records_of(game_file)
    (tmp_path / "again").mkdir()
    forged = pointed_game(tmp_path / "again")  # the same keys: its signers can forge
    chain = verify_file(game_file).chain
    assert chain is not None
    before = chain.at(1)
    occupied = before.engine_state.board.index(1)  # A's first tile: B may not play there
    illegal = forged.forger().sign(
        "B", "MOVE", {"ply": 2, "prev": before.chain_digest, "seat": 2, "move": [occupied]}
    )
    index = next(
        i
        for i, data in enumerate(records)
        if (r := open_envelope(data)).kind in CHAIN_KINDS and r.body["ply"] == 2
    )
    path = rewrite(
        tmp_path / "tampered.palabre-log", [*records[:index], illegal.envelope, *records[index:]]
    )
    screen = opened(qtbot, path)
    assert screen.replay is not None
    assert screen.verdict.text().startswith("Invalid: 7 plies")
    assert screen.problems.isVisibleTo(screen) and screen.problems.count() >= 1
    screen.problems.itemClicked.emit(screen.problems.item(0))
    assert screen.ply == 2
    assert "sent an illegal move for seat 2" in screen.frame_text.text()
    row = next(
        r for r in range(screen.record.count()) if screen.record.item(r).text().startswith("  2. ")
    )
    assert screen.record.item(row).text().endswith("✗")
    assert screen.record.item(row - 1).text().startswith("      ")  # the rejected record


def test_only_the_last_file_opened_is_shown(qtbot: Any, game_file: Path, tmp_path: Path) -> None:
    other = tmp_path / "other.palabre-log"
    other.write_bytes(b"not a log")
    screen = ReplayScreen()
    qtbot.addWidget(screen)
    screen.open_file(game_file)
    screen.open_file(other)  # before the first verification is done
    # both results delivered (waiting on the screen: a slot connected here, after the
    # worker started, could miss a verification quicker than this line)
    qtbot.waitUntil(lambda: screen.verifying == 0, timeout=30_000)
    assert screen.worker is None
    assert screen.replay is None and "cannot be replayed" in screen.verdict.text()
    screen.open_file(game_file)
    assert screen.worker is not None
    qtbot.mouseClick(screen.back_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: screen.verifying == 0, timeout=30_000)
    assert screen.replay is None and screen.worker is None


def test_a_file_that_is_no_game_says_so(qtbot: Any, tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("not a game")
    screen = opened(qtbot, path)
    assert screen.replay is None
    assert "cannot be replayed: " in screen.verdict.text()
    assert not screen.next_button.isEnabled()


def test_exports_from_the_screen(
    qtbot: Any, game_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    screen = opened(qtbot, game_file)
    replay = screen.replay
    assert replay is not None
    screen.go_to(2)
    # The file dialogs are Qt's: they answer what a person would pick, and show the choices.
    asked: list[str] = []
    answers: list[tuple[str, str]] = []

    def pick(parent: Any, caption: str, directory: str, choices: str) -> tuple[str, str]:
        asked.append(choices)
        return answers.pop(0)

    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(pick))
    out = tmp_path / "board.png"
    answers.append((str(out), "PNG pictures (*.png)"))
    qtbot.mouseClick(screen.image_button, Qt.MouseButton.LeftButton)
    picture = QImage(str(out))
    assert (picture.width(), picture.height()) == (800, 800)
    renderer = BoardRenderer(replay.engine, 800)
    frame = replay.frames[2]
    direct = renderer.grab(frame.engine_state, frame.last_move, frame.marks)
    renderer.close()
    assert rgb_bytes(picture) == rgb_bytes(direct)
    qtbot.mouseClick(screen.copy_button, Qt.MouseButton.LeftButton)
    assert QApplication.clipboard().image().size() == picture.size()

    # The three animations: a name without a suffix takes the kind chosen in the dialog.
    for chosen, suffix, fmt in (
        ("GIF animation (*.gif)", ".gif", "GIF"),
        ("Animated PNG (*.png *.apng)", ".png", "PNG"),
        ("Animated WebP (*.webp)", ".webp", "WEBP"),
    ):
        answers.append((str(tmp_path / f"game-{fmt}"), chosen))
        with qtbot.waitSignal(screen.animationSaved, timeout=60_000) as saved:
            qtbot.mouseClick(screen.animation_button, Qt.MouseButton.LeftButton)
        written = tmp_path / f"game-{fmt}{suffix}"
        assert saved.args == [str(written)]
        with Image.open(written) as image:
            assert image.format == fmt
            frames = sum(1 for _ in ImageSequence.Iterator(image))
        assert frames == replay.plies + 2  # the start, every ply, the result card
        assert f"Saved {frames} frames to {written}" in screen.export_status.text()
    assert asked[1].split(";;") == [
        "GIF animation (*.gif)",
        "Animated PNG (*.png *.apng)",
        "Animated WebP (*.webp)",
    ]

    page = tmp_path / "game"
    answers.append((str(page), "Web pages (*.html)"))
    with qtbot.waitSignal(screen.pageSaved, timeout=60_000) as saved:
        qtbot.mouseClick(screen.page_button, Qt.MouseButton.LeftButton)
    assert saved.args == [str(tmp_path / "game.html")]
    text = (tmp_path / "game.html").read_text(encoding="utf-8")
    assert text.count("<figure") == replay.plies + 1 and "B: look at d4" in text
    assert "opens in any web browser" in screen.export_status.text()

    # A folder that is not there: the reason is shown, nothing is written.
    answers.append((str(tmp_path / "no" / "such.png"), "PNG pictures (*.png)"))
    qtbot.mouseClick(screen.image_button, Qt.MouseButton.LeftButton)
    assert "No such file or directory" in screen.export_status.text()
    assert not (tmp_path / "no").exists()


def test_copy_the_moves_puts_one_readable_line_per_ply_on_the_clipboard(
    qtbot: Any, game_file: Path
) -> None:
    screen = opened(qtbot, game_file)
    replay = screen.replay
    assert replay is not None
    QApplication.clipboard().clear()
    qtbot.mouseClick(screen.moves_button, Qt.MouseButton.LeftButton)
    lines = QApplication.clipboard().text().splitlines()
    assert len(lines) == replay.plies == 7
    chain = verify_file(game_file).chain
    assert chain is not None
    for ply, line in enumerate(lines, 1):
        who = "A" if ply % 2 else "B"  # A moves first; A's resignation is ply 7
        assert line == f"{ply}. {who}: {chain.at(ply).label}", line
    assert lines[-1].endswith("resigns")
    assert screen.export_status.text() == "The 7 moves are in the clipboard."


# --- the window, and a file written by real peer processes ------------------------------
qt_trio = pytest.mark.trio(run=qtrio.run)


@pytest.mark.e2e
@qt_trio
async def test_the_window_replays_a_file_of_a_four_process_demo(qtbot: Any, tmp_path: Path) -> None:
    out = tmp_path / "kept"
    env = {**os.environ, "PALABRE_HOME": str(tmp_path / "home"), "QT_QPA_PLATFORM": "offscreen"}
    demo = await trio.to_thread.run_sync(
        lambda: subprocess.run(
            [sys.executable, "-m", "ui.entry", "demo", "--seed", "3", "--out", str(out)],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=180,
            env=env,
        )
    )
    assert demo.returncode == 0, demo.stdout + demo.stderr
    path = out / "peer2.palabre-log"
    async with trio.open_nursery() as nursery:
        window = MainWindow(nursery)
        qtbot.addWidget(window)
        window.show()
        window.start.replayRequested.emit(path)
        assert window.stack.currentWidget() is window.replay
        screen = window.replay
        with trio.fail_after(60):
            while screen.replay is None:
                await trio.sleep(0.01)
        replay = screen.replay
        report = verify_file(path).report
        assert replay.plies == report.plies > 10 and report.exit_code == 0
        assert all(frame.final for frame in replay.frames)
        assert screen.verdict.text().startswith(f"Valid and complete: {report.plies} plies")
        qtbot.mouseClick(screen.play_button, Qt.MouseButton.LeftButton)
        with trio.fail_after(30):
            while screen.ply < 2:
                await trio.sleep(0.01)
        qtbot.mouseClick(screen.play_button, Qt.MouseButton.LeftButton)
        assert not screen.timer.isActive()
        qtbot.mouseClick(screen.last_button, Qt.MouseButton.LeftButton)
        assert screen.ply == report.plies
        qtbot.mouseClick(screen.back_button, Qt.MouseButton.LeftButton)
        assert window.stack.currentWidget() is window.start
        window.close()
        nursery.cancel_scope.cancel()


def test_an_export_abandoned_halfway_writes_nothing(
    qtbot: Any, game_file: Path, tmp_path: Path
) -> None:
    screen = opened(qtbot, game_file)
    out = tmp_path / "half.gif"
    screen.save_animation(out)
    job = screen.animation_job
    assert job is not None
    qtbot.waitUntil(lambda: job.drawing.done >= 2, timeout=30_000)
    screen.clear()  # what Back and opening another file do
    qtbot.wait(200)
    assert not out.exists() and list(tmp_path.iterdir()) == []
    screen = opened(qtbot, game_file)  # a finished export, then another: nothing breaks
    for name in ("one.webp", "two.webp"):
        with qtbot.waitSignal(screen.animationSaved, timeout=60_000) as saved:
            screen.save_animation(tmp_path / name)
        assert saved.args == [str(tmp_path / name)]
    screen.clear()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["one.webp", "two.webp"]
