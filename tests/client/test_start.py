"""START: parsing, refusals with reasons, the genesis, and genesis acks before ply 1."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

import pytest

from client.rules.chain import ZERO_DIGEST, chain_digest
from client.rules.errors import IntentRefused, StartRefused
from client.rules.net_adapter import open_envelope
from client.rules.records import START
from client.rules.start import PeerSpec, SeatSpec, open_start, parse_start, start_body
from client.tabletop.table import Table
from tests.client.envelopes import Identity, TestSigner, raw_record
from tests.client.harness import TABLE_ID, Router, Setup
from tests.client.tinygame import ENGINE, GrabEngine

HOST, GUEST, BOT = Identity(1), Identity(2), Identity(3)


def signed_start(**changes: Any) -> Any:
    fields: dict[str, Any] = {
        "game": "grab",
        "ruleset": "grab/1",
        "engine_version": "1.0",
        "params": {"seats": 3},  # start_body writes them as "options"
        "peers": (PeerSpec(HOST.key, "Ann"), PeerSpec(GUEST.key, "Bob")),
        "seats": (SeatSpec(1, HOST.key), SeatSpec(2, GUEST.key), SeatSpec(3, BOT.key, HOST.key)),
    }
    fields.update(changes)
    signer = TestSigner(changes.pop("author", HOST), TABLE_ID) if "author" in changes else None
    body = start_body(**{k: v for k, v in fields.items() if k != "author"})
    return (signer or TestSigner(HOST, TABLE_ID)).sign(START, body)


def test_a_good_start_parses_and_names_everyone() -> None:
    start, engine = open_start(signed_start(), lambda name: ENGINE)
    assert engine is ENGINE and start.host == HOST.key and start.table_id == TABLE_ID
    assert start.seat_keys == (HOST.key, GUEST.key, BOT.key)
    assert start.runner_of(BOT.key) == HOST.key and start.runner_of(GUEST.key) == GUEST.key
    assert "(Bob)" in start.name_of(GUEST.key)
    assert start.name_of(BOT.key).startswith("the bot of seat 3 run by peer ")


@dataclass
class Other(GrabEngine):
    ruleset: ClassVar[str] = "grab/2"


@dataclass
class Newer(GrabEngine):
    version: ClassVar[str] = "2.0"


@pytest.mark.parametrize(
    ("engine", "reason"),
    [
        (Other(), "this table plays grab/1 with engine 1.0 but this palabre has grab/2"),
        (
            Newer(),
            "this table plays grab/1 with engine 1.0 but this palabre has grab/1 with engine 2.0",
        ),
    ],
)
def test_another_ruleset_or_version_refuses_with_the_reason(
    engine: GrabEngine, reason: str
) -> None:
    with pytest.raises(StartRefused, match=reason):
        open_start(signed_start(), lambda name: engine)


def test_unknown_game_bad_params_and_wrong_seat_count_refuse() -> None:
    def unknown(name: str) -> Any:
        raise LookupError(name)

    with pytest.raises(StartRefused, match="does not know the game 'grab'"):
        open_start(signed_start(), unknown)
    with pytest.raises(
        StartRefused, match="cannot play the table's options: grab is played by 2 to 6"
    ):
        open_start(signed_start(params={"seats": 9}), lambda name: ENGINE)
    with pytest.raises(StartRefused, match="lists 3 seats, the game has 2"):
        open_start(signed_start(params={"seats": 2}), lambda name: ENGINE)


@pytest.mark.parametrize(
    ("changes", "reason"),
    [
        ({"author": GUEST}, "not signed by its host"),
        ({"peers": (PeerSpec(HOST.key, "Ann"), PeerSpec(HOST.key, "Ann"))}, "names a peer twice"),
        (
            {"seats": (SeatSpec(1, HOST.key), SeatSpec(2, BOT.key), SeatSpec(3, GUEST.key))},
            "seat 2 is signed by a key that is not a peer",
        ),
        (
            {
                "seats": (
                    SeatSpec(1, HOST.key),
                    SeatSpec(2, GUEST.key),
                    SeatSpec(3, BOT.key, Identity(9).key),
                )
            },
            "bot seat 3 has a peer's key or a runner not at the table",
        ),
        (
            {
                "seats": (
                    SeatSpec(1, HOST.key),
                    SeatSpec(2, GUEST.key),
                    SeatSpec(3, GUEST.key, HOST.key),
                )
            },
            "bot seat 3 has a peer's key or a runner not at the table",
        ),
        (
            {
                "seats": (
                    SeatSpec(1, HOST.key),
                    SeatSpec(2, HOST.key),
                    SeatSpec(3, BOT.key, HOST.key),
                )
            },
            "plays no seat",
        ),
    ],
)
def test_a_bad_roster_refuses_with_the_reason(changes: dict[str, Any], reason: str) -> None:
    with pytest.raises(StartRefused, match=reason):
        parse_start(signed_start(**changes))


def test_a_malformed_start_refuses() -> None:
    # net's schemas refuse these first; the core's own readers refuse them too.
    body = dict(signed_start().body)
    for field, value, reason in [
        ("peers", "everyone", "malformed: field 'peers' is not a list"),
        ("peers", [], "names no peers"),
        ("options", [], "malformed: field 'options' is not a small map"),
        ("seats", [{"key": HOST.key}], "malformed: field 'runner' is missing"),
    ]:
        broken = raw_record(HOST, TABLE_ID, 7, START, {**body, field: value})
        with pytest.raises(StartRefused, match=reason):
            parse_start(broken)
    with pytest.raises(StartRefused, match="expected a START"):
        parse_start(TestSigner(HOST, TABLE_ID).sign("CHAT", {"text": "hi"}))


def test_genesis_is_derived_from_the_start_record_and_the_initial_state() -> None:
    setup = Setup(["A", "B"])
    table = setup.table("A")
    initial = ENGINE.initial_state({"seats": 2})
    expected = chain_digest(ZERO_DIGEST, setup.start_record.record_hash, ENGINE.digest(initial))
    assert table.head.ply == 0 and table.head.chain_digest == expected
    other = Setup(["A", "B"], seed=1).table("A")  # another START: another genesis
    assert other.head.chain_digest != expected


def test_nobody_plays_before_every_peer_acked_the_genesis() -> None:
    setup = Setup(["A", "B", "C"])
    tables = {name: setup.table(name, bots=()) for name in "ABC"}
    router = Router(tables)
    router.take("A", tables["A"].begin(0.0))
    router.take("B", tables["B"].begin(0.0))
    router.run()
    with pytest.raises(IntentRefused, match="not every peer has confirmed the start"):
        tables["A"].move(1, 1.0)
    router.take("C", tables["C"].begin(1.0))
    router.run()
    assert all(t.final_ply == 0 for t in tables.values())
    router.take("A", tables["A"].move(1, 2.0))
    router.run()
    assert all(t.head.ply == 1 and t.final_ply == 1 for t in tables.values())


def test_a_start_record_other_than_ours_is_rejected() -> None:
    setup = Setup(["A", "B"])
    table = setup.table("A")
    table.begin(0.0)
    body = {**setup.start_record.body, "options": {"seats": 2, "pile": 9}}
    second = TestSigner(setup.identities["A"], TABLE_ID, 1000).sign(START, body)  # a new seq
    out = table.receive(second, 1.0)
    assert [e.reason for e in out.events] == [
        f"{table.describe(setup.key('A'))} sent a second START"
    ]  # type: ignore[union-attr]
    assert table.receive(setup.start_record, 1.0).events == []


def test_a_spectator_table_needs_no_signer_and_a_peer_needs_all_its_keys() -> None:
    setup = Setup(["A", "bot:A", "B"])
    Table(setup.start_record, ENGINE, open_envelope)
    with pytest.raises(ValueError, match="signers must be"):
        Table(
            setup.start_record,
            ENGINE,
            open_envelope,
            me=setup.key("A"),
            signers={setup.key("A"): setup.signer("A")},
        )
