"""Rejoin at the table: a peer restarted from its own log resumes and never equivocates.

The restarted peer's table is built afresh and ``restore``d from what its log held (records
it accepted and signed, written ahead); the mesh's pull (``client.sync``) is stood in for
here by handing everyone the records they lack.  Faults are triggered at a ply number.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from client.rules.records import ACK, CHAIN_KINDS, SignedRecord
from client.tabletop.events import Output, TableEnded
from client.tabletop.table import Table
from tests.client.harness import Router, Setup
from tests.client.test_removal import assert_same_chain, cluster, restart, run_until


def assert_no_equivocation(records: Sequence[SignedRecord], keys: set[bytes]) -> None:
    """One record per (author, seq) and per (author, ply) among ``keys``' records."""
    by_seq: dict[tuple[bytes, int], set[bytes]] = defaultdict(set)
    by_ply: dict[tuple[bytes, int, str], set[bytes]] = defaultdict(set)
    for record in records:
        if record.author not in keys:
            continue
        by_seq[(record.author, record.seq)].add(record.record_hash)
        if record.kind in CHAIN_KINDS or record.kind == ACK:
            kind = "ply" if record.kind in CHAIN_KINDS else "ack"
            by_ply[(record.author, record.body["ply"], kind)].add(record.record_hash)
    assert all(len(v) == 1 for v in by_seq.values())
    assert all(len(v) == 1 for v in by_ply.values())


def everything(router: Router) -> list[SignedRecord]:
    return [r for log in router.logs.values() for r in log]


def keys_of(setup: Setup, table: Table) -> set[bytes]:
    me = table.me
    assert me is not None
    return {me} | {s.key for s in table.head.seats if table.runner_of(s.key) == me}


def test_a_peer_restarted_from_its_log_resumes_and_the_game_finishes() -> None:
    setup, router = cluster(["A", "B", "bot:B", "C"], pile=40, away=60.0)
    run_until(router, lambda: router.tables["B"].head.ply >= 5)
    router.down.add("B")
    run_until(router, lambda: False, limit=router.now + 10)  # the others wait for B
    b = restart(router, setup, "B")
    assert b.head.ply >= 5 and b.final_ply >= 0
    router.heal()  # what the pull would bring (the rejoiner's head is stated, then sent to)
    tables = list(router.tables.values())
    run_until(router, lambda: all(t.ended for t in tables), limit=router.now + 300)
    assert all(t.ended and not t.halted for t in tables)
    assert_same_chain(tables)
    assert_no_equivocation(everything(router), keys_of(setup, b))
    assert not any(p.record.kind == "REMOVE" for p in b.chain.states)


def test_a_crash_after_write_ahead_but_before_sending_never_equivocates() -> None:
    setup, router = cluster(["A", "B", "C"], pile=40, away=60.0)
    crashed: list[tuple[str, SignedRecord]] = []

    def crash(source: str, output: Output) -> bool:
        """The first peer to sign a ply from ply 4 on crashes right after writing it."""
        plies = [r for r in output.send if r.kind in CHAIN_KINDS]
        if plies and plies[0].body["ply"] >= 4 and not crashed:
            crashed.append((source, plies[0]))
            return True
        return False

    router.crash_when = crash
    run_until(router, lambda: bool(crashed))
    router.crash_when = None
    [(name, move)] = crashed
    assert move in router.logs[name]  # written ahead ...
    assert move.envelope not in router.sent  # ... never sent
    others = [t for n, t in router.tables.items() if n != name]
    assert all(t.head.ply == move.body["ply"] - 1 for t in others)
    table = restart(router, setup, name)
    assert table.chain.at(move.body["ply"]).record == move  # its own ply is back, the same
    for record in router.logs[name]:  # the pull: the others take what it holds
        router.deliver(record.envelope, [n for n in router.tables if n != name])
    router.heal()
    tables = list(router.tables.values())
    run_until(router, lambda: all(t.ended for t in tables), limit=router.now + 300)
    assert all(t.ended and not t.halted for t in tables)
    assert_same_chain(tables)
    assert others[0].chain.at(move.body["ply"]).record == move
    assert_no_equivocation(everything(router), keys_of(setup, table))


def test_a_restored_table_logs_only_what_is_new_and_signs_nothing_twice() -> None:
    setup, router = cluster(["A", "B"], pile=20, away=60.0)
    run_until(router, lambda: router.tables["B"].head.ply >= 6)
    router.down.add("B")
    log = list(router.logs["B"])
    table = setup.table("B", log=log, bots=())
    out = table.restore(log, router.now)
    assert out.log == out.send == []  # everything it computed again was in its log
    assert table.head.chain_digest == router.tables["B"].head.chain_digest


def test_joining_a_finished_table_yields_the_verified_result() -> None:
    setup, router = cluster(["A", "B", "C"], pile=20)
    tables = list(router.tables.values())
    run_until(router, lambda: all(t.ended for t in tables))
    watcher = setup.table(None, spectator=True)
    out = watcher.begin(router.now)
    for record in router.logs["A"][1:]:
        out.extend(watcher.receive(record, router.now))
    assert out.send == [] and watcher.ended and not watcher.halted
    [ended] = out.of_type(TableEnded)
    assert ended.outcome == tables[0].chain.outcome()
    assert watcher.head.chain_digest == tables[0].head.chain_digest
    assert watcher.final_ply == watcher.head.ply
