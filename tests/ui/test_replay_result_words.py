"""The replay screen says an abandoned table's result in the table's words (issue 21).

Seen in a real window: a replayed game said "Result: The table was abandoned: peer
MTOA-MH43… (Bruno) stayed away." — the signed summary names peers by key for the game file;
a player reads names, as on the table screen."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from engines import Outcome, find_engine
from tests.client.gamelogs import Script
from tests.ui.test_replay_screen import opened

pytestmark = [pytest.mark.gui, pytest.mark.filterwarnings("error")]


def test_an_abandoned_table_is_said_with_the_players_names(qtbot: Any, tmp_path: Path) -> None:
    script = Script(find_engine("discorder"), ["Ana", "Bruno"], seed=6)
    script.ack()
    script.play(3)
    bruno = script.identity("Bruno").key
    signed = "The table was abandoned: peer MTOA-MH43… (Bruno) stayed away."
    script.end("Ana", absent=(bruno,), result=Outcome((), False, "abandoned", signed))
    screen = opened(qtbot, script.write(tmp_path / "abandoned.palabre-log"))
    verdict = screen.verdict.text()
    assert verdict.endswith("Result: The table was abandoned: Bruno stayed away."), verdict
    assert "peer" not in verdict and "MTOA" not in verdict
