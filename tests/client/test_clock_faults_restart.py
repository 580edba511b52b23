"""A peer restarted while a clock runs (issue 27, fault 9): real tables on the harness's
virtual clock (``tests.client.harness``); the restart is a new table with the same profile,
restored from what its log held (``tests.client.test_removal.restart``), and the mesh's pull
is stood in for by handing everyone the records they lack (``Router.heal``)."""

from __future__ import annotations

from client.rules.clock import ClockSpec
from client.rules.clock_history import clock_history
from client.rules.records import ACK
from tests.client.harness import Router, Setup
from tests.client.test_rejoin import assert_no_equivocation, everything, keys_of
from tests.client.test_removal import assert_same_chain, restart, run_until

SPEC = ClockSpec(base_ms=60_000, increment_ms=0, lag_ms=300, ack_ms=10_000)


def test_a_non_mover_restarted_while_a_clock_runs_states_nil_and_shows_unknown() -> None:
    """C is killed once ply 4 is final there and another seat's clock runs, and comes back
    0.1 s later (the mover's bot waits 0.5 s).  Its log holds its ACK of ply 4, so it never
    signs a second one; it never saw the running clock start, so it states nil for ply 5
    and shows "?" for that clock until ply 5 is final there; then the chain's figures show,
    and the game ends alike everywhere."""
    setup = Setup(list("ABCD"), params={"seats": 4, "pile": 30}, clock=SPEC)
    router = Router({n: setup.table(n, bot_delay=0.5) for n in "ABCD"})
    router.start()
    c_seat = 3

    def killable() -> bool:
        c = router.tables["C"]
        clock = c.view.clocks(router.now)
        return c.final_ply >= 4 and clock is not None and clock.running not in (None, c_seat)

    run_until(router, killable)
    c = router.tables["C"]
    ply, running = c.final_ply, c.view.clocks(router.now).running  # type: ignore[union-attr]
    assert c.head.ply == ply  # the next ply is not signed yet: its clock runs
    acked = [r for r in router.sent_by["C"] if r.kind == ACK and r.body["ply"] == ply]
    assert len(acked) == 1
    router.down.add("C")
    run_until(router, lambda: False, limit=router.now + 0.1)
    c = restart(router, setup, "C")
    assert c.head.ply == ply and c.final_ply == ply
    shown = c.view.clocks(router.now)
    assert shown is not None and shown.running == running
    assert shown.of(running) is None  # "?": it did not see this clock start
    assert all(shown.of(seat) is not None for seat in range(1, 5) if seat != running)
    router.heal()
    unknown_until_final = True
    while c.final_ply <= ply:
        assert router.step()
        clocks = c.view.clocks(router.now)
        if c.final_ply <= ply and clocks is not None:
            unknown_until_final &= clocks.of(running) is None
    assert unknown_until_final
    after = c.view.clocks(router.now)
    assert after is not None and all(after.of(seat) is not None for seat in range(1, 5))
    tables = list(router.tables.values())
    run_until(router, lambda: all(t.ended for t in tables), limit=router.now + 600)
    assert all(t.ended and not t.halted for t in tables)
    assert_same_chain(tables)
    assert_no_equivocation(everything(router), keys_of(setup, c))
    mine = [r for r in everything(router) if r.kind == ACK and r.author == setup.key("C")]
    assert len({r.record_hash for r in mine if r.body["ply"] == ply}) == 1  # never a second
    [stated] = {r.record_hash: r for r in mine if r.body["ply"] == ply + 1}.values()
    assert stated.body.get("ms") is None  # nil: it restarted in between
    history = {p.ply: p for p in clock_history(c.chain)}
    assert history[ply + 1].figures[c_seat - 1] is None
    assert not history[ply + 1].verdict.late
    assert all(clock_history(t.chain) == clock_history(c.chain) for t in tables)
