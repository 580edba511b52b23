"""The flood guard: a person's pace of chat and pointing per author, the rest dropped and
told once per burst (sans-I/O, real signed records)."""

from __future__ import annotations

from client.rules.net_adapter import record_from_net
from client.rules.records import SignedRecord
from client.tabletop.flood_guard import (
    CHAT_BURST,
    CHAT_PER_SECOND,
    FLOOD_QUIET,
    FLOOD_REPORT_EVERY,
    MAX_HELD_OUTSIDE_BYTES,
    POINT_BURST,
    FloodGuard,
    FloodReport,
)
from net.identity import Identity
from net.records import Kind, sign_record

TABLE = bytes(16)
BEA = Identity.generate()
ANA = Identity.generate()


def chat(who: Identity, seq: int, text: str = "hello") -> SignedRecord:
    return record_from_net(sign_record(who, Kind.CHAT, TABLE, seq, {"text": text}))


def point(who: Identity, seq: int) -> SignedRecord:
    body = {"ply": 0, "arrows": [[1, 2]], "squares": [seq % 100]}
    return record_from_net(sign_record(who, Kind.POINT, TABLE, seq, body))


def test_a_burst_is_taken_then_the_rest_is_dropped_and_told_once_when_it_is_over() -> None:
    guard = FloodGuard()
    taken = [guard.admits(chat(BEA, seq), 0.0) for seq in range(1, 1001)]
    assert taken.count(True) == CHAT_BURST and all(taken[:CHAT_BURST])
    assert guard.reports(FLOOD_QUIET - 0.1) == []  # the burst goes on
    due = guard.due()
    assert due == FLOOD_QUIET
    assert guard.reports(due) == [FloodReport(BEA.public_key, "CHAT", 1000 - CHAT_BURST)]
    assert guard.reports(due + 100) == [] and guard.due() is None  # told once


def test_the_steady_rate_comes_back_with_time_and_another_author_is_not_touched() -> None:
    guard = FloodGuard()
    seq = 0
    for seq in range(1, CHAT_BURST + 2):
        guard.admits(chat(BEA, seq), 0.0)
    assert guard.admits(chat(ANA, 1), 0.0)  # Ana still speaks
    assert guard.admits(point(BEA, seq + 1), 0.0)  # pointing has its own bucket
    later = 1.0 / CHAT_PER_SECOND
    assert guard.admits(chat(BEA, seq + 2), later)
    assert not guard.admits(chat(BEA, seq + 3), later)


def test_a_copy_of_a_dropped_record_is_dropped_again_without_being_counted() -> None:
    guard = FloodGuard()
    records = [point(BEA, seq) for seq in range(1, POINT_BURST + 11)]
    for record in records:
        guard.admits(record, 0.0)
    for record in records[POINT_BURST:]:  # a pull's answer, much later: still dropped
        assert not guard.admits(record, 60.0)
    [report] = guard.reports(60.0 + FLOOD_QUIET + FLOOD_REPORT_EVERY)
    assert report.dropped == 10


def test_the_bytes_held_per_author_are_bounded_however_slowly_it_floods() -> None:
    guard = FloodGuard()
    text = "x" * 500
    size = len(chat(BEA, 1, text).envelope)
    taken = sum(guard.admits(chat(BEA, seq, text), float(seq)) for seq in range(1, 2000))
    assert MAX_HELD_OUTSIDE_BYTES // (size + 8) <= taken <= MAX_HELD_OUTSIDE_BYTES // size
    assert not guard.admits(chat(BEA, 2001, text), 10_000.0)


def test_draw_offers_have_no_pace_but_count_toward_the_bytes_held() -> None:
    guard = FloodGuard()

    def offer(seq: int) -> SignedRecord:
        body = {"ply": 1, "prev": bytes(32)}
        return record_from_net(sign_record(BEA, Kind.DRAW_OFFER, TABLE, seq, body))

    first = offer(1)
    assert all(guard.admits(offer(seq), 0.0) for seq in range(1, CHAT_BURST * 4))  # no rate
    size = len(first.envelope)
    held = (CHAT_BURST * 4 - 1) * size
    budget = (MAX_HELD_OUTSIDE_BYTES - held) // (size + 8)
    seq = CHAT_BURST * 4
    while guard.admits(offer(seq), 0.0):
        seq += 1
    assert seq - CHAT_BURST * 4 >= budget  # refused only once the bytes held are spent
    [report] = guard.reports(FLOOD_QUIET)
    assert report == FloodReport(BEA.public_key, "DRAW_OFFER", 1)
