"""A spectator's ``addresses`` are not taken as where the players listen, nor its ``ended``
as who holds every END.

Players tell each other where they listen (``addresses``, client.node.mesh), and a peer whose link
with a player is down dials the player where the book says.  A spectator is nobody at the
table: what it says about the players' addresses is nobody's word, else any watcher could
send the players dialing any address it likes (and keep a player who dropped out from being
found again).  Here eve, a real spectator watching through bob over real TCP on loopback,
says at every ply she sees that ann listens at 127.0.0.9:9; ann unplugs at her first turn;
bob, who lost his link with ann (and is the one to dial her again), must still hold ann's
own address.  She also
says every peer holds every END, from the start: bob must not believe it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import trio

from client.node.mesh import ADDRESSES, ENDED, Address
from client.runtime.peer import Peer, TableStarted
from client.tabletop.events import PlyApplied
from net.events import SendMessage
from tests.client.test_peer import ann_to_move, host, joiner

LIE = Address("127.0.0.9", 9)
"""Where eve says ann listens: nobody listens there."""


@pytest.mark.trio
async def test_a_spectators_addresses_are_not_where_the_players_listen(tmp_path: Path) -> None:
    params = {"seats": 3, "pile": 60}  # the game outlasts the away timeout (at least 5 s)
    table = host(tmp_path, bot_delay=0.05, away_ms=5000, params=params)
    await table.open(0)
    peers: dict[str, Peer] = {}
    believed: list[set[bytes]] = []
    """Who bob believes holds every END, at ply 20 (nobody does: no END is signed yet)."""

    def lie(eve: Peer) -> None:
        body = {"peers": [{"key": peers["ann"].me, "address": LIE.host, "port": LIE.port}]}
        everyone = [table.me, peers["ann"].me, peers["bob"].me]
        for link in eve.links:
            link.send(SendMessage(ADDRESSES, body))
            link.send(SendMessage(ENDED, {"keys": everyone}))  # "they all hold every END"

    def eve_lies(event: Any) -> None:  # at every ply eve sees
        if isinstance(event, PlyApplied):
            eve = peers["eve"]
            eve.call_soon(lambda: lie(eve))

    def at_bob(event: Any) -> None:  # eve watches through bob from the start
        if isinstance(event, PlyApplied) and event.state.ply == 20:
            believed.append(set(peers["bob"].node.conclusion.end_holders.keys))
        if isinstance(event, TableStarted) and "eve" not in peers:
            eve = joiner(tmp_path, "eve", peers["bob"].port, watch=True, bot_me=False)
            eve.observers.append(eve_lies)
            peers["eve"] = eve
            nursery.start_soon(eve.run)

    def at_ann(event: Any) -> None:  # ann unplugs at her turn
        ann = peers["ann"]
        if isinstance(event, PlyApplied) and ann_to_move(event):
            ann.call_soon(lambda: ann.finish(1, "unplugged"))

    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(table.run)
            for name, seat, delay in (("ann", 2, 0.5), ("bob", 3, 0.05)):  # ann's turn lasts
                peers[name] = joiner(tmp_path, name, table.port, seat=seat, bot_delay=delay)
                nursery.start_soon(peers[name].run)
            peers["bob"].observers.append(at_bob)
            peers["ann"].observers.append(at_ann)
    ann, bob, eve = peers["ann"], peers["bob"], peers["eve"]
    assert (table.exit_code, ann.exit_code, bob.exit_code, eve.exit_code) == (0, 1, 0, 0)
    ann_listens = Address("127.0.0.1", ann.port)
    assert bob.mesh.book[ann.me] == ann_listens, bob.mesh.book  # bob would dial LIE for her
    assert table.mesh.book[ann.me] == ann_listens, table.mesh.book  # nor did bob pass it on
    # Nor is eve's word on who holds every END taken (a peer leaves once all of them do:
    # believing eve, bob would leave before the others have his END).
    assert believed == [set()]
