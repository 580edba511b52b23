"""A clocked table's lobby: the roster carries the time control START will pin, and the
terminal's lobby says it and, when only two machines are at the table, what a clock between
two machines cannot do (bots run by a machine count as that machine)."""

from __future__ import annotations

import io

from client.commands.headless import TWO_MACHINES, Printer
from client.node.lobby_wire import (
    ROSTER,
    SCHEMAS,
    LobbyChanged,
    Roster,
    RosterPeer,
    RosterSeat,
    read_roster,
    roster_body,
)
from client.rules.clock import ClockSpec, parse_time_control
from client.runtime.peer import Peer
from net.identity import Identity
from net.wire import pack, unpack

CLOCK = parse_time_control("5+3")


def over_the_wire(body: object) -> object:
    """The body as the other side decodes it, checked against the topic's schema."""
    decoded = unpack(pack(body), "roster")
    SCHEMAS[ROSTER].check(decoded, "roster")
    return decoded


def roster(machines: int, clock: ClockSpec | None = CLOCK, bots: int = 0) -> Roster:
    keys = [bytes([n]) * 32 for n in range(1, machines + 1)]
    peers = tuple(RosterPeer(key, f"P{n}", "", 0, False) for n, key in enumerate(keys, 1))
    seats = [RosterSeat(n, key, None) for n, key in enumerate(keys, 1)]
    seats += [
        RosterSeat(machines + n, bytes([100 + n]) * 32, keys[0], "normal")
        for n in range(1, bots + 1)
    ]
    return Roster("discorder", "r", "1", {}, peers, tuple(seats), 0, (), clock)


def test_the_roster_carries_the_clock_and_a_roster_without_one_is_as_before() -> None:
    clocked = roster(2)
    body = roster_body(clocked)
    assert body["clock"] == CLOCK.to_body()
    assert read_roster(over_the_wire(body)) == clocked  # type: ignore[arg-type]
    plain = roster_body(roster(2, clock=None))
    assert "clock" not in plain  # what a host before clocks sent, byte for byte
    assert read_roster(plain).clock is None


def test_a_clock_no_table_could_pin_reads_as_none_without_raising() -> None:
    body = roster_body(roster(2))
    body["clock"] = {**CLOCK.to_body(), "ack_ms": 1}  # a stall timeout under 5 s
    decoded = over_the_wire(body)  # well formed...
    assert read_roster(decoded).clock is None  # type: ignore[arg-type]  # ...but no clock


def printed(*rosters: Roster) -> list[str]:
    out = io.StringIO()
    printer = Printer(Peer(Identity.generate()), out)
    try:
        for each in rosters:
            printer(LobbyChanged(each))
    finally:
        printer.close()
    return [line for line in out.getvalue().splitlines() if "is at the table" not in line]


def test_the_terminal_lobby_says_the_clock_once_and_the_two_machine_limit_at_two() -> None:
    lines = printed(roster(1, bots=1), roster(2, bots=1), roster(2, bots=1), roster(3))
    assert lines == [
        "lobby: clock 5 min + 3 s a move for each player",
        f"lobby: {TWO_MACHINES}",  # once, when the second machine came; bots do not count
    ]
    assert "neither can make the other's player lose on time" in TWO_MACHINES
    assert "disputed" in TWO_MACHINES
    assert printed(roster(2, clock=None)) == []  # no clock, nothing said
