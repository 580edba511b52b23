"""Every key of the corpus, kept beside it (conformance/keys.json) so anyone can sign more.

Keys are derived from small integer seeds as the tests' ``Identity`` derives them:
``secret = BLAKE2b-256(seed as 8 bytes big-endian)``, the Ed25519 private key's 32 bytes.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

from tests.client.envelopes import Identity


class KeyBook:
    def __init__(self) -> None:
        self.keys: dict[bytes, dict[str, Any]] = {}

    def add(self, identity: Identity, seed: int, label: str) -> None:
        secret = hashlib.blake2b(seed.to_bytes(8, "big"), digest_size=32).digest()
        if Identity(seed).key != identity.key:
            raise ValueError(f"seed {seed} is not the seed of {label}'s key")
        self.keys.setdefault(
            identity.key,
            {"public": identity.key.hex(), "secret": secret.hex(), "seed": seed, "label": label},
        )

    def add_setup(self, setup: Any) -> None:
        for i, name in enumerate(setup.peer_names):
            self.add(setup.identities[name], setup.seed * 100 + i, name)
        for seat, identity in setup.bot_identities.items():
            self.add(identity, setup.seed * 100 + 50 + seat, f"bot of seat {seat}")

    def add_replacements(self, setup: Any, states: Sequence[Any]) -> None:
        """The bot keys a REMOVE handed out (``Setup.bot_factory``'s seeds)."""
        for state in states:
            if state.record.kind != "REMOVE":
                continue
            for item in state.record.body["replacements"]:
                index = [setup.key(n) for n in setup.peer_names].index(item["runner"])
                seed = (
                    10_000_000
                    + setup.seed * 1_000_000
                    + index * 100_000
                    + state.ply * 64
                    + item["seat"]
                )
                self.add(Identity(seed), seed, f"bot for seat {item['seat']} from ply {state.ply}")

    def to_json(self) -> dict[str, Any]:
        return {
            "derivation": "secret = BLAKE2b-256(seed as 8 bytes, big-endian); Ed25519 (RFC 8032)",
            "keys": sorted(self.keys.values(), key=lambda k: (k["seed"], k["public"])),
        }
