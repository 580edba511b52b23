"""The sans-I/O core, end to end in memory: handshake, records, refusals, timers, fuzzing."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from net.envelope import HELLO_TAG, RECORD_TAG, seal
from net.errors import CloseCode, LocalProtocolError
from net.events import (
    Connected,
    LinkClosed,
    MessageReceived,
    RecordReceived,
    RecordRejected,
    Refuse,
    SendMessage,
    SendRecord,
)
from net.framing import MAX_FRAME, FrameType, encode_frame
from net.handshake import Role
from net.identity import Identity
from net.invite import format_table_id
from net.linkspec import AllowedKeys, LinkConfig
from net.protocol import Connection, LinkState
from net.records import Kind, encode_payload, sign_record
from net.wire import pack, unpack
from tests.net.peers import Wire, connected_wire, first_hello, refusal_in, spec
from tests.net.samples import OTHER_TABLE, TABLE

HOST, JOINER, OUTSIDER = Identity.generate(), Identity.generate(), Identity.generate()


def _closed(events: list[Any]) -> LinkClosed:
    assert events and isinstance(events[-1], LinkClosed), events
    return events[-1]


def _records(events: list[Any]) -> list[Any]:
    return [e.record for e in events if isinstance(e, RecordReceived)]


# --- the handshake --------------------------------------------------------------------------------
@pytest.mark.parametrize("chunk", [None, 1, 7])
def test_handshake_completes_however_the_bytes_are_cut(chunk: int | None) -> None:
    policy = AllowedKeys()
    wire = Wire(
        spec(HOST, policy, table_id=TABLE, listen_port=7000),
        spec(
            JOINER, policy, table_id=TABLE, listen_port=7001, expected_fingerprint=HOST.fingerprint
        ),
    )
    wire.pump(chunk=chunk)
    assert wire.host.events == [Connected(wire.host.connection.peer)]  # type: ignore[arg-type]
    assert wire.joiner.events == [Connected(wire.joiner.connection.peer)]  # type: ignore[arg-type]
    host_sees, joiner_sees = wire.host.connection.peer, wire.joiner.connection.peer
    assert host_sees is not None and joiner_sees is not None
    assert (host_sees.key, host_sees.listen_port, host_sees.table_id) == (
        JOINER.public_key,
        7001,
        TABLE,
    )
    assert (joiner_sees.key, joiner_sees.listen_port, joiner_sees.app_version) == (
        HOST.public_key,
        7000,
        "0.1.0",
    )
    assert joiner_sees.fingerprint == HOST.fingerprint
    assert wire.host.connection.state is LinkState.OPEN is wire.joiner.connection.state


def test_joiner_without_a_table_learns_the_hosts() -> None:
    wire = Wire(spec(HOST, table_id=TABLE), spec(JOINER))
    wire.pump()
    assert wire.joiner.connection.table_id == TABLE
    assert wire.host.connection.table_id == TABLE


def test_records_messages_and_refusal_flow_after_the_handshake() -> None:
    wire = connected_wire(HOST, JOINER, table_id=TABLE)
    chat = sign_record(JOINER, Kind.CHAT, TABLE, 1, {"text": "salut"})
    move = sign_record(
        HOST, Kind.MOVE, TABLE, 1, {"ply": 1, "prev": bytes(32), "seat": 1, "move": [3]}
    )
    wire.host.connection.receive_data(wire.joiner.connection.send(SendRecord(chat.data), 0), 0)
    wire.joiner.connection.receive_data(wire.host.connection.send(SendRecord(move.data), 0), 0)
    data = wire.joiner.connection.send(SendMessage("hello-lobby", {"name": "Joséphine"}), 0)
    wire.host.connection.receive_data(data, 0)
    wire.pump()
    assert _records(wire.host.events) == [chat]
    assert _records(wire.joiner.events) == [move]
    assert wire.host.events[-1] == MessageReceived("hello-lobby", {"name": "Joséphine"})
    wire.joiner.connection.receive_data(
        wire.host.connection.send(Refuse(CloseCode.REFUSED, "the table is full"), 0), 0
    )
    wire.pump()
    assert _closed(wire.host.events) == LinkClosed(
        CloseCode.REFUSED, "the table is full", by_peer=False
    )
    assert _closed(wire.joiner.events) == LinkClosed(
        CloseCode.REFUSED, "the table is full", by_peer=True
    )


def test_a_record_is_judged_by_the_policy_in_force_when_its_turn_comes() -> None:
    """A REMOVE naming a new bot key, then a record by that bot, in one TCP segment."""
    policy = AllowedKeys({HOST.public_key, JOINER.public_key})
    wire = Wire(
        spec(HOST, policy, table_id=TABLE),
        spec(JOINER, AllowedKeys({HOST.public_key}), table_id=TABLE),
    )
    wire.pump()
    bot = Identity.generate()
    first = sign_record(JOINER, Kind.CHAT, TABLE, 1, {"text": "a bot takes seat 2"})
    second = sign_record(bot, Kind.CHAT, TABLE, 1, {"text": "bip"})
    data = wire.joiner.connection.send(SendRecord(first.data), 0)
    data += wire.joiner.connection.send(SendRecord(second.data), 0)
    wire.host.connection.receive_data(data, 0)
    event = wire.host.connection.next_event()
    assert isinstance(event, RecordReceived) and event.record == first
    policy.keys.add(bot.public_key)  # the table applies the first record
    event = wire.host.connection.next_event()
    assert isinstance(event, RecordReceived) and event.record == second


def test_duplicates_the_policy_knows_are_dropped_silently() -> None:
    seen: set[bytes] = set()

    class Dedup(AllowedKeys):
        def knows(self, record_hash: bytes) -> bool:
            return record_hash in seen

    policy = Dedup({JOINER.public_key})
    wire = Wire(spec(HOST, policy, table_id=TABLE), spec(JOINER, table_id=TABLE))
    wire.pump()
    chat = sign_record(JOINER, Kind.CHAT, TABLE, 1, {"text": "once"})
    for _ in range(3):
        wire.host.connection.receive_data(wire.joiner.connection.send(SendRecord(chat.data), 0), 0)
        wire.pump()
        seen.add(chat.hash)
    assert _records(wire.host.events) == [chat]
    assert wire.host.connection.state is LinkState.OPEN


# --- refusals: every one says why, on both sides --------------------------------------------------
def _refusal(wire: Wire, code: CloseCode) -> tuple[LinkClosed, LinkClosed]:
    wire.pump()
    host, joiner = _closed(wire.host.events), _closed(wire.joiner.events)
    assert host.code is code is joiner.code
    assert host.reason == joiner.reason
    assert host.by_peer != joiner.by_peer
    assert not any(isinstance(e, Connected) for e in wire.host.events)
    return host, joiner


def test_joiner_refuses_a_host_with_another_key() -> None:
    impostor = Identity.generate()
    wire = Wire(
        spec(impostor, table_id=TABLE),
        spec(JOINER, table_id=TABLE, expected_fingerprint=HOST.fingerprint),
    )
    _, joiner = _refusal(wire, CloseCode.FINGERPRINT)
    assert not joiner.by_peer
    names = f"the host's key {impostor.fingerprint} is not the one the invite names"
    assert joiner.reason.startswith(f"{names} ({HOST.fingerprint})")
    assert not any(isinstance(e, Connected) for e in wire.joiner.events)


def test_host_refuses_a_joiner_for_another_table() -> None:
    wire = Wire(spec(HOST, table_id=TABLE), spec(JOINER, table_id=OTHER_TABLE))
    host, _ = _refusal(wire, CloseCode.TABLE)
    assert not host.by_peer
    assert host.reason == (
        f"the joiner asked for table {format_table_id(OTHER_TABLE)} but the host runs "
        f"table {format_table_id(TABLE)} (an invite from another game?)"
    )


@pytest.mark.parametrize(("host_app", "joiner_app"), [("0.2.0", "0.1.0"), ("1.1.0", "0.1.0")])
def test_app_versions_must_share_major_minor(host_app: str, joiner_app: str) -> None:
    wire = Wire(spec(HOST, app_version=host_app), spec(JOINER, app_version=joiner_app))
    host, _ = _refusal(wire, CloseCode.VERSION)
    assert host.reason == (
        f"the joiner runs palabre {joiner_app} and the host runs {host_app}; "
        "both must run the same major.minor release"
    )


def test_patch_releases_play_together() -> None:
    wire = Wire(spec(HOST, app_version="0.1.3"), spec(JOINER, app_version="0.1.0+dev"))
    wire.pump()
    assert isinstance(wire.host.events[-1], Connected)


def test_another_protocol_version_is_refused_by_name() -> None:
    host = Connection(Role.RESPONDER, spec(HOST), 0)
    hello = {**unpack(first_hello(JOINER), "hello"), "proto": 2, "future": "field"}
    host.receive_data(encode_frame(bytes([FrameType.HELLO]) + pack(hello)), 0)
    closed = host.next_event()
    assert isinstance(closed, LinkClosed) and closed.code is CloseCode.VERSION
    assert closed.reason.startswith("the joiner speaks palabre protocol 2 and the host speaks 1")
    assert refusal_in(host.data_to_send()) == ("version", closed.reason)


def test_both_ends_with_one_key_are_refused() -> None:
    wire = Wire(spec(HOST), spec(HOST))
    host, _ = _refusal(wire, CloseCode.SELF)
    assert "both ends hold the same key" in host.reason and "--profile" in host.reason


# --- crypto failures are inputs that close the link, never exceptions -----------------------------
def test_a_substituted_key_in_the_hello_fails_the_handshake() -> None:
    """A man in the middle swaps the joiner's key: the host's signature no longer matches."""
    wire = Wire(spec(HOST), spec(JOINER))
    first = wire.joiner.connection.data_to_send()
    swapped = first.replace(JOINER.public_key, OUTSIDER.public_key)
    wire.host.connection.receive_data(swapped, 0)
    wire.pump()
    joiner = _closed(wire.joiner.events)
    assert joiner.code is CloseCode.CRYPTO and not joiner.by_peer
    assert "the host" in joiner.reason and "bad handshake signature" in joiner.reason
    assert _closed(wire.host.events).reason == joiner.reason


def test_an_altered_encrypted_frame_closes_the_link() -> None:
    wire = connected_wire(HOST, JOINER, table_id=TABLE)
    chat = sign_record(JOINER, Kind.CHAT, TABLE, 1, {"text": "x"})
    data = bytearray(wire.joiner.connection.send(SendRecord(chat.data), 0))
    data[10] ^= 1
    wire.host.connection.receive_data(bytes(data), 0)
    wire.pump()
    closed = _closed(wire.host.events)
    assert closed.code is CloseCode.CRYPTO and "integrity check" in closed.reason
    assert _records(wire.host.events) == []
    assert _closed(wire.joiner.events).by_peer


def test_a_replayed_encrypted_frame_closes_the_link() -> None:
    wire = connected_wire(HOST, JOINER, table_id=TABLE)
    chat = sign_record(JOINER, Kind.CHAT, TABLE, 1, {"text": "x"})
    data = wire.joiner.connection.send(SendRecord(chat.data), 0)
    wire.host.connection.receive_data(data + data, 0)
    wire.pump()
    assert _records(wire.host.events) == [chat]
    assert _closed(wire.host.events).code is CloseCode.CRYPTO


def test_a_bad_record_signature_closes_the_link_and_keeps_the_evidence() -> None:
    wire = connected_wire(HOST, JOINER, table_id=TABLE)
    hello_signed = seal(JOINER, HELLO_TAG, encode_payload(Kind.CHAT, TABLE, 1, {"text": "x"}))
    wire.host.connection.receive_data(wire.joiner.connection.send(SendRecord(hello_signed), 0), 0)
    wire.pump()
    closed = _closed(wire.host.events)
    assert closed.code is CloseCode.CRYPTO
    assert closed.reason.startswith("bad signature on a record said to be by")
    assert closed.evidence == hello_signed
    assert _closed(wire.joiner.events).reason == closed.reason


def test_a_record_from_a_key_not_allowed_is_rejected_and_the_link_stays() -> None:
    wire = connected_wire(HOST, JOINER, table_id=TABLE)
    stranger = sign_record(OUTSIDER, Kind.CHAT, TABLE, 1, {"text": "let me in"})
    other_table = sign_record(JOINER, Kind.CHAT, OTHER_TABLE, 1, {"text": "wrong table"})
    fine = sign_record(JOINER, Kind.CHAT, TABLE, 1, {"text": "fine"})
    for record in (stranger, other_table, fine):
        wire.host.connection.receive_data(
            wire.joiner.connection.send(SendRecord(record.data), 0), 0
        )
    wire.pump()
    rejected = [e for e in wire.host.events if isinstance(e, RecordRejected)]
    assert [r.envelope for r in rejected] == [stranger.data, other_table.data]
    assert "a key not allowed at this table, was ignored" in rejected[0].reason
    assert "is for table" in rejected[1].reason
    assert _records(wire.host.events) == [fine]
    assert wire.host.connection.state is LinkState.OPEN


@pytest.mark.parametrize(
    ("payload", "reason"),
    [
        ([99, TABLE, 1, {}], "unknown record kind 99"),
        ([9, TABLE, 1, {"text": 42}], r"CHAT body\.text: expected text"),
        (
            [2, TABLE, 1, {"ply": 1, "prev": bytes(32), "seat": 1, "move": [[1]]}],
            "expected an integer",
        ),
    ],
)
def test_a_signed_but_malformed_record_closes_the_link(payload: Any, reason: str) -> None:
    wire = connected_wire(HOST, JOINER, table_id=TABLE)
    bad = seal(JOINER, RECORD_TAG, pack(payload))
    wire.host.connection.receive_data(wire.joiner.connection.send(SendRecord(bad), 0), 0)
    wire.pump()
    closed = _closed(wire.host.events)
    assert closed.code is CloseCode.PROTOCOL
    assert closed.evidence == bad
    assert re.search(reason, closed.reason)


@pytest.mark.parametrize(
    ("frame_type", "body", "reason"),
    [
        (99, b"", "a frame of unknown type 99"),
        (FrameType.HELLO, b"\x80", "unexpected HELLO frame while open"),
        (FrameType.PING, b"x", "a PING frame carries no body"),
        (FrameType.MESSAGE, pack(["nosuch", {}]), "unknown topic 'nosuch'"),
        (
            FrameType.MESSAGE,
            pack(["ready", {"ready": "yes"}]),
            r"message 'ready'\.ready: expected an integer",
        ),
        (FrameType.MESSAGE, pack({"topic": "ready"}), r"expected \[topic, body\]"),
        (FrameType.RECORD, b"\x93\x01\x02\x03", "author key: expected 32 bytes"),
    ],
)
def test_bad_frames_after_the_handshake_close_the_link(
    frame_type: int, body: bytes, reason: str
) -> None:
    wire = connected_wire(HOST, JOINER, table_id=TABLE)
    wire.host.connection.receive_data(wire.joiner.connection.send_raw(frame_type, body, 0), 0)
    wire.pump()
    closed = _closed(wire.host.events)
    assert closed.code is CloseCode.PROTOCOL
    assert re.search(reason, closed.reason), closed.reason
    assert _closed(wire.joiner.events) == replace(closed, by_peer=True, evidence=None)


def test_a_record_before_the_handshake_is_out_of_order() -> None:
    host = Connection(Role.RESPONDER, spec(HOST), 0)
    chat = sign_record(JOINER, Kind.CHAT, TABLE, 1, {"text": "too soon"})
    host.receive_data(encode_frame(bytes([FrameType.RECORD]) + chat.data), 0)
    closed = host.next_event()
    assert isinstance(closed, LinkClosed)
    assert closed.reason == (
        "received an unexpected RECORD frame while waiting for the peer's hello "
        "(frames out of order)"
    )


def test_a_refusal_with_an_unreadable_or_unsafe_reason() -> None:
    wire = connected_wire(HOST, JOINER)
    wire.host.connection.receive_data(
        wire.joiner.connection.send_raw(FrameType.REFUSE, b"\xc1", 0), 0
    )
    assert (
        _closed([wire.host.connection.next_event()]).reason
        == "the peer closed the link without a readable reason"
    )
    wire = connected_wire(HOST, JOINER)
    body = pack(["from-the-future", "go \x1b[31maway\u202e now"])
    wire.host.connection.receive_data(wire.joiner.connection.send_raw(FrameType.REFUSE, body, 0), 0)
    closed = _closed([wire.host.connection.next_event()])
    assert (closed.code, closed.reason) == (CloseCode.REFUSED, "go [31maway now")


# --- local errors are this program's bugs: they raise ---------------------------------------------
def test_local_misuse_raises() -> None:
    wire = Wire(spec(HOST), spec(JOINER))
    chat = sign_record(JOINER, Kind.CHAT, TABLE, 1, {"text": "x"})
    with pytest.raises(LocalProtocolError, match="cannot send on a link that is waiting"):
        wire.joiner.connection.send(SendRecord(chat.data), 0)
    wire.pump()
    with pytest.raises(LocalProtocolError, match="cannot be sent"):
        wire.joiner.connection.send(SendRecord(b"x" * MAX_FRAME), 0)
    with pytest.raises(LocalProtocolError, match="has no schema"):
        wire.joiner.connection.send(SendMessage("nosuch", {}), 0)
    with pytest.raises(LocalProtocolError, match="this peer built a bad message"):
        wire.joiner.connection.send(SendMessage("ready", {"ready": 5}), 0)
    wire.joiner.connection.send(Refuse(CloseCode.CLOSING, "bye"), 0)
    with pytest.raises(LocalProtocolError, match=r"cannot send on a link that is closed \(bye\)"):
        wire.joiner.connection.send(SendRecord(chat.data), 0)


# --- the end of the stream ------------------------------------------------------------------------
def test_end_of_stream_in_each_phase() -> None:
    wire = Wire(spec(HOST), spec(JOINER))
    wire.host.connection.receive_eof(0)
    assert (
        _closed([wire.host.connection.next_event()]).reason
        == "the connection ended during the handshake"
    )
    wire = connected_wire(HOST, JOINER)
    wire.host.connection.receive_data(b"\x00\x00\x01", 0)
    wire.host.connection.receive_eof(0)
    closed = _closed([wire.host.connection.next_event()])
    assert (closed.code, closed.by_peer) == (CloseCode.LOST, True)
    assert closed.reason == "the connection ended in the middle of a frame"
    assert wire.host.connection.data_to_send() == b""  # nothing is sent after the end


def test_bytes_read_after_a_reset_the_writer_saw_are_dropped() -> None:
    """The writer fails on a reset while the reader still reads what came before it (issue
    19: this raised out of the driver and ended the peer).  The frames before the loss are
    taken, those read after it dropped; the link ends as lost, nothing raises."""
    wire = connected_wire(HOST, JOINER)
    chat = sign_record(JOINER, Kind.CHAT, TABLE, 1, {"text": "before"})
    wire.host.connection.receive_data(wire.joiner.connection.send(SendRecord(chat.data), 0), 0)
    wire.host.connection.connection_lost("the peer reset the connection", 1)
    late = sign_record(JOINER, Kind.CHAT, TABLE, 2, {"text": "after"})
    wire.host.connection.receive_data(wire.joiner.connection.send(SendRecord(late.data), 1), 1)
    wire.host.connection.receive_eof(1)
    wire.host.drain()
    assert _records(wire.host.events) == [chat]
    closed = _closed(wire.host.events)
    assert (closed.code, closed.reason) == (CloseCode.LOST, "the peer reset the connection")


def test_a_goodbye_then_the_end_of_stream_keeps_the_goodbye() -> None:
    wire = connected_wire(HOST, JOINER)
    wire.host.connection.receive_data(
        wire.joiner.connection.send(Refuse(CloseCode.CLOSING, "see you"), 0), 0
    )
    wire.host.connection.receive_eof(0)
    assert _closed([wire.host.connection.next_event()]).reason == "see you"


# --- timers ---------------------------------------------------------------------------------------
def test_the_handshake_must_finish_in_time() -> None:
    host = Connection(Role.RESPONDER, spec(HOST), 100.0)
    assert host.next_deadline() == 110.0
    host.advance_time(109.9)
    assert host.next_event() is None
    host.advance_time(110.0)
    closed = _closed([host.next_event()])
    assert (closed.code, closed.reason) == (
        CloseCode.TIMEOUT,
        "the handshake did not finish within 10 s",
    )
    assert refusal_in(host.data_to_send())[1] == closed.reason
    assert host.next_deadline() is None


def test_heartbeats_keep_a_quiet_link_open_and_silence_closes_it() -> None:
    wire = connected_wire(HOST, JOINER)
    now = 0.0
    for _ in range(100):  # 200 s of game time with nothing to say
        now += 2.0
        for end in (wire.host, wire.joiner):
            end.connection.advance_time(now)
        wire.pump(now)
    assert wire.host.connection.state is LinkState.OPEN is wire.joiner.connection.state
    assert wire.host.connection.next_deadline() == now + 2.0
    # the joiner falls silent (its process is stopped): the host gives up after 30 s
    wire.host.connection.advance_time(now + 29.9)
    wire.host.connection.data_to_send()
    assert wire.host.connection.next_event() is None
    wire.host.connection.advance_time(now + 30.0)
    closed = _closed([wire.host.connection.next_event()])
    assert closed.reason == "nothing came from the peer for 30 s" and not closed.by_peer


def test_a_frame_that_trickles_in_is_cut_off() -> None:
    wire = connected_wire(HOST, JOINER, config=LinkConfig(frame_timeout=5.0))
    chat = sign_record(JOINER, Kind.CHAT, TABLE, 1, {"text": "slow"})
    data = wire.joiner.connection.send(SendRecord(chat.data), 0)
    host = wire.host.connection
    for second in range(5):
        host.receive_data(data[second : second + 1], float(second))  # one byte a second
        host.advance_time(float(second))
        assert host.next_event() is None
    assert host.next_deadline() == 5.0
    host.advance_time(5.0)
    closed = _closed([host.next_event()])
    assert closed.reason == "a frame took more than 5 s to arrive (the peer sends too slowly)"


def test_a_new_frame_starts_its_own_clock() -> None:
    config = LinkConfig(frame_timeout=5.0, idle_timeout=100.0, heartbeat_interval=100.0)
    wire = connected_wire(HOST, JOINER, config=config)
    chat = sign_record(JOINER, Kind.CHAT, TABLE, 1, {"text": "x"})
    first = wire.joiner.connection.send(SendRecord(chat.data), 0)
    second = wire.joiner.connection.send(SendRecord(chat.data), 0)
    host = wire.host.connection
    host.receive_data(first[:-1], 0.0)
    host.receive_data(first[-1:] + second[:3], 4.0)  # the first completes, the second begins
    assert host.next_deadline() == 9.0


# --- several peers in memory: a star relaying records ---------------------------------------------
def test_a_star_of_four_peers_relays_every_record_to_everyone() -> None:
    peers = [Identity.generate() for _ in range(4)]
    records = {
        p.public_key: sign_record(p, Kind.CHAT, TABLE, 1, {"text": f"from peer {n}"})
        for n, p in enumerate(peers)
    }
    everyone = AllowedKeys(set(records))
    wires = [connected_wire(peers[0], j, everyone, table_id=TABLE) for j in peers[1:]]
    for wire, joiner in zip(wires, peers[1:], strict=True):
        own = records[joiner.public_key]
        wire.host.connection.receive_data(wire.joiner.connection.send(SendRecord(own.data), 0), 0)
        wire.pump()
    at_host = [r for wire in wires for r in _records(wire.host.events)]
    assert at_host == [records[p.public_key] for p in peers[1:]]
    for wire in wires:  # the host forwards every record to each joiner that lacks it
        joiner_key = wire.joiner.connection.spec.identity.public_key
        for record in [records[peers[0].public_key], *at_host]:
            if record.author != joiner_key:
                data = wire.host.connection.send(SendRecord(record.data), 0)
                wire.joiner.connection.receive_data(data, 0)
        wire.pump()
        expected = {r.hash for key, r in records.items() if key != joiner_key}
        assert {r.hash for r in _records(wire.joiner.events)} == expected


# --- fuzzing: arbitrary bytes never raise, they close the link ------------------------------------
def _fresh_open() -> Wire:
    return connected_wire(HOST, JOINER, table_id=TABLE)


@given(st.binary(max_size=300), st.integers(0, 300))
def test_arbitrary_bytes_before_the_handshake_never_raise(data: bytes, cut: int) -> None:
    host = Connection(Role.RESPONDER, spec(HOST), 0)
    host.receive_data(data[:cut], 0)
    assert host.next_event() is None or host.state is LinkState.CLOSED
    host.receive_data(data[cut:], 0.5)
    host.advance_time(0.5)
    events = []
    while (event := host.next_event()) is not None:
        events.append(event)
    assert all(isinstance(e, LinkClosed) for e in events)
    if host.state is LinkState.CLOSED:
        reason = host.closed.reason if host.closed else ""
        assert refusal_in(host.data_to_send()) == ("protocol", reason)


@given(st.binary(max_size=300))
def test_arbitrary_bytes_after_a_valid_hello_never_raise(data: bytes) -> None:
    host = Connection(Role.RESPONDER, spec(HOST), 0)
    host.receive_data(encode_frame(b"\x01" + first_hello(JOINER)) + data, 0)
    events = []
    while (event := host.next_event()) is not None:
        events.append(event)
    assert all(isinstance(e, LinkClosed) for e in events)
    assert host.state in (LinkState.AWAIT_AUTH, LinkState.CLOSED)


@given(st.binary(max_size=300), st.integers(0, 300))
def test_arbitrary_bytes_on_an_open_link_never_raise(data: bytes, cut: int) -> None:
    wire = _fresh_open()
    host = wire.host.connection
    host.receive_data(data[:cut], 1.0)
    host.receive_data(data[cut:], 1.0)
    host.advance_time(1.0)
    events = []
    while (event := host.next_event()) is not None:
        events.append(event)
    assert all(isinstance(e, LinkClosed) for e in events)
    if events:
        assert events[-1].code in (CloseCode.CRYPTO, CloseCode.PROTOCOL)
        assert _refuse_in_sealed(wire, host.data_to_send()) == events[-1].reason


def _refuse_in_sealed(wire: Wire, data: bytes) -> str:
    wire.joiner.connection.receive_data(data, 1.0)
    closed = _closed([wire.joiner.connection.next_event()])
    return closed.reason
