"""The replay of a clocked log shows every seat's clock at each ply, from the verifier's own
verdicts (``clock_history``): three real tables on the virtual clock, seat 1 a person who
never moves on a 1.5 s clock (its own table resigns it at its limit), the others bots; each
peer's log verified and replayed in the real replay screen."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from client.logs.verifier import verify_file
from client.sessions.replay import Replay
from tests.client.gamelogs import rewrite
from tests.client.harness import Setup, play
from tests.client.test_clock_table import slow_seat_one
from ui.animation import caption_lines
from ui.replay_page import replay_page
from ui.screens.player_clocks import CLOCK_ROLE
from ui.screens.replay import ReplayScreen

pytestmark = [pytest.mark.gui, pytest.mark.filterwarnings("error")]


def test_the_replay_shows_every_seats_clock_at_each_ply(qtbot: Any, tmp_path: Path) -> None:
    router = slow_seat_one()
    records = router.logs["B"]
    engine = router.tables["B"].engine
    path = rewrite(tmp_path / "B.palabre-log", [r.envelope for r in records])
    verification = verify_file(path, find=lambda _game: engine)
    replay = Replay.build(verification)
    clocked = {ply.ply: ply for ply in verification.report.clocked}
    assert replay.frames[0].clocks == (1_500, 1_500, 1_500) and replay.frames[0].runs == 1
    first = replay.frames[1]
    assert first.clocked is not None and first.clocked.verdict.late  # seat 1 ran out
    assert first.clocks == (0, 1_500, 1_500) and first.runs == 2
    for frame in replay.frames[1:]:  # each judged ply: the verifier's clocks after it
        if frame.ply in clocked:
            assert frame.clocks == clocked[frame.ply].remaining
            assert frame.clocked == clocked[frame.ply]

    screen = ReplayScreen()
    qtbot.addWidget(screen)
    screen.show_verification(verification)
    players = screen.players

    def shown() -> list[Any]:
        return [players.item(row).data(CLOCK_ROLE) for row in range(players.count())]

    screen.go_to(0)
    assert [face.text for face in shown()] == ["1.5", "1.5", "1.5"]
    assert [face.running for face in shown()] == [True, False, False]
    screen.go_to(1)
    assert [face.text for face in shown()] == ["0.0", "1.5", "1.5"]
    assert "ran out of time" in screen.frame_text.text()
    assert "lost on time" in screen.frame_text.text()
    later = next(frame for frame in replay.frames[2:] if frame.clocked is not None)
    screen.go_to(later.ply)
    assert "s for this ply." in screen.frame_text.text()

    # The exports say the clocks too: the animation's captions and the replay page.
    assert "Clocks: ▶ A 1.5 · B 1.5 · C 1.5" in caption_lines(replay, 0)
    assert "Clocks: A 0.0 · ▶ B 1.5 · C 1.5" in caption_lines(replay, 1)
    page = replay_page(replay, 120, "2026-12-03")
    assert "Clocks: A 0.0 · ▶ B 1.5 · C 1.5" in page


def test_an_unclocked_replay_shows_no_clock(qtbot: Any, tmp_path: Path) -> None:
    router = play(Setup(["A", "B", "C"], params={"seats": 3, "pile": 12}), bot_delay=0.2, seed=3)
    engine = router.tables["A"].engine
    path = rewrite(tmp_path / "A.palabre-log", [r.envelope for r in router.logs["A"]])
    replay = Replay.build(verify_file(path, find=lambda _game: engine))
    assert all(frame.clocks is None and frame.clocked is None for frame in replay.frames)
    assert not any("Clocks:" in line for line in caption_lines(replay, 1))
    screen = ReplayScreen()
    qtbot.addWidget(screen)
    screen.show_verification(verify_file(path, find=lambda _game: engine))
    screen.go_to(1)
    assert all(screen.players.item(r).data(CLOCK_ROLE) is None for r in range(3))
