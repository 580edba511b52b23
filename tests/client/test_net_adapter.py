"""The table core wired to ``net``: real record signers writing ahead to real log files."""

from __future__ import annotations

from pathlib import Path

import pytest

from client.bots import RandomBot
from client.node.lobby import Lobby
from client.rules.errors import BadEnvelope
from client.rules.net_adapter import NetSigner, decode_envelope, open_envelope, record_from_net
from client.rules.records import ACK, CHAIN_KINDS, START
from client.tabletop.table import Table
from net.envelope import RECORD_TAG, parse_envelope, seal
from net.errors import DecodeError
from net.logfile import LogWriter, read_log
from net.records import Kind, decode_record, open_record, sign_record
from net.signer import RecordSigner
from net.wire import pack
from tests.client.envelopes import Identity
from tests.client.harness import TABLE_ID, Router
from tests.client.test_games import assert_one_chain_all_final_all_ended
from tests.client.tinygame import ENGINE


def test_a_game_through_net_signers_leaves_one_ordered_file_per_peer(tmp_path: Path) -> None:
    people = {name: Identity(40 + i) for i, name in enumerate("ABC")}
    writers = {name: LogWriter.create(tmp_path / f"{name}.log") for name in people}
    signers = {
        name: NetSigner(RecordSigner(people[name].net, TABLE_ID, writers[name])) for name in people
    }
    lobby = Lobby(ENGINE, {"seats": 3, "pile": 30}, people["A"].key, "Ann")
    for name in "BC":
        lobby.join(people[name].key, name)
    for name in people:
        lobby.set_ready(people[name].key)
    start = signers["A"].sign(START, lobby.start_body())  # journaled by the host's signer
    tables = {
        name: Table(
            start,
            ENGINE,
            open_envelope,
            me=people[name].key,
            signers={people[name].key: signers[name]},
            bots={people[name].key: RandomBot(i)},
            journal=lambda record, name=name: writers[name].append(record.envelope),
        )
        for i, name in enumerate(people)
    }
    router = Router(tables, seed=2, max_delay=0.02, duplicate=0.2)
    router.start()
    router.run()
    assert_one_chain_all_final_all_ended(router)
    for name, table in tables.items():
        writers[name].close()
        stored = [
            record_from_net(open_record(data))
            for data in read_log(tmp_path / f"{name}.log").records
        ]
        assert stored[0] == start
        assert {r.record_hash for r in stored} == {r.record_hash for r in router.logs[name]}
        assert len(stored) == len(router.logs[name])
        plies = [r for r in stored if r.kind in CHAIN_KINDS]
        assert plies == [s.record for s in table.chain.states[1:]]
        where = {r.record_hash: i for i, r in enumerate(stored)}
        for ack in (r for r in stored if r.kind == ACK and r.body["ply"] > 0):
            assert (
                where[table.chain.at(ack.body["ply"]).record.record_hash] < where[ack.record_hash]
            )
        own = [r.seq for r in stored if r.author == people[name].key]
        assert own == list(range(1, len(own) + 1))  # write-ahead: every seq, in order


def test_embedded_envelopes_that_do_not_verify_are_bad_envelopes() -> None:
    ann = Identity(1)
    good = sign_record(ann.net, Kind.DRAW_ACCEPT, TABLE_ID, 1, {"ply": 1, "prev": bytes(32)})
    assert open_envelope(good.data).kind == "DRAW_ACCEPT"
    with pytest.raises(BadEnvelope, match="signature"):
        open_envelope(good.data[:-1] + bytes([good.data[-1] ^ 1]))
    with pytest.raises(BadEnvelope):
        open_envelope(b"\x93junk")
    with pytest.raises(BadEnvelope, match="not allowed"):
        open_envelope(good.data, allowed=lambda key: False)


@pytest.mark.parametrize("kind", [Kind.ACK, Kind.MOVE, Kind.CHAT])
def test_decode_envelope_gives_the_record_record_from_net_gives(kind: Kind) -> None:
    bodies = {
        Kind.ACK: {"ply": 3, "digest": bytes(32)},
        Kind.MOVE: {"ply": 3, "prev": bytes(32), "seat": 2, "move": [1, 2]},
        Kind.CHAT: {"text": "hello"},
    }
    record = sign_record(Identity(2).net, kind, TABLE_ID, 9, bodies[kind])
    direct = decode_envelope(record.envelope)
    via_net = record_from_net(decode_record(record.envelope))
    fields = ("author", "kind", "table_id", "seq", "body", "record_hash", "envelope")
    assert [getattr(direct, f) for f in fields] == [getattr(via_net, f) for f in fields]
    bad = parse_envelope(seal(Identity(2).net, RECORD_TAG, pack([7, TABLE_ID, 9, {"ply": 3}])))
    with pytest.raises(DecodeError, match=r"ACK body: missing field 'digest'"):
        decode_envelope(bad)
