"""The local game against bots: intents, bots paced in trio time, events, resign and draws.

Played with the tiny "race to 21" game of ``tests/toy_engine.py`` so each rule of the session
is visible in a few plies; the Consensus games through the window are in ``tests/ui``.
"""

from __future__ import annotations

import pytest
import trio

from client.sessions.local_game import MAX_CHAT_LENGTH, LocalGame
from client.sessions.session_api import (
    ChatLine,
    GameEnded,
    PlayersChanged,
    SessionError,
    SessionEvent,
    StateChanged,
)
from engines import InvalidParams
from tests.toy_engine import RACE


def make_game(**options: object) -> tuple[LocalGame, list[SessionEvent]]:
    game = LocalGame(
        RACE, {"seats": 2}, player_name="Ana", bot_kind="random", think_in_thread=False, **options
    )  # type: ignore[arg-type]
    events: list[SessionEvent] = []
    game.subscribe(events.append)
    return game, events


async def wait_for(predicate, timeout: float = 30.0) -> None:  # type: ignore[no-untyped-def]
    with trio.fail_after(timeout):
        while not predicate():
            await trio.sleep(0.01)


@pytest.mark.trio
async def test_a_move_is_played_then_the_bot_answers_after_its_delay(autojump_clock) -> None:  # type: ignore[no-untyped-def]
    game, events = make_game(bot_delay=2.0)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(game.serve)
        assert game.snapshot.my_turn
        game.move([3])
        assert [ply.notation for ply in game.snapshot.plies] == ["+3"]
        assert events[0] == StateChanged(1, 1, game.snapshot.plies[0])
        assert not game.snapshot.my_turn
        before = trio.current_time()
        await wait_for(lambda: game.snapshot.ply == 2)
        assert trio.current_time() - before >= 2.0
        second = game.snapshot.plies[1]
        assert (second.seat, second.player, second.kind) == (2, 2, "move")
        assert game.snapshot.state.count == 3 + second.wire[0]
        assert game.snapshot.my_turn
        game.leave()


@pytest.mark.trio
async def test_moves_out_of_turn_or_illegal_are_refused_with_a_reason(autojump_clock) -> None:  # type: ignore[no-untyped-def]
    game, events = make_game(bot_delay=5.0)
    game.move([4])
    assert events == [SessionError("That move is not allowed: cannot add 4 to 0")]
    game.move([1, 2])
    assert isinstance(events[-1], SessionError) and "a race move is [n]" in events[-1].message
    assert game.snapshot.ply == 0
    game.move([1])
    game.move([1])
    assert events[-1] == SessionError("It is not your turn.")
    assert game.snapshot.ply == 1


@pytest.mark.trio
async def test_chat_lines_are_kept_and_announced() -> None:
    game, events = make_game()
    game.chat("  bonjour à tous  ")
    game.chat("   ")
    game.chat("x" * (MAX_CHAT_LENGTH + 1))
    assert [entry.text for entry in game.snapshot.chat] == ["bonjour à tous"]
    assert game.snapshot.chat[0].author == "Ana" and game.snapshot.chat[0].seat == 1
    assert isinstance(events[0], ChatLine) and events[0].entry.text == "bonjour à tous"
    assert isinstance(events[1], SessionError)


@pytest.mark.trio
async def test_a_resignation_out_of_turn_waits_for_the_turn_then_ends_the_game(
    autojump_clock,
) -> None:  # type: ignore[no-untyped-def]
    game, events = make_game(bot_delay=1.0)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(game.serve)
        game.move([2])
        game.resign()
        assert game.snapshot.resign_pending and game.snapshot.outcome is None
        await wait_for(lambda: game.snapshot.outcome is not None)
        plies = game.snapshot.plies
        assert [ply.kind for ply in plies] == ["move", "move", "resign"]
        assert plies[2].notation == "Ana resigns" and plies[2].player == 1
        outcome = game.snapshot.outcome
        assert outcome is not None and outcome.winners == (2,)
        assert isinstance(events[-1], GameEnded) and events[-1].outcome == outcome
        assert game.snapshot.chat[-1].text.startswith("Game over: ")
        game.resign()
        assert events[-1] == SessionError("The game is over.")
        game.leave()


