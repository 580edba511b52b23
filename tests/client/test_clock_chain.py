"""The clock inside the chain (DESIGN.md §4 Clocks): plies carry the ACKs of the ply before
them, and the chain judges that ply from their figures before it checks the next one."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest

from client.rules.chain import Chain, TableState
from client.rules.clock import ClockSpec, threshold
from client.rules.errors import PlyRejected
from client.rules.net_adapter import open_envelope
from client.rules.plies import PLY_RULES
from client.rules.records import ACK, MOVE, RESIGN
from client.rules.start import parse_start
from tests.client.harness import Setup, forge

SPEC = ClockSpec(base_ms=6_000, increment_ms=1_000, lag_ms=300, ack_ms=10_000)
PEERS = ["A", "B", "C"]


def clocked(spec: ClockSpec | None = SPEC) -> tuple[Setup, Chain]:
    setup = Setup(PEERS, params={"seats": 3, "pile": 30}, clock=spec)
    return setup, Chain(parse_start(setup.start_record), setup.engine, open_envelope, PLY_RULES)


def acks(
    setup: Setup, head: TableState, figures: Mapping[str, int | None], digest: bytes | None = None
) -> list[bytes]:
    return [
        forge(
            setup,
            name,
            ACK,
            {"ply": head.ply, "digest": digest or head.chain_digest, "ms": figure},
        ).envelope
        for name, figure in figures.items()
    ]


def move(
    setup: Setup, chain: Chain, name: str, seat: int, stones: int, carried: Sequence[bytes] | None
) -> TableState:
    body: dict[str, object] = {
        "ply": chain.head.ply + 1,
        "prev": chain.head.chain_digest,
        "seat": seat,
        "move": [stones],
    }
    if carried is not None:
        body["acks"] = carried
    state = chain.check(forge(setup, name, MOVE, body))
    chain.append(state)
    return state


def test_start_pins_the_clock_and_every_seat_starts_with_the_base() -> None:
    setup, chain = clocked()
    assert parse_start(setup.start_record).clock == SPEC
    reading = chain.head.clock
    assert reading is not None and reading.clocks.remaining == (6_000, 6_000, 6_000)


def test_a_table_without_a_clock_refuses_carried_acks() -> None:
    setup, chain = clocked(None)
    assert chain.head.clock is None
    with pytest.raises(PlyRejected, match="without a clock") as refused:
        move(setup, chain, "A", 1, 1, acks(setup, chain.head, dict.fromkeys(PEERS, 0)))
    assert refused.value.code == "bad-acks" and chain.head.ply == 0
    assert move(setup, chain, "A", 1, 1, None).clock is None


def test_an_on_time_ply_is_charged_the_lower_middle_less_the_lag_plus_the_increment() -> None:
    setup, chain = clocked()
    first = move(setup, chain, "A", 1, 1, acks(setup, chain.head, dict.fromkeys(PEERS, 0)))
    assert first.clock is not None and first.clock.running == 1 and first.clock.judged is None
    # A measured 1 000 ms for its own ply, B 1 200, C (a liar) 50 000: v is 1 200
    second = move(
        setup, chain, "B", 2, 1, acks(setup, first, {"A": 1_000, "B": 1_200, "C": 50_000})
    )
    reading = second.clock
    assert reading is not None and reading.judged is not None
    assert not reading.judged.late and reading.judged.figure == 1_200
    assert reading.clocks.remaining == (6_000 - 900 + 1_000, 6_000, 6_000)
    assert reading.figures == (1_000, 1_200, 50_000) and reading.running == 2


def test_a_late_ply_has_no_effect_and_its_seat_resigned_instead() -> None:
    setup, chain = clocked()
    first = move(setup, chain, "A", 1, 3, acks(setup, chain.head, dict.fromkeys(PEERS, 0)))
    late = threshold(6_000, SPEC) + 1
    second = move(setup, chain, "B", 2, 1, acks(setup, first, {"A": 10, "B": late, "C": late}))
    reading = second.clock
    assert reading is not None and reading.judged is not None and reading.judged.late
    assert reading.clocks.of(1) == 0
    # seat 1's 3 stones never left the pile: ply 2 was played on the position where seat 1
    # resigned at ply 0, so 30 - 1 stones remain and seat 1 is out
    assert second.engine_state.pile == 29  # type: ignore[attr-defined]
    assert second.engine_state.out[0]  # type: ignore[attr-defined]


def test_two_of_three_must_measure_late_for_a_flag() -> None:
    setup, chain = clocked()
    first = move(setup, chain, "A", 1, 1, acks(setup, chain.head, dict.fromkeys(PEERS, 0)))
    late = threshold(6_000, SPEC) + 1
    second = move(setup, chain, "B", 2, 1, acks(setup, first, {"A": 10, "B": 10, "C": late}))
    assert second.clock is not None and second.clock.judged is not None
    assert not second.clock.judged.late


@pytest.mark.parametrize(
    ("case", "reason"),
    [
        ("none", "does not carry the acknowledgements of ply 0"),
        ("missing", "lacks the acknowledgement of ply 0 by peer"),
        ("doubled", "carries two acknowledgements by peer"),
        ("other position", "that is not one: it acknowledges another position than ply 0"),
        ("not an ack", "that is not one: it is a RESIGN"),
    ],
)
def test_a_ply_without_the_full_set_of_acks_is_refused(case: str, reason: str) -> None:
    setup, chain = clocked()
    head = chain.head
    carried: list[bytes] | None = acks(setup, head, dict.fromkeys(PEERS, 0))
    if case == "none":
        carried = None
    elif case == "missing":
        carried = acks(setup, head, dict.fromkeys("AB", 0))
    elif case == "doubled":
        carried = [*acks(setup, head, dict.fromkeys("AB", 0)), *acks(setup, head, {"A": 5})]
    elif case == "other position":
        carried = acks(setup, head, dict.fromkeys(PEERS, 0), digest=bytes(32))
    elif case == "not an ack":
        assert carried is not None
        carried[2] = forge(
            setup, "C", RESIGN, {"ply": 1, "prev": head.chain_digest, "seat": 3}
        ).envelope
    with pytest.raises(PlyRejected, match=reason) as refused:
        move(setup, chain, "A", 1, 1, carried)
    assert refused.value.code == "bad-acks" and chain.head.ply == 0


def test_a_forged_ack_is_refused() -> None:
    setup, chain = clocked()
    carried = acks(setup, chain.head, dict.fromkeys(PEERS, 0))
    forged = bytearray(carried[1])
    forged[-1] ^= 1  # the signature's last byte
    carried[1] = bytes(forged)
    with pytest.raises(PlyRejected, match="does not verify"):
        move(setup, chain, "A", 1, 1, carried)
