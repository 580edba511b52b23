"""Bots answer draw offers and takeback asks as a player would (``client.bots.answers``),
and a player who resigned cannot offer a draw (``TableOutside.draw_offer_refusal``)."""

from __future__ import annotations

import pytest

from client.bots import RandomBot
from client.bots.answers import MAX_BOT_TAKEBACKS, accepts_draw
from client.bots.discorder import evaluate
from client.rules.errors import IntentRefused
from client.rules.records import DRAW_ACCEPT, DRAW_OFFER, RESIGN, TAKEBACK
from client.tabletop.events import ChatReceived, DrawAccepted
from engines import find_engine
from tests.client.harness import Router, Setup, act, forge

DISCORDER = find_engine("discorder")


def _person_against_own_bot() -> tuple[Setup, Router]:
    """Ann plays seat 1 by hand; her peer runs the sensible bot of seat 2."""
    setup = Setup(["A", "bot:A"], engine=DISCORDER, params=DISCORDER.sample_params[0])
    table = setup.table("A", bots=[2], bot_kind="sensible")
    router = Router({"A": table})
    router.start()
    router.run()
    return setup, router


def _blunder_until_lost(router: Router) -> None:
    """Ann plays the move her bot opponent likes best until seat 2 is clearly winning."""
    table = router.tables["A"]
    for step in range(60):
        state = table.head.engine_state
        if evaluate(state, 2) >= 150 or DISCORDER.outcome(state) is not None:
            break
        if DISCORDER.to_move(state) != 1:
            break
        moves = DISCORDER.legal_moves(state)
        worst = max(moves, key=lambda m: evaluate(DISCORDER.apply(state, m), 2))
        act(router, "A", table.move(worst, 1.0 + step))
    assert evaluate(table.head.engine_state, 2) >= 150
    assert DISCORDER.to_move(table.head.engine_state) == 1


def test_a_hosted_bot_that_is_winning_declines_a_draw() -> None:
    _setup, router = _person_against_own_bot()
    _blunder_until_lost(router)
    table = router.tables["A"]
    ply = table.head.ply
    winning = r"Bot 2 of A declines the draw \(it thinks it is winning\)"
    with pytest.raises(IntentRefused, match=winning):
        table.offer_draw(100.0)
    router.run()
    assert table.head.ply == ply and table.chain.outcome() is None  # nothing signed


def test_a_hosted_bot_that_is_not_winning_accepts_a_draw() -> None:
    _setup, router = _person_against_own_bot()
    table = router.tables["A"]
    state = table.head.engine_state
    bot = table.local._bots[table.head.seat_key(2)]  # the bot this peer runs
    assert accepts_draw(bot, DISCORDER, state, 2)  # level at the start: evaluate is 0
    act(router, "A", table.offer_draw(1.0))
    assert table.head.label == "draw agreed"


def test_a_player_who_resigned_cannot_offer_a_draw() -> None:
    params = find_engine("cognes").sample_params
    cognes = find_engine("cognes")
    p = next(p for p in params if cognes.seat_count(cognes.initial_state(p)) >= 3)
    seats = cognes.seat_count(cognes.initial_state(p))
    setup = Setup(["A", "B"] + ["bot:B"] * (seats - 2), engine=cognes, params=p)
    tables = {"A": setup.table("A", bots=()), "B": setup.table("B", bots=(), seed=1)}
    router = Router(tables)
    router.start()
    router.run()
    a = router.tables["A"]
    act(router, "A", a.resign(1.0, seat=1))
    assert a.chain.outcome() is None and a.head.record.kind == RESIGN
    with pytest.raises(IntentRefused, match="a player who resigned cannot offer a draw"):
        a.offer_draw(2.0)
    # A forged offer of hers (a modified client) is refused by the others, saying why.
    head = router.tables["B"].head
    offer = forge(setup, "A", DRAW_OFFER, {"ply": head.ply + 1, "prev": head.chain_digest})
    router.tables["B"].receive(offer, 3.0)
    reasons = [e.reason for e in router.tables["B"].rejected]
    assert any("offered a draw, but a player who resigned cannot" in r for r in reasons)


def test_a_hosted_bot_allows_a_few_takebacks_per_game() -> None:
    setup = Setup(["A", "bot:A"], engine=DISCORDER, params=DISCORDER.sample_params[0])
    table = setup.table("A", bots=[2], bot_kind="sensible", bot_delay=1000.0)
    router = Router({"A": table})
    router.start()
    router.run(until=1.0)
    for attempt in range(MAX_BOT_TAKEBACKS + 1):
        state = table.head.engine_state
        move = DISCORDER.legal_moves(state)[0]
        act_until(router, table.move(move, 2.0 + attempt))
        if attempt < MAX_BOT_TAKEBACKS:
            act_until(router, table.ask_takeback(2.5 + attempt))
            assert table.head.record.kind == TAKEBACK
        else:
            used = r"Bot 2 of A declines the takeback \(it allows 2 takebacks a game"
            with pytest.raises(IntentRefused, match=used):
                table.ask_takeback(2.5 + attempt)


