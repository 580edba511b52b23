"""The fast ways every record takes (``unpack`` without a hook, ``parse_envelope`` by
slicing, schema places named only on failure) accept and refuse exactly what the general
ways do, with the same values and the same messages."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import net.envelope
from net.envelope import RECORD_TAG, Envelope, _split_strictly, parse_envelope, seal
from net.errors import DecodeError
from net.identity import short_fingerprint
from net.records import Kind, decode_record, sign_record
from net.wire import _unpack_strictly, pack, unpack
from tests.net.samples import ALICE, SAMPLE_BODIES, TABLE
from tests.net.test_wire import values


def _outcome(function: Any, data: bytes) -> tuple[str, Any]:
    try:
        return "value", function(data, "it")
    except DecodeError as error:
        return "error", str(error)


def _mutated(data: st.DataObject, original: bytes) -> bytes:
    start = data.draw(st.integers(0, len(original)))
    end = data.draw(st.integers(start, min(len(original), start + 4)))
    return original[:start] + data.draw(st.binary(max_size=4)) + original[end:]


@given(st.binary(max_size=120))
def test_unpack_matches_the_strict_way_on_any_bytes(data: bytes) -> None:
    assert _outcome(unpack, data) == _outcome(_unpack_strictly, data)


@given(st.data(), values)
def test_unpack_matches_the_strict_way_on_altered_values(data: st.DataObject, value: Any) -> None:
    altered = _mutated(data, pack(value))
    assert _outcome(unpack, altered) == _outcome(_unpack_strictly, altered)


@pytest.mark.parametrize(
    "data",
    [
        b"\x82\xa1a\x01\xa1a\x02",  # a repeated key: the fast way sees a smaller map
        b"\x82\xa1a\x01\xa1a\x01",  # the same key and value twice
        b"\x83\xa1a\x01\xa1b\x02\xa1a\x01",
        b"\x91\x82\xa1b\x01\xa1b\x02",
        b"\x82\xa1b\x01\xa1a\x02",  # keys out of order
    ],
)
def test_repeated_and_unordered_keys_are_named_as_before(data: bytes) -> None:
    kind, message = _outcome(unpack, data)
    assert kind == "error"
    assert message == _outcome(_unpack_strictly, data)[1]


def _envelope(payload_size: int) -> bytes:
    return seal(
        ALICE, RECORD_TAG, bytes(range(256)) * (payload_size // 256) + b"x" * (payload_size % 256)
    )


@pytest.mark.parametrize("size", [1, 2, 200, 255, 256, 257, 1000, 65_415])
def test_envelopes_of_every_size_split_as_the_general_way_does(
    size: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = _envelope(size)
    with monkeypatch.context() as patched:  # the fast way never decodes
        patched.setattr(net.envelope, "unpack", None)
        fast = parse_envelope(data)
    assert fast == _split_strictly(data, "envelope")
    assert (len(fast.payload), fast.author) == (size, ALICE.public_key)


def test_a_short_payload_in_bin_16_is_refused() -> None:
    data = _envelope(10)
    longer = data[:35] + b"\xc5\x00\x0a" + data[37:]  # same payload, a longer length form
    with pytest.raises(DecodeError, match="canonical"):
        parse_envelope(longer)


@given(st.data(), st.sampled_from([1, 5, 254, 255, 256, 300]))
def test_altered_envelopes_split_as_the_general_way_does(data: st.DataObject, size: int) -> None:
    altered = _mutated(data, _envelope(size))
    assert _outcome(parse_envelope, altered) == _outcome(_split_strictly, altered)


@given(st.binary(min_size=100, max_size=110))
def test_any_bytes_split_as_the_general_way_does(tail: bytes) -> None:
    data = b"\x93\xc4\x20" + tail  # begins as an envelope does, to reach the fast way
    assert _outcome(parse_envelope, data) == _outcome(_split_strictly, data)


def test_an_envelope_given_as_a_bytearray_splits_into_bytes() -> None:
    envelope = parse_envelope(bytearray(_envelope(20)))  # type: ignore[arg-type]
    assert isinstance(envelope, Envelope) and type(envelope.payload) is bytes


def _bad_record(payload: list[Any]) -> Envelope:
    return parse_envelope(seal(ALICE, RECORD_TAG, pack(payload)))


def test_a_bad_record_is_named_with_its_author_and_the_place() -> None:
    body = dict(SAMPLE_BODIES[Kind.START])
    body["peers"] = [body["peers"][0], {"key": ALICE.public_key, "name": ""}]
    who = short_fingerprint(ALICE.public_key)
    with pytest.raises(DecodeError) as caught:
        decode_record(_bad_record([1, TABLE, 1, body]))
    assert str(caught.value) == (
        f"record from {who} START body.peers[1].name: expected text of 1 to 40 characters, got ''"
    )
    with pytest.raises(DecodeError, match=rf"^record payload from {who} is not valid msgpack"):
        decode_record(Envelope(b"", ALICE.public_key, b"\xc1", bytes(64)))


def test_a_good_record_decodes_the_same_as_before() -> None:
    record = sign_record(ALICE, Kind.MOVE, TABLE, 4, SAMPLE_BODIES[Kind.MOVE])
    assert (record.kind, record.seq, record.body["move"]) == (Kind.MOVE, 4, (12, 34, -1))
