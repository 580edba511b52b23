"""The host's lobby: seats first come or as asked, bots, ready, refusals, and the START."""

from __future__ import annotations

import pytest

from client.node.lobby import JoinRefused, Lobby
from client.rules.net_adapter import open_envelope
from client.rules.records import START
from client.rules.start import open_start
from client.tabletop.table import Table
from tests.client.envelopes import Identity, TestSigner
from tests.client.harness import TABLE_ID
from tests.client.tinygame import ENGINE

ANN, BOB, CAT, DAN, BOT = (Identity(i).key for i in range(1, 6))


def lobby(seats: int = 3) -> Lobby:
    return Lobby(ENGINE, {"seats": seats}, ANN, "Ann", away_ms=2000, idle_ms=9000)


def test_seats_are_taken_first_come_or_as_asked() -> None:
    table = lobby()
    assert table.seats[0] is not None and table.seats[0].key == ANN
    assert table.join(BOB, "Bob", seat=3) == 3
    assert table.join(CAT, "Cat") == 2
    with pytest.raises(JoinRefused, match=r"the table is full \(3 seats\); join with --watch"):
        table.join(DAN, "Dan")
    assert table.join(DAN, "Dan", watch=True) is None


def test_taken_missing_and_repeated_seats_are_refused_with_reasons() -> None:
    table = lobby()
    table.join(BOB, "Bob", seat=2)
    with pytest.raises(JoinRefused, match="seat 2 is taken by Bob"):
        table.join(CAT, "Cat", seat=2)
    with pytest.raises(JoinRefused, match="there is no seat 7: this table has seats 1 to 3"):
        table.join(CAT, "Cat", seat=7)
    with pytest.raises(JoinRefused, match="already at the table"):
        table.join(BOB, "Bob")


def test_bots_fill_seats_and_leave_with_their_runner() -> None:
    table = lobby()
    table.join(BOB, "Bob")
    assert table.add_bot(BOB, BOT) == 3
    with pytest.raises(JoinRefused, match="seat 3 is taken by a bot of Bob"):
        table.join(CAT, "Cat", seat=3)
    table.leave(BOB)
    assert table.seats[1] is None and table.seats[2] is None
    with pytest.raises(JoinRefused, match="only a player at the table can add a bot"):
        table.add_bot(CAT, BOT)


def test_start_waits_for_every_seat_and_every_ready_peer() -> None:
    table = lobby(2)
    assert table.waiting_for() == ["seat 2 is free", "Ann is not ready"]
    table.join(BOB, "Bob")
    table.set_ready(ANN)
    assert not table.can_start
    with pytest.raises(JoinRefused, match="cannot start yet: Bob is not ready"):
        table.start_body()
    table.set_ready(BOB)
    body = table.start_body()
    with pytest.raises(JoinRefused, match="already started; join with --watch"):
        table.join(CAT, "Cat")
    table.join(CAT, "Cat", watch=True)
    start, _ = open_start(TestSigner(Identity(1), TABLE_ID).sign(START, body), lambda n: ENGINE)
    assert [p.name for p in start.peers] == ["Ann", "Bob"]
    assert (start.away_ms, start.idle_ms) == (2000, 9000)


def test_the_lobby_start_opens_a_table() -> None:
    table = lobby()
    table.join(BOB, "Bob")
    table.add_bot(ANN, BOT)
    table.set_ready(ANN)
    table.set_ready(BOB)
    record = TestSigner(Identity(1), TABLE_ID).sign(START, table.start_body())
    spectator = Table(record, ENGINE, open_envelope)
    assert spectator.head.seats[2].runner == ANN
