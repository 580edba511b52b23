"""A clocked table (DESIGN.md §4 Clocks) played by real tables on the virtual clock: each
peer measures, states its figure in its ACK, waits for finality, carries the ACKs, and every
peer derives the same verdicts and the same chain."""

from __future__ import annotations

from client.rules.clock import ClockSpec, threshold
from client.rules.records import ACK, MOVE
from client.tabletop.events import Output, PlyFinal, TableEnded
from tests.client.harness import Router, Setup, play

SPEC = ClockSpec(base_ms=60_000, increment_ms=1_000, lag_ms=300, ack_ms=10_000)


def clocked_setup(spec: ClockSpec = SPEC) -> Setup:
    return Setup(["A", "B", "C"], params={"seats": 3, "pile": 12}, clock=spec)


def test_a_clocked_game_ends_everywhere_with_every_ply_carrying_the_acks_before_it() -> None:
    setup = clocked_setup()
    router = play(setup, bot_delay=0.5, max_delay=0.05, seed=3)
    heads = {name: table.head for name, table in router.tables.items()}
    assert len({head.chain_digest for head in heads.values()}) == 1
    assert all(router.of_type(name, TableEnded) for name in router.tables)
    chain = router.tables["A"].chain
    for state in chain.states[1:]:
        carried = state.record.body["acks"]
        assert len(carried) == len(chain.at(state.ply - 1).peers)
    # every ACK of a move states a figure: about the bots' delay, plus the links' lag
    figures = [
        r.body["ms"]
        for r in router.logs["B"]
        if r.kind == ACK and chain.at(r.body["ply"]).record.kind == MOVE
    ]
    assert figures and all(type(f) is int and 0 <= f <= 1_000 for f in figures)
    # the same clocks at every peer, each seat charged its plies less the lag, plus increments
    readings = {name: t.head.clock for name, t in router.tables.items()}
    assert len(set(readings.values())) == 1
    reading = readings["A"]
    assert reading is not None and all(r < 60_000 + 12 * 1_000 for r in reading.clocks.remaining)


def early_plies(setup: Setup) -> int:
    """How many plies a peer signed before the ply they follow was final there, in a game
    with links up to 200 ms slow (each output is looked at as it comes out)."""
    tables = {name: setup.table(name) for name in setup.peer_names}
    router = Router(tables, seed=5, max_delay=0.2)
    finals: dict[str, set[int]] = {name: {-1} for name in tables}
    early = 0

    def watch(source: str, output: Output) -> bool:
        nonlocal early
        finals[source] |= {event.ply for event in output.events if isinstance(event, PlyFinal)}
        own = [r for r in output.send if r.kind == MOVE]  # what it signed
        early += sum(r.body["ply"] - 1 not in finals[source] for r in own)
        return False

    router.crash_when = watch
    router.start()
    router.run()
    assert all(router.of_type(name, TableEnded) for name in tables)
    return early


def test_nobody_signs_the_next_ply_before_the_last_is_final_here() -> None:
    assert early_plies(clocked_setup()) == 0
    # without a clock nothing waits for finality: the same game signs plies early
    assert early_plies(Setup(["A", "B", "C"], params={"seats": 3, "pile": 12})) > 0


def test_a_seat_whose_bot_is_too_slow_loses_on_time_everywhere_identically() -> None:
    """Seat 1's bot waits 2 s per move on a 1.5 s clock with no increment: its first ply is
    late at every peer, so seat 1 resigned instead, and the game goes on without it."""
    spec = ClockSpec(base_ms=1_500, increment_ms=0, lag_ms=100, ack_ms=10_000)
    assert threshold(1_500, spec) < 2_000
    setup = clocked_setup(spec)
    tables = {
        name: setup.table(name, bot_delay=2.0 if name == "A" else 0.1) for name in setup.peer_names
    }
    router = Router(tables, seed=1)
    router.start()
    router.run()
    chain = router.tables["B"].chain
    verdict = chain.at(2).clock.judged  # type: ignore[union-attr]
    assert verdict is not None and verdict.late
    assert chain.at(2).clock.clocks.of(1) == 0  # type: ignore[union-attr]
    assert len({t.head.chain_digest for t in router.tables.values()}) == 1
    assert all(t.head.engine_state.out[0] for t in router.tables.values())  # type: ignore[attr-defined]