def act_until(router: Router, output: object) -> None:
    """Deliver what Ann's table produced, without letting the bot's long delay pass."""
    router.take("A", output)  # type: ignore[arg-type]
    router.run(until=10.0)


def test_a_bot_peer_that_is_winning_does_not_accept_a_remote_draw_offer() -> None:
    """Bea plays by hand against a peer with no person (``--bot``, sensible)."""
    setup = Setup(["A", "B"], engine=DISCORDER, params=DISCORDER.sample_params[0])
    tables = {"A": setup.table("A", bot_kind="sensible"), "B": setup.table("B", bots=())}
    router = Router(tables)
    router.start()
    router.run()
    b = router.tables["B"]
    for step in range(60):
        state = b.head.engine_state
        if evaluate(state, 1) >= 150 or DISCORDER.to_move(state) != 2:
            break
        moves = DISCORDER.legal_moves(state)
        worst = max(moves, key=lambda m: evaluate(DISCORDER.apply(state, m), 1))
        act(router, "B", b.move(worst, 1.0 + step))
    assert evaluate(b.head.engine_state, 1) >= 150 and DISCORDER.to_move(b.head.engine_state) == 2
    ply = b.head.ply
    act(router, "B", b.offer_draw(b.head.ply + 2.0))
    assert router.of_type("B", DrawAccepted) == []
    assert b.head.ply == ply and b.chain.outcome() is None
    assert [e.record.kind for e in router.tables["A"].outside.entries] == [DRAW_OFFER, DRAW_ACCEPT]
    # What the bot peer itself asks for is its own seat's will: its bot is not asked again.
    act(router, "A", router.tables["A"].accept_draw(b.head.ply + 2.5))
    assert b.head.label == "draw agreed"


def test_a_bot_peer_that_is_not_winning_accepts_a_remote_draw_offer() -> None:
    setup = Setup(["A", "B"], engine=DISCORDER, params=DISCORDER.sample_params[0])
    tables = {"A": setup.table("A", bots=(), seed=0), "B": setup.table("B", bot_kind="sensible")}
    router = Router(tables)
    router.start()
    router.run()
    a = router.tables["A"]
    assert evaluate(a.head.engine_state, 2) == 0  # level before the first move
    act(router, "A", a.offer_draw(1.0))
    assert [e.author for e in router.of_type("A", DrawAccepted)] == [setup.key("B")]
    assert a.head.label == "draw agreed"


def test_the_random_bot_answers_by_a_coin_fixed_by_its_seed_and_the_position() -> None:
    state = DISCORDER.initial_state(DISCORDER.sample_params[0])
    positions = [state]
    for _ in range(12):
        state = DISCORDER.apply(state, DISCORDER.legal_moves(state)[0])
        positions.append(state)
    answers = [accepts_draw(RandomBot(5), DISCORDER, p, 1) for p in positions]
    assert answers == [accepts_draw(RandomBot(5), DISCORDER, p, 1) for p in positions]
    assert True in answers and False in answers  # a coin, not a fixed answer
    bot = RandomBot(5)
    bot.choose(DISCORDER, positions[3])  # its moves do not change its answers
    assert accepts_draw(bot, DISCORDER, positions[0], 1) == answers[0]


def test_a_bot_peer_that_declines_a_takeback_says_why_to_the_asker() -> None:
    """Bea plays by hand against a peer with no person (``--bot``): past the takebacks its bot
    allows, the bot peer answers her ask with a line in the chat, not with silence."""
    setup = Setup(["B", "A"], engine=DISCORDER, params=DISCORDER.sample_params[0])
    tables = {"B": setup.table("B", bots=()), "A": setup.table("A", bot_delay=1000.0)}
    router = Router(tables)
    router.start()
    router.run(until=1.0)
    b = tables["B"]
    for attempt in range(MAX_BOT_TAKEBACKS + 1):
        move = DISCORDER.legal_moves(b.head.engine_state)[0]
        router.take("B", b.move(move, router.now))
        router.take("B", b.ask_takeback(router.now))
        router.run(until=router.now + 1.0)
        taken = [s.record.kind for s in b.chain.states].count(TAKEBACK)
        assert taken == min(attempt + 1, MAX_BOT_TAKEBACKS)
    said = [event.text for event in router.of_type("B", ChatReceived)]
    assert said == ["The bot of seat 2 declines the takeback (it allows 2 takebacks a game, "
                    "and they are used)."]  # fmt: skip
    assert b.head.record.kind == "MOVE"  # the ask stands unanswered no more: play goes on
