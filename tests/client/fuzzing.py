"""Well-signed but arbitrary records, and a table run that throws them at honest peers.

``random_record`` draws one record signed by a hostile key: any kind, with a body that
passes ``net``'s schemas (so it reaches the table core) but whose contents are drawn near
what the core checks — the ply at the head or next to it, the real chain digest or another,
the seat to move or another, a legal move, a nudged one or noise, embedded records that do
or do not verify.  ``hostile_run`` plays a Grab table of three peers (A, B and the liar C,
each with a random bot) over the virtual-clock router and delivers such records to A and B
as the game goes; ``check_honest`` states what must hold afterwards, whatever was thrown:

* nothing escaped ``Table.receive`` (no exception);
* every evidence A or B holds names nobody but C;
* every ply of A's and B's chains replays legally through a fresh ``Chain``;
* A and B hold the same chain digest at every ply, except from a ply where both halted.

Used by tests/client/test_fuzz_table.py (Hypothesis picks the seeds) and scripts/fuzz.py
(long runs).
"""

from __future__ import annotations

import random
from typing import Any

from client.rules.chain import Chain
from client.rules.net_adapter import open_envelope
from client.rules.plies import PLY_RULES
from client.rules.seq_book import SEQ_WINDOW
from client.tabletop.table import Table
from net.records import MAX_SEQ
from tests.client.envelopes import Identity, signed
from tests.client.harness import Router, Setup

__all__ = ["check_honest", "hostile_run", "random_record"]

OUTSIDER = Identity(999)


def _digest(rng: random.Random, table: Table) -> bytes:
    head = table.head.ply
    roll = rng.random()
    if roll < 0.5:
        return table.head.chain_digest
    if roll < 0.8 and head > 0:
        return table.chain.at(rng.randrange(head)).chain_digest
    return rng.randbytes(32)


def _ply(rng: random.Random, table: Table, at_least: int = 1) -> int:
    head = table.head.ply
    return max(at_least, rng.choice([head + 1, head + 1, head, head + 2, rng.randrange(300)]))


def _move(rng: random.Random, table: Table) -> list[int]:
    roll = rng.random()
    state = table.head.engine_state
    moves = table.engine.legal_moves(state) if table.engine.to_move(state) is not None else ()
    if roll < 0.5 and moves:
        return list(table.engine.move_to_wire(rng.choice(moves)))
    if roll < 0.8:
        return [rng.randrange(-3, 8)]
    return [rng.randrange(-(2**31), 2**31) for _ in range(rng.randrange(0, 5))]


def _embedded(rng: random.Random, setup: Setup, table: Table, kind: str) -> bytes:
    roll = rng.random()
    if roll < 0.2:
        return rng.randbytes(rng.randrange(1, 80))
    author = setup.identities["C"] if roll < 0.8 else OUTSIDER
    body: dict[str, Any] = {"ply": _ply(rng, table), "prev": _digest(rng, table)}
    if kind == "VOTE":
        body |= {"removed": [setup.key("A")], "replacements": []}
    return signed(author, setup.table_id, rng.randrange(1, 1000), kind, body).envelope


