"""The Consensus sensible bot: deterministic, sensible on hand-made positions (taking, holding,
ending and denying power; keeping its Président), strong enough to beat three random bots in
at least 90 of 100 games, and playing contested games against itself."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from client.bots import Bot, RandomBot, make_bot
from client.bots.consensus import SensibleBot, _hitters
from client.bots.match import play_match
from engines import find_engine
from engines.consensus import ENGINE, ConsensusState
from engines.consensus_board import CENTRE_NEIGHBOURS, DEAD, E5, HAUSSAIRE, ORTHOGONAL, PRESIDENT
from engines.consensus_moves import destinations, enemy_table
from tests.engines.test_consensus_positions import position_of, sq

OTHERS_SAFE = "P2b9 P3i8 P4h1"  # none of them on a line through e5


def _choice(state: ConsensusState, seed: int = 0) -> str:
    return ENGINE.format_move(state, SensibleBot(seed).choose(ENGINE, state))


def _after(state: ConsensusState, seed: int = 0) -> ConsensusState:
    return ENGINE.apply(state, SensibleBot(seed).choose(ENGINE, state))


def _acts_on(
    board: tuple[int, ...], controllers: tuple[int, ...], origin: int, target: int
) -> bool:
    """What the engine says: the piece on ``origin`` can kill or displace the Président on
    ``target`` in one move (a Haussaire by landing beside it)."""
    enemy = enemy_table(controllers, controllers[(board[origin] >> 3) - 1])
    reach = destinations(board, enemy, origin)
    if board[origin] & 7 == HAUSSAIRE:
        return any(square in reach for square in ORTHOGONAL[target])
    return target in reach


def test_the_sensible_bot_is_registered_and_deterministic() -> None:
    assert isinstance(make_bot("consensus", "sensible", 3), SensibleBot)
    bots = {s: make_bot("consensus", "sensible", s) for s in range(1, 5)}
    again = {s: make_bot("consensus", "sensible", s) for s in range(1, 5)}
    first = play_match(ENGINE, {"seats": 4}, bots)
    assert play_match(ENGINE, {"seats": 4}, again).plies == first.plies
    assert first.outcome.winners or first.outcome.draw


def test_it_refuses_another_game() -> None:
    other = find_engine("cognes")
    with pytest.raises(TypeError, match="Consensus"):
        SensibleBot(0).choose(other, other.initial_state(other.sample_params[0]))


def test_it_takes_the_centre_when_nobody_can_strike_back() -> None:
    assert _choice(position_of("P1c3 S1a1 " + OTHERS_SAFE)) == "Pc3-e5"


def test_it_keeps_out_of_the_centre_when_the_next_player_could_strike_there() -> None:
    # P2 on e9 would land on e5 right after seat 1 took it, before any extra move.
    assert _choice(position_of("P1c3 S1a1 P2e9 P3i8 P4h1")) != "Pc3-e5"


def test_it_keeps_out_of_the_centre_when_two_strikers_wait_for_a_later_turn() -> None:
    # Seat 4 moves last in the round: the ruler's extra moves could answer one striker,
    # not the GIGN and the Fonctionnaire both aimed at e5.
    state = position_of("P1c3 S1a1 P2b9 P3i8 P4h1 G4e2 F4i5")
    assert _choice(state) != "Pc3-e5"
    alone = position_of("P1c3 S1a1 P2b9 P3i8 P4h1 S4e1 F4i6")
    assert _choice(alone) == "Pc3-e5"


def test_it_takes_a_win_at_once() -> None:
    state = position_of("P1a1 P2d4 p3i9 p4i1", controllers=(1, 2, 1, 2))
    assert _choice(state).startswith("Pa1xd4")


@pytest.mark.parametrize(
    ("striker", "how"),
    [
        ("G1e1", "a GIGN kill with exit"),
        ("H1c4", "a Haussaire kill from d5"),
        ("F1h8", "a Fonctionnaire displacement with exit"),
    ],
)
def test_it_ends_another_players_power_before_taking_material(striker: str, how: str) -> None:
    # P2 rules and three slots still owe it a turn, so nothing is lost yet if seat 1 waits;
    # a Syndicaliste could take a GIGN instead.
    state = position_of(f"P1a2 S1a3 {striker} S1b8 P2e5 S2h2 G3a4 P3i8 P4i1 S4f1")
    assert ENGINE.power_status(state).owing == (1, 3, 4)
    after = _after(state)
    assert ENGINE.power_status(after).ruler != 2, how


def test_it_strikes_the_ruler_when_its_turn_is_the_last_one_owed() -> None:
    state = position_of(
        "P1a1 S1b2 S1a3 H1c4 P2e5 S2h2 G3a4 P3i9 P4i1", since_power=(False, False, True, True)
    )
    assert ENGINE.power_status(state).owing == (1,)
    after = _after(state)
    assert ENGINE.outcome(after) is None
    assert ENGINE.power_status(after).ruler is None


def test_it_denies_e5_to_a_president_about_to_take_it() -> None:
    # P2 on e8 has a clear file to e5 and nobody could strike it there.  Seat 1 can block the
    # file (its Syndicaliste to e6) or aim its GIGN at e5; taking the Syndicaliste on g5 or
    # h1 with the GIGN and nothing more leaves e5 to P2.
    state = position_of("P1a2 S1b2 S1d5 S1a3 G1g1 P2e8 S2a9 S3g5 P3i7 P4i2 S4h1")
    greedy = ENGINE.apply(state, ENGINE.parse_move(state, "Gg1xh1"))
    assert sq("e5") in ENGINE.destinations(greedy, sq("e8"))
    after = _after(state)
    if sq("e5") in ENGINE.destinations(after, sq("e8")):
        ruling = ENGINE.apply(after, ENGINE.parse_move(after, "Pe8-e5"))
        board, controllers = ruling.board, ruling.controllers
        assert any(
            _acts_on(board, controllers, origin, E5)
            for origin, code in enumerate(board)
            if 0 < code < DEAD and controllers[(code >> 3) - 1] == 1
        )


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
    board, controllers = after.board, after.controllers
    assert not any(
        _acts_on(board, controllers, origin, E5)
        for origin, code in enumerate(board)
        if 0 < code < DEAD and code >> 3 == 3
    )


def test_it_takes_its_president_out_of_reach() -> None:
    state = position_of("P1c3 S1a1 G2c7 P2a9 P3i9 P4i1 S3h8 S4h2")
    after = _after(state)
    president = after.board.index(PRESIDENT | 1 << 3)
    assert president not in ENGINE.destinations(after, sq("c7"))


def test_the_reverse_lookup_agrees_with_the_engine() -> None:
    checked = 0
    for seed in range(12):
        rng = random.Random(seed)
        state = ENGINE.initial_state({"seats": 4})
        while ENGINE.outcome(state) is None:
            moves = ENGINE.legal_moves(state)
            state = ENGINE.apply(state, moves[rng.randrange(len(moves))])
            board, controllers = state.board, state.controllers
            if rng.randrange(4):
                continue  # one position in four is enough
            if all(board[square] for square in CENTRE_NEIGHBOURS):
                continue  # a GIGN on e5 would have no exit: the look-up does not check that
            for target, code in enumerate(board):
                if not (0 < code < DEAD and code & 7 == PRESIDENT):
                    continue
                victim = controllers[(code >> 3) - 1]
                found = {square for square, _ in _hitters(board, target)}
                for origin, piece in enumerate(board):
                    if 0 < piece < DEAD and controllers[(piece >> 3) - 1] not in (0, victim):
                        checked += 1
                        expected = _acts_on(board, controllers, origin, target)
                        assert (origin in found) == expected, (seed, origin, target)
    assert checked > 10_000


def _match(seed: int) -> tuple[int, tuple[int, ...]]:
    """One game: the sensible bot on seat ``seed % 4 + 1``, random bots elsewhere."""
    seat = seed % 4 + 1
    bots: dict[int, Bot] = {s: RandomBot(seed * 10 + s) for s in range(1, 5)}
    bots[seat] = SensibleBot(seed)
    return seat, play_match(ENGINE, {"seats": 4}, bots).outcome.winners


@pytest.mark.slow
def test_the_sensible_bot_beats_three_random_bots_90_times_in_100() -> None:
    wins = sum(seat in winners for seat, winners in map(_match, range(100)))
    print(f"sensible bot won {wins} of 100 games against three random bots")
    assert wins >= 90


@pytest.mark.slow
def test_four_sensible_bots_play_contested_games() -> None:
    """Informative: the seeds the demo gives its bots (seed * 100 + seat), 40 games."""
    winners: Counter[int] = Counter()
    reasons: Counter[str] = Counter()
    lengths = []
    for seed in range(40):
        bots = {s: SensibleBot(seed * 100 + s) for s in range(1, 5)}
        record = play_match(ENGINE, {"seats": 4}, bots)
        winners.update(record.outcome.winners or (0,))
        reasons[record.outcome.reason] += 1
        lengths.append(len(record.plies))
    print(f"winners by seat (0: draw) {sorted(winners.items())}, reasons {dict(reasons)}")
    print(f"plies: min {min(lengths)}, median {sorted(lengths)[20]}, max {max(lengths)}")
    assert max(count for seat, count in winners.items() if seat) <= 28  # 70 % of 40
    assert len(set(lengths)) > 20  # not the same short game every time
