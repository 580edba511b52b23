"""How fast each author may chat and point, and how much of it a peer holds for pulls.

CHAT and POINT records are valid records of a seated key that never change the game, so a
player (or a liar) could send them as fast as a link carries them: every peer would hold,
log, show and pass on each one (20,000 POINTs cost an honest peer 140 MB).  A person types a
few lines a second and points a few times a second, so each author gets a token bucket per
kind: a burst at once, then a steady rate.  A record past it, or past the bytes held for
pulls per author, is dropped before it is held, logged or passed on, and counted; once a
burst of drops is over (nothing more dropped for ``FLOOD_QUIET``, or every
``FLOOD_REPORT_EVERY`` while it lasts) it is reported once, with how many were dropped.
A chat (pointing) record whose seq is not above the author's last dropped chat (pointing)
is a copy of a dropped record (the flooder answers pulls with them) or was overtaken by the
flood: it is dropped without being counted again, so memory stays one number per author and
kind, not one per record.

Determinism: these records are outside the chain (docs/TABLE.md: kept in arrival order,
never part of a digest), so peers that drop different ones still agree on every ply.  Draw
offers and acceptances, takeback asks and consents have no rate (a bot peer may offer at
every ply, and only one per author and position counts anyway) but count toward the bytes
held: past ``MAX_HELD_OUTSIDE_BYTES`` of an author's, no honest player comes near it, they
are dropped too (a DRAW or TAKEBACK carries the acceptances it needs in its own body).

Invariants: buckets never hold more than their burst; ``held`` only grows, by the size of
each admitted record; a report is made once per burst, with a count of at least one.
"""

from __future__ import annotations

from dataclasses import dataclass

from client.rules.records import CHAT, OUTSIDE_KINDS, POINT, SignedRecord

__all__ = [
    "CHAT_BURST",
    "CHAT_PER_SECOND",
    "FLOOD_QUIET",
    "FLOOD_REPORT_EVERY",
    "MAX_HELD_OUTSIDE_BYTES",
    "POINT_BURST",
    "POINT_PER_SECOND",
    "RATED_KINDS",
    "FloodGuard",
    "FloodReport",
]

CHAT_BURST = 30
"""Chat lines an author may send at once (a pasted paragraph)."""
CHAT_PER_SECOND = 3.0
"""Chat lines per second an author may send, steadily, after a burst."""
POINT_BURST = 60
"""Pointing records an author may send at once (dragging an arrow sends several)."""
POINT_PER_SECOND = 10.0
"""Pointing records per second an author may send, steadily, after a burst."""
MAX_HELD_OUTSIDE_BYTES = 1024 * 1024
"""Bytes of an author's records outside the chain (chat, pointing, draw offers and
acceptances, takeback asks and consents) a peer holds (and logs) for a table: about 1,700
chat lines of the longest kind, many more of ordinary ones, some 5,000 of the others."""
FLOOD_QUIET = 2.0
"""Seconds without a dropped record after which a burst of drops is over and reported."""
FLOOD_REPORT_EVERY = 10.0
"""While a flood lasts, it is reported at most this often."""
RATES = {CHAT: (CHAT_BURST, CHAT_PER_SECOND), POINT: (POINT_BURST, POINT_PER_SECOND)}
RATED_KINDS = frozenset(RATES)


@dataclass(frozen=True)
class FloodReport:
    """``dropped`` records of ``kind`` by ``author`` were dropped in one burst."""

    author: bytes
    kind: str
    dropped: int


@dataclass
class _Bucket:
    tokens: float
    at: float


@dataclass
class _Burst:
    dropped: int
    first_at: float
    last_at: float


class FloodGuard:
    """Token buckets per author and kind, bytes held per author, bursts of drops."""

    def __init__(self) -> None:
        self._buckets: dict[tuple[bytes, str], _Bucket] = {}
        self._held: dict[bytes, int] = {}
        self._dropped_through: dict[tuple[bytes, str], int] = {}
        """The highest seq of each author's records of each kind dropped here."""
        self._bursts: dict[tuple[bytes, str], _Burst] = {}

    def admits(self, record: SignedRecord, now: float) -> bool:
        """Whether ``record`` may be taken now (records of the chain, claims and votes
        always are); a record refused is counted in its author's burst."""
        if record.kind not in OUTSIDE_KINDS:
            return True
        key = (record.author, record.kind)
        if record.seq <= self._dropped_through.get(key, 0):
            return False  # a copy of one dropped already (a pull's answer), or older: silently
        held = self._held.get(record.author, 0) + len(record.envelope)
        if held > MAX_HELD_OUTSIDE_BYTES or not self.spend(record.author, record.kind, now):
            self._dropped_through[key] = record.seq
            drops = self._bursts.setdefault(key, _Burst(0, now, now))
            drops.dropped += 1
            drops.last_at = now
            return False
        self._held[record.author] = held
        return True

    def spend(self, author: bytes, kind: str, now: float) -> bool:
        """Take one record of ``kind`` from ``author``'s bucket if it has one (True) — the
        check a peer makes on its own player's lines before signing them, too."""
        rate = RATES.get(kind)
        if rate is None:
            return True
        burst, per_second = rate
        bucket = self._buckets.setdefault((author, kind), _Bucket(float(burst), now))
        bucket.tokens = min(float(burst), bucket.tokens + (now - bucket.at) * per_second)
        bucket.at = now
        if bucket.tokens < 1.0:
            return False
        bucket.tokens -= 1.0
        return True

    def due(self) -> float | None:
        """When the next report is due (None: no burst of drops going on)."""
        return min((self._due(burst) for burst in self._bursts.values()), default=None)

    def reports(self, now: float) -> list[FloodReport]:
        """The bursts due by ``now``, each reported once (a flood still going on starts a
        new burst)."""
        done = [key for key, burst in self._bursts.items() if self._due(burst) <= now]
        return [FloodReport(key[0], key[1], self._bursts.pop(key).dropped) for key in done]

    @staticmethod
    def _due(burst: _Burst) -> float:
        return min(burst.last_at + FLOOD_QUIET, burst.first_at + FLOOD_REPORT_EVERY)
