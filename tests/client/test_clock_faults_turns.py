"""Whose clock runs, and what stops it: nothing (issue 27, fault 11).  Real tables on the
harness's virtual clock (``tests.client.harness``) playing Grab (``tests.client.tinygame``),
whose extra moves and captures are Consensus's in small: an extra move runs the mover's
clock again, a captured seat's slot runs its captor's; a takeback ask never stops the clock
of the bot to move (it waits for the takeback out of its own budget); a DRAW whose last
acceptance comes after the mover's time is late, and resigns the mover instead."""

from __future__ import annotations

import pytest

from client.rules.clock import ClockSpec
from client.rules.clock_history import clock_history
from client.rules.records import DRAW, MOVE, TAKEBACK
from client.rules.takeback import HOLD
from engines import AnyEngine, find_engine
from tests.client.harness import Router, Setup, play
from tests.client.tinygame import ENGINE

SPEC = ClockSpec(base_ms=60_000, increment_ms=0, lag_ms=300, ack_ms=10_000)


def test_a_takeback_ask_never_stops_the_clock_of_the_bot_to_move() -> None:
    """A (a person) moves and asks to take it back; B's bot is to move, and C, a person,
    never answers.  B consents and waits for the takeback, but only as long as its clock's
    budget lets it wait before moving (60 s / 30 / 4 = 0.5 s), not the whole hold (10 s):
    its clock ran all along, and it moves on and is charged that wait only."""
    setup = Setup(["A", "B", "C"], params={"seats": 3, "pile": 30}, clock=SPEC)
    tables = {n: setup.table(n, bots=() if n in "AC" else "all", bot_delay=0.3) for n in "ABC"}
    router = Router(tables)
    router.start()
    router.run(until=0.1)  # START final everywhere (A's clock runs: a person, not a bot)
    a = tables["A"]
    router.take("A", a.move(2, router.now))
    router.take("A", a.ask_takeback(router.now))
    asked = router.now
    router.run(until=asked + HOLD / 2)
    assert all(t.head.ply == 2 for t in tables.values())
    assert tables["B"].head.record.kind == MOVE
    moved = next(at for at, r in router.sent_at if r.kind == MOVE and r.author == setup.key("B"))
    assert moved - asked <= 0.5 + 1e-6
    assert not any(s.record.kind == TAKEBACK for t in tables.values() for s in t.chain.states)
    router.take("C", tables["C"].move(1, router.now))  # the game goes on: B's ply is judged
    router.run(until=router.now + 1)
    second = clock_history(a.chain)[1]
    assert second.seat == 2 and not second.verdict.late and second.verdict.charge <= 200


def test_a_move_made_before_the_last_ply_is_final_here_waits_for_it() -> None:
    """A person who answers at once, before the last ACK of the ply before reached this
    peer: the move is signed once that ply is final here, carrying every ACK (it was signed
    at once, without them, and this peer's own table refused it: a crash)."""
    setup = Setup(["A", "B"], params={"seats": 2, "pile": 30}, clock=SPEC)
    tables = {n: setup.table(n, bots=()) for n in "AB"}
    router = Router(tables)
    router.slow[("B", "A")] = 0.2  # B's records reach A 0.2 s late
    router.start()
    router.run(until=0.5)
    a, b = tables["A"], tables["B"]
    router.take("A", a.move(1, router.now))
    router.run(until=0.6)
    router.take("B", b.move(1, router.now))  # reaches A at 0.8, and B's ACK of it right after
    while a.head.ply < 2:
        assert router.step()
    assert a.final_ply == 1  # B's ACK of ply 2 is still on its way
    router.take("A", a.move(1, router.now))
    router.run(until=1.0)
    third = [r for _, r in router.sent_at if r.kind == MOVE and r.body["ply"] == 3]
    assert len(third) == 1 and len(third[0].body["acks"]) == 2
    assert all(t.head.ply == 3 and not t.halted for t in tables.values())


