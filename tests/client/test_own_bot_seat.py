"""A player's own seat played by their palabre's bot (``--bot``): the join says it (``own_bot``,
its level), the host's roster and START carry it, and the lobby, the table's players list,
the terminal, the replay, ``palabre verify`` and ``palabre log show`` name that seat ``Bot 2
of Bob (strong)`` as they name the bots a host runs.  A START without it (every log before
it) reads as it always did; a person's seat with a bot's ``level`` stays refused."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
import trio

from client.commands.terminal import TerminalPlayer
from client.logs.log_show import game_lines
from client.logs.verifier import verify_file
from client.node.lobby_wire import JOIN, SCHEMAS, LobbyChanged, Roster
from client.rules.net_adapter import BadEnvelope, open_envelope
from client.rules.start import PeerSpec, SeatSpec, StartRefused, parse_start, start_body
from client.sessions.net_session import NetSession
from client.sessions.replay import Replay
from net.records import RECORD_TAG, Kind, seal
from net.wire import DecodeError, pack
from tests.bots.test_start_level import _engine_for as engine_for
from tests.bots.test_start_level import host_and_bob
from tests.client.envelopes import Identity
from tests.client.harness import TABLE_ID

HOST, GUEST = Identity(1), Identity(2)
BOB = "Bot 2 of Bob (strong)"


def _opened(body: dict[str, Any]) -> Any:
    envelope = seal(HOST.net, RECORD_TAG, pack([int(Kind.START), TABLE_ID, 1, body]))
    return parse_start(open_envelope(envelope))


def _body(guest: SeatSpec) -> dict[str, Any]:
    return start_body(
        game="grab",
        ruleset="grab/1",
        engine_version="1.0",
        params={"seats": 2},
        peers=(PeerSpec(HOST.key, "Ann"), PeerSpec(GUEST.key, "Bob")),
        seats=(SeatSpec(1, HOST.key), guest),
    )


def test_start_carries_a_seat_its_own_peers_bot_plays_and_old_starts_read_the_same() -> None:
    start = _opened(_body(SeatSpec(2, GUEST.key, own_bot="strong")))
    seat = start.seats[1]
    assert (seat.runner, seat.own_bot, seat.bot_runner, seat.bot_level) == (
        None,
        "strong",
        GUEST.key,
        "strong",
    )
    assert start.runner_of(GUEST.key) == GUEST.key  # still the peer's own key and seat
    old = _body(SeatSpec(2, GUEST.key))
    assert old["seats"][1] == {"key": GUEST.key, "runner": GUEST.key}  # the bytes as before
    assert _opened(old).seats[1].bot_runner is None


def test_own_bot_only_on_a_persons_seat_and_a_level_never_there() -> None:
    body = _body(SeatSpec(2, GUEST.key))
    body["seats"][1]["level"] = "strong"  # the conformance corpus's level-on-person case
    with pytest.raises(StartRefused, match="seat 2 is a person's and has a bot level"):
        _opened(body)
    body = _body(SeatSpec(2, GUEST.key))
    body["seats"][1]["runner"] = HOST.key
    body["seats"][1]["own_bot"] = "strong"
    with pytest.raises(StartRefused, match="seat 2 is a bot's"):
        _opened(body)
    body = _body(SeatSpec(2, GUEST.key, own_bot="Strong!"))
    with pytest.raises(BadEnvelope, match="own_bot"):
        _opened(body)


def test_join_takes_own_bot_as_a_level_or_not_at_all() -> None:
    schema = SCHEMAS[JOIN]
    base = {"name": "Bob", "seat": 0, "watch": False, "ready": True}
    schema.check(base, "join")  # a joiner from before it
    schema.check({**base, "own_bot": "easy"}, "join")
    with pytest.raises(DecodeError, match="own_bot"):
        schema.check({**base, "own_bot": "expert"}, "join")


@pytest.mark.trio
async def test_real_peers_name_a_joiner_played_by_its_bot_a_bot_everywhere(
    tmp_path: Path,
) -> None:
    host, bob = await host_and_bob(tmp_path, "random", "strong", seats=2, bob_says="strong")
    rosters: list[Roster] = []
    host.observers.append(lambda e: rosters.append(e.roster) if isinstance(e, LobbyChanged) else 0)
    lobby = NetSession(host)
    window: set[tuple[str, bool]] = set()
    terminal = TerminalPlayer(host, io.StringIO())
    turns: set[str] = set()

    def look(_event: Any) -> None:
        table = host.table
        if table is None or not lobby.started or table.chain.outcome() is not None:
            return
        window.update((seat.name, seat.is_bot) for seat in lobby.snapshot.seats)
        turns.add(terminal._whose_turn())

    host.observers.append(look)
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(host.run)
            nursery.start_soon(bob.run)
    seated = [s for roster in rosters for s in roster.seats if s.key == bob.me]
    assert seated and seated[-1].own_bot == "strong" and seated[-1].is_bot
    assert rosters[-1].holder(seated[-1]) == BOB
    lobby_seats = [s for s in lobby.lobby.view.seats if s.name == BOB]
    assert lobby_seats and lobby_seats[0].is_bot and lobby_seats[0].own_bot
    assert host.table is not None and bob.file is not None
    assert host.table.start.seats[1].own_bot == "strong"
    assert host.table.start.seats[0].own_bot is None  # the host said nothing: a person
    assert (BOB, True) in window and ("Ann", False) in window
    assert f"{BOB} is to move" in turns, turns
    verification = verify_file(bob.file.path, find=engine_for)
    assert verification.report.exit_code == 0
    assert any(BOB in line for line in verification.report.lines())
    assert any(BOB in line for line in game_lines(verification))
    players = {p["seat"]: p for p in verification.report.to_json()["players"]}
    assert (players[2]["name"], players[2]["bot"], players[2]["level"]) == (BOB, True, "strong")
    assert (players[1]["bot"], players[1]["level"]) == (False, None)
    replay = Replay.build(verification, lambda seat, runner, level: f"R{seat}/{runner}/{level}")
    assert [p.name for p in replay.players] == ["Ann", "R2/Bob/strong"]
    assert any(line.author == "R2/Bob/strong" for line in replay.lines if line.kind == "ply")
