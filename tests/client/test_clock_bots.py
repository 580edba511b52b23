"""Bots on a clock (issue 27): they budget their wait and their thinking from their clock
(``client.bots.clock_budget``), so that they never lose on time."""

from __future__ import annotations

import pytest

from client.bots.clock_budget import FULL_THOUGHT_MS, MOVES_LEFT, budget
from client.rules.clock import ClockSpec
from client.rules.clock_history import clock_history
from client.tabletop.events import TableEnded
from engines import find_engine
from tests.client.harness import Setup
from tests.client.realtime import RealTimeRouter


def test_a_bots_share_of_its_clock() -> None:
    assert budget(60_000, 0).share_ms == 60_000 // MOVES_LEFT
    assert budget(60_000, 0).full_thought and not budget(30_000, 0).full_thought
    assert budget(30_000, 2_000).full_thought  # the increment comes back every move
    assert budget(4_000, 0).max_delay == 4_000 // MOVES_LEFT / 4000
    assert budget(-5, 0) == budget(0, 0) and not budget(0, 0).full_thought
    assert budget(FULL_THOUGHT_MS * MOVES_LEFT, 0).full_thought


@pytest.mark.slow
def test_strong_bots_never_lose_on_time_at_one_minute() -> None:
    """Four strong Consensus bots at 1+0, a 100 ms delay each, on the real clock: the game
    ends with no ply late, and every seat has time left."""
    spec = ClockSpec(base_ms=60_000, increment_ms=0, lag_ms=300, ack_ms=10_000)
    setup = Setup(
        ["A", "B", "C", "D"], engine=find_engine("consensus"), params={"seats": 4}, clock=spec
    )
    tables = {
        name: setup.table(name, bot_kind="strong", bot_delay=0.1, seed=7)
        for name in setup.peer_names
    }
    router = RealTimeRouter(tables, seed=7)
    router.start()
    router.run()
    assert all(router.of_type(name, TableEnded) for name in tables)
    history = clock_history(router.tables["A"].chain)
    assert history and not any(ply.verdict.late for ply in history)
    print(f"{len(history)} plies, time left {history[-1].remaining}")
