"""Hosting and joining in one process over real TCP on loopback (fast; the game is Grab).

Every peer is the real ``client.runtime.peer.Peer`` (hosting or joining) with its own profile
under ``tmp_path``;
only the engine lookup is the test's (Grab is not a palabre game).
"""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import trio

from client.commands.net_demo import file_chain
from client.commands.terminal import TerminalPlayer
from client.node.lobby_wire import LobbyChanged, Roster
from client.node.peer_events import JoinFailed
from client.runtime.peer import LinkLost, Peer, TableStarted
from client.sessions.net_session import NetSession
from client.sessions.session_api import ChatLine, SessionError, StateChanged
from client.tabletop.events import PlyApplied
from net.identity import load_profile_identity
from net.logfile import read_log
from net.records import open_record
from tests.client.peers import host_peer, join_peer
from tests.client.tinygame import ENGINE

GAME = {"seats": 3, "pile": 30}


def engine_for(name: str) -> Any:
    assert name == "grab"
    return ENGINE


def host(home: Path, **options: Any) -> Peer:
    options.setdefault("bot_delay", 0.0)
    options.setdefault("bot_me", True)
    params = options.pop("params", GAME)
    return host_peer(
        load_profile_identity("host", home),
        ENGINE,
        params,
        "Host",
        profile="host",
        home=home,
        engine_for=engine_for,
        **options,
    )


def joiner(home: Path, name: str, port: int, **options: Any) -> Peer:
    options.setdefault("bot_delay", 0.0)
    options.setdefault("bot_me", True)
    options.setdefault("engine_for", engine_for)
    target = options.pop("target", ("127.0.0.1", port))
    return join_peer(
        load_profile_identity(name, home), target, name, profile=name, home=home, **options
    )


def events_of(peer: Peer) -> list[Any]:
    seen: list[Any] = []
    peer.observers.append(seen.append)
    return seen


async def run_all(table_host: Peer, joiners: list[Callable[[int], Peer]]) -> list[int]:
    """Open the host, start the joiners against it; every exit code (host first)."""
    await table_host.open(0)
    codes: dict[int, int] = {}

    async def run(index: int, peer: Peer) -> None:
        codes[index] = await peer.run()  # type: ignore[attr-defined]

    with trio.fail_after(90):  # a hang, not a pace: a loaded machine may need 30 s
        async with trio.open_nursery() as nursery:
            nursery.start_soon(run, 0, table_host)
            for index, make in enumerate(joiners, 1):
                nursery.start_soon(run, index, make(table_host.port))
    return [codes[i] for i in range(len(joiners) + 1)]


@pytest.mark.trio
async def test_a_host_and_two_joiners_play_a_whole_game_and_agree(tmp_path: Path) -> None:
    table = host(tmp_path)
    peers: list[Peer] = [table]

    def make(name: str) -> Callable[[int], Peer]:
        def build(port: int) -> Peer:
            peer = joiner(tmp_path, name, port)
            peers.append(peer)
            return peer

        return build

    codes = await run_all(table, [make("ann"), make("bob")])
    assert codes == [0, 0, 0]
    digests = {peer.table.head.chain_digest for peer in peers if peer.table}
    assert len(digests) == 1
    for peer in peers:
        assert peer.table is not None and peer.table.ended
        assert peer.table.final_ply == peer.table.head.ply
        assert peer.file is not None
        chain = file_chain(peer.file.path, engine_for)
        assert chain == [s.record.record_hash for s in peer.table.chain.states[1:]]
        own = [open_record(d) for d in read_log(peer.file.path).records]
        seqs = [r.seq for r in own if r.author == peer.me]
        assert seqs == list(range(1, len(seqs) + 1))  # every record it signed, written ahead


@pytest.mark.trio
async def test_the_roster_names_keys_addresses_and_ports_and_waits_for_ready(
    tmp_path: Path,
) -> None:
    table = host(tmp_path, params={"seats": 2})
    rosters: list[Roster] = []
    late: list[Peer] = []

    def build(port: int) -> Peer:
        peer = joiner(tmp_path, "ann", port, ready=False)
        late.append(peer)

        def watch(event: Any) -> None:
            if isinstance(event, LobbyChanged):
                rosters.append(event.roster)
                if event.roster.waiting == ("ann is not ready",):
                    peer.call_soon(lambda: peer.set_ready(True))

        peer.observers.append(watch)
        return peer

    assert await run_all(table, [build]) == [0, 0]
    first = rosters[0]
    assert [p.name for p in first.peers] == ["Host", "ann"]
    assert first.peers[0].port == table.port and first.peers[0].address == ""
    assert first.peers[1].address == "127.0.0.1" and first.peers[1].port > 0  # it listens
    assert first.peers[1].key == late[0].me and not first.peers[1].ready
    assert [s.key for s in first.seats] == [table.me, late[0].me]
    assert rosters[-1].waiting == ()