def test_a_draw_agreed_after_the_movers_time_is_late_and_resigns_the_mover() -> None:
    """Three people; A, to move first, offers a draw; B and C accept, but
    what C sends A takes 1.5 s (its ACK of START too, so A's clock starts late).  A appends the
    DRAW the moment C's acceptance comes, 1 s after its clock started: on time by its own
    measure, 2.5 s after B's and C's started, past ``T`` (2 s + 302 ms).  The DRAW is late:
    it has no effect, and A resigned on time instead, everywhere alike."""
    spec = ClockSpec(base_ms=2_000, increment_ms=0, lag_ms=300, ack_ms=10_000)
    setup = Setup(["A", "B", "C"], params={"seats": 3, "pile": 30}, clock=spec)
    tables = {n: setup.table(n, bots=()) for n in "ABC"}
    router = Router(tables)
    router.slow[("C", "A")] = 1.5
    router.start()
    router.run(until=1.6)
    router.take("A", tables["A"].offer_draw(router.now))
    router.run(until=1.7)
    router.take("B", tables["B"].accept_draw(router.now))
    router.run(until=1.8)
    router.take("C", tables["C"].accept_draw(router.now))
    router.run(until=5.0)  # C's ACK of the DRAW reaches A at 4.8
    draws = [r for _, r in router.sent_at if r.kind == DRAW]
    assert len(draws) == 1 and draws[0].author == setup.key("A")
    for table in tables.values():
        first = clock_history(table.chain)[0]
        assert (first.ply, first.kind, first.seat) == (1, DRAW, 1)
        assert first.figures[0] is not None and first.figures[0] <= first.verdict.threshold
        assert first.verdict.late and first.remaining[0] == 0
        assert table.chain.at(1).engine_state.out[0]  # type: ignore[attr-defined]
        assert table.chain.outcome() is None  # B and C play on: no draw
    assert len({t.head.chain_digest for t in tables.values()}) == 1


GAMES = [(ENGINE, {"seats": 4, "pile": 40}, seed) for seed in range(4)] + [
    (find_engine("consensus"), {"seats": 4}, seed) for seed in (0, 3)
]


@pytest.mark.parametrize(("engine", "params", "seed"), GAMES, ids=lambda v: getattr(v, "name", v))
def test_extra_moves_and_captured_seats_run_the_controllers_clock(
    engine: AnyEngine, params: dict[str, int], seed: int
) -> None:
    """Bots at Grab and Consensus, four seats: every clocked ply runs, and charges, the
    clock of the seat that controls the seat to move (the ruler again for its extra move,
    the captor for a captured side's slot), and no other clock changes; every peer agrees."""
    setup = Setup(list("ABCD"), engine=engine, params=params, clock=SPEC, seed=seed)
    router = play(setup, bot_delay=0.5, max_delay=0.05, seed=seed)
    chain = router.tables["A"].chain
    engine = chain.engine
    assert all(clock_history(t.chain) == clock_history(chain) for t in router.tables.values())
    history = {ply.ply: ply for ply in clock_history(chain)}
    captured = extra = 0
    for state in chain.states[1:]:
        before = chain.at(state.ply - 1).engine_state
        to_move = engine.to_move(before)
        assert to_move is not None and state.clock is not None
        controller = engine.controller(before, to_move)
        assert state.clock.running == controller, state.ply
        captured += controller != to_move
        previous = chain.at(state.ply - 1).clock
        extra += previous is not None and previous.running == controller
        judged = history[state.ply]
        left = state.clock.clocks.remaining  # before this ply's verdict
        changed = [
            i + 1 for i, (a, b) in enumerate(zip(left, judged.remaining, strict=True)) if a != b
        ]
        assert set(changed) <= {controller}, (state.ply, changed)
        assert judged.remaining[controller - 1] == left[controller - 1] - judged.verdict.charge
    assert captured or extra  # the game had some (each of these seeds has)
