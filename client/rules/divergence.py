"""Divergence: when peers disagree, the table halts and keeps the evidence.

Two things halt a table (DESIGN.md section 4): an ACK (or END) with another chain digest
than this peer's, and equivocation — two different *legal* ply records signed by one author
for one ply.  An illegal signed ply does not halt anything: it is rejected and kept as
evidence of the ``rejected`` kind.

A :class:`Divergence` gathers, for the ply where it happened, what each peer claimed (its
ACK or END digest, and the state it sent in its HALT) and yields an :class:`Evidence`
snapshot: the signed records involved, the states decoded from their canonical bytes, and a
verdict naming the peer(s) outside the majority — or saying there is no majority (yet).

Invariants: evidence only grows (records and states are added, never replaced); the
verdict counts only peers still at the table at that ply; a peer's first claim is the one
that counts, a second different one makes it a culprit by itself.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field

from client.rules.records import SignedRecord

__all__ = ["Divergence", "Evidence", "StateView", "first_difference"]


def first_difference(a: object, b: object, path: str = "") -> str | None:
    """The path (``[2][5]``) of the first place two decoded states differ, None if equal."""
    if isinstance(a, tuple) and isinstance(b, tuple):
        for index, (x, y) in enumerate(zip(a, b, strict=False)):
            found = first_difference(x, y, f"{path}[{index}]")
            if found is not None:
                return found
        return None if len(a) == len(b) else f"{path} (lengths {len(a)} and {len(b)})"
    return None if (type(a), a) == (type(b), b) else (path or "the whole state")


@dataclass(frozen=True)
class StateView:
    """One state in the evidence: whose, its canonical bytes and their decoding."""

    source: str
    encoded: bytes
    decoded: object
    note: str = ""


@dataclass(frozen=True)
class Evidence:
    """What a player (or a file) needs to judge a divergence or a rejected record."""

    kind: str
    """``digest``, ``equivocation``, ``fork``, ``result``, ``halt`` or ``rejected``."""
    ply: int
    reason: str
    verdict: str
    culprits: tuple[bytes, ...]
    records: tuple[SignedRecord, ...]
    states: tuple[StateView, ...]

    def to_json(self) -> dict[str, object]:
        """A JSON-ready form for the evidence file."""
        return {
            "kind": self.kind,
            "ply": self.ply,
            "reason": self.reason,
            "verdict": self.verdict,
            "culprits": [key.hex() for key in self.culprits],
            "records": [
                {
                    "kind": r.kind,
                    "author": r.author.hex(),
                    "seq": r.seq,
                    "hash": r.record_hash.hex(),
                    "envelope": r.envelope.hex(),
                }
                for r in self.records
            ],
            "states": [
                {
                    "source": s.source,
                    "note": s.note,
                    "bytes": s.encoded.hex(),
                    "decoded": _jsonable(s.decoded),
                }
                for s in self.states
            ],
        }


def _jsonable(value: object) -> object:
    return [_jsonable(item) for item in value] if isinstance(value, tuple) else value


@dataclass
class Divergence:
    """The evidence being gathered about one halt."""

    kind: str
    ply: int
    reason: str
    peers: tuple[bytes, ...]
    """Peers at the table at ``ply``: the ones whose claims count."""
    describe: Callable[[bytes], str]
    me: bytes | None
    records: list[SignedRecord] = field(default_factory=list)
    states: list[StateView] = field(default_factory=list)
    claims: dict[bytes, Hashable] = field(default_factory=dict)
    double_claimers: set[bytes] = field(default_factory=set)
    accused: dict[bytes, str] = field(default_factory=dict)
    """Peers named by what they signed (an equivocator), with what they did."""

    def add_record(self, record: SignedRecord) -> None:
        if record not in self.records:
            self.records.append(record)

    def add_state(self, view: StateView) -> None:
        if all((s.source, s.encoded) != (view.source, view.encoded) for s in self.states):
            self.states.append(view)

    def add_claim(self, author: bytes, value: Hashable) -> None:
        """``author``'s digest (or digest and result) for ``ply``; the first one counts."""
        if author not in self.peers:
            return
        earlier = self.claims.setdefault(author, value)
        if earlier != value:
            self.double_claimers.add(author)

    def evidence(self) -> Evidence:
        verdict, culprits = self._verdict()
        return Evidence(
            self.kind,
            self.ply,
            self.reason,
            verdict,
            culprits,
            tuple(self.records),
            tuple(self.states),
        )

    def _verdict(self) -> tuple[str, tuple[bytes, ...]]:
        if self.accused:
            named = tuple(sorted(self.accused))
            return "; ".join(f"{self._name(key)} {self.accused[key]}" for key in named), named
        groups: dict[Hashable, list[bytes]] = {}
        for peer in self.peers:
            if peer in self.claims and peer not in self.double_claimers:
                groups.setdefault(self.claims[peer], []).append(peer)
        total = len(self.peers)
        majority = next((ks for ks in groups.values() if 2 * len(ks) > total), None)
        doubles = sorted(self.double_claimers)
        if majority is None:
            counts = sorted((len(ks) for ks in groups.values()), reverse=True)
            split = " against ".join(str(c) for c in counts) or "no claims"
            text = f"no majority for ply {self.ply}: {split} of {total} peers"
            if len(self.claims) < total:
                text += " (not every peer has spoken yet)"
            return self._with_doubles(text, doubles), tuple(doubles)
        culprits = sorted({k for k in self.claims if k not in majority} | set(doubles))
        if not culprits:
            return f"{len(majority)} of {total} peers agree on ply {self.ply}", ()
        names = ", ".join(self._name(key) for key in culprits)
        verb = "disagrees" if len(culprits) == 1 else "disagree"
        text = (
            f"{names} {verb} with the majority ({len(majority)} of {total} peers) on ply {self.ply}"
        )
        return text, tuple(culprits)

    def _with_doubles(self, text: str, doubles: Sequence[bytes]) -> str:
        if not doubles:
            return text
        return text + "; " + ", ".join(self._name(k) for k in doubles) + " claimed two digests"

    def _name(self, key: bytes) -> str:
        return f"this peer ({self.describe(key)})" if key == self.me else self.describe(key)