@pytest.mark.trio
async def test_bots_come_and_go_by_lobby_message_and_a_taken_seat_is_refused(
    tmp_path: Path,
) -> None:
    table = host(tmp_path, params={"seats": 3, "pile": 30})
    await table.open(0)
    ann = joiner(tmp_path, "ann", table.port, seat=2, ready=False)
    bob = joiner(tmp_path, "bob", table.port, seat=2)
    seen: list[Roster] = []
    steps: list[str] = []

    def watch(event: Any) -> None:
        if not isinstance(event, LobbyChanged):
            return
        seen.append(event.roster)
        seat3 = event.roster.seats[2]
        if not steps:
            steps.append("add")
            ann.call_soon(lambda: ann.add_bot(3))
        elif steps == ["add"] and seat3.runner == ann.me:
            steps.append("remove")
            ann.call_soon(lambda: ann.remove_bot(3))
        elif steps == ["add", "remove"] and seat3.key is None:
            steps.append("bob")
            nursery.start_soon(bob.run)  # asks for ann's seat

    def refused(event: Any) -> None:
        if isinstance(event, JoinFailed):  # then ann seats a bot again and is ready
            ann.call_soon(lambda: ann.add_bot(3))
            ann.call_soon(lambda: ann.set_ready(True))

    ann.observers.append(watch)
    failures = events_of(bob)
    bob.observers.append(refused)
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(table.run)
            nursery.start_soon(ann.run)
    assert (table.exit_code, ann.exit_code, bob.exit_code) == (0, 0, 4)
    refusal = next(e for e in failures if isinstance(e, JoinFailed))
    assert refusal.refused and "seat 2 is taken by ann" in refusal.reason
    assert ann.table is not None and ann.table.start.seats[2].runner == ann.me
    assert any(r.seats[2].key is None for r in seen[1:])


@pytest.mark.trio
async def test_a_spectator_after_start_receives_everything_and_signs_nothing(
    tmp_path: Path,
) -> None:
    table = host(tmp_path, params={"seats": 2}, bots=1, bot_delay=0.02)
    spectators: list[Peer] = []
    await table.open(0)

    def start_spectator(event: Any) -> None:
        if isinstance(event, PlyApplied) and event.state.ply == 3 and not spectators:
            peer = joiner(tmp_path, "eve", table.port, watch=True, bot_me=False)
            spectators.append(peer)
            nursery.start_soon(peer.run)

    table.observers.append(start_spectator)
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(table.run)
    eve = spectators[0]
    assert eve.exit_code == 0 and table.exit_code == 0
    assert eve.table is not None and eve.table.me is None
    assert eve.table.head.chain_digest == table.table.head.chain_digest  # type: ignore[union-attr]
    assert eve.file is not None
    assert all(open_record(d).author != eve.me for d in read_log(eve.file.path).records)


def ann_to_move(event: PlyApplied) -> bool:
    """Whether ann's seat (2) is to move after this ply, played by ann herself."""
    state = event.state.engine_state
    seat = ENGINE.to_move(state)
    return seat == 2 and ENGINE.controller(state, seat) == 2


@pytest.mark.trio
async def test_a_player_lost_after_start_is_voted_off_and_a_bot_takes_its_seat(
    tmp_path: Path,
) -> None:
    params = {"seats": 3, "pile": 60}  # the game outlasts the away timeout (at least 5 s)
    table = host(tmp_path, bot_delay=0.05, away_ms=5000, params=params)
    lost: list[LinkLost] = []
    table.observers.append(lambda e: lost.append(e) if isinstance(e, LinkLost) else None)
    others: list[Peer] = []

    def quitter(port: int) -> Peer:
        peer = joiner(tmp_path, "ann", port, bot_me=False)  # she never moves: no race

        def watch(event: Any) -> None:  # ann leaves when it is her turn: the game waits
            if isinstance(event, PlyApplied) and ann_to_move(event):
                peer.call_soon(lambda: peer.finish(1, "unplugged"))

        peer.observers.append(watch)
        return peer

    def stayer(port: int) -> Peer:
        peer = joiner(tmp_path, "bob", port, bot_delay=0.05)
        others.append(peer)
        return peer

    codes = await run_all(table, [quitter, stayer])
    assert codes == [0, 1, 0]
    assert lost and not lost[0].fatal and lost[0].name == "ann"
    bob = others[0]
    assert table.table is not None and bob.table is not None
    assert table.table.ended and bob.table.ended
    assert table.table.head.chain_digest == bob.table.head.chain_digest
    removes = [s for s in table.table.chain.states if s.record.kind == "REMOVE"]
    assert len(removes) == 1 and removes[0].record.author == table.me  # the lowest seat
    ann = load_profile_identity("ann", tmp_path).public_key
    assert ann not in table.table.head.peers


