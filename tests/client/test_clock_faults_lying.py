"""Peers that lie about the clock (issue 27, faults 5, 6 and 10): real tables on the
harness's virtual clock (``tests.client.harness``), where a lying peer is a modified client:
its own table, whose signer states the figures the test wants in its ACKs (and carries
them, as its own, in the plies it signs), so the lie is consistent everywhere and only the
verdict rule stands between it and the honest peers.

Every seat is a bot that waits 0.5 s per move, the clock 60+0 with the default 300 ms lag
credit: an honest figure is 500 ms (the router delivers at once), so an honest charge is
200 ms and ``T`` about 60.4 s."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from client.rules.chain import Chain
from client.rules.clock import ClockSpec
from client.rules.clock_history import ClockedPly, clock_history
from client.rules.records import ACK, MOVE, RESIGN, SignedRecord
from client.tabletop.events import Output, TableEnded
from client.tabletop.table import Table
from tests.client.envelopes import TestSigner
from tests.client.harness import Router, Setup

SPEC = ClockSpec(base_ms=60_000, increment_ms=0, lag_ms=300, ack_ms=10_000)
NAMES = "ABCDE"
HUGE = 2**32 - 1


class LyingSigner:
    """A peer's signer that states ``figure`` in its ACK of every ply of ``seat`` (as the
    table it signs for knows the ply's running seat)."""

    def __init__(self, inner: TestSigner, seat: int, figure: int) -> None:
        self.inner, self.seat, self.figure = inner, seat, figure
        self.chain: Chain | None = None

    @property
    def key(self) -> bytes:
        return self.inner.key

    def sign(self, kind: str, body: Mapping[str, Any]) -> SignedRecord:
        if kind == ACK and self.chain is not None and "ms" in body:
            state = self.chain.at(body["ply"])
            if state.clock is not None and state.clock.running == self.seat:
                body = {**body, "ms": self.figure}
        return self.inner.sign(kind, body)


def table_of(
    peers: int,
    liars: Mapping[str, tuple[int, int]],
    *,
    late_mover: bool = False,
    person: str | None = None,
) -> Router:
    """``peers`` peers, one seat each, bots but ``person``'s; each liar ``name: (seat,
    figure)`` states that figure for that seat's plies; with ``late_mover`` A's client
    plays past its time (``LateMover``)."""
    names = list(NAMES[:peers])
    setup = Setup(names, params={"seats": peers, "pile": 40}, clock=SPEC)
    tables: dict[str, Table] = {}
    signers: dict[str, LyingSigner] = {}
    for name in names:

        def wrap(inner: TestSigner, name: str = name) -> LyingSigner | TestSigner:
            if name == "A" and late_mover:
                signers[name] = LateMover(inner, 1)
            elif name in liars:
                signers[name] = LyingSigner(inner, *liars[name])
            else:
                return inner
            return signers[name]

        bots: Any = () if name == person else "all"
        tables[name] = setup.table(name, bots=bots, bot_delay=0.5, signer=wrap)
    for name, signer in signers.items():
        signer.chain = tables[name].chain
    return Router(tables, seed=1)


def judged(router: Router, seat: int) -> list[ClockedPly]:
    """The plies of ``seat`` as every peer judged them (each peer's chain alike)."""
    router.start()
    router.run()
    assert all(router.of_type(name, TableEnded) for name in router.tables)
    assert len({t.head.chain_digest for t in router.tables.values()}) == 1
    histories = [clock_history(t.chain) for t in router.tables.values()]
    assert all(h == histories[0] for h in histories)
    plies = [p for p in histories[0] if p.seat == seat]
    assert plies
    return plies


HONEST = 500  # the bots' wait: every honest figure, to a few ms


@pytest.mark.parametrize("peers", [2, 3, 4])
@pytest.mark.parametrize("figure", [HUGE, 0])
@pytest.mark.parametrize("liar_seat", [1, 2], ids=["another-seat", "its-own-seat"])
def test_one_liar_flags_nobody_and_moves_no_charge_from_three_peers(
    peers: int, figure: int, liar_seat: int
) -> None:
    """Fault 5: peer B states 2³²−1 ms, or 0, in its ACK of every ply of one seat (seat 1,
    another's; or seat 2, its own): nobody is flagged; from 3 peers on every charge stays
    within the honest figures (less the lag credit); at 2, the lower figure decides, so the
    lie saves a seat at most (a huge one is marked disputed)."""
    plies = judged(table_of(peers, {"B": (liar_seat, figure)}), liar_seat)
    assert not any(p.verdict.late for p in plies)
    assert all(p.figures[1] == figure for p in plies)  # the lie is in the chain
    lag = SPEC.lag_ms
    for ply in plies:
        honest = [f or 0 for i, f in enumerate(ply.figures) if i != 1]
        assert all(HONEST - 25 <= f <= HONEST for f in honest), ply
        within = min(honest) - lag <= ply.verdict.charge <= max(honest) - lag
        if peers >= 3:
            assert within and not ply.verdict.disputed, ply
        elif figure == HUGE:
            assert within and ply.verdict.disputed, ply
        else:
            assert ply.verdict.charge == 0 and not ply.verdict.disputed, ply


class LateMover(LyingSigner):
    """A modified client that never stops itself: when its table resigns its seat on time
    (its player's time ran out), it signs a move instead (taking one stone), and states 0
    for that seat's plies."""

    def __init__(self, inner: TestSigner, seat: int, figure: int = 0) -> None:
        super().__init__(inner, seat, figure)

    def sign(self, kind: str, body: Mapping[str, Any]) -> SignedRecord:
        if kind == RESIGN and body.get("seat") == self.seat:
            kind, body = MOVE, {**body, "move": [1]}
        return super().sign(kind, body)


