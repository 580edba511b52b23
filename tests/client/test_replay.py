"""``client.sessions.replay``: the frames are the verifier's chain, chat and pointing sit in
place."""

from __future__ import annotations

from pathlib import Path

import pytest

from client.bots import RandomBot
from client.logs.log_show import game_lines
from client.logs.verifier import verify_file
from client.rules.errors import ReplayUnavailable
from client.rules.records import ACK
from client.sessions.replay import Replay
from engines import find_engine
from net.records import open_record
from tests.client.gamelogs import LoggedTable, records_of, rewrite


def pointed_game(directory: Path) -> LoggedTable:
    """Discorder between A and B through intents: marks at plies 2 and 3, chat at 3, then
    B resigns at ply 6."""
    engine = find_engine("discorder")
    table = LoggedTable(directory, ["A", "B"], engine, bots="none")
    bots = {"A": RandomBot(1), "B": RandomBot(2)}

    def now() -> float:
        return table.router.now

    for ply in range(6):
        name = "A" if ply % 2 == 0 else "B"
        if ply == 2:
            table.act("A", table.tables["A"].point([(3, 17)], [60], now()))
        if ply == 3:
            table.act("A", table.tables["A"].point([(1, 2)], [], now()))
            table.act("A", table.tables["A"].point([(4, 12)], [5, 6], now()))  # replaces
            table.act("B", table.tables["B"].point([], [9], now()))
            table.act("B", table.tables["B"].point([], [], now()))  # clears
            table.act("B", table.tables["B"].chat("look at d4", now()))
        state = table.tables[name].head.engine_state
        table.act(name, table.tables[name].move(bots[name].choose(engine, state), now()))
    table.act("A", table.tables["A"].resign(now()))
    table.close()
    return table


def test_the_frames_are_the_verifiers_chain_with_marks_and_chat_in_place(tmp_path: Path) -> None:
    table = pointed_game(tmp_path)
    verification = verify_file(table.paths["B"])
    assert verification.report.exit_code == 0
    replay = Replay.build(verification)
    chain = verification.chain
    assert chain is not None
    assert replay.plies == verification.report.plies == 7
    for frame in replay.frames:
        state = chain.at(frame.ply)
        assert frame.state is state
        assert frame.engine_state is state.engine_state and frame.final
        assert frame.label == (state.label if frame.ply else "start")
    assert replay.frames[7].label.endswith("resigns") and replay.frames[7].last_move is None
    assert replay.frames[1].last_move == tuple(chain.at(1).record.body["move"])
    assert replay.frames[1].seat == replay.frames[1].player == 1 and replay.frames[1].by == "A"
    (at_two,) = replay.frames[2].marks
    assert (at_two.seat, at_two.author, at_two.arrows, at_two.squares) == (
        1,
        "A",
        ((3, 17),),
        (60,),
    )
    (at_three,) = replay.frames[3].marks  # A's second POINT replaced its first; B cleared his
    assert (at_three.seat, at_three.arrows, at_three.squares) == (1, ((4, 12),), (5, 6))
    assert all(not frame.marks for frame in replay.frames if frame.ply not in (2, 3))
    chat = [line for line in replay.lines if line.kind == "chat"]
    assert [(c.ply, c.seat, c.author, c.text) for c in chat] == [(3, 2, "B", "look at d4")]
    plies = [line for line in replay.lines if line.kind == "ply"]
    assert [line.ply for line in plies] == list(range(1, 8))
    assert [line.text for line in plies] == [f.label for f in replay.frames[1:]]
    # The chat line sits between plies 3 and 4, as ``palabre log show`` prints it.
    order = [(line.kind, line.ply) for line in replay.lines]
    assert order.index(("chat", 3)) == order.index(("ply", 3)) + 1
    shown = game_lines(verification)
    assert shown.index(next(s for s in shown if "look at d4" in s)) > shown.index(
        next(s for s in shown if s.lstrip().startswith("3."))
    )
    assert replay.seat_name(2) == "B"


def test_a_missing_ack_marks_the_ply_and_what_follows_not_final(tmp_path: Path) -> None:
    engine = find_engine("consensus")
    table = LoggedTable(tmp_path, ["P1", "P2", "P3", "P4"], engine, seed=4)
    path = table.close()["P1"]
    records = records_of(path)
    p3 = table.identities["P3"].key
    ack = next(
        r
        for r in records
        if (opened := open_record(r)).kind.name == ACK
        and opened.author == p3
        and opened.body["ply"] == 5
    )
    rewrite(path, [r for r in records if r != ack])
    verification = verify_file(path)
    replay = Replay.build(verification)
    assert [frame.final for frame in replay.frames[:7]] == [True] * 5 + [False, False]
    (problem,) = replay.frames[5].problems
    assert problem.severity == "incomplete" and "P3" in problem.reason


def test_a_file_that_is_no_log_has_no_replay(tmp_path: Path) -> None:
    path = tmp_path / "nothing.palabre-log"
    path.write_bytes(b"hello")
    with pytest.raises(ReplayUnavailable, match="not a palabre log"):
        Replay.build(verify_file(path))