@pytest.mark.trio
async def test_a_network_session_plays_moves_chats_and_follows_the_lobby(tmp_path: Path) -> None:
    table = host(tmp_path, params={"seats": 2}, bot_me=False, auto_start=False, stay=True)
    hosting = NetSession(table)
    events: list[Any] = []
    hosting.subscribe(events.append)
    lobby_views: list[Any] = []
    hosting.lobby.subscribe(lambda: lobby_views.append(hosting.lobby.view))

    async with trio.open_nursery() as nursery:
        nursery.start_soon(hosting.serve)
        with trio.fail_after(10):
            while not hosting.lobby.view.invite:
                await trio.sleep(0.01)
        bot = joiner(tmp_path, "ann", table.port)
        nursery.start_soon(bot.run)
        with trio.fail_after(10):
            while not (hosting.lobby.view.seats and hosting.lobby.view.seats[1].ready):
                await trio.sleep(0.01)
        hosting.start()  # not ready yet: refused with the reason
        assert "Host is not ready" in hosting.lobby.view.status
        hosting.set_ready(True)
        hosting.start()
        assert hosting.started
        with trio.fail_after(10):
            while table.table is None or table.table.final_ply < 0:  # the genesis is final
                await trio.sleep(0.01)
        assert hosting.snapshot.my_turn
        hosting.move([9])  # Grab takes 1 to 3 stones
        assert isinstance(events[-1], SessionError)
        hosting.move([2])
        hosting.chat("bonjour")
        with trio.fail_after(10):
            while hosting.snapshot.ply < 2:
                await trio.sleep(0.01)
        snapshot = hosting.snapshot
        assert snapshot.plies[0].notation == "t2" and snapshot.plies[0].seat == 1
        assert snapshot.my_seat == 1 and snapshot.seats[1].name == "ann"
        assert any(isinstance(e, ChatLine) and e.entry.text == "bonjour" for e in events)
        assert any(isinstance(e, StateChanged) for e in events)
        hosting.leave()
        with trio.fail_after(10):
            await table.done.wait()
        nursery.cancel_scope.cancel()  # ann would wait for the host to be away, then end it
    assert lobby_views[0].is_host
    assert table.exit_code == 0


@pytest.mark.trio
async def test_a_person_plays_from_the_terminal_with_typed_lines(tmp_path: Path) -> None:
    table = host(tmp_path, params={"seats": 2})
    out = io.StringIO()
    typed: list[str] = []

    def build(port: int) -> Peer:
        peer = joiner(tmp_path, "ann", port, bot_me=False)
        player = TerminalPlayer(peer, out)

        def answer() -> None:  # after the player's own prompt, which it queued first
            if out.getvalue().count("Your turn") > len(typed):
                lines = ["t9", "chat hi", "t1"] if not typed else ["resign"]
                typed.append(lines[-1])
                for line in lines:
                    player.handle(line)

        peer.observers.append(lambda event: peer.call_soon(answer))
        return peer

    assert await run_all(table, [build]) == [0, 0]
    text = out.getvalue()
    assert "Your turn (seat 2): type a move (like t1), or help for the commands" in text
    assert "Not a move here" in text
    assert typed == ["t1", "resign"]
    assert table.table is not None
    ann = [s.label for s in table.table.chain.states[1:] if s.record.author != table.me]
    assert ann == ["t1", "seat 2 resigns"]


@pytest.mark.trio
async def test_a_spectator_whose_peer_leaves_watches_through_another(tmp_path: Path) -> None:
    """Eve watches through ann; ann leaves mid-game (and is voted off): eve asks another peer
    of the mesh to let it watch and ends with the same chain."""
    table = host(tmp_path, bot_delay=0.05, away_ms=5000, params={"seats": 3, "pile": 60})
    await table.open(0)
    peers: dict[str, Peer] = {}

    def watch_ann(event: Any) -> None:
        ann = peers["ann"]
        if isinstance(event, TableStarted) and "eve" not in peers:
            eve = joiner(tmp_path, "eve", ann.port, watch=True, bot_me=False)
            peers["eve"] = eve
            nursery.start_soon(eve.run)
        if isinstance(event, PlyApplied) and ann_to_move(event):
            nursery.start_soon(leave_once_eve_watches, ann)

    async def leave_once_eve_watches(ann: Peer) -> None:
        while peers["eve"].table is None:  # ann's bot waits 0.5 s: eve is in long before
            await trio.sleep(0.01)
        ann.finish(1, "unplugged")

    with trio.fail_after(40):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(table.run)
            for name in ("ann", "bob"):
                delay = 0.5 if name == "ann" else 0.05  # ann's turn lasts: she leaves then
                peers[name] = joiner(tmp_path, name, table.port, bot_delay=delay)
                nursery.start_soon(peers[name].run)
            peers["ann"].observers.append(watch_ann)
    eve, bob = peers["eve"], peers["bob"]
    assert (table.exit_code, peers["ann"].exit_code, bob.exit_code, eve.exit_code) == (0, 1, 0, 0)
    assert eve.table is not None and eve.table.ended and eve.table.me is None
    assert table.table is not None and table.table.ended
    assert eve.table.head.chain_digest == table.table.head.chain_digest
    assert any(s.record.kind == "REMOVE" for s in eve.table.chain.states)
