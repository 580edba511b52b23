"""docs/LOG_FORMAT.md's list of the games this palabre knows, with their options, is the
engines': names, rulesets, versions, each option's bounds and default."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engines import InvalidParams, engine_names, find_engine

DOC = (Path(__file__).resolve().parents[2] / "docs" / "LOG_FORMAT.md").read_text(encoding="utf-8")


def documented() -> dict[str, tuple[str, str, dict[str, tuple[int, int, int]]]]:
    table = DOC.split("<!-- known-games:", 1)[1].split("\n\n", 1)[0]
    games = {}
    for game, ruleset, version, options in re.findall(
        r"^\| `(\w+)` \| `([\w/]+)` \| `(\w+)` \| (.+) \|$", table, re.M
    ):
        if game == "game":
            continue  # the header
        bounds = re.findall(r"`(\w+)`: (\d+) … (\d+), (\d+)", options)
        games[game] = (
            ruleset,
            version,
            {name: (int(lo), int(hi), int(default)) for name, lo, hi, default in bounds},
        )
    return games


def test_the_documented_games_are_the_engines() -> None:
    doc = documented()
    assert set(doc) == set(engine_names())
    for game, (ruleset, version, options) in doc.items():
        engine = find_engine(game)
        assert (engine.ruleset, engine.version) == (ruleset, version)
        assert "seats" in options


@pytest.mark.parametrize("game", sorted(engine_names()))
def test_each_option_has_the_documented_bounds_and_default(game: str) -> None:
    engine = find_engine(game)
    _ruleset, _version, options = documented()[game]
    plain = engine.initial_state({})
    for name, (lo, hi, default) in options.items():
        assert engine.initial_state({name: default}) == plain, (name, default)
        for outside in (lo - 1, hi + 1):
            with pytest.raises(InvalidParams):
                engine.initial_state({name: outside})
    with pytest.raises(InvalidParams):
        engine.initial_state({"no_such_option": 1})
    module = type(engine).__module__
    declared = getattr(__import__(module, fromlist=["OPTIONS"]), "OPTIONS", {"seats": ()})
    assert set(declared) == set(options)  # no option of the engine left out of the list
