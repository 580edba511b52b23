"""Takebacks typed at a terminal: a person at a headless peer (``takeback``, ``consent``)
plays Grab against a bot peer over real TCP on loopback, in one process."""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

import pytest

from client.commands.terminal import TerminalPlayer
from client.runtime.peer import Peer
from client.tabletop.events import PlyApplied
from tests.client.test_peer import host, joiner, run_all

ASKED = re.compile(r"\(Host\) asks to take back ply (\d+): type consent to agree")


@pytest.mark.trio
async def test_a_person_takes_back_and_consents_from_the_terminal(tmp_path: Path) -> None:
    table = host(tmp_path, params={"seats": 2}, bot_delay=0.2)
    out = io.StringIO()
    answered: list[int] = []
    asked: list[int] = []
    typed: list[str] = []

    def host_asks(event: Any) -> None:
        """After ann's second move, the host's bot's next move is asked back at once."""
        if not isinstance(event, PlyApplied) or asked or 2 not in answered:
            return
        record = event.state.record
        if record.kind == "MOVE" and record.author == table.me:
            asked.append(event.state.ply)
            table.call_soon(lambda: table.act(lambda t, now: t.ask_takeback(now)))

    table.observers.append(host_asks)

    def build(port: int) -> Peer:
        peer = joiner(tmp_path, "ann", port, bot_me=False)
        player = TerminalPlayer(peer, out)

        def safe() -> str:
            """A take that leaves no multiple of 5 (no extra move: the host moves next)."""
            assert peer.table is not None
            pile = peer.table.head.engine_state.pile
            return next(f"t{n}" for n in (1, 2, 3) if (pile - n) % 5 and n <= pile)

        def answer() -> None:
            text = out.getvalue()
            if ASKED.search(text) and "consent" not in typed:
                typed.append("consent")  # the host asks to take back its move: agreed
                player.handle("consent")
            turn = text.count("Your turn")
            if turn in answered or turn == 0 or (turn >= 3 and "consent" not in typed):
                return
            answered.append(turn)
            lines = {
                1: [safe(), "takeback"],  # a misclick, taken back at once
                2: ["takeback", safe()],  # the last ply is the takeback: refused, then a move
            }.get(turn, ["resign"])
            typed.extend(lines)
            for line in lines:
                player.handle(line)

        peer.observers.append(lambda event: peer.call_soon(answer))
        return peer

    assert await run_all(table, [build]) == [0, 0]
    text = out.getvalue()
    assert answered[:2] == [1, 2] and typed[-1] == "resign" and "consent" in typed, text
    assert "), or help for the commands" in text
    assert re.search(r"Not done: nothing to take back: ply \d+ is a takeback, and a takeback", text)
    found = ASKED.search(text)
    assert found and [int(found.group(1))] == asked
    assert table.table is not None
    states = table.table.chain.states
    labels = [state.label for state in states]
    first = next(ply for ply, label in enumerate(labels) if label.endswith("taken back"))
    assert labels[first - 1 : first + 2] == [typed[0], f"ply {first - 1} taken back", typed[3]]
    assert states[first - 1].record.author != table.me  # ann's misclick
    assert states[first].record.author == table.me  # the host, to move, appended it
    back = asked[0] + 1
    assert labels[back] == f"ply {asked[0]} taken back"
    assert states[back].engine_state == states[asked[0] - 1].engine_state
    assert labels[-1] == "seat 2 resigns"
