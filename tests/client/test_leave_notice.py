"""Leaving says so, over real TCP on loopback: a player who leaves (the terminal's Ctrl-D, the
window's *Leave table*) signs LEAVE before going, and the others act on it at once — a
REMOVE with a bot in the seat at three peers, an abandoned end at two — instead of after
the away timeout, which these tables set far longer than the tests allow."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import trio

from client.commands.terminal import TerminalPlayer
from client.runtime.peer import Peer
from client.sessions.net_session import NetSession
from client.tabletop.events import PlyApplied, TableEnded
from net.identity import load_profile_identity
from net.logfile import read_log
from net.records import Kind, open_record
from tests.client.test_peer import ann_to_move, host, joiner, run_all

AWAY_MS = 60_000
"""The tables' away timeout: a removal that waited for it would take a minute."""
PROMPT = 15.0
"""What the tests allow between the leave and the others acting on it."""


def _leaves_at_her_turn(peer: Peer, leave: Callable[[], None], left: list[float]) -> Peer:
    """``peer`` (ann) calls ``leave`` when her turn first comes; ``left`` gets the time."""

    def watch(event: Any) -> None:
        if isinstance(event, PlyApplied) and ann_to_move(event) and not left:
            left.append(trio.current_time())
            peer.call_soon(leave)

    peer.observers.append(watch)
    return peer


def _leaver(tmp_path: Path, port: int, out: io.StringIO, left: list[float]) -> Peer:
    """ann, a person at a terminal, who leaves (end of input) when her turn comes."""
    peer = joiner(tmp_path, "ann", port, bot_me=False)
    return _leaves_at_her_turn(peer, TerminalPlayer(peer, out).leave, left)


def _times_of(peer: Peer, which: Callable[[Any], bool]) -> list[float]:
    """When each of ``peer``'s events that ``which`` picks came (the list fills as it runs)."""
    times: list[float] = []
    peer.observers.append(lambda event: times.append(trio.current_time()) if which(event) else None)
    return times


def _kinds_in_file(home: Path, profile: str) -> list[str]:
    [path] = (home / "profiles" / profile / "games").glob("*.palabre-log")
    return [open_record(data).kind.name for data in read_log(path).records]


@pytest.mark.trio
async def test_a_player_who_leaves_is_voted_off_at_once_not_after_the_away_timeout(
    tmp_path: Path,
) -> None:
    table = host(tmp_path, bot_delay=0.05, away_ms=AWAY_MS, params={"seats": 3, "pile": 60})
    left: list[float] = []
    removed = _times_of(
        table, lambda e: isinstance(e, PlyApplied) and e.state.record.kind == "REMOVE"
    )
    out = io.StringIO()
    with trio.fail_after(PROMPT + 30):
        codes = await run_all(
            table,
            [
                lambda port: _leaver(tmp_path, port, out, left),
                lambda port: joiner(tmp_path, "bob", port, bot_delay=0.05),
            ],
        )
    assert codes == [0, 0, 0], out.getvalue()
    assert left and removed and removed[0] - left[0] < PROMPT
    assert "You left the table" in out.getvalue()
    assert table.table is not None and table.table.ended
    ann = load_profile_identity("ann", tmp_path).public_key
    assert ann not in table.table.head.peers
    assert "LEAVE" in _kinds_in_file(tmp_path, "host")  # the notice is in the game file
    assert "LEAVE" in _kinds_in_file(tmp_path, "ann")  # written ahead, before it was sent


@pytest.mark.trio
async def test_a_two_peer_table_whose_player_leaves_from_the_window_ends_as_abandoned_at_once(
    tmp_path: Path,
) -> None:
    """The window's *Leave table* (``NetSession.leave``) at a table of two."""
    table = host(tmp_path, bot_delay=0.05, away_ms=AWAY_MS, params={"seats": 2, "pile": 40})
    ended = _times_of(table, lambda e: isinstance(e, TableEnded))
    left: list[float] = []

    def window(port: int) -> Peer:
        peer = joiner(tmp_path, "ann", port, bot_me=False, stay=True)
        return _leaves_at_her_turn(peer, NetSession(peer).leave, left)

    with trio.fail_after(PROMPT + 30):
        codes = await run_all(table, [window])
    assert codes == [0, 0]
    assert left and ended and ended[0] - left[0] < PROMPT
    assert table.table is not None and table.table.abandoned is not None
    assert Kind.LEAVE.name in _kinds_in_file(tmp_path, "host")
