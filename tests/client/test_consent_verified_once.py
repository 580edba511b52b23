"""A consent's signature is checked once per peer, however often the chain reads it.

Four in-memory peers take a ply back by consent; every Ed25519 verification made in the
process is counted through the real signature module (``net.ed25519.is_valid``, wrapped so
it still decides), keyed by the signature.  A consent reaches each peer but its author once
on its own (``net`` verifies it on arrival), then inside the TAKEBACK: that copy, and every
later reading of it (the chain's check, the table telling the player who consented), costs
no second verification.  The tamper tests (test_takeback.py, test_verify_tamper.py) show the
checks themselves are unchanged; here a consent altered by one byte is still refused.
"""

from __future__ import annotations

from collections import Counter

import pytest

from client.rules.errors import BadEnvelope
from client.rules.net_adapter import open_envelope
from client.rules.records import TAKEBACK
from client.tabletop.opened_once import OpenedOnce
from net import ed25519
from net.envelope import parse_envelope
from tests.client.harness import Router, act, world

PEERS = ["A", "B", "C", "D"]


@pytest.fixture
def verified(monkeypatch: pytest.MonkeyPatch) -> Counter[bytes]:
    """How many times each signature was verified in this test."""
    counts: Counter[bytes] = Counter()
    real = ed25519.is_valid

    def counting(public_key: bytes, signature: bytes, message: bytes) -> bool:
        counts[signature] += 1
        return real(public_key, signature, message)

    monkeypatch.setattr(ed25519, "is_valid", counting)
    return counts


def test_each_consent_is_verified_once_at_each_peer_that_received_it(
    verified: Counter[bytes],
) -> None:
    router = asked()
    a = router.tables["A"]
    for name in "CDB":  # B, to move, consents last and appends the TAKEBACK
        act(router, name, router.tables[name].consent_takeback(router.now))
    for name, table in router.tables.items():
        assert table.head.record.kind == TAKEBACK, name
        assert not table.rejected
    takeback = a.head.record
    consents = takeback.body["consents"]
    assert len(consents) == 4
    for envelope in consents:
        # once at each peer: on arrival at the three others, and at its author when the
        # chain first reads it in the TAKEBACK; never again for a later reading
        assert verified[_signature(envelope)] == 4
    # the TAKEBACK itself: once at each of the three peers that did not sign it
    assert verified[_signature(takeback.envelope)] == 3


def asked() -> Router:
    """Four peers; A moved, then asked to take that ply back."""
    _, router = world(PEERS)
    a = router.tables["A"]
    act(router, "A", a.move(2, router.now))
    act(router, "A", a.ask_takeback(router.now))
    return router


def _signature(envelope: bytes) -> bytes:
    return parse_envelope(envelope).signature


def test_the_kept_record_is_the_real_openers_and_a_changed_byte_still_fails(
    verified: Counter[bytes],
) -> None:
    router = asked()
    envelope = router.logs["A"][-1].envelope
    opener = OpenedOnce(open_envelope, limit=2)
    first = opener(envelope)
    assert first == open_envelope(envelope) and opener(envelope) is first
    signature = _signature(envelope)
    before = verified[signature]
    opener(envelope)
    assert verified[signature] == before  # kept: not verified again
    changed = envelope[:-1] + bytes([envelope[-1] ^ 1])
    for _ in range(2):  # a failure is never kept
        with pytest.raises(BadEnvelope):
            opener(changed)
    # bounded: the oldest goes first, and is verified again when asked once more
    others = [r.envelope for r in router.logs["A"][:2]]
    for other in others:
        opener(other)
    opener(envelope)
    assert verified[signature] == before + 1