@pytest.mark.trio
async def test_bots_decline_or_accept_a_draw_as_configured() -> None:
    game, _ = make_game()
    game.offer_draw()
    assert game.snapshot.outcome is None
    assert game.snapshot.chat[-1].text == "The bots decline the draw; play goes on."
    game, events = make_game(bots_accept_draws=True)
    game.offer_draw()
    outcome = game.snapshot.outcome
    assert outcome is not None and outcome.draw
    assert game.snapshot.plies[-1].kind == "draw"
    game.accept_draw()
    assert events[-1] == SessionError("Nobody offers a draw.")


@pytest.mark.trio
async def test_bots_alone_play_a_four_seat_game_to_its_end_and_leave_stops_serve(
    autojump_clock,
) -> None:  # type: ignore[no-untyped-def]
    game = LocalGame(
        RACE,
        {"seats": 4},
        my_seat=3,
        bot_kind="random",
        seed=7,
        bot_delay=0.3,
        think_in_thread=False,
    )
    async with trio.open_nursery() as nursery:
        nursery.start_soon(game.serve)
        while game.snapshot.outcome is None:
            await wait_for(lambda: game.snapshot.my_turn or game.snapshot.outcome is not None)
            if game.snapshot.outcome is None:
                game.move([1])
        assert game.snapshot.state.count == 21
        assert {ply.seat for ply in game.snapshot.plies} == {1, 2, 3, 4}
        game.leave()
    assert game.snapshot.final_ply == game.snapshot.ply


def test_a_seat_outside_the_game_is_refused() -> None:
    with pytest.raises(InvalidParams, match="between 1 and 2"):
        LocalGame(RACE, {"seats": 2}, my_seat=3)


@pytest.mark.trio
async def test_a_consensus_game_announces_plies_and_control_and_the_fallen_cannot_resign(
    autojump_clock,  # type: ignore[no-untyped-def]
) -> None:
    from client.bots import RandomBot
    from engines.consensus import ENGINE

    game = LocalGame(
        ENGINE, {"seats": 4}, bot_kind="random", seed=1, bot_delay=0.5, think_in_thread=False
    )
    seen: list[tuple[SessionEvent, tuple[int, ...]]] = []

    def record(event: SessionEvent) -> None:
        state = game.snapshot.state
        seen.append((event, tuple(ENGINE.controller(state, seat) for seat in range(1, 5))))

    game.subscribe(record)
    me = RandomBot(1)
    errors: list[SessionError] = []
    game.subscribe(lambda event: isinstance(event, SessionError) and errors.append(event))

    def taken_over() -> bool:
        return ENGINE.controller(game.snapshot.state, 1) != 1

    async with trio.open_nursery() as nursery:
        nursery.start_soon(game.serve)
        while game.snapshot.outcome is None and not taken_over():
            await wait_for(
                lambda: game.snapshot.my_turn or game.snapshot.outcome is not None or taken_over()
            )
            if game.snapshot.my_turn:
                game.move(ENGINE.move_to_wire(me.choose(ENGINE, game.snapshot.state)))
        # My Président fell: the bots play on to the end, and I have nothing to resign.
        assert taken_over(), "seat 1 kept its Président in this game: pick another seed"
        game.resign()
        assert errors[-1].message.startswith("You no longer control any pieces")
        assert not game.snapshot.resign_pending
        await wait_for(lambda: game.snapshot.outcome is not None)
        game.leave()
    plies = [event.ply for event, _ in seen if isinstance(event, StateChanged)]
    assert plies == list(range(1, game.snapshot.ply + 1))
    changes = [(event, now) for event, now in seen if isinstance(event, PlayersChanged)]
    assert changes, "no Président was killed in this game: pick another seed"
    for event, now in changes:
        assert tuple(view.controller for view in event.seats) == now
    assert isinstance(seen[-1][0], GameEnded)
    assert game.snapshot.final_ply == game.snapshot.ply
