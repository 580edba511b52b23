"""Divergence halts the table with evidence naming who disagrees with the majority."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from client.rules.divergence import first_difference
from client.rules.errors import IntentRefused
from client.rules.records import ACK, END, HALT, MOVE
from client.tabletop.events import PlyApplied, TableHalted
from engines.canonical import encode_value
from tests.client.harness import Router, Setup, act, deliver, forge, world
from tests.client.tinygame import GrabEngine, GrabState


class LyingGrab(GrabEngine):
    """Grab with a patched engine: same moves, but a field differs once fewer than 25 remain."""

    def apply(self, state: GrabState, move: int) -> GrabState:
        after = super().apply(state, move)
        return replace(after, reason=7) if after.status == 0 and after.pile < 25 else after


def patched_world(liars: str, seats: str = "ABC", pile: int = 30) -> tuple[Setup, Router]:
    setup = Setup(list(seats), params={"seats": len(seats), "pile": pile})
    tables = {n: setup.table(n, engine=LyingGrab() if n in liars else None) for n in seats}
    router = Router(tables, seed=1, max_delay=0.01)
    router.start()
    router.run()
    return setup, router


def test_a_peer_whose_engine_disagrees_is_named_by_everyone() -> None:
    setup, router = patched_world("C")
    names = {n: router.tables["A"].describe(setup.key(n)) for n in "ABC"}
    for name, table in router.tables.items():
        assert table.halted and len(router.of_type(name, TableHalted)) == 1
        evidence = table.evidence
        assert evidence is not None and evidence.culprits == (setup.key("C"),)
        assert evidence.ply == router.tables["A"].divergence.ply  # type: ignore[union-attr]
    verdict_a = router.tables["A"].evidence.verdict  # type: ignore[union-attr]
    assert verdict_a.startswith(f"{names['C']} disagrees with the majority (2 of 3 peers) on ply ")
    verdict_c = router.tables["C"].evidence.verdict  # type: ignore[union-attr]
    assert verdict_c.startswith(
        f"this peer ({names['C']}) disagrees with the majority (2 of 3 peers)"
    )


def test_the_evidence_holds_both_decoded_states() -> None:
    setup, router = patched_world("C")
    evidence = router.tables["A"].evidence
    assert evidence is not None
    by_source = {view.source: view for view in evidence.states}
    ours, theirs = (
        by_source["this peer"],
        by_source[f"{router.tables['A'].describe(setup.key('C'))} (its HALT)"],
    )
    assert first_difference(ours.decoded, theirs.decoded) == "[6]"  # the patched field
    assert theirs.decoded[6] == 7 and ours.decoded[6] == 0
    assert "hashes to the chain digest it claims" in theirs.note
    assert {r.kind for r in evidence.records} >= {MOVE, ACK}
    assert json.loads(json.dumps(evidence.to_json()))["verdict"] == evidence.verdict


def test_two_against_two_has_no_majority() -> None:
    _setup, router = patched_world("CD", seats="ABCD")
    for table in router.tables.values():
        evidence = table.evidence
        assert evidence is not None and evidence.culprits == ()
        assert f"no majority for ply {evidence.ply}: 2 against 2 of 4 peers" == evidence.verdict


def test_a_false_ack_digest_halts_and_names_its_author() -> None:
    setup, router = world(["A", "B", "C"], params={"seats": 3, "pile": 30})
    router.down.add("B")
    act(router, "A", router.tables["A"].move(2, 1.0))
    deliver(router, forge(setup, "B", ACK, {"ply": 1, "digest": bytes(32)}), to=["A", "C"])
    bob = router.tables["A"].describe(setup.key("B"))
    for name in "AC":
        evidence = router.tables[name].evidence
        assert evidence is not None and evidence.kind == "digest" and evidence.ply == 1
        assert evidence.reason == f"{bob} signed another chain digest for ply 1 than this peer"
        assert evidence.verdict == f"{bob} disagrees with the majority (2 of 3 peers) on ply 1"


def test_acking_two_digests_for_one_ply_names_the_peer() -> None:
    setup, router = world(["A", "B"])
    act(router, "A", router.tables["A"].move(2, 1.0))
    deliver(router, forge(setup, "B", ACK, {"ply": 1, "digest": bytes(32)}), to=["A"])
    evidence = router.tables["A"].evidence
    assert evidence is not None and evidence.culprits == (setup.key("B"),)
    assert evidence.reason.endswith("signed two different ACKs for ply 1")


def test_equivocation_halts_everyone_with_both_records_and_states() -> None:
    setup, router = world(["A", "B", "C"], params={"seats": 3, "pile": 30})
    genesis = router.tables["A"].head.chain_digest
    one = forge(setup, "A", MOVE, {"ply": 1, "prev": genesis, "seat": 1, "move": [1]})
    two = forge(setup, "A", MOVE, {"ply": 1, "prev": genesis, "seat": 1, "move": [2]})
    router.deliver(one.envelope, ["B"])
    router.deliver(two.envelope, ["C"])
    router.run()
    ann = router.tables["B"].describe(setup.key("A"))
    for name, table in router.tables.items():
        evidence = table.evidence
        assert evidence is not None, name
        assert evidence.culprits == (setup.key("A"),)
        who = f"this peer ({ann})" if name == "A" else ann
        assert evidence.verdict == f"{who} signed two different records for ply 1"
        assert {one, two} <= set(evidence.records)
        piles = sorted(
            view.decoded[0] for view in evidence.states if view.source.startswith("after")
        )
        assert piles == [28, 29]
    assert router.tables["B"].evidence.kind == "equivocation"  # type: ignore[union-attr]


def test_a_halted_table_applies_and_signs_nothing_more() -> None:
    setup, router = patched_world("C", pile=26)
    a = router.tables["A"]
    assert a.halted
    with pytest.raises(IntentRefused, match="the table is halted"):
        a.move(1, 99.0)
    before = (a.head.ply, len(router.logs["A"]))
    next_ply = forge(
        setup,
        "A",
        MOVE,
        {"ply": a.head.ply + 1, "prev": a.head.chain_digest, "seat": 1, "move": [1]},
    )
    out = a.receive(next_ply, 100.0)
    assert out.send == [] and not out.of_type(PlyApplied) and a.head.ply == before[0]
    assert a.next_deadline() is None


def test_an_end_with_another_result_halts() -> None:
    setup, router = world(["A", "B"], params={"seats": 2, "pile": 2})
    router.down.add("B")
    act(router, "A", router.tables["A"].move(2, 1.0))  # A takes the last stones and wins
    a = router.tables["A"]
    assert a.head.ply == 1
    lie = {
        "winners": [2],
        "draw": False,
        "reason": "last-stone",
        "summary": "",
        "scores": [],
        "absent": [],
    }
    out = a.receive(
        forge(setup, "B", END, {"ply": 1, "digest": a.head.chain_digest, "result": lie}), 2.0
    )
    assert out.of_type(TableHalted)[0].evidence.kind == "result"
    assert a.evidence is not None and a.evidence.culprits == (setup.key("B"),)
    assert [r.kind for r in out.send] == [HALT]


def test_a_halt_from_a_peer_halts_the_others() -> None:
    setup, router = world(["A", "B", "C"], params={"seats": 3, "pile": 30})
    body: dict[str, Any] = {
        "ply": 0,
        "digest": bytes(32),
        "state": encode_value((1, 2)),
        "reason": "I do not like it",
        "records": [],
    }
    deliver(router, forge(setup, "B", HALT, body), to=["A", "C"])
    bob = router.tables["A"].describe(setup.key("B"))
    evidence = router.tables["A"].evidence
    assert evidence is not None and evidence.kind == "halt"
    # its reason is B's claim, shown as such; A's own HALT says only what A knows
    assert (
        evidence.reason
        == f"{bob} halted the table; its palabre says: “I do not like it” (its claim)"
    )
    [own] = [r for r in router.sent_by["A"] if r.kind == HALT]
    assert own.body["reason"] == f"{bob} halted the table"
    assert evidence.culprits == (setup.key("B"),)  # its claimed genesis differs from everyone's
    assert router.tables["B"].halted  # the HALTs of A and C reached B too


def test_first_difference_names_the_path() -> None:
    assert first_difference((1, (2, 3)), (1, (2, 4))) == "[1][1]"
    assert first_difference((1, 2), (1, 2, 3)) == " (lengths 2 and 3)"
    assert first_difference(True, 1) == "the whole state"


@settings(max_examples=30)
@given(
    seed=st.integers(0, 2**32),
    max_delay=st.sampled_from([0.001, 0.05, 1.0]),
    duplicate=st.sampled_from([0.0, 0.3]),
    liar=st.sampled_from("ABC"),
)
def test_under_any_interleaving_only_the_liar_is_ever_named(
    seed: int, max_delay: float, duplicate: float, liar: str
) -> None:
    setup = Setup(list("ABC"), params={"seats": 3, "pile": 30})
    tables = {
        n: setup.table(n, seed=seed, engine=LyingGrab() if n == liar else None) for n in "ABC"
    }
    router = Router(tables, seed=seed, max_delay=max_delay, duplicate=duplicate)
    router.start()
    router.run()
    named = 0
    for name, table in tables.items():
        evidence = table.evidence
        assert evidence is not None, name
        assert set(evidence.culprits) <= {setup.key(liar)}, (name, evidence.verdict)
        named += evidence.culprits == (setup.key(liar),)
    assert named >= 2


@settings(max_examples=25)
@given(
    seed=st.integers(0, 2**32),
    max_delay=st.sampled_from([0.001, 0.05, 1.0]),
    when=st.tuples(st.floats(0, 2), st.floats(0, 2)),
    targets=st.tuples(st.sampled_from("BC"), st.sampled_from("BC")),
)
def test_under_any_interleaving_an_equivocator_is_named_by_everyone(
    seed: int, max_delay: float, when: tuple[float, float], targets: tuple[str, str]
) -> None:
    setup = Setup(list("ABC"), params={"seats": 3, "pile": 30})
    tables = {n: setup.table(n, seed=seed) for n in "ABC"}
    router = Router(tables, seed=seed, max_delay=max_delay)
    genesis = tables["A"].head.chain_digest
    for move, at, target in zip(([1], [2]), when, targets, strict=True):
        record = forge(setup, "A", MOVE, {"ply": 1, "prev": genesis, "seat": 1, "move": move})
        router.deliver(record.envelope, [target], delay=at)
    router.start()
    router.run()
    for name, table in tables.items():
        evidence = table.evidence
        assert evidence is not None and evidence.culprits == (setup.key("A"),), name
