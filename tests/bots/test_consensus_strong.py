"""The strong Consensus bot: picked by its level, deterministic for a seed, always legal, sound
on the positions the rules make special (the ruler's extra move, a player with two seats, a
strike at the ruler), and stronger than three sensible bots (slow)."""

from __future__ import annotations

import pytest

from client.bots import RandomBot, make_bot
from client.bots.cognes import SensibleBot as CognesSensibleBot
from client.bots.consensus import SensibleBot
from client.bots.consensus_strong import SEARCH
from client.bots.reply_search import SearchBot
from client.commands.launcher import Launcher, LocalRequest
from engines import find_engine
from engines.consensus import ENGINE, ConsensusState
from tests.bots.matches import strong_wins
from tests.engines.test_consensus_positions import position_of


def strong(seed: int) -> SearchBot:
    return SearchBot(seed, SEARCH)


def _is_strong(bot: object) -> bool:
    return isinstance(bot, SearchBot) and bot.search is SEARCH


def _choice(state: ConsensusState, seed: int = 0) -> str:
    move = strong(seed).choose(ENGINE, state)
    ENGINE.apply(state, move)  # the engine's own check: IllegalMove if it is not legal
    return ENGINE.format_move(state, move)


def _after(state: ConsensusState, seed: int = 0) -> ConsensusState:
    return ENGINE.apply(state, strong(seed).choose(ENGINE, state))


def test_a_level_names_a_bot() -> None:
    assert isinstance(make_bot("consensus", "easy", 1), RandomBot)
    assert isinstance(make_bot("consensus", "normal", 1), SensibleBot)
    assert _is_strong(make_bot("consensus", "strong", 1))
    assert isinstance(make_bot("consensus", "sensible", 1), SensibleBot)  # kinds still work
    # Every game's strong level is its own bot, not its sensible one.
    assert not isinstance(make_bot("cognes", "strong", 1), CognesSensibleBot)
    with pytest.raises(ValueError, match="easy, normal, strong"):
        make_bot("consensus", "hard", 1)


def test_a_local_game_at_the_strong_level_names_its_bots_so() -> None:
    game = Launcher().play_local(LocalRequest(game="consensus", bot_kind="strong"))
    names = [seat.name for seat in game.snapshot.seats]
    assert names == ["You", *(f"Bot {seat} of You (strong)" for seat in (2, 3, 4))]


def test_it_refuses_another_game() -> None:
    other = find_engine("cognes")
    with pytest.raises(TypeError, match="Consensus"):
        strong(0).choose(other, other.initial_state(other.sample_params[0]))


def _middle_game() -> ConsensusState:
    """Where four sensible bots bring a game after 16 plies."""
    bots = {s: SensibleBot(300 + s) for s in range(1, 5)}
    state = ENGINE.initial_state({"seats": 4})
    for _ in range(16):
        seat = ENGINE.to_move(state)
        assert seat is not None
        state = ENGINE.apply(state, bots[ENGINE.controller(state, seat)].choose(ENGINE, state))
    return state


def test_it_is_deterministic_for_a_seed_and_plays_legal_moves() -> None:
    state = _middle_game()
    first, again = strong(7), strong(7)
    for _ in range(2):
        move = first.choose(ENGINE, state)
        assert move == again.choose(ENGINE, state)
        state = ENGINE.apply(state, move)  # IllegalMove if it is not legal
        if ENGINE.outcome(state) is not None:
            break


def test_it_takes_a_win_at_once_with_the_seats_it_controls() -> None:
    # Seat 1 controls seat 3 and seat 2 controls seat 4: killing P2 leaves one Président.
    state = position_of("P1a1 P2d4 p3i9 p4i1", controllers=(1, 2, 1, 2))
    assert _choice(state).startswith("Pa1xd4")


def test_the_ruler_answers_a_striker_with_its_extra_move() -> None:
    # P1 rules, slot 2 has just played; slot 3 moves next with a GIGN aimed at e5.
    state = position_of(
        "P1e5 S1a1 S1g5 P2b9 S2a9 P3i8 G3g7 S3i9 P4h1 S4i1",
        slot=2,
        extra=True,
        since_power=(False, True, False, False),
    )
    assert ENGINE.to_move(state) == 1
    after = _after(state)
    assert ENGINE.power_status(after).ruler == 1
    assert ENGINE.to_move(after) == 3
    for reply in ENGINE.legal_moves(after):  # no move of seat 3 ends P1's power
        assert ENGINE.power_status(ENGINE.apply(after, reply)).ruler == 1, reply


@pytest.mark.parametrize("striker", ["G1e1", "H1c4", "F1h8"])
def test_it_ends_another_players_power_with_a_centre_action(striker: str) -> None:
    # P2 rules and seat 1 moves last of the slots that owe it a turn: only a strike now
    # keeps P2 from winning.
    state = position_of(
        f"P1a1 S1b2 S1a3 {striker} P2e5 S2h2 G3a4 P3i9 P4i1",
        since_power=(False, False, True, True),
    )
    assert ENGINE.power_status(state).owing == (1,)
    after = _after(state)
    assert ENGINE.outcome(after) is None
    assert ENGINE.power_status(after).ruler is None


@pytest.mark.slow
def test_the_strong_bot_beats_three_sensible_bots() -> None:
    """12 seeded games, the strong bot's seat rotated (a quarter is par): it won 149 of 200
    (docs/BENCHMARKS.md) and 10 of these 12; at least 5 here."""
    assert strong_wins("consensus", "normal", 12) >= 5
