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
from client.rules.records import ACK, SignedRecord
from client.tabletop.events import TableEnded
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


def table_of(peers: int, liars: Mapping[str, tuple[int, int]], **table: Any) -> Router:
    """``peers`` peers, one seat each; each liar ``name: (seat, figure)``."""
    names = list(NAMES[:peers])
    setup = Setup(names, params={"seats": peers, "pile": 40}, clock=SPEC)
    tables: dict[str, Table] = {}
    signers: dict[str, LyingSigner] = {}
    for name in names:

        def wrap(inner: TestSigner, name: str = name) -> LyingSigner | TestSigner:
            if name not in liars:
                return inner
            signers[name] = LyingSigner(inner, *liars[name])
            return signers[name]

        tables[name] = setup.table(name, bot_delay=0.5, signer=wrap, **table)
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
