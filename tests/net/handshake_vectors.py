"""The handshake of docs/PROTOCOL.md section 12 ("Handshake vectors"), run by net's own code.

Two ``net.protocol.Connection`` objects, a joiner and a host, with fixed Ed25519 keys,
nonces and X25519 ephemeral keys (the only randomness of a handshake, fixed here by
replacing ``net.handshake``'s two sources of it), exchange their frames; the joiner proves a
table secret; then each sends the section's CHAT record as its first sealed frame.
``run()`` returns every value the doc lists, by name, as hex.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey
from cryptography.hazmat.primitives.hashes import SHA256
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

import net.handshake
from net.events import Connected, SendRecord
from net.handshake import APP_VERSION, Role, admission_proof, key_exchange, transcript_hash
from net.identity import Identity
from net.linkspec import AllowedKeys, LinkSpec
from net.protocol import Connection
from net.records import Kind, sign_record

JOINER_SEED, HOST_SEED = bytes(range(32)), bytes(range(32, 64))
JOINER_EPH, HOST_EPH = bytes(range(64, 96)), bytes(range(96, 128))
JOINER_NONCE, HOST_NONCE = bytes(range(128, 160)), bytes(range(160, 192))
TABLE = bytes(range(16))
HOST_PORT = 52000
SECRET = "tea-time-at-seven"


@contextmanager
def fixed_randomness(nonce: bytes, eph: bytes) -> Iterator[None]:
    """``net.handshake``'s nonce and ephemeral key, fixed for one ``Connection``."""
    urandom, ephemeral = net.handshake.os.urandom, net.handshake.new_ephemeral
    private = X25519PrivateKey.from_private_bytes(eph)
    net.handshake.os.urandom = lambda n: nonce[:n]  # type: ignore[assignment]
    net.handshake.new_ephemeral = lambda: (private, private.public_key().public_bytes_raw())
    try:
        yield
    finally:
        net.handshake.os.urandom, net.handshake.new_ephemeral = urandom, ephemeral


def connection(role: Role, seed: bytes, nonce: bytes, eph: bytes, **spec: Any) -> Connection:
    identity = Identity(Ed25519PrivateKey.from_private_bytes(seed))
    link = LinkSpec(
        identity,
        APP_VERSION,
        AllowedKeys({_public(JOINER_SEED), _public(HOST_SEED)}),
        table_id=TABLE,
        **spec,
    )
    with fixed_randomness(nonce, eph):
        return Connection(role, link, 0.0)


def _public(seed: bytes) -> bytes:
    return Identity(Ed25519PrivateKey.from_private_bytes(seed)).public_key


def deliver(data: bytes, to: Connection, expect: type | None = None) -> bytes:
    """``to`` reads ``data`` and takes every event (one of them ``expect``); what it sends."""
    to.receive_data(data, 0.0)
    events = list(iter(to.next_event, None))
    assert expect is None or any(isinstance(e, expect) for e in events), events
    return to.data_to_send()


def run() -> dict[str, str]:
    joiner = connection(Role.INITIATOR, JOINER_SEED, JOINER_NONCE, JOINER_EPH, secret=SECRET)
    host = connection(
        Role.RESPONDER, HOST_SEED, HOST_NONCE, HOST_EPH, secret=SECRET, listen_port=HOST_PORT
    )
    joiner_hello = joiner.data_to_send()
    host_hello_auth = deliver(joiner_hello, host)
    joiner_auth = deliver(host_hello_auth, joiner, Connected)
    assert deliver(joiner_auth, host, Connected) == b""
    chat = sign_record(
        Identity(Ed25519PrivateKey.from_private_bytes(JOINER_SEED)),
        Kind.CHAT,
        TABLE,
        1,
        {"text": "bonjour"},
    ).data
    host_sealed = host.send(SendRecord(chat), 0.0)
    joiner_sealed = joiner.send(SendRecord(chat), 0.0)
    split = 4 + int.from_bytes(host_hello_auth[:4], "big")
    j_body, h_body = joiner_hello[5:], host_hello_auth[5:split]
    th = transcript_hash(j_body, h_body)
    shared = key_exchange(
        X25519PrivateKey.from_private_bytes(JOINER_EPH),
        X25519PrivateKey.from_private_bytes(HOST_EPH).public_key().public_bytes_raw(),
    )
    keys = HKDF(SHA256(), 64, salt=th, info=b"palabre/1/link keys\0").derive(shared)
    secret_hash = hashlib.blake2b(b"palabre/1/table secret\0" + SECRET.encode(), digest_size=32)
    values = {
        "joiner HELLO frame": joiner_hello,
        "host HELLO frame": host_hello_auth[:split],
        "host AUTH frame": host_hello_auth[split:],
        "transcript hash th": th,
        "joiner AUTH frame": joiner_auth,
        "X25519 shared secret": shared,
        "joiner-to-host key": keys[:32],
        "host-to-joiner key": keys[32:],
        "secret hash": secret_hash.digest(),
        "admission proof": admission_proof(shared, th, SECRET),
        "host's first sealed frame": host_sealed,
        "joiner's first sealed frame": joiner_sealed,
    }
    return {name: value.hex() for name, value in values.items()}


if __name__ == "__main__":
    for name, value in run().items():
        print(f"{name}: {value}")
