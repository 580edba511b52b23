"""The handshake's messages and the link's encryption (docs/PROTOCOL.md, "Handshake").

Three plaintext frames, then everything is sealed::

    initiator -> responder   HELLO  {proto, app, key, nonce, eph, table, port}
    responder -> initiator   HELLO  (its own), then AUTH {sig}
    initiator -> responder   AUTH   {sig, proof}

Invariants:

* The transcript hash ``th`` covers both HELLO bodies exactly as sent (initiator's first),
  so both keys, both nonces, both ephemeral X25519 keys, the versions and the table id.
* Each side's AUTH signs ``HELLO_TAG + role letter + th`` with its Ed25519 identity: the
  purpose tag keeps it from ever being valid as a record, the role letter (``I``/``R``)
  keeps a signature from being reflected back, the fresh nonces and ephemeral keys from
  being replayed on another link.
* Link keys come from X25519 over the ephemeral keys, through HKDF-SHA256 salted with
  ``th``: one ChaCha20-Poly1305 key per direction.  Each frame a side sends after its own
  AUTH is sealed with the next counter as nonce and its length prefix as associated data;
  a frame that fails to open (altered, replayed, reordered, cut) is a crypto failure.
* **Admission.**  A responder with a table secret admits an initiator only if its AUTH
  carries ``proof = HMAC-SHA256(admission key, ADMIT_TAG + th)``, where the admission key is
  HKDF-SHA256 over the X25519 shared secret and a hash of the table secret, salted with
  ``th``.  The secret never travels; without the shared secret nobody who only watches the
  wire can test guesses against a proof; the responder sends nothing that depends on the
  secret, so an uninvited initiator learns one "no" per handshake.  The initiator sends
  its proof only after checking the responder's AUTH (and the invite's fingerprint).  The
  responder's AUTH carries ``proof: nil``.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import re
import struct
from dataclasses import dataclass
from enum import Enum

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.hazmat.primitives.hashes import SHA256
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from net.envelope import HELLO_TAG, SIGNATURE_SIZE, signature_is_valid
from net.errors import CloseCode, RemoteProtocolError, SignatureError
from net.events import PeerInfo
from net.framing import frame_prefix
from net.identity import fingerprint, short_fingerprint
from net.invite import format_table_id
from net.linkspec import LinkSpec
from net.records import TABLE_ID_SIZE
from net.wire import Bytes, Int, Nullable, Struct, Text, pack, unpack

__all__ = [
    "APP_PATTERN",
    "APP_VERSION",
    "PROTOCOL_VERSION",
    "SEAL_OVERHEAD",
    "FrameCipher",
    "Handshake",
    "Hello",
    "Role",
    "admission_proof",
    "app_mismatch",
    "auth_message",
    "decode_auth",
    "decode_hello",
    "derive_ciphers",
    "encode_auth",
    "encode_hello",
    "transcript_hash",
]

PROTOCOL_VERSION = 1
APP_VERSION = "0.1.0"  # palabre's release, as in pyproject.toml (a test keeps them equal)
APP_PATTERN = r"([0-9]{1,4})\.([0-9]{1,4})\.[0-9]{1,4}([a-z0-9.+-]{0,16})"
SEAL_OVERHEAD = 16  # the Poly1305 tag
_TRANSCRIPT_TAG = b"palabre/1/transcript\0"
_KEYS_INFO = b"palabre/1/link keys\0"
_SECRET_TAG = b"palabre/1/table secret\0"
_ADMISSION_INFO = b"palabre/1/admission\0"
_ADMIT_TAG = b"palabre/1/admit\0"
_HELLO = Struct(
    {
        "proto": Int(0, 65535),
        "app": Text(5, 32, APP_PATTERN),
        "key": Bytes(32),
        "nonce": Bytes(32),
        "eph": Bytes(32),
        "table": Nullable(Bytes(TABLE_ID_SIZE)),
        "port": Int(0, 65535),
    }
)
_PROOF_SIZE = 32
_AUTH = Struct({"sig": Bytes(SIGNATURE_SIZE), "proof": Nullable(Bytes(_PROOF_SIZE))})


class Role(Enum):
    """Who dialed: the initiator (joiner) or the responder (listener)."""

    INITIATOR = b"I"
    RESPONDER = b"R"

    @property
    def other(self) -> Role:
        return Role.RESPONDER if self is Role.INITIATOR else Role.INITIATOR


@dataclass(frozen=True)
class Hello:
    proto: int
    app: str
    key: bytes
    nonce: bytes
    eph: bytes
    table: bytes | None
    port: int


def encode_hello(hello: Hello) -> bytes:
    return pack(
        {
            "proto": hello.proto,
            "app": hello.app,
            "key": hello.key,
            "nonce": hello.nonce,
            "eph": hello.eph,
            "table": hello.table,
            "port": hello.port,
        }
    )


def decode_hello(body: bytes, sender: str, receiver: str) -> Hello:
    """A peer's HELLO; ``RemoteProtocolError`` (code VERSION for another protocol).

    ``sender`` and ``receiver`` name the two sides ("joiner", "host") in messages, which
    both sides read.
    """
    value = unpack(body, "hello")
    if type(value) is dict:
        proto = value.get("proto")
        # Read the version before anything else: a later protocol may change the rest.
        if type(proto) is int and proto != PROTOCOL_VERSION:
            raise RemoteProtocolError(
                f"the {sender} speaks palabre protocol {proto} and the {receiver} speaks "
                f"{PROTOCOL_VERSION}; both need the same palabre release",
                CloseCode.VERSION,
            )
    _HELLO.check(value, "hello")
    return Hello(**value)


def app_mismatch(joiner: str, host: str) -> str | None:
    """Why two app versions cannot play together (None when they can: same major.minor)."""
    first = re.fullmatch(APP_PATTERN, joiner)
    second = re.fullmatch(APP_PATTERN, host)
    if first is None or second is None or first.group(1, 2) != second.group(1, 2):
        return (
            f"the joiner runs palabre {joiner} and the host runs {host}; "
            "both must run the same major.minor release"
        )
    return None


def encode_auth(signature: bytes, proof: bytes | None = None) -> bytes:
    return pack({"sig": signature, "proof": proof})


def decode_auth(body: bytes) -> tuple[bytes, bytes | None]:
    """``(signature, proof)`` of an AUTH; ``DecodeError`` if malformed."""
    value = unpack(body, "auth")
    _AUTH.check(value, "auth")
    signature: bytes = value["sig"]
    proof: bytes | None = value["proof"]
    return signature, proof


def admission_proof(shared: bytes, th: bytes, secret: str) -> bytes:
    """What an initiator sends to show it knows ``secret`` on the link of transcript ``th``.

    ``shared`` is the link's X25519 shared secret: a proof can only be checked, or guesses
    tested against it, by someone who holds it, that is by the two ends of the link."""
    secret_hash = hashlib.blake2b(_SECRET_TAG + secret.encode("utf-8"), digest_size=32).digest()
    key = HKDF(SHA256(), 32, salt=th, info=_ADMISSION_INFO).derive(shared + secret_hash)
    return hmac.new(key, _ADMIT_TAG + th, hashlib.sha256).digest()


def transcript_hash(initiator_hello: bytes, responder_hello: bytes) -> bytes:
    """BLAKE2b-256 over the tag and both HELLO bodies, each with its 4-byte length."""
    h = hashlib.blake2b(_TRANSCRIPT_TAG, digest_size=32)
    for body in (initiator_hello, responder_hello):
        h.update(struct.pack(">I", len(body)))
        h.update(body)
    return h.digest()


def auth_message(role: Role, th: bytes) -> bytes:
    """The bytes a side of role ``role`` signs in its AUTH."""
    return HELLO_TAG + role.value + th


def new_ephemeral() -> tuple[X25519PrivateKey, bytes]:
    private = X25519PrivateKey.generate()
    return private, private.public_key().public_bytes_raw()


def key_exchange(ephemeral: X25519PrivateKey, peer_eph: bytes) -> bytes:
    """The X25519 shared secret; ``SignatureError`` on a degenerate peer key."""
    try:
        return ephemeral.exchange(X25519PublicKey.from_public_bytes(peer_eph))
    except ValueError as error:
        raise SignatureError("the peer's key exchange value is invalid") from error


def derive_ciphers(role: Role, shared: bytes, th: bytes) -> tuple[FrameCipher, FrameCipher]:
    """``(send, receive)`` ciphers of this side, from the X25519 shared secret."""
    keys = HKDF(SHA256(), 64, salt=th, info=_KEYS_INFO).derive(shared)
    forward, backward = FrameCipher(keys[:32]), FrameCipher(keys[32:])
    return (forward, backward) if role is Role.INITIATOR else (backward, forward)


class FrameCipher:
    """One direction of a link: ChaCha20-Poly1305 with a counter nonce."""

    def __init__(self, key: bytes) -> None:
        self._aead = ChaCha20Poly1305(key)
        self._counter = 0

    def _nonce(self) -> bytes:
        nonce = b"\0\0\0\0" + self._counter.to_bytes(8, "big")
        self._counter += 1
        return nonce

    def seal(self, plaintext: bytes) -> bytes:
        """A whole frame (prefix and sealed body) carrying ``plaintext``."""
        prefix = frame_prefix(len(plaintext) + SEAL_OVERHEAD)
        return prefix + self._aead.encrypt(self._nonce(), plaintext, prefix)

    def open(self, prefix: bytes, sealed: bytes) -> bytes:
        """The plaintext of a received frame; ``SignatureError`` if it does not open."""
        try:
            return self._aead.decrypt(self._nonce(), sealed, prefix)
        except InvalidTag as error:
            raise SignatureError(
                "a frame failed the link's integrity check (altered on the way, or not "
                "sent by the peer that completed the handshake)"
            ) from error


class Handshake:
    """One side's handshake, step by step.  Every check of the peer raises
    ``RemoteProtocolError`` (``SignatureError`` for crypto) with a message both sides read,
    naming the sides "joiner" and "host"."""

    def __init__(self, role: Role, spec: LinkSpec) -> None:
        self.role = role
        self.spec = spec
        self.table_id = spec.table_id
        self._ephemeral, eph_public = new_ephemeral()
        self.hello = encode_hello(
            Hello(
                PROTOCOL_VERSION,
                spec.app_version,
                spec.identity.public_key,
                os.urandom(32),
                eph_public,
                spec.table_id,
                spec.listen_port,
            )
        )
        self._peer: Hello | None = None
        self._transcript = b""
        self._shared = b""
        self._ciphers: tuple[FrameCipher, FrameCipher] | None = None
        self._peer_name, self._own_name = (
            ("joiner", "host") if role is Role.RESPONDER else ("host", "joiner")
        )

    @property
    def send_cipher(self) -> FrameCipher:
        assert self._ciphers is not None, "no HELLO taken yet"
        return self._ciphers[0]

    @property
    def receive_cipher(self) -> FrameCipher:
        assert self._ciphers is not None, "no HELLO taken yet"
        return self._ciphers[1]

    def take_hello(self, body: bytes) -> None:
        """Check the peer's HELLO, then derive the transcript and the link keys."""
        hello = decode_hello(body, self._peer_name, self._own_name)
        ours = self.spec.app_version
        joiner, host = (hello.app, ours) if self.role is Role.RESPONDER else (ours, hello.app)
        problem = app_mismatch(joiner=joiner, host=host)
        if problem:
            raise RemoteProtocolError(problem, CloseCode.VERSION)
        if hello.key == self.spec.identity.public_key:
            raise RemoteProtocolError(
                f"both ends hold the same key {short_fingerprint(hello.key)} "
                "(two palabre runs with one --profile?)",
                CloseCode.SELF,
            )
        if hello.table is not None and self.table_id is not None and hello.table != self.table_id:
            joiner_table, host_table = (
                (hello.table, self.table_id)
                if self.role is Role.RESPONDER
                else (self.table_id, hello.table)
            )
            raise RemoteProtocolError(
                f"the joiner asked for table {format_table_id(joiner_table)} but the host runs "
                f"table {format_table_id(host_table)} (an invite from another game?)",
                CloseCode.TABLE,
            )
        self._peer = hello
        if self.table_id is None:
            self.table_id = hello.table
        if self.role is Role.RESPONDER:
            self._transcript = transcript_hash(body, self.hello)
        else:
            self._transcript = transcript_hash(self.hello, body)
        self._shared = key_exchange(self._ephemeral, hello.eph)
        self._ciphers = derive_ciphers(self.role, self._shared, self._transcript)

    def auth(self) -> bytes:
        """This side's AUTH content: its signature over the transcript and its role, and
        (an initiator with a table secret) the proof that it knows the secret."""
        signature = self.spec.identity.sign(auth_message(self.role, self._transcript))
        proof = None
        if self.role is Role.INITIATOR and self.spec.secret is not None:
            proof = admission_proof(self._shared, self._transcript, self.spec.secret)
        return encode_auth(signature, proof)

    def take_auth(self, body: bytes) -> PeerInfo:
        """Verify the peer's AUTH (and, for a joiner, the invite's fingerprint)."""
        hello = self._peer
        assert hello is not None, "AUTH comes after a HELLO"
        signed = auth_message(self.role.other, self._transcript)
        signature, proof = decode_auth(body)
        if not signature_is_valid(hello.key, signature, signed):
            raise SignatureError(
                f"the {self._peer_name} {short_fingerprint(hello.key)} did not prove it holds "
                "its key (bad handshake signature)"
            )
        if self.role is Role.RESPONDER and self.spec.secret is not None:
            self._check_admission(hello.key, proof, self.spec.secret)
        expected = self.spec.expected_fingerprint
        if self.role is Role.INITIATOR and expected and fingerprint(hello.key) != expected:
            raise RemoteProtocolError(
                f"the host's key {fingerprint(hello.key)} is not the one the invite names "
                f"({expected}); another machine may have answered at that address",
                CloseCode.FINGERPRINT,
            )
        return PeerInfo(hello.key, hello.app, hello.table, hello.port)

    def _check_admission(self, key: bytes, proof: bytes | None, secret: str) -> None:
        who = f"the joiner {short_fingerprint(key)}"
        if proof is None:
            raise RemoteProtocolError(
                f"{who} did not give the table secret: this table admits only players with "
                "its invite, which carries the secret (ask the host for it)",
                CloseCode.SECRET,
            )
        expected = admission_proof(self._shared, self._transcript, secret)
        if not hmac.compare_digest(proof, expected):
            raise RemoteProtocolError(
                f"{who} did not prove it knows the table secret (an old invite, or a "
                "mistyped --secret?); ask the host for the invite",
                CloseCode.SECRET,
            )
