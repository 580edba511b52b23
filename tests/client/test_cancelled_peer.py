"""A peer whose task is cancelled mid-game (a window closed, a test torn down) leaves
nothing to the garbage collector: its game file and listening sockets are closed there and
then (an unclosed one is a ResourceWarning later, in whatever runs next)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import trio

from client.runtime.peer import Peer
from client.tabletop.events import PlyFinal
from tests.client.test_peer import host, joiner


@pytest.mark.trio
async def test_peers_cancelled_mid_game_close_their_game_files_and_sockets(
    tmp_path: Path,
) -> None:
    table = host(tmp_path, params={"seats": 2, "pile": 200}, bot_delay=0.05)
    await table.open(0)
    ann: Peer = joiner(tmp_path, "ann", table.port, bot_delay=0.05)
    reached = trio.Event()

    def at_ply_4(event: Any) -> None:
        if isinstance(event, PlyFinal) and event.ply >= 4:
            reached.set()

    ann.observers.append(at_ply_4)
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(table.run)
            nursery.start_soon(ann.run)
            await reached.wait()
            nursery.cancel_scope.cancel()  # mid-game: neither peer concluded
    for peer in (table, ann):
        assert peer.file is not None and peer.file.closed, peer.name
        assert all(listener.socket.fileno() == -1 for listener in peer._listeners), peer.name
