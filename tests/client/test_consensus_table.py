"""Consensus at the table: control transfer and extra moves are signed as the engine says."""

from __future__ import annotations

from typing import Any

import pytest

from client.rules.records import MOVE, SignedRecord
from client.tabletop.events import TableRejected
from engines import find_engine
from tests.client.harness import Router, Setup, deliver, forge, play
from tests.client.test_games import assert_one_chain_all_final_all_ended

CONSENSUS = find_engine("consensus")
PEERS = list("ABCD")


def _seat_and_move(record: SignedRecord) -> dict[str, Any]:
    return {"seat": record.body["seat"], "move": record.body["move"]}


def signed_by_another(setup: Setup, router: Router) -> list[int]:
    """Plies signed by a key other than their seat's own: control transfer and extra moves."""
    states = router.tables["A"].chain.states
    return [s.ply for s in states[1:] if s.record.author != states[0].seats[s.seat - 1].key]


@pytest.mark.parametrize(("bot_kind", "seed"), [("random", 0), ("random", 3), ("sensible", 1)])
def test_consensus_games_end_with_one_chain(bot_kind: str, seed: int) -> None:
    setup = Setup(PEERS, engine=CONSENSUS, params={"seats": 4}, seed=seed)
    tables = {n: setup.table(n, seed=seed, bot_kind=bot_kind) for n in PEERS}
    router = Router(tables, seed=seed, max_delay=0.02, duplicate=0.1)
    router.start()
    router.run()
    assert_one_chain_all_final_all_ended(router)
    assert signed_by_another(setup, router)  # somebody played a seat that is not its own


def test_a_seat_taken_over_is_refused_to_its_own_player() -> None:
    setup = Setup(PEERS, engine=CONSENSUS, params={"seats": 4})
    finished = play(setup, max_delay=0.01)
    states = finished.tables["A"].chain.states
    ply = signed_by_another(setup, finished)[0]
    played = states[ply]
    owner = PEERS[played.seat - 1]
    controller = PEERS.index(next(n for n in PEERS if setup.key(n) == played.record.author)) + 1
    # A fresh table, fed the same records up to the ply before.
    log = finished.logs["A"]  # its keys go on after the seqs they used (write-ahead)
    replay = Router({n: setup.table(n, bots=(), log=log) for n in PEERS})
    replay.start()
    replay.run()
    for earlier in states[1:ply]:
        deliver(replay, earlier.record)
    assert all(t.head.ply == ply - 1 for t in replay.tables.values())
    body = {"ply": ply, "prev": states[ply - 1].chain_digest, **_seat_and_move(played.record)}
    deliver(replay, forge(setup, owner, MOVE, body))
    rejected = replay.of_type("A" if owner != "A" else "B", TableRejected)
    assert controller != played.seat and len(rejected) == 1
    assert rejected[0].reason.endswith(
        f"sent a move for seat {played.seat} but holds seat {played.seat} "
        f"(seat {played.seat} is played by seat {controller} now); the move was ignored"
    )
    deliver(replay, played.record)
    assert all(t.head.ply == ply and not t.halted for t in replay.tables.values())


def test_the_rulers_extra_move_is_signed_by_the_ruler_only() -> None:
    for seed in range(10):  # sensible bots take power, so rulers get extra moves
        setup = Setup(PEERS, engine=CONSENSUS, params={"seats": 4}, seed=seed)
        finished = play(setup, seed=seed, bot_kind="sensible")
        states = finished.tables["A"].chain.states
        extras = [s.ply for s in states[1:] if states[s.ply - 1].engine_state.extra]
        if extras:
            break
    else:
        pytest.fail("no extra move in ten games")
    ply = extras[0]
    before, played = states[ply - 1], states[ply]
    ruler = CONSENSUS.to_move(before.engine_state)
    assert played.seat == ruler and played.record.author == before.seat_key(
        CONSENSUS.controller(before.engine_state, ruler)
    )
    resuming = CONSENSUS.controller(before.engine_state, before.engine_state.slot)
    assert before.seat_key(resuming) != played.record.author  # someone else's slot is next
    log = finished.logs["A"]  # its keys go on after the seqs they used (write-ahead)
    replay = Router({n: setup.table(n, bots=(), log=log) for n in PEERS})
    replay.start()
    replay.run()
    for earlier in states[1:ply]:
        deliver(replay, earlier.record)
    body = {"ply": ply, "prev": before.chain_digest, **_seat_and_move(played.record)}
    deliver(replay, forge(setup, PEERS[resuming - 1], MOVE, body))
    witness = next(n for n in PEERS if n != PEERS[resuming - 1])
    [refusal] = replay.of_type(witness, TableRejected)
    assert f"sent a move for seat {ruler} but holds seat {resuming}" in refusal.reason
    deliver(replay, played.record)
    assert all(t.head.ply == ply and not t.halted for t in replay.tables.values())
