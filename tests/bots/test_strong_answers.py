"""A strong bot answers draw offers and takeback asks from its game's evaluation, as the
sensible bot of that game does (``client.bots.answers``): it is no easier to talk into a
draw, nor to let a player dig out of a lost position with takebacks."""

from __future__ import annotations

from client.bots import make_bot
from client.bots.answers import accepts_draw, takeback_refusal
from client.bots.consensus import score_for
from client.bots.discorder import evaluate
from engines import find_engine


def _positions(game: str, plies: int) -> list[object]:
    """The positions of a seeded game between sensible bots."""
    engine = find_engine(game)
    state = engine.initial_state(engine.sample_params[0])
    bots = {seat: make_bot(game, "normal", 700 + seat) for seat in range(1, 5)}
    seen = []
    for _ in range(plies):
        if engine.outcome(state) is not None:
            break
        seen.append(state)
        seat = engine.to_move(state)
        assert seat is not None
        state = engine.apply(state, bots[engine.controller(state, seat)].choose(engine, state))
    return seen


def test_a_strong_discorder_bot_agrees_to_a_draw_only_when_not_winning() -> None:
    engine = find_engine("discorder")
    bot = make_bot("discorder", "strong", 3)
    answers = {True: 0, False: 0}
    for state in _positions("discorder", 60):
        for seat in (1, 2):
            agrees = accepts_draw(bot, engine, state, seat)
            assert agrees == (evaluate(state, seat) <= 0)
            answers[agrees] += 1
            losing = evaluate(state, seat) < 0
            assert (takeback_refusal(bot, engine, state, seat, 0) is not None) == losing
    assert answers[True] > 0 and answers[False] > 0  # both answers were given


def test_a_strong_consensus_bot_agrees_to_a_draw_only_when_not_winning() -> None:
    engine = find_engine("consensus")
    bot = make_bot("consensus", "strong", 3)
    answers = {True: 0, False: 0}
    for state in _positions("consensus", 50):
        for seat in (1, 2, 3, 4):
            agrees = accepts_draw(bot, engine, state, seat)
            player = engine.controller(state, seat)
            assert agrees == (score_for(engine, state, player) <= 0)  # type: ignore[arg-type]
            answers[agrees] += 1
    assert answers[True] > 0 and answers[False] > 0
