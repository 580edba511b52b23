"""Takeback against bots in one process (``client.sessions.local_game``): the bots consent unless
they already moved on; a takeback is a ply of its own and is never taken back."""

from __future__ import annotations

import pytest
import trio

from client.sessions.session_api import SessionError
from tests.client.test_local_game import make_game, wait_for


@pytest.mark.trio
async def test_my_move_is_taken_back_unless_a_bot_already_moved_on(autojump_clock) -> None:  # type: ignore[no-untyped-def]
    game, events = make_game(bot_delay=2.0)
    start = game.snapshot.state
    game.take_back()
    assert events[-1] == SessionError("You cannot take back: no move has been played yet.")
    async with trio.open_nursery() as nursery:
        nursery.start_soon(game.serve)
        game.move([3])
        assert game.snapshot.can_take_back
        game.take_back()
        snapshot = game.snapshot
        assert [(p.kind, p.notation) for p in snapshot.plies] == [
            ("move", "+3"),
            ("takeback", "ply 1 taken back"),
        ]
        assert snapshot.state == start and snapshot.my_turn and not snapshot.can_take_back
        assert [entry.text for entry in snapshot.chat] == [
            "Ana asks to take back ply 1.",
            "The bots consent.",
        ]
        game.take_back()
        assert events[-1] == SessionError("You cannot take back: a takeback is never taken back.")
        await trio.sleep(5)  # the bot does not move: it is my turn again
        assert game.snapshot.ply == 2
        game.move([2])
        await wait_for(lambda: game.snapshot.ply == 4)  # the bot moved on
        assert not game.snapshot.can_take_back
        game.take_back()
        assert events[-1] == SessionError("You cannot take back: ply 4 is not your own move.")
        game.consent_takeback()
        assert events[-1] == SessionError("Nobody asks to take back a move.")
        game.leave()
