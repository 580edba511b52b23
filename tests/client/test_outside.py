"""Records outside the chain, and intents a table refuses with a reason."""

from __future__ import annotations

import pytest

from client.rules.errors import IntentRefused, LocalTableError
from client.rules.records import CHAT, POINT
from client.tabletop.events import ChatReceived, DrawAccepted, DrawOffered, PointReceived
from tests.client.harness import Router, Setup, act, deliver, forge, forge_raw, world


def test_chat_and_pointing_reach_everyone_and_change_nothing() -> None:
    setup, router = world(["A", "B", "C"], params={"seats": 3, "pile": 30})
    digest = router.tables["A"].head.chain_digest
    act(router, "B", router.tables["B"].chat("bonjour à tous", 1.0))
    act(router, "C", router.tables["C"].point([(4, 5), (7, 12)], [40], 2.0))
    for name, table in router.tables.items():
        chats = router.of_type(name, ChatReceived)
        assert [(c.text, c.author) for c in chats] == [("bonjour à tous", setup.key("B"))]
        assert chats[0].name.endswith("(B)")
        points = router.of_type(name, PointReceived)
        assert [(p.ply, p.arrows, p.squares) for p in points] == [(0, ((4, 5), (7, 12)), (40,))]
        assert table.head.chain_digest == digest and table.head.ply == 0
        assert [e.record.kind for e in table.outside.entries] == [CHAT, POINT]
        assert [r.kind for r in router.logs[name]][-2:] == [CHAT, POINT]


def test_outside_records_are_kept_in_arrival_order() -> None:
    setup, router = world(["A", "B"])
    first = forge(setup, "A", CHAT, {"text": "one"})
    second = forge(setup, "B", CHAT, {"text": "two"})
    a, b = router.tables["A"], router.tables["B"]
    a.receive(second, 1.0)
    a.receive(first, 1.0)
    b.receive(first, 1.0)
    b.receive(second, 1.0)
    assert [e.text for e in a.outside.entries] == ["two", "one"]
    assert [e.text for e in b.outside.entries] == ["one", "two"]


def test_bad_outside_records_are_refused() -> None:
    setup, router = world(["A", "bot:A", "B"])
    deliver(router, forge(setup, 2, CHAT, {"text": "beep"}), to=["B"])
    # Bodies net's schemas would refuse: the core's own readers refuse them too.
    b = router.tables["B"]
    b.receive(forge_raw(setup, "A", CHAT, {"text": 42}), 1.0)
    b.receive(forge_raw(setup, "A", POINT, {"ply": 0, "arrows": [["a"]], "squares": []}), 1.0)
    b.receive(forge_raw(setup, "A", "WAVE", {}), 1.0)
    reasons = [evidence.reason for evidence in b.rejected]
    bot = router.tables["B"].describe(setup.bot_identities[2].key)
    ann = router.tables["B"].describe(setup.key("A"))
    assert reasons == [
        f"{bot} is no peer at this table and may not sign a CHAT",
        f"{ann} sent a malformed CHAT: field 'text' is not text",
        f"{ann} sent a malformed POINT: an arrow is not a pair of squares",
        f"{ann} sent a record of unknown kind 'WAVE'",
    ]
    assert bot.startswith("the bot of seat 2 run by peer ")


def test_draw_offers_and_acceptances_are_shown_and_lapse_with_a_move() -> None:
    setup, router = world(["A", "B"])
    act(router, "B", router.tables["B"].offer_draw(1.0))
    assert [e.author for e in router.of_type("A", DrawOffered)] == [setup.key("B")]
    with pytest.raises(IntentRefused, match="already agreed to a draw in this position"):
        router.tables["B"].offer_draw(1.5)
    act(router, "A", router.tables["A"].move(2, 2.0))  # the offer lapses
    with pytest.raises(IntentRefused, match="nobody has offered a draw in this position"):
        router.tables["B"].accept_draw(3.0)
    act(router, "A", router.tables["A"].offer_draw(4.0))
    act(router, "B", router.tables["B"].accept_draw(5.0))
    assert [e.author for e in router.of_type("A", DrawAccepted)] == [setup.key("B")]
    assert router.tables["A"].head.label == "draw agreed"


def test_intents_are_refused_with_reasons() -> None:
    _setup, router = world(["A", "B", "C"], params={"seats": 3, "pile": 30})
    a, b = router.tables["A"], router.tables["B"]
    with pytest.raises(IntentRefused, match="it is seat 1's turn, not yours"):
        b.move(1, 1.0)
    with pytest.raises(IntentRefused, match="you may take 1, 2 or 3 stones"):
        a.move(5, 1.0)
    act(router, "A", a.move(3, 1.0))  # captures seat 2
    with pytest.raises(IntentRefused, match="it is seat 2's turn, played by seat 1, not yours"):
        b.move(1, 2.0)
    with pytest.raises(IntentRefused, match="seat 3 is not yours to resign"):
        b.resign(2.0, seat=3)
    with pytest.raises(IntentRefused, match="the message is empty"):
        b.chat("  ", 2.0)
    with pytest.raises(IntentRefused, match="at most 500 characters"):
        b.chat("x" * 501, 2.0)
    with pytest.raises(IntentRefused, match="not a square of this board"):
        b.point([(1, 70000)], [], 2.0)


def test_records_wait_for_begin_and_a_finished_game_takes_no_resignation() -> None:
    setup = Setup(["A", "B"], params={"seats": 2, "pile": 1})
    table = setup.table("A", bots=())
    assert table.receive(forge(setup, "B", CHAT, {"text": "early"}), 0.0).events == []
    assert [type(e) for e in table.begin(0.0).events] == [ChatReceived]
    router = Router({n: setup.table(n, bots=()) for n in "AB"})
    router.start()
    router.run()
    act(router, "A", router.tables["A"].move(1, 1.0))
    with pytest.raises(IntentRefused, match="the game is over"):
        router.tables["B"].resign(2.0)
    with pytest.raises(LocalTableError, match="has begun already"):
        router.tables["B"].begin(3.0)


def test_a_player_sending_faster_than_the_others_take_is_told_and_nothing_is_signed() -> None:
    """The others drop what comes past a person's pace (client/tabletop/flood_guard.py): the table
    refuses it here first, so the player knows, and no seq is spent on it."""
    from client.tabletop.flood_guard import CHAT_BURST, CHAT_PER_SECOND, POINT_BURST

    _setup, router = world(["A", "B"])
    a = router.tables["A"]
    for n in range(CHAT_BURST):
        act(router, "A", a.chat(f"line {n}", 1.0))
    logged = len(router.logs["A"])
    with pytest.raises(IntentRefused, match="faster than the table takes them; wait a moment"):
        a.chat("one more", 1.0)
    assert len(router.logs["A"]) == logged  # nothing signed, nothing journaled
    for _ in range(POINT_BURST):  # pointing has its own pace
        act(router, "A", a.point([(1, 2)], [], 1.0))
    with pytest.raises(IntentRefused, match="pointing faster than the table takes it"):
        a.point([(1, 2)], [], 1.0)
    act(router, "A", a.chat("later", 1.0 + 1.5 / CHAT_PER_SECOND))  # the pace comes back
    chats = router.of_type("B", ChatReceived)
    assert len(chats) == CHAT_BURST + 1 and chats[-1].text == "later"
