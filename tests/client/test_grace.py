"""A peer cut off from everyone judges nobody's absence by the time it could not hear.

Two hosts of four cut together and healed a few seconds apart must not remove one another
(docs/RELIABILITY.md, scenario 9): the first one back would otherwise find the other silent
past the away timeout at once and add the vote the others were waiting for.  Peers run on
the in-memory router with presence on; a cut is every link of a peer (its table keeps
running, as a real process does), and a heal hands the peer everything it missed, as the
links' TCP buffers do when they come back.  Faults are triggered at a ply number.
"""

from __future__ import annotations

from collections.abc import Iterable

from client.records import REMOVE, VOTE
from client.table import Table
from tests.client.harness import Router
from tests.client.test_removal import AWAY, assert_same_chain, cluster, removes, run_until


def cut_off(router: Router, name: str) -> None:
    """Every link of ``name`` carries nothing from now on."""
    router.cut |= {frozenset((name, other)) for other in router.tables if other != name}


def reconnect(router: Router, name: str) -> None:
    """``name``'s links to the peers that are not cut off come back: the first frame on each
    is news of the other end (``Table.heard``), then what the linked peers signed arrives
    (each table drops what it has seen; nothing from a peer still cut off)."""
    isolated = {n for n in router.tables if n != name and is_cut_off(router, n)}
    router.cut = {pair for pair in router.cut if name not in pair or pair & isolated}
    linked = [n for n in router.tables if n not in isolated]
    for other in linked:
        if other != name:
            for here, there in ((name, other), (other, name)):
                key = router.tables[there].me
                assert key is not None
                router.take(here, router.tables[here].heard(key, router.now))
    for source in linked:
        for record in router.sent_by[source]:
            router.deliver(record.envelope, linked, delay=0.0)


def is_cut_off(router: Router, name: str) -> bool:
    return all(
        frozenset((name, other)) in router.cut for other in router.tables if other != name
    )


def to_move(table: Table) -> bytes | None:
    """The peer that signs the next ply at ``table``'s head."""
    state = table.head.engine_state
    seat = table.engine.to_move(state)
    if seat is None:
        return None
    return table.runner_of(table.head.seat_key(table.engine.controller(state, seat)))


def votes_of(router: Router, names: Iterable[str]) -> list[str]:
    return [n for n in names if any(r.kind == VOTE for r in router.sent_by[n])]


def test_two_peers_cut_together_and_healed_apart_remove_nobody() -> None:
    setup, router = cluster(["A", "B", "C", "D"], pile=40)
    a, b, c, d = (router.tables[n] for n in "ABCD")
    # C is cut off when it is its turn, D one beat later (as `netlab cut 3; cut 4` does).
    run_until(router, lambda: a.head.ply >= 3 and to_move(a) == setup.key("C"))
    cut_off(router, "C")
    run_until(router, lambda: False, limit=router.now + 2.0)
    cut_off(router, "D")
    # A and B vote to remove C, whose silence began first; they need D's vote too.
    run_until(router, lambda: votes_of(router, "AB") == ["A", "B"], limit=router.now + 3 * AWAY)
    assert votes_of(router, "AB") == ["A", "B"] and a.ballot.frozen(a.head)
    run_until(router, lambda: False, limit=router.now + 3 * AWAY)
    assert not votes_of(router, "D")  # cut off, D finds everyone away: no majority
    back = router.now
    reconnect(router, "D")
    run_until(router, lambda: False, limit=back + 3.0)
    assert not votes_of(router, "D") and not removes(a)
    reconnect(router, "C")
    tables = [a, b, c, d]
    run_until(router, lambda: all(t.ended for t in tables), limit=router.now + 400)
    assert all(t.ended and not t.halted for t in tables)
    assert_same_chain(tables)
    assert not removes(a) and not any(s.record.kind == REMOVE for s in a.chain.states)
    assert not votes_of(router, "D")
