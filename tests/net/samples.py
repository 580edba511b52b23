"""Valid sample bodies for every record kind, and keys to sign them with (shared by tests)."""

from __future__ import annotations

from typing import Any

from net.identity import Identity
from net.records import Kind, sign_record

TABLE = bytes(range(16))
OTHER_TABLE = bytes(range(1, 17))
ALICE = Identity.generate()
BOB = Identity.generate()
_PREV = bytes(32)
_HEAD = {"ply": 3, "prev": _PREV}


def _embedded(kind: Kind, body: dict[str, Any]) -> bytes:
    return sign_record(BOB, kind, TABLE, 1, body).data


SAMPLE_BODIES: dict[Kind, dict[str, Any]] = {
    Kind.START: {
        "game": "consensus",
        "ruleset": "consensus/1",
        "engine_version": "1.0.0",
        "options": {"seats": 4, "variant": "classic"},
        "timeouts": {"away_ms": 60_000, "idle_ms": 900_000},
        "peers": [
            {"key": ALICE.public_key, "name": "Alice"},
            {"key": BOB.public_key, "name": "Bob"},
        ],
        "seats": [
            {"key": ALICE.public_key, "runner": ALICE.public_key},
            {"key": BOB.public_key, "runner": BOB.public_key},
        ],
    },
    Kind.MOVE: {**_HEAD, "seat": 2, "move": [12, 34, -1]},
    Kind.RESIGN: {**_HEAD, "seat": 1},
    Kind.DRAW: {**_HEAD, "acceptances": [_embedded(Kind.DRAW_ACCEPT, _HEAD)]},
    Kind.REMOVE: {
        **_HEAD,
        "removed": [BOB.public_key],
        "replacements": [{"seat": 2, "key": bytes(32), "runner": ALICE.public_key}],
        "votes": [_embedded(Kind.VOTE, {**_HEAD, "removed": [BOB.public_key], "replacements": []})],
    },
    Kind.TAKEBACK: {**_HEAD, "consents": [_embedded(Kind.TAKEBACK_CONSENT, _HEAD)]},
    Kind.ACK: {"ply": 0, "digest": bytes(32)},
    Kind.END: {
        "ply": 40,
        "digest": bytes(32),
        "result": {
            "winners": [1],
            "draw": False,
            "reason": "power",
            "summary": "Seat 1 wins by taking the centre.",
            "scores": [],
            "absent": [],
        },
    },
    Kind.CHAT: {"text": "bien joué, à toi 🙂"},
    Kind.POINT: {"ply": 3, "arrows": [[0, 80]], "squares": [40]},
    Kind.DRAW_OFFER: dict(_HEAD),
    Kind.DRAW_ACCEPT: dict(_HEAD),
    Kind.VOTE: {**_HEAD, "removed": [BOB.public_key], "replacements": []},
    Kind.TAKEBACK_ASK: dict(_HEAD),
    Kind.TAKEBACK_CONSENT: dict(_HEAD),
    Kind.HALT: {
        "ply": 3,
        "digest": bytes(32),
        "state": b"L\x00\x00\x00\x00",
        "reason": "peer K3QF-7XZA… signed another chain digest for ply 3",
        "records": [_embedded(Kind.ACK, {"ply": 3, "digest": bytes(32)})],
    },
    Kind.LEAVE: {"ply": 5, "digest": bytes(32)},
}
