"""Golden traces of whole seeded tables (``tests.client.golden``): any change in what a peer
sends, writes or tells, or in their order, shows here as a diff against the stored trace.

``PALABRE_GOLDEN=write`` writes the traces again (read the diff before committing it)."""

from __future__ import annotations

import difflib
import os
from pathlib import Path

import pytest

from client.tabletop.events import PlyApplied
from tests.client.golden import GOLDEN, Scenario, play, trace_text
from tests.client.tinygame import ENGINE


def own_turn(event: PlyApplied, seat: int) -> bool:
    """Whether the joiner's own seat, played by itself, is to move: the game waits for it."""
    state = event.state.engine_state
    return ENGINE.to_move(state) == seat and ENGINE.controller(state, seat) == seat


def after_ply_4(event: PlyApplied, seat: int) -> bool:
    return event.state.ply >= 4


SCENARIOS = [
    Scenario("two-peers", ["host", "ann"], {"seats": 2, "pile": 12}),
    Scenario("four-peers", ["host", "ann", "bob", "cy"], {"seats": 4, "pile": 16}),
    Scenario(
        "removal",
        ["host", "ann", "bob"],
        {"seats": 3, "pile": 40},
        host_options={"away_ms": 5000},
        leaves={"ann": own_turn},
    ),
    Scenario(
        "rejoin",
        ["host", "ann", "bob"],
        {"seats": 3, "pile": 24},
        leaves={"ann": after_ply_4},
        back_after={"ann": 1.5},
    ),
]


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda s: s.name)
def test_a_whole_table_sends_writes_and_tells_as_its_golden_trace(
    scenario: Scenario, tmp_path: Path
) -> None:
    traces, codes = play(scenario, tmp_path)
    text = trace_text(traces, codes)
    path = GOLDEN / f"{scenario.name}.trace"
    if os.environ.get("PALABRE_GOLDEN") == "write":
        path.parent.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
    stored = path.read_text(encoding="utf-8")
    old, new = stored.splitlines(), text.splitlines()
    diff = difflib.unified_diff(old, new, "stored", "now", lineterm="")
    assert text == stored, "\n".join(list(diff)[:60])