def coalition(peers: int, mover_lies: bool, allies: Mapping[str, tuple[int, int]]) -> Router:
    """Seat 1 (A) is a person who never moves; with ``mover_lies`` its client plays past
    its time (``LateMover``); ``allies`` lie as ``LyingSigner``s.  The others are bots."""
    router = table_of(peers, allies, late_mover=mover_lies, person="A")
    router.start()
    router.run(until=5 * 60.0)
    assert len({t.head.chain_digest for t in router.tables.values()}) == 1
    return router


def first_of_seat_one(router: Router) -> ClockedPly:
    histories = [clock_history(t.chain) for t in router.tables.values()]
    assert all(h[: len(histories[0])] == histories[0][: len(h)] for h in histories)
    return next(p for p in histories[0] if p.seat == 1)


def test_two_non_movers_at_four_peers_cannot_flag() -> None:
    """Fault 6: B and C state 2³²−1 ms for every ply of seat 1: the lower middle of four
    figures is an honest one; nobody is late and every charge is the honest one."""
    plies = judged(table_of(4, {"B": (1, HUGE), "C": (1, HUGE)}), 1)
    assert not any(p.verdict.late for p in plies)
    assert all(HONEST - 25 - SPEC.lag_ms <= p.verdict.charge <= HONEST for p in plies)


def test_a_late_mover_with_one_ally_at_five_peers_is_still_late() -> None:
    """Fault 6: seat 1's player lets its time run out and its modified client moves anyway
    at ``T`` + 1 ms, stating 0, with B stating 0 too: three honest figures past ``T`` are the
    lower middle of five, so the ply is late everywhere and seat 1 resigned on time."""
    router = coalition(5, True, {"B": (1, 0)})
    first = first_of_seat_one(router)
    assert first.ply == 1 and first.figures[:2] == (0, 0)
    assert all(f is not None and f > first.verdict.threshold for f in first.figures[2:])
    assert first.verdict.late and first.remaining[0] == 0
    assert all(t.head.engine_state.out[0] for t in router.tables.values())  # type: ignore[attr-defined]


def test_a_late_mover_and_one_ally_at_four_peers_save_the_ply_as_documented() -> None:
    """The documented 2–2 limit (a mover and one ally can save a late ply at four peers,
    as 2–2 removes nobody): the same late move with B stating 0 is on time, charged 0; and
    without the ally it is late."""
    saved = first_of_seat_one(coalition(4, True, {"B": (1, 0)}))
    assert saved.figures[:2] == (0, 0)
    assert all(f is not None and f > saved.verdict.threshold for f in saved.figures[2:])
    assert not saved.verdict.late and saved.verdict.charge == 0
    alone = first_of_seat_one(coalition(4, True, {}))
    assert alone.figures[0] == 0 and alone.verdict.late


def test_a_majority_can_flag_anyone_as_documented() -> None:
    """Three of four peers stating 2³²−1 ms for seat 1 (a bot that moves in 0.5 s) flag
    it on its first ply."""
    [first] = judged(table_of(4, {name: (1, HUGE) for name in "BCD"}), 1)
    assert first.ply == 1 and first.verdict.late and first.remaining[0] == 0


class DoubleClaimer:
    """A modified client that signs two ACKs of ply ``ply`` (its own figure, and 1 s more):
    the test sends each to different peers."""

    def __init__(self, inner: TestSigner, ply: int) -> None:
        self.inner, self.ply = inner, ply
        self.second: SignedRecord | None = None

    @property
    def key(self) -> bytes:
        return self.inner.key

    def sign(self, kind: str, body: Mapping[str, Any]) -> SignedRecord:
        record = self.inner.sign(kind, body)
        if kind == ACK and body["ply"] == self.ply and self.second is None:
            self.second = self.inner.sign(kind, {**body, "ms": (body["ms"] or 0) + 1000})
        return record


def test_two_acks_of_one_ply_halt_every_peer_naming_only_their_signer() -> None:
    """Fault 10: C signs two ACKs of ply 3, the one it keeps going to A and D, the other to
    B only.  Whoever carries its version in ply 4, every peer meets both and halts on the
    double claim, and every evidence names C, and nobody else."""
    names = list("ABCD")
    setup = Setup(names, params={"seats": 4, "pile": 40}, clock=SPEC)
    claimers: list[DoubleClaimer] = []

    def wrap(inner: TestSigner) -> DoubleClaimer:
        claimers.append(DoubleClaimer(inner, 3))
        return claimers[0]

    tables = {
        name: setup.table(name, bot_delay=0.5, signer=wrap if name == "C" else None)
        for name in names
    }
    router = Router(tables, seed=1)
    C = setup.key("C")

    def split(source: str, output: Output) -> bool:
        """C's two ACKs of ply 3 go to different peers (the router sends the rest)."""
        for record in list(output.send):
            if source == "C" and record.kind == ACK and record.body["ply"] == 3:
                output.send.remove(record)
                second = claimers[0].second
                assert second is not None
                router.deliver(record.envelope, ["A", "D"])
                router.deliver(second.envelope, ["B"])
        return False

    router.crash_when = split
    router.start()
    router.run()
    assert claimers[0].second is not None
    for name, table in router.tables.items():
        evidence = table.evidence
        assert table.halted and evidence is not None, name
        assert evidence.ply == 3 and evidence.culprits == (C,), (name, evidence)
        acks = [r for r in evidence.records if r.kind == ACK and r.author == C]
        assert {r.record_hash for r in acks} >= {claimers[0].second.record_hash}, name
        assert len({r.record_hash for r in acks}) == 2, name
