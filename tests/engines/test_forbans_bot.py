"""The sensible Les Forbans bot: legal, deterministic, takes wins, avoids losses, beats random."""

from __future__ import annotations

import io
from dataclasses import replace

import pytest

from client.bots import RandomBot, make_bot
from client.bots.forbans import SensibleBot
from client.bots.match import play_match
from client.commands.demo import run_demo
from engines.forbans import ENGINE as E
from engines.forbans import ForbansState, Step

PORT = E.map.index


def _position(pieces: dict[str, int], ply: int) -> ForbansState:
    board = list(E.initial_state({}).board)
    for port_id, count in pieces.items():
        board[PORT[port_id]] = count
    return replace(E.initial_state({}), board=tuple(board), ply=ply)


def test_the_registry_gives_the_sensible_bot() -> None:
    assert isinstance(make_bot("forbans", "sensible", 3), SensibleBot)


def test_the_bot_is_deterministic_given_its_seed() -> None:
    def game(seed: int) -> list[str]:
        bots = {1: SensibleBot(seed), 2: SensibleBot(seed + 1)}
        return [ply.notation for ply in play_match(E, {"seats": 2}, bots).plies]

    assert game(4) == game(4)


def test_the_bot_takes_a_win() -> None:
    state = _position({"tortue": 5, "nassau": 1, "cap_horn": -3, "rio": -3}, ply=13)
    assert SensibleBot(0).choose(E, state) == Step(PORT["nassau"], PORT["tortue"])


def test_the_bot_does_not_offer_the_enemy_a_win() -> None:
    # Bleu holds Veracruz and La Havane; Vert sits on Acapulco and Nassau.  If La Havane's
    # piece leaves, Vert steps from Nassau into La Havane and Veracruz is encircled.
    pieces = {"veracruz": 1, "la_havane": 1, "acapulco": -1, "nassau": -1, "cap_horn": 1}
    state = _position(pieces, ply=13)
    unsafe = [
        move for move in E.legal_moves(state) if E.has_winning_move(E.apply(state, move).board, 2)
    ]
    sailing_on = [
        Step(PORT["la_havane"], PORT[to]) for to in ("port_royal", "veracruz", "charleston")
    ]
    assert sorted(unsafe) == sorted(sailing_on)
    for seed in range(20):
        assert SensibleBot(seed).choose(E, state) not in unsafe


@pytest.mark.slow
def test_the_bot_beats_random_in_at_least_80_of_100_games() -> None:
    wins = 0
    for seed in range(100):
        seat = 1 + seed % 2
        bots = {seat: make_bot("forbans", "sensible", seed), 3 - seat: RandomBot(seed)}
        match = play_match(E, {"seats": 2}, bots)
        wins += seat in match.outcome.winners
    assert wins >= 80, wins


@pytest.mark.parametrize("seats", [2, 4])
def test_the_demo_plays_a_game_to_a_result(seats: int) -> None:
    out = io.StringIO()
    assert run_demo("forbans", seed=0, pace_ms=0, seats=seats, out=out) == 0
    lines = out.getvalue().splitlines()
    assert lines[0] == f"palabre demo: forbans/1, {seats} bots, seed 0"
    assert lines[-2].startswith("Result after ")
