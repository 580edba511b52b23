"""docs/PROTOCOL.md's handshake vectors are what net's own code sends and derives."""

from __future__ import annotations

import re
from pathlib import Path

from net.handshake import APP_VERSION
from tests.net import handshake_vectors as vectors

DOC = (Path(__file__).resolve().parents[2] / "docs" / "PROTOCOL.md").read_text(encoding="utf-8")


def documented() -> dict[str, str]:
    block = DOC.split("```handshake-vectors\n", 1)[1].split("```", 1)[0]
    return dict(re.findall(r"^([^:\n]+): (.+)$", block, re.M))


def test_the_documented_inputs_are_the_ones_run() -> None:
    doc = documented()
    assert doc["joiner Ed25519 seed"] == vectors.JOINER_SEED.hex()
    assert doc["host Ed25519 seed"] == vectors.HOST_SEED.hex()
    assert doc["joiner X25519 ephemeral private key"] == vectors.JOINER_EPH.hex()
    assert doc["host X25519 ephemeral private key"] == vectors.HOST_EPH.hex()
    assert doc["joiner nonce"] == vectors.JOINER_NONCE.hex()
    assert doc["host nonce"] == vectors.HOST_NONCE.hex()
    assert doc["table id"] == vectors.TABLE.hex()
    assert doc["table secret"] == vectors.SECRET
    assert (doc["app"], doc["host port"]) == (APP_VERSION, str(vectors.HOST_PORT))


def test_every_frame_and_key_of_the_handshake_is_as_documented() -> None:
    doc = documented()
    made = vectors.run()
    assert len(made) == 12
    assert {name: doc.get(name) for name in made} == made
    # the joiner's AUTH carries the admission proof, the host's a nil one
    assert made["admission proof"] in made["joiner AUTH frame"]
    assert "a570726f6f66c0" in made["host AUTH frame"]  # "proof": nil