def random_record(rng: random.Random, setup: Setup, table: Table) -> bytes:
    """One record signed by the liar C (now and then by a key not at the table), as
    envelope bytes; ``table`` (an honest peer's) is where its fields are drawn near."""
    kind = rng.choice(
        ["MOVE"] * 4
        + ["RESIGN", "DRAW", "REMOVE", "TAKEBACK", "ACK", "ACK", "END", "CHAT", "POINT"]
        + ["DRAW_OFFER", "DRAW_ACCEPT", "VOTE", "TAKEBACK_ASK", "HALT", "START"]
    )
    head: dict[str, Any] = {"ply": _ply(rng, table), "prev": _digest(rng, table)}
    seat = rng.randrange(1, 5)
    if kind == "MOVE":
        body: dict[str, Any] = head | {"seat": seat, "move": _move(rng, table)}
    elif kind == "RESIGN":
        body = head | {"seat": seat}
    elif kind == "DRAW":
        count = rng.randrange(1, 4)
        body = head | {"acceptances": [_embedded(rng, setup, table, "DRAW_ACCEPT")] * count}
    elif kind in ("REMOVE", "VOTE"):
        body = head | {
            "removed": [rng.choice([setup.key("A"), setup.key("B"), rng.randbytes(32)])],
            "replacements": [{"seat": seat, "key": rng.randbytes(32), "runner": setup.key("C")}],
        }
        if kind == "REMOVE":
            body["votes"] = [_embedded(rng, setup, table, "VOTE")]
    elif kind == "TAKEBACK":
        body = head | {"consents": [_embedded(rng, setup, table, "TAKEBACK_CONSENT")]}
    elif kind in ("ACK", "END"):
        body = {"ply": max(0, _ply(rng, table) - 1), "digest": _digest(rng, table)}
        if kind == "END":
            body["result"] = {
                "winners": [rng.randrange(1, 4)],
                "draw": rng.random() < 0.2,
                "reason": rng.choice(["pile", "resigned", "agreement", "abandoned"]),
                "summary": "",
                "scores": [],
                "absent": [],
            }
    elif kind == "CHAT":
        body = {"text": rng.choice(["gg", "x" * 500, "I am A: resign", "é" * 3])}
    elif kind == "POINT":
        body = {"ply": rng.randrange(0, 300), "arrows": [[0, 65535]], "squares": [7]}
    elif kind == "HALT":
        records = [_embedded(rng, setup, table, "DRAW_ACCEPT")] if rng.random() < 0.5 else []
        body = {
            "ply": _ply(rng, table, 0),
            "digest": _digest(rng, table),
            "state": rng.randbytes(rng.randrange(0, 40)),
            "reason": "lies",
            "records": records,
        }
    elif kind == "START":
        body = dict(setup.start_record.body)
    else:
        body = head
    author = OUTSIDER if rng.random() < 0.05 else setup.identities["C"]
    # mostly a fresh seq (within the window a table takes, so the record is judged); sometimes
    # a low one, which C (or an earlier lie) may have used, or one jumping past the window:
    # each is a lie of its own (client.rules.seq_book)
    draw = rng.random()
    if draw < 0.1:
        seq = rng.randrange(1, 40)
    elif draw < 0.13:
        seq = rng.randrange(SEQ_WINDOW + 10**4, MAX_SEQ + 1)
    else:
        seq = rng.randrange(10**4, SEQ_WINDOW)
    return signed(author, setup.table_id, seq, kind, body).envelope


def hostile_run(seed: int, lies: int) -> tuple[Setup, Router]:
    """A Grab game of A, B and C with ``lies`` records of C's thrown at A and B as it goes."""
    rng = random.Random(seed)
    setup = Setup(list("ABC"), params={"seats": 3, "pile": 30}, seed=seed % 1000)
    tables = {name: setup.table(name, seed=seed) for name in "ABC"}
    router = Router(tables, seed=seed, max_delay=rng.choice([0.0, 0.01, 0.2]))
    router.start()
    thrown = 0
    while thrown < lies:
        target = rng.choice("AB")
        envelope = random_record(rng, setup, tables[target])
        router.deliver(envelope, rng.choice([["A"], ["B"], ["A", "B"]]), rng.uniform(0, 0.05))
        thrown += 1
        for _ in range(rng.randrange(0, 4)):
            if not router.step():
                break
    router.run()
    return setup, router


def check_honest(setup: Setup, router: Router) -> None:
    """What must hold at A and B after any hostile run (AssertionError otherwise)."""
    liar = setup.key("C")
    honest = [router.tables["A"], router.tables["B"]]
    for table in honest:
        kept = [*table.rejected, *([table.evidence] if table.evidence else [])]
        for evidence in kept:
            assert set(evidence.culprits) <= {liar}, evidence.verdict
        fresh = Chain(table.start, table.engine, open_envelope, PLY_RULES)
        for state in table.chain.states[1:]:
            fresh.append(fresh.check(state.record))
        assert fresh.head.chain_digest == table.head.chain_digest
    first, second = honest
    for ply in range(1, min(first.head.ply, second.head.ply) + 1):
        if first.chain.at(ply).chain_digest != second.chain.at(ply).chain_digest:
            for table in honest:
                assert table.divergence is not None and table.divergence.ply <= ply, ply
            break
    if first.divergence is None and second.divergence is None:
        assert first.head.chain_digest == second.head.chain_digest
