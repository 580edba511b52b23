"""Every END reason an engine can return is in docs/PROTOCOL.md's table of END results, and
the table lists nothing an engine cannot return; an agreed draw's fields are as it says.

The engines' endings are found by driving each one's ending field (STATE_BYTES.md: Consensus
`result`, Les Forbans `result`, Cognes `end`, Discorder `finish`) through every value its
``outcome`` accepts, from the initial position of its sample options.
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

from client.rules.removal import ABANDONED
from engines import engine_names, find_engine

DOC = (Path(__file__).resolve().parents[2] / "docs" / "PROTOCOL.md").read_text(encoding="utf-8")
ENDING_FIELD = {"consensus": "result", "forbans": "result", "cognes": "end", "discorder": "finish"}


def documented() -> dict[tuple[str, str], str]:
    table = DOC.split("<!-- end-reasons:", 1)[1].split("\n\n", 1)[0]
    rows = re.findall(r"^\| ([a-z ]+) \| `([a-z-]+)` \|[^|]*\|[^|]*\| ([^|]+) \|", table, re.M)
    return {(game, reason): draw.strip() for game, reason, draw in rows}


def engine_reasons(game: str) -> set[str]:
    """Every reason ``outcome`` gives over every value of the ending field (the winner
    field, where there is one, set or not: the reason does not depend on it)."""
    engine = find_engine(game)
    reasons: set[str] = set()
    for params in engine.sample_params:
        state = engine.initial_state(params)
        for code in range(1, 64):
            for winner in (0, 1):
                changes = {ENDING_FIELD[game]: code}
                if hasattr(state, "winner"):
                    changes["winner"] = winner
                if hasattr(state, "resigned"):
                    changes["resigned"] = winner or 1
                try:
                    outcome = engine.outcome(replace(state, **changes))  # type: ignore[type-var]
                except (KeyError, IndexError):
                    continue  # not an ending this engine knows
                if outcome is not None:
                    reasons.add(outcome.reason)
    return reasons


def test_every_reason_of_every_engine_is_documented() -> None:
    doc = documented()
    assert set(engine_names()) == set(ENDING_FIELD)
    for game in engine_names():
        reasons = engine_reasons(game)
        assert "agreement" in reasons, game
        assert reasons == {r for g, r in doc if g == game}, game


def test_an_agreed_draw_and_a_resignation_end_as_documented() -> None:
    doc = documented()
    for game in engine_names():
        engine = find_engine(game)
        state = engine.initial_state(engine.sample_params[0])
        agreed = engine.outcome(engine.agree_draw(state))
        assert agreed is not None and agreed.reason == "agreement"
        assert (agreed.winners, agreed.draw, agreed.scores) == ((), True, ())
        assert doc[(game, "agreement")] == "true"
        seat = engine.to_move(state)
        assert seat is not None
        resigned = engine.outcome(engine.resign(state, seat))
        if resigned is not None:  # Consensus and Cognes go on without the seat
            assert doc[(game, resigned.reason)] == "false" and not resigned.draw
            assert seat not in resigned.winners


def test_the_tables_own_ending_is_documented() -> None:
    assert documented()[("every game", ABANDONED)] == "false"
