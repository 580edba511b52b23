"""A clocked table (DESIGN.md §4 Clocks) played by real tables on the virtual clock: each
peer measures, states its figure in its ACK, waits for finality, carries the ACKs, and every
peer derives the same verdicts and the same chain."""

from __future__ import annotations

import json
from pathlib import Path

from client.logs.log_show import game_lines
from client.logs.verifier import verify_file
from client.logs.verify_report import Report
from client.rules.clock import ClockSpec, threshold
from client.rules.clock_history import clock_history
from client.rules.records import ACK, END, MOVE, REMOVE, RESIGN
from client.tabletop.events import Output, PlyFinal, TableEnded
from tests.client.gamelogs import rewrite
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


def slow_seat_one() -> Router:
    """Seat 1 is a person who never moves, on a 1.5 s clock with no increment (its own table
    resigns it at its limit); the bots of seats 2 and 3 wait 0.1 s per move."""
    _setup, router = slow_seat_one_world()
    router.start()
    router.run()
    return router


def slow_seat_one_world() -> tuple[Setup, Router]:
    """``slow_seat_one``'s tables and router, not started yet."""
    spec = ClockSpec(base_ms=1_500, increment_ms=0, lag_ms=100, ack_ms=10_000)
    assert threshold(1_500, spec) < 2_000
    setup = clocked_setup(spec)
    tables = {
        name: setup.table(name, bots=() if name == "A" else "all", bot_delay=0.1)
        for name in setup.peer_names
    }
    return setup, Router(tables, seed=1)


def test_a_seat_that_runs_out_loses_on_time_everywhere_identically() -> None:
    """Its first ply is late at every peer, so seat 1 resigned (on time), and the game goes
    on without it."""
    router = slow_seat_one()
    chain = router.tables["B"].chain
    verdict = chain.at(2).clock.judged  # type: ignore[union-attr]
    assert verdict is not None and verdict.late
    assert chain.at(2).clock.clocks.of(1) == 0  # type: ignore[union-attr]
    assert len({t.head.chain_digest for t in router.tables.values()}) == 1
    assert all(t.head.engine_state.out[0] for t in router.tables.values())  # type: ignore[attr-defined]


def verified(router: Router, tmp_path: Path) -> dict[str, Report]:
    """Each peer's log, written as its game file, verified by ``palabre verify``'s code."""
    reports = {}
    for name, records in router.logs.items():
        path = rewrite(tmp_path / f"{name}.palabre-log", [r.envelope for r in records])
        engine = router.tables[name].engine
        reports[name] = verify_file(path, find=lambda _game, e=engine: e).report
    return reports


def test_every_log_verifies_with_the_same_clock_table_as_the_tables(tmp_path: Path) -> None:
    router = play(clocked_setup(), bot_delay=0.5, max_delay=0.05, seed=3)
    reports = verified(router, tmp_path)
    assert {report.exit_code for report in reports.values()} == {0}, [
        p.line() for r in reports.values() for p in r.problems
    ]
    tables = [clock_history(table.chain) for table in router.tables.values()]
    clocked = [report.clocked for report in reports.values()]
    assert all(history == tables[0] for history in tables + clocked)
    # every clocked ply is judged, the last one from its own ACKs
    moves = [s.ply for s in router.tables["A"].chain.states if s.record.kind == MOVE]
    assert [ply.ply for ply in clocked[0]] == moves
    assert not any(ply.verdict.late or ply.verdict.disputed for ply in clocked[0])
    seats = 3
    assert all(len(ply.figures) == 3 and len(ply.remaining) == seats for ply in clocked[0])


def test_the_verifier_reports_who_ran_out_of_time(tmp_path: Path) -> None:
    router = slow_seat_one()
    reports = verified(router, tmp_path)
    first = reports["B"].clocked[0]
    assert (first.ply, first.seat, first.verdict.late, first.remaining[0]) == (1, 1, True, 0)
    assert all(r.clocked == reports["B"].clocked for r in reports.values())
    report = reports["C"]
    assert report.exit_code == 0
    out = "\n".join(report.lines())
    assert "clock:    0.025+0 (lag credit 100 ms, stall after 10 s)" in out
    assert "seat 1 ran out of time at ply 1 (measured 16" in out  # its table resigned it
    assert "disputed: none" in out and "time left: seat 1 0.0, seat 2 1.5, seat 3 1.5" in out
    clock = json.loads(json.dumps(report.to_json()))["clock"]
    assert clock["base_ms"] == 1_500 and clock["plies"][0]["late"] is True
    assert [p["ply"] for p in clock["plies"]] == [p.ply for p in report.clocked]


def test_the_last_ply_is_judged_from_its_own_acks(tmp_path: Path) -> None:
    """A log cut after the last ply's ACKs still judges it; without them it is not final,
    and not judged."""
    router = play(clocked_setup(), bot_delay=0.5, max_delay=0.05, seed=3)
    records = router.logs["A"]
    chain = router.tables["A"].chain
    last = chain.head.ply
    # drop the ENDs and the ACKs of the last ply
    kept = [r for r in records if not (r.kind in (ACK, END) and r.body["ply"] == last)]
    path = rewrite(tmp_path / "cut.palabre-log", [r.envelope for r in kept])
    report = verify_file(path, find=lambda _game: chain.engine).report
    assert report.exit_code == 3 and report.clocked[-1].ply < last


