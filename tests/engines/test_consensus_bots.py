"""The Consensus sensible bot: deterministic, sensible on hand-made positions, and strong
enough to beat three random bots in at least 90 of 100 games (issue 2, "Bots")."""

from __future__ import annotations

import pytest

from client.bots import RandomBot, make_bot
from client.bots.consensus import SensibleBot
from client.match import play_match
from engines.consensus import ENGINE
from tests.engines.test_consensus_positions import position_of

OTHERS_SAFE = "P2b9 P3i8 P4h1"  # none of them on a line through e5


def _match(seed: int) -> tuple[int, tuple[int, ...]]:
    """One game: the sensible bot on seat ``seed % 4 + 1``, random bots elsewhere."""
    seat = seed % 4 + 1
    bots = {s: RandomBot(seed * 10 + s) for s in range(1, 5)}
    bots[seat] = SensibleBot(seed)
    return seat, play_match(ENGINE, {"seats": 4}, bots).outcome.winners


def test_the_sensible_bot_is_registered_and_deterministic() -> None:
    assert isinstance(make_bot("consensus", "sensible", 3), SensibleBot)
    bots = {s: make_bot("consensus", "sensible", s) for s in range(1, 5)}
    again = {s: make_bot("consensus", "sensible", s) for s in range(1, 5)}
    first = play_match(ENGINE, {"seats": 4}, bots)
    assert play_match(ENGINE, {"seats": 4}, again).plies == first.plies
    assert first.outcome.winners


def test_it_takes_the_centre_when_nobody_can_strike_back() -> None:
    state = position_of("P1c3 " + OTHERS_SAFE)
    assert ENGINE.format_move(state, SensibleBot(0).choose(ENGINE, state)) == "Pc3-e5"


def test_it_keeps_out_of_the_centre_when_the_next_player_could_kill_there() -> None:
    state = position_of("P1c3 P2e9 P3i8 P4h1")
    assert ENGINE.format_move(state, SensibleBot(0).choose(ENGINE, state)) != "Pc3-e5"


def test_it_takes_a_win_at_once() -> None:
    state = position_of("P1a1 P2d4 p3i9 p4i1", controllers=(1, 2, 1, 2))
    assert ENGINE.format_move(state, SensibleBot(0).choose(ENGINE, state)).startswith("Pa1xd4")


@pytest.mark.slow
def test_the_sensible_bot_beats_three_random_bots_90_times_in_100() -> None:
    wins = sum(seat in winners for seat, winners in map(_match, range(100)))
    print(f"sensible bot won {wins} of 100 games against three random bots")
    assert wins >= 90
