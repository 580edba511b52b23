"""The clock's rules (client.rules.clock, DESIGN.md §4 Clocks) on figures and a virtual clock."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from client.rules.clock import (
    ClockSpec,
    PlyTimer,
    SeatClocks,
    clock_face,
    judge,
    lower_middle,
    parse_time_control,
    threshold,
)
from client.rules.errors import Malformed

SPEC = ClockSpec(base_ms=60_000, increment_ms=2_000, lag_ms=300, ack_ms=10_000)


@pytest.mark.parametrize(
    ("text", "base_ms", "increment_ms"),
    [
        ("5+3", 300_000, 3_000),
        ("0.1+0", 6_000, 0),
        ("1+0", 60_000, 0),
        (" 15 + 10 ", 900_000, 10_000),
        ("2.5+0.5", 150_000, 500),
    ],
)
def test_time_controls_read_as_lichess_writes_them(
    text: str, base_ms: int, increment_ms: int
) -> None:
    spec = parse_time_control(text)
    assert (spec.base_ms, spec.increment_ms) == (base_ms, increment_ms)
    assert parse_time_control(spec.describe()) == spec


@pytest.mark.parametrize("text", ["5", "five+3", "0+3", "-1+0", "5+-1", "1/0+0", "", "+"])
def test_a_bad_time_control_says_how_to_write_one(text: str) -> None:
    with pytest.raises(ValueError, match="minutes"):
        parse_time_control(text)


def test_the_stall_timeout_is_never_under_five_seconds() -> None:
    with pytest.raises(ValueError, match="5 seconds"):
        ClockSpec(base_ms=60_000, ack_ms=4_999)
    with pytest.raises(Malformed, match="5 seconds"):
        ClockSpec.from_body({"base_ms": 60_000, "ack_ms": 1_000})


def test_start_body_round_trips_and_takes_the_defaults() -> None:
    assert ClockSpec.from_body(SPEC.to_body()) == SPEC
    assert ClockSpec.from_body({"base_ms": 6_000}) == ClockSpec(6_000, 0, 300, 10_000)
    for bad in ({}, {"base_ms": 0}, {"base_ms": True}, {"base_ms": 6_000, "lag_ms": -1}):
        with pytest.raises(Malformed):
            ClockSpec.from_body(bad)


def test_the_threshold_credits_the_lag_and_a_thousandth_for_drift() -> None:
    assert threshold(60_000, SPEC) == 60_000 + 300 + 60
    assert threshold(0, SPEC) == 300


def test_the_lower_middle_is_the_ceil_half_th_smallest_and_silence_counts_zero() -> None:
    assert lower_middle([5]) == 5
    assert lower_middle([9, 1]) == 1
    assert lower_middle([3, 1, 2]) == 2
    assert lower_middle([4, 1, 3, 2]) == 2
    assert lower_middle([None, 100, 100, 100]) == 100
    assert lower_middle([None, None, 100, 100]) == 0


def test_on_time_charges_the_middle_figure_less_the_lag_then_adds_the_increment() -> None:
    verdict = judge(60_000, [1_200, 1_250, 1_300, 9_000], SPEC)
    assert not verdict.late and verdict.charge == 1_250 - 300 and not verdict.disputed
    clocks = SeatClocks.starting(SPEC, 4).after(2, verdict, SPEC)
    assert clocks.remaining == (60_000, 60_000 - 950 + 2_000, 60_000, 60_000)
    assert judge(60_000, [100, 200], SPEC).charge == 0  # under the lag credit: free


def test_late_needs_more_than_half_the_peers_past_the_threshold() -> None:
    limit = threshold(1_000, SPEC)
    one_liar = judge(1_000, [limit + 1, 10, 10, 10], SPEC)  # a non-mover lies: no flag
    assert not one_liar.late
    two_of_four = judge(1_000, [limit + 1, limit + 1, 10, 10], SPEC)  # 2-2 decides nothing
    assert not two_of_four.late
    three_of_four = judge(1_000, [limit + 1, limit + 1, limit + 1, 10], SPEC)
    assert three_of_four.late and three_of_four.charge == 1_000
    assert SeatClocks.starting(SPEC, 2).after(1, three_of_four, SPEC).of(1) == 0
    exactly = judge(1_000, [limit, limit, limit], SPEC)
    assert not exactly.late  # late means *more* than T


def test_two_peers_neither_can_flag_the_other_and_a_split_is_disputed() -> None:
    limit = threshold(5_000, SPEC)
    split = judge(5_000, [limit + 5_000, 10], SPEC)
    assert not split.late and split.disputed
    both_late = judge(5_000, [limit + 1, limit + 2], SPEC)
    assert both_late.late and not both_late.disputed
    assert not judge(5_000, [10, 20], SPEC).disputed


@settings(deadline=None)
@given(
    remaining=st.integers(0, 600_000),
    honest=st.lists(st.integers(0, 700_000), min_size=2, max_size=8),
    lies=st.data(),
)
def test_one_liar_never_pushes_the_figure_outside_the_honest_ones(
    remaining: int, honest: list[int], lies: st.DataObject
) -> None:
    """From three peers, one figure (any value, or none) cannot move v outside the honest range."""
    lie = lies.draw(st.one_of(st.none(), st.integers(0, 10**9)))
    figures: list[int | None] = [*honest, lie]
    verdict = judge(remaining, figures, SPEC)
    assert min(honest) <= verdict.figure <= max(honest) or (
        lie is None and verdict.figure == 0 and len(honest) < 3
    )


def test_the_timer_starts_at_finality_or_ack_ms_after_the_record_whichever_first() -> None:
    timer = PlyTimer(SPEC)
    timer.took(0, 1_000)  # START accepted
    timer.became_final(0, 1_000)
    assert timer.started(1) == 1_000
    assert timer.figure(1, 4_000) == 3_000
    assert timer.figure(1, 9_999) == 3_000  # one figure per ply, ever
    timer.took(1, 4_000)
    assert timer.started(2) == 14_000  # not final yet: ack_ms after the record
    assert timer.running_for(2, 12_000) == 0  # started at 14 000 at the latest, not yet
    timer.became_final(1, 4_500)
    assert timer.started(2) == 4_500
    assert timer.running_for(2, 5_000) == 500
    timer.took(2, 20_000)
    timer.took(3, 30_000)
    timer.forget_before(3)
    assert timer.started(3) == 30_000 and timer.started(2) is None  # ply 1 forgotten


def test_a_peer_that_missed_the_start_states_no_figure() -> None:
    timer = PlyTimer(SPEC)
    assert timer.figure(7, 50_000) is None  # restarted mid-game: it never saw ply 6 taken
    assert timer.running_for(7, 50_000) is None


def test_a_clock_reads_as_a_player_reads_it() -> None:
    assert [clock_face(ms) for ms in (0, 999, 59_999, 60_000, 3_725_000)] == [
        "0.0",
        "0:00",
        "0:59",
        "1:00",
        "1:02:05",
    ]
    assert [clock_face(ms, 10_000) for ms in (-5, 9_849, 10_000)] == ["0.0", "9.8", "0:10"]