def test_a_player_who_lets_the_clock_run_out_is_resigned_by_their_own_table() -> None:
    """Seat 1 is a person who never moves: at its limit T (1,500 + 100 + 1 ms), measured
    from START becoming final at A, A's own table signs RESIGN for it, and the game goes on
    between the others; the verdict on that ply is late everywhere."""
    spec = ClockSpec(base_ms=1_500, increment_ms=0, lag_ms=100, ack_ms=10_000)
    setup = clocked_setup(spec)
    tables = {"A": setup.table("A", bots=()), "B": setup.table("B"), "C": setup.table("C")}
    router = Router(tables, seed=2)
    router.start()
    router.run()
    resign = next(r for when, r in router.sent_at if r.kind == RESIGN)
    when = next(when for when, r in router.sent_at if r is resign)
    assert resign.author == setup.key("A") and resign.body["seat"] == 1
    assert 1.601 <= when <= 1.603
    verdicts = clock_history(router.tables["B"].chain)
    assert verdicts[0].ply == 1 and verdicts[0].verdict.late and verdicts[0].remaining[0] == 0
    assert all(router.of_type(name, TableEnded) for name in tables)
    assert len({t.head.chain_digest for t in router.tables.values()}) == 1


def test_a_peer_that_owes_an_ack_past_the_stall_timeout_is_voted_off() -> None:
    """C crashes before acking ply 1 (its table wrote its ACK, sent nothing): with an away
    timeout of 60 s, the stall timeout of 5 s removes it, and bots play on its seat."""
    spec = ClockSpec(base_ms=60_000, increment_ms=0, lag_ms=300, ack_ms=5_000)
    setup = clocked_setup(spec)
    tables = {name: setup.table(name, bot_delay=0.5) for name in setup.peer_names}
    router = Router(tables, seed=4, presence=True, heartbeat=1.0)

    def crash_c(source: str, output: Output) -> bool:
        return source == "C" and any(r.kind == ACK and r.body["ply"] == 1 for r in output.send)

    router.crash_when = crash_c
    router.start()
    router.run(until=30.0)
    assert "C" in router.down
    remove = next((when, r) for when, r in router.sent_at if r.kind == REMOVE)
    assert set(remove[1].body["removed"]) == {setup.key("C")}
    assert 5.0 <= remove[0] < 8.0  # the stall timeout, not the away timeout
    assert len({router.tables[n].head.chain_digest for n in ("A", "B")}) == 1


def test_a_mover_whose_clock_ran_out_but_who_never_resigned_is_voted_off() -> None:
    """C (seat 3) acks ply 2 and is gone before moving, without resigning (a machine that
    froze, or a client that does not stop itself): once its clock has been past its limit
    for the stall timeout, the others remove it; far sooner than the away timeout (60 s)."""
    spec = ClockSpec(base_ms=3_000, increment_ms=0, lag_ms=300, ack_ms=5_000)
    setup = clocked_setup(spec)
    tables = {name: setup.table(name, bot_delay=0.2) for name in setup.peer_names}
    router = Router(tables, seed=4, presence=True, heartbeat=1.0)
    C = setup.key("C")
    acked: list[int] = []

    def freeze_c(source: str, output: Output) -> bool:
        """After C sent its ACK of the first ply after which it is to move, it sends no more."""
        if source != "C":
            return False
        if acked:
            return True
        table = router.tables["C"]
        state, engine = table.head.engine_state, table.engine
        to_move = engine.to_move(state)
        if to_move is not None and table.head.seat_key(engine.controller(state, to_move)) == C:
            acked.extend(r.body["ply"] for r in output.send if r.kind == ACK)
        return False

    router.crash_when = freeze_c
    router.start()
    router.run(until=40.0)
    assert "C" in router.down
    ply = acked[0]
    last_ack = max(when for when, r in router.sent_at if r.kind == ACK and r.body["ply"] == ply)
    remove = next((when, r) for when, r in router.sent_at if r.kind == REMOVE)
    assert set(remove[1].body["removed"]) == {C} and remove[1].body["ply"] == ply + 1
    # C's clock started when that ply became final, at its last ACK; its limit T is 3,000 +
    # 300 + 3 ms (it had not moved yet), then the stall timeout
    assert last_ack + 3.303 + 5.0 <= remove[0] < last_ack + 3.303 + 5.0 + 0.5


def test_log_show_prints_each_plys_charge_and_every_seats_time(tmp_path: Path) -> None:
    router = slow_seat_one()
    path = rewrite(tmp_path / "B.palabre-log", [r.envelope for r in router.logs["B"]])
    verification = verify_file(path, find=lambda _game: router.tables["B"].engine)
    lines = game_lines(verification)
    assert any(
        line.startswith("clock:    0.025+0 (lag credit 100 ms); under each") for line in lines
    )
    first = next(i for i, line in enumerate(lines) if line.startswith("     1.  "))
    assert lines[first + 1].startswith("        clock  seat 1 ran out of time: measured 1.6 s")
    assert lines[first + 1].endswith("· 0.0 / 1.5 / 1.5")
    second = lines[lines.index(lines[first]) + 2]
    assert second.startswith("     2.  ")
    charged = lines[first + 3]
    assert charged.startswith("        clock  seat 2 charged 0.0 s · 0.0 / 1.5 / 1.5"), charged
    shown = sum(line.startswith("        clock  ") for line in lines)
    assert shown == len(verification.report.clocked) == verification.report.plies
