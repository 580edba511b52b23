"""The table's one way in, ``Table.handle`` (issue 22): inputs carry ``now``; a refused
intent raises ``IntentRefused`` with nothing signed; records before ``Begin`` wait."""

from __future__ import annotations

import pytest

from client.rules.errors import IntentRefused, LocalTableError
from client.rules.records import CHAT
from client.tabletop.events import ChatReceived, PlyApplied
from client.tabletop.table_input import Begin, Chat, PlayMove, Received, Resign, Tick
from tests.client.harness import Setup, act, forge, world


def test_a_refused_intent_raises_and_signs_nothing() -> None:
    _setup, router = world(["A", "B"])
    b = router.tables["B"]
    head, sent = b.head, len(router.sent)
    with pytest.raises(IntentRefused, match="turn, not yours"):
        b.handle(PlayMove(1, 5.0))
    with pytest.raises(IntentRefused, match="seat 1 is not yours"):
        b.handle(Resign(5.0, seat=1))
    out = b.handle(Tick(6.0))
    assert out.send == [] and out.log == [] and b.head == head and len(router.sent) == sent


def test_an_accepted_intent_returns_what_it_signed() -> None:
    setup, router = world(["A", "B"])
    out = act(router, "A", router.tables["A"].handle(PlayMove(2, 1.0)))
    assert [record.kind for record in out.send] == ["MOVE", "ACK"]
    assert out.log == out.send
    assert [event.state.ply for event in out.of_type(PlyApplied)] == [1]
    chat = act(router, "B", router.tables["B"].handle(Chat("bien joué", 2.0)))
    assert [record.author for record in chat.send] == [setup.key("B")]
    texts = [event.text for event in router.of_type("A", ChatReceived)]
    assert texts == ["bien joué"]


def test_records_before_begin_wait_and_a_second_begin_is_our_bug() -> None:
    setup = Setup(["A", "B"])
    table = setup.table("A", bots=())
    early = forge(setup, "B", CHAT, {"text": "déjà là"})
    assert table.handle(Received(early, 0.5)).events == []
    out = table.handle(Begin(1.0))
    assert [event.text for event in out.of_type(ChatReceived)] == ["déjà là"]
    with pytest.raises(LocalTableError):
        table.handle(Begin(2.0))
