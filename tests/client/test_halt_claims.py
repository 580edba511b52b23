"""A HALT's reason is its sender's claim, never the table's finding (issue 19).

A liar at the table halts it with a reason accusing the host.  Every honest peer halts (any
HALT stops a table), but the window's notices show the accusation as the liar's claim,
attributed to it ("Liar's palabre stopped the table ..., saying: “...”"), and the verdict
alone as the table's finding; the honest peers' own HALTs say only who halted, so the
accusation is never signed again by an honest key.

Real peers (``client.runtime.peer.Peer``) over loopback TCP in one process, the host seen through
the window's session (``client.sessions.net_session``); the liar is the e2e tests'
(``tests.e2e.liar``).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import trio

from client.rules.halting import halt_claim
from client.rules.net_adapter import open_envelope
from client.rules.records import HALT
from client.runtime.peer import Peer
from client.sessions.net_session import NetSession
from client.sessions.session_api import ChatLine
from engines import find_engine
from net.identity import load_profile_identity
from tests.client.peers import host_peer
from tests.client.test_peer import joiner
from tests.e2e.liar import Liar


@pytest.mark.trio
async def test_a_false_halt_reads_as_the_liars_claim_in_the_window(tmp_path: Path) -> None:
    table = host_peer(
        load_profile_identity("host", tmp_path),
        find_engine("consensus"),
        {"seats": 4},
        "Host",
        profile="host",
        home=tmp_path,
        engine_for=find_engine,
        bot_delay=0.0,
        bot_me=True,
        auto_start=True,
    )
    window = NetSession(table)
    lines: list[Any] = []
    window.subscribe(lambda event: lines.append(event) if isinstance(event, ChatLine) else None)
    await table.open(0)
    liar = joiner(tmp_path, "Liar", table.port, seat=2, engine_for=find_engine)
    liar.bot_me = False  # it plays its seat itself, after its lie (tests.e2e.liar)
    liar.observers.append(Liar(liar, [("false_halt", 3, "Host")]))
    honest = joiner(tmp_path, "Bea", table.port, seat=3, engine_for=find_engine)
    other = joiner(tmp_path, "Cid", table.port, seat=4, engine_for=find_engine)
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            for peer in (table, liar, honest, other):
                nursery.start_soon(_run, peer)
    assert table.exit_code == honest.exit_code == other.exit_code == 3
    halted = window.snapshot.halted
    assert halted is not None
    ply = halted.ply
    assert halted.message == f"4 of 4 peers agree on ply {ply}" and halted.peer == ""
    notices = [line.entry.notice for line in lines if line.entry.notice is not None]
    [verdict] = [n for n in notices if n.key == "halted"]
    # the first verdict (it grows as the others' claims arrive), without the liar's claim
    assert verdict.values()["ply"] == str(ply)
    assert re.fullmatch(
        rf"no majority for ply {ply}: .*|\d of 4 peers agree on ply {ply}",
        verdict.values()["message"],
    )
    claims = [n.values() for n in notices if n.key == "halt-claim"]
    host_name = table.table.describe(table.me) if table.table else ""
    assert {"name": "Liar", "ply": str(ply), "claim": f"{host_name} signed two different "
            f"records for ply {ply}"} in claims  # fmt: skip
    # nowhere is the accusation said as a fact: only inside a claim, quoted
    for line in lines:
        if "signed two different records" in line.entry.text:
            assert re.match(
                r"Liar's palabre stopped the table at ply \d+, saying: “", line.entry.text
            )
    # the honest peers' own HALTs name who halted, and repeat no accusation
    halts = [open_envelope(data) for data in table.relay.held.envelopes]
    halts = [record for record in halts if record.kind == HALT]
    assert {record.author for record in halts} == {table.me, liar.me, honest.me, other.me}
    for record in halts:
        if record.author != liar.me:
            assert re.fullmatch(
                r"peer \S+ \((Liar|Host|Bea|Cid)\) halted the table", record.body["reason"]
            )


async def _run(peer: Peer) -> None:
    await peer.run()  # type: ignore[attr-defined]


def test_a_halt_reason_is_quoted_after_its_signer_and_an_empty_one_said_so() -> None:
    assert halt_claim("peer K3QF-7ZPA… (Bea)", "peer X (Host) cheated", 7) == (
        "peer K3QF-7ZPA… (Bea) halted the table at ply 7; its palabre says: "
        "“peer X (Host) cheated” (its claim)"
    )
    assert halt_claim("peer K3QF-7ZPA… (Bea)", "") == (
        "peer K3QF-7ZPA… (Bea) halted the table, giving no reason"
    )
