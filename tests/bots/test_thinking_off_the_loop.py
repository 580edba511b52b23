"""A bot thinks off the peer's trio loop: while a bot's move takes long, the peer still
handles what its links bring (here another peer's chat), then plays the move it found.

Real host and joiner peers (``client.runtime.peer.Peer``) over TCP on loopback, the game Grab
(tests' tiny game).
The host's first move is thought by a bot that waits for the test's word before it answers
(a stand-in for a strong bot's second of search): the test speaks only once the host has
taken the chat, which it can only do if its loop is free meanwhile.  ``WATCHDOG`` bounds the
wait, so a loop frozen by the bot fails the test instead of hanging it.
"""

from __future__ import annotations

import sys
import threading
from pathlib import Path
from typing import Any

import pytest
import trio

from client.bots import Bot, make_bot
from client.bots.thinking import INLINE, SWITCH_INTERVAL, Thought, ThreadThinking
from client.node.hosting import HostConfig
from client.node.joining import JoinConfig
from client.node.node_io import NodeSeams
from client.node.peer_node import NodeConfig
from client.runtime.peer import Peer, TableStarted
from client.tabletop.events import ChatReceived
from client.tabletop.table import handing
from client.tabletop.table_input import Chat
from engines import AnyEngine, find_engine
from net.identity import load_profile_identity
from tests.client.tinygame import ENGINE

WATCHDOG = 20.0
"""Seconds the slow bot waits for the test's word before it answers anyway (generous: the
chat must cross a loaded machine's loopback meanwhile)."""


class SlowBot:
    """Tells the trio loop it started, then waits for ``release`` (at most ``WATCHDOG``)."""

    def __init__(self, token: trio.lowlevel.TrioToken, started: trio.Event) -> None:
        self.release = threading.Event()
        self.released_in_time: bool | None = None
        self.thread: threading.Thread | None = None
        self._token, self._started = token, started
        self._then: Bot = make_bot("grab", "random", 1)

    def __deepcopy__(self, memo: dict[int, Any]) -> SlowBot:
        return self  # the one bot the test watches (a thought plays a copy of its bot)

    def choose(self, engine: AnyEngine, state: Any) -> Any:
        if self.released_in_time is None:
            self.thread = threading.current_thread()
            self._token.run_sync_soon(self._started.set)
            self.released_in_time = self.release.wait(WATCHDOG)
        return self._then.choose(engine, state)


def _engine_for(name: str) -> Any:
    assert name == "grab"
    return ENGINE


@pytest.mark.trio
async def test_a_peer_takes_a_chat_while_its_bot_thinks(tmp_path: Path) -> None:
    started, heard = trio.Event(), trio.Event()
    slow = SlowBot(trio.lowlevel.current_trio_token(), started)
    host = Peer(  # its own seat played by ``slow`` (the node's seam for the bots it makes)
        load_profile_identity("host", tmp_path),
        HostConfig(ENGINE, {"seats": 2, "pile": 8}, "Host"),
        NodeConfig(
            profile="host", home=tmp_path, engine_for=_engine_for, bot_delay=0.0, bot_me=True
        ),
        seams=NodeSeams(bot=lambda game, seat, made: slow if seat == 1 else made),
    )
    host.observers.append(lambda event: isinstance(event, ChatReceived) and heard.set())
    await host.open(0)
    ann = Peer(
        load_profile_identity("ann", tmp_path),
        JoinConfig(("127.0.0.1", host.port), "ann"),
        NodeConfig(
            profile="ann", home=tmp_path, engine_for=_engine_for, bot_delay=0.0, bot_me=True
        ),
    )
    ann_started = trio.Event()
    ann.observers.append(lambda event: isinstance(event, TableStarted) and ann_started.set())
    codes: dict[str, int] = {}

    async def run(name: str, peer: Any) -> None:
        codes[name] = await peer.run()

    async def talk() -> None:
        await started.wait()
        await ann_started.wait()
        assert ann.table is not None
        ann.act(handing(lambda now: Chat("are you still there?", now)))
        await heard.wait()
        assert slow.released_in_time is None, "the host took the chat only once its bot had moved"
        slow.release.set()

    with trio.fail_after(2 * WATCHDOG + 30):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(run, "host", host)
            nursery.start_soon(run, "ann", ann)
            nursery.start_soon(talk)
    assert slow.released_in_time is True  # the bot moved on the test's word, not the watchdog
    assert slow.thread is not threading.main_thread()
    assert codes == {"host": 0, "ann": 0}
    assert host.table is not None and ann.table is not None
    assert host.table.head.chain_digest == ann.table.head.chain_digest
    assert host.table.ended


@pytest.mark.trio
async def test_a_bot_thinking_in_a_thread_plays_the_moves_it_plays_inline() -> None:
    """Same seed, same moves, whichever way it thinks; a dropped thought changes nothing."""
    engine = find_engine("discorder")
    inline_bot: Bot = make_bot("discorder", "normal", 3)
    threaded_bot: Bot = make_bot("discorder", "normal", 3)
    wakes: list[None] = []
    thinking = ThreadThinking(lambda: wakes.append(None))
    state = engine.initial_state({})
    for _ in range(8):
        dropped = thinking.think(threaded_bot, engine, state)  # a thought nobody plays
        thought = thinking.think(threaded_bot, engine, state)
        await _over(dropped)
        await _over(thought)
        assert thought.move() == dropped.move()  # the first left the bot as it was
        threaded_bot = thought.bot
        inline = INLINE.think(inline_bot, engine, state)
        inline_bot = inline.bot
        assert thought.move() == inline.move()
        state = engine.apply(state, thought.move())
    with trio.fail_after(30):
        while len(wakes) < 16:  # every thought's end woke the loop
            await trio.sleep(0.01)


@pytest.mark.trio
async def test_a_thinking_thread_holds_the_gil_briefly_while_the_loop_waits() -> None:
    """Python's default switch interval (5 ms) let the search keep the loop waiting that long
    at each wake-up, which the clock charged; once a bot thinks in a thread it is 0.5 ms."""
    engine = find_engine("discorder")
    before = sys.getswitchinterval()
    sys.setswitchinterval(0.005)
    try:
        thinking = ThreadThinking(lambda: None)
        await _over(
            thinking.think(make_bot("discorder", "normal", 3), engine, engine.initial_state({}))
        )
        assert sys.getswitchinterval() <= SWITCH_INTERVAL
    finally:
        sys.setswitchinterval(before)


async def _over(thought: Thought) -> None:
    with trio.fail_after(30):
        while not thought.done:
            await trio.sleep(0.01)
