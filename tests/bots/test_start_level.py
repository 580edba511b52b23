"""A bot seat's level in START: written by the host for the bots it runs, checked by the wire
schema and ``parse_start``, shown in the bot's name in the window, the terminal, ``palabre
verify`` and ``palabre log show``; a START without it (every log before it) stays valid."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
import trio

from client.bots import level_of_kind
from client.commands.terminal import TerminalPlayer
from client.logs.log_show import game_lines
from client.logs.verifier import verify_file
from client.node.hosting import HostConfig
from client.node.joining import JoinConfig
from client.node.peer_node import NodeConfig
from client.rules.net_adapter import BadEnvelope, open_envelope
from client.rules.start import PeerSpec, SeatSpec, StartRefused, parse_start, start_body
from client.runtime.peer import Peer
from client.sessions.net_session import NetSession
from net.identity import load_profile_identity
from net.records import RECORD_TAG, Kind, seal
from net.wire import pack
from tests.client.envelopes import Identity
from tests.client.harness import TABLE_ID
from tests.client.tinygame import ENGINE

HOST, GUEST, BOT = Identity(1), Identity(2), Identity(3)


def _body(bot_level: str | None = "strong") -> dict[str, Any]:
    return start_body(
        game="grab",
        ruleset="grab/1",
        engine_version="1.0",
        params={"seats": 3},
        peers=(PeerSpec(HOST.key, "Ann"), PeerSpec(GUEST.key, "Bob")),
        seats=(
            SeatSpec(1, HOST.key),
            SeatSpec(2, GUEST.key),
            SeatSpec(3, BOT.key, HOST.key, bot_level),
        ),
    )


def _opened(body: dict[str, Any]) -> Any:
    """The START as a peer takes it off the wire: the net schema, then ``parse_start`` (signed
    without the signer's own checks, which refuse a bad body before it is sent)."""
    envelope = seal(HOST.net, RECORD_TAG, pack([int(Kind.START), TABLE_ID, 1, body]))
    return parse_start(open_envelope(envelope))


def test_a_bot_seat_carries_its_level_and_a_start_without_one_stays_valid() -> None:
    start = _opened(_body("strong"))
    assert [seat.level for seat in start.seats] == [None, None, "strong"]
    assert start.name_of(BOT.key).startswith("the strong bot of seat 3 run by peer ")
    old = _opened(_body(None))
    assert [seat.level for seat in old.seats] == [None, None, None]
    assert "level" not in _body(None)["seats"][2]  # the bytes of a START before levels
    assert old.name_of(BOT.key).startswith("the bot of seat 3 run by peer ")


@pytest.mark.parametrize("level", ["", "Strong", "strong!", "x" * 17, 3])
def test_the_wire_refuses_a_level_that_is_not_a_short_word(level: Any) -> None:
    body = _body()
    body["seats"][2]["level"] = level
    with pytest.raises(BadEnvelope, match="level"):
        _opened(body)


def test_a_person_seat_with_a_level_or_an_unknown_seat_field_is_refused() -> None:
    body = _body()
    body["seats"][1]["level"] = "strong"
    with pytest.raises(StartRefused, match="seat 2 is a person's and has a bot level"):
        _opened(body)
    body = _body()
    body["seats"][2]["levl"] = "strong"
    with pytest.raises(BadEnvelope, match="unexpected field"):
        _opened(body)


def test_levels_name_kinds_and_themselves() -> None:
    assert [level_of_kind(k) for k in ("random", "sensible", "strong")] == [
        "easy",
        "normal",
        "strong",
    ]
    assert level_of_kind("easy") == "easy"
    with pytest.raises(ValueError, match="unknown bot level"):
        level_of_kind("expert")


def _engine_for(name: str) -> Any:
    assert name == "grab"
    return ENGINE


async def host_and_bob(
    tmp_path: Path,
    host_kind: str,
    bob_kind: str,
    *,
    bots: int = 0,
    bob_bot_seats: tuple[int, ...] = (),
    seats: int = 3,
    bob_says: str | None = None,
) -> tuple[Peer, Peer]:
    """Ann hosts a Grab of ``seats`` seats with ``bots`` bots of ``host_kind``; Bob's peer dials
    her, its bots (at ``bob_bot_seats``) of ``bob_kind``; both play by bots; Bob's join says
    his seat is his bot's at level ``bob_says`` (``--bot``), Ann says nothing."""

    def config(profile: str, kind: str) -> NodeConfig:
        return NodeConfig(
            profile=profile, home=tmp_path, engine_for=_engine_for, bot_delay=0.0, bot_me=True,
            bot_kind=kind,
        )  # fmt: skip

    host = Peer(
        load_profile_identity("host", tmp_path),
        HostConfig(ENGINE, {"seats": seats, "pile": 12}, "Ann", bots=bots),
        config("host", host_kind),
    )
    await host.open(0)
    bob = Peer(
        load_profile_identity("bob", tmp_path),
        JoinConfig(("127.0.0.1", host.port), "Bob", bot_seats=bob_bot_seats, own_bot=bob_says),
        config("bob", bob_kind),
    )
    return host, bob


@pytest.mark.trio
async def test_a_hosted_strong_bot_is_named_strong_at_the_table_and_in_its_log(
    tmp_path: Path,
) -> None:
    host, bob = await host_and_bob(tmp_path, "strong", "random", bots=1)
    session = NetSession(bob)
    terminal = TerminalPlayer(bob, io.StringIO())
    window: set[str] = set()
    turns: set[str] = set()

    def look(_event: Any) -> None:
        table = bob.table
        if table is None or not session.started or table.chain.outcome() is not None:
            return
        window.update(seat.name for seat in session.snapshot.seats)
        turns.add(terminal._whose_turn())  # what a move typed out of turn is answered

    bob.observers.append(look)
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(host.run)
            nursery.start_soon(bob.run)
    assert host.table is not None and bob.file is not None
    start = host.table.start
    assert [(seat.runner is not None, seat.level) for seat in start.seats].count(
        (True, "strong")
    ) == 1
    assert "Bot 2 of Ann (strong)" in window
    assert "Bot 2 of Ann (strong) is to move" in turns, turns
    # what ``palabre verify`` and ``palabre log show`` print (the commands' own engine lookup
    # knows no Grab, the tests' game: the verifier is given it)
    verification = verify_file(bob.file.path, find=_engine_for)
    assert verification.report.exit_code == 0
    assert any("Bot 2 of Ann (strong)" in line for line in verification.report.lines())
    assert any("Bot 2 of Ann (strong)" in line for line in game_lines(verification))
    levels = [player["level"] for player in verification.report.to_json()["players"]]
    assert sorted(levels, key=str) == [None, None, "strong"]


@pytest.mark.trio
async def test_a_bot_a_joiner_adds_sits_at_the_joiners_level(tmp_path: Path) -> None:
    """The ``add_bot`` lobby message says the level of the bot the joiner runs, so START
    names it as it names the host's own bots."""
    host, bob = await host_and_bob(tmp_path, "random", "strong", bob_bot_seats=(3,))
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(host.run)
            nursery.start_soon(bob.run)
    assert host.table is not None
    seat = host.table.start.seats[2]
    assert (seat.runner, seat.level) == (bob.me, "strong")


def test_add_bot_takes_a_level_or_none_and_refuses_any_other_word() -> None:
    from client.node.lobby_wire import ADD_BOT, SCHEMAS
    from net.wire import DecodeError

    schema = SCHEMAS[ADD_BOT]
    schema.check({"key": BOT.key, "seat": 0}, "add_bot")  # a joiner from before levels
    schema.check({"key": BOT.key, "seat": 3, "level": "strong"}, "add_bot")
    for level in ("expert", "Strong", "", 3):
        with pytest.raises(DecodeError, match="level"):
            schema.check({"key": BOT.key, "seat": 3, "level": level}, "add_bot")
