"""The mesh: who dials whom, what goes on which link, presence reports, pulls — no I/O.

After START every peer links with every other (DESIGN.md section 4, Addresses), so no
machine holds the table hostage.  ``Mesh`` decides, the trio runtime (``client.runtime.peer``) does:

* **Addresses.**  The book starts from the lobby roster (the address the host saw each peer
  at, and the port it listens on), learns from every link that opens (the remote address and
  the port its HELLO states — a restarted peer may listen elsewhere), and from ``addresses``
  messages, which each peer sends on every link it opens and whenever its book changes.
* **Dialing.**  A peer dials every peer that joined before it (earlier in START) that it has
  no link with, retrying with a growing pause; a peer that restarted also dials the later
  ones once (they do not know where it listens now).  When two links with one peer are open,
  both ends keep the one dialed by the later joiner (the newer one if the same peer dialed
  both), so they keep the same one.
* **Forwarding.**  A peer sends what it signs on every link.  It passes on every record it
  takes: REMOVEs, ENDs, VOTEs, HALTs and START to every other link (so a REMOVE always
  reaches a link before any ACK of it does), the rest (moves, ACKs, chat, pointing, draw
  offers) to spectators and to peers that say they have no link with the record's author.
  On a clocked table plies and ACKs go to every other link too: a peer's clock starts when
  the ply before is final there, so an ACK that comes late on a slow direct link (whose
  reports still say it hears the author) would charge the next mover the delay.
* **Presence.**  Every ``HEARTBEAT`` seconds, and when its links change, a peer sends
  ``presence`` on every link: the peers it has a link with and how long ago it heard from
  each.  Any frame from a peer is news of it (``Table.heard``); a report is news of the
  others (``Table.presence_report``) and says which links the reporter has.
* **Pulling.**  A peer that dials a peer after START, or whose table waits for records it
  lacks (``stalled``), sends ``pull`` ``{ply, digest}``: its last final ply and its chain
  digest there.  The answer is every record the other holds from that ply on (everything,
  START first, when the digest differs there: the asker is on another branch or has
  nothing).  Duplicates are dropped on arrival, so asking too much costs little.

Invariants: a link is never sent a record it sent us; records are passed on in the order
they were taken; a pull is answered at most once per ``PULL_SPACING`` per link.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TypedDict

from client.rules.records import (
    ACK,
    CHAIN_KINDS,
    CHAT,
    END,
    HALT,
    LEAVE,
    REMOVE,
    START,
    VOTE,
    SignedRecord,
)
from net.wire import Bytes, Int, ListOf, Schema, Struct, Text

__all__ = [
    "ADDRESSES",
    "ENDED",
    "HEARTBEAT",
    "PRESENCE",
    "PULL",
    "SCHEMAS",
    "Address",
    "AddressesBody",
    "HeardEntry",
    "Held",
    "Mesh",
    "PeerAddress",
    "PresenceBody",
    "PullBody",
    "addresses_body",
    "heard_keys",
    "pull_body",
    "read_addresses",
    "read_presence",
    "stalled",
]

PRESENCE = "presence"
ADDRESSES = "addresses"
PULL = "pull"
ENDED = "ended"
"""The peers the sender knows to hold every END (``client.rules.ending.EndHolders``)."""
HEARTBEAT = 2.0
"""Seconds between two presence reports on a link (DESIGN.md: heartbeats every 2 s)."""
RETRY_FIRST, RETRY_MAX = 0.5, 5.0
"""The pause before dialing a peer again after a failure: doubles from the first to the max."""
PULL_SPACING = 1.0
STALL_AFTER = 2.0
"""How long a table may wait for records it lacks before this peer pulls them."""

_KEY = Bytes(32)
SCHEMAS: Mapping[str, Schema] = {
    PRESENCE: Struct({"heard": ListOf(Struct({"key": _KEY, "ago": Int(0, 2**32 - 1)}), 0, 16)}),
    ADDRESSES: Struct(
        {
            "peers": ListOf(
                Struct({"key": _KEY, "address": Text(0, 64), "port": Int(0, 65535)}), 0, 16
            )
        }
    ),
    PULL: Struct({"ply": Int(0, 2**32 - 1), "digest": Bytes(32)}),
    ENDED: Struct({"keys": ListOf(_KEY, 0, 16)}),
}
"""The mesh's message topics and their schemas (docs/PROTOCOL.md section 15)."""

FLOODED = frozenset({REMOVE, END, VOTE, HALT, LEAVE, START})
"""Kinds passed on to every link: what must reach a link before any ACK of it (a REMOVE
replaces a ply somebody may hold; see docs/TABLE.md), and the rare records that decide the
table.  Moves go like ACKs: only where their author has no link."""

CLOCK_FLOODED = CHAIN_KINDS | {ACK}
"""Kinds passed on to every link as well on a clocked table (DESIGN.md §4 *Clocks*,
*Carrying*): every peer's clock starts from the ACKs of the ply before."""


@dataclass(frozen=True)
class Address:
    host: str
    port: int


class HeardEntry(TypedDict):
    """One link of a ``presence`` report: whose, and how long since this peer heard it (ms)."""

    key: bytes
    ago: int


class PresenceBody(TypedDict):
    """A ``presence`` message body, as ``SCHEMAS[PRESENCE]`` checks it."""

    heard: list[HeardEntry]


class PeerAddress(TypedDict):
    """One peer of an ``addresses`` body: its key and where it listens."""

    key: bytes
    address: str
    port: int


class AddressesBody(TypedDict):
    """An ``addresses`` message body, as ``SCHEMAS[ADDRESSES]`` checks it."""

    peers: list[PeerAddress]


class PullBody(TypedDict):
    """A ``pull`` message body, as ``SCHEMAS[PULL]`` checks it."""

    ply: int
    digest: bytes


def read_presence(body: PresenceBody) -> list[tuple[bytes, int]]:
    return [(item["key"], item["ago"]) for item in body["heard"]]


def read_addresses(body: AddressesBody) -> list[tuple[bytes, Address]]:
    return [
        (item["key"], Address(item["address"], item["port"]))
        for item in body["peers"]
        if item["address"] and item["port"]
    ]


def addresses_body(book: Mapping[bytes, Address]) -> AddressesBody:
    return {
        "peers": [
            {"key": key, "address": a.host[:64], "port": a.port}
            for key, a in list(book.items())[:16]
        ]
    }


def pull_body(ply: int, digest: bytes) -> PullBody:
    return {"ply": max(ply, 0), "digest": digest}


@dataclass
class _Dialing:
    tries: int = 0
    next_at: float = 0.0
    busy: bool = False


@dataclass
class Mesh:
    """One peer's view of the mesh (see the module docstring)."""

    me: bytes
    peers: tuple[bytes, ...] = ()
    """START's peers in order (empty before START)."""
    restarted: bool = False
    clocked: bool = False
    """START pins a clock: plies and ACKs go on to every link (``CLOCK_FLOODED``)."""
    book: dict[bytes, Address] = field(default_factory=dict)
    reports: dict[bytes, frozenset[bytes]] = field(default_factory=dict)
    """For each linked peer, the peers it says it hears directly (its links)."""
    _dialing: dict[bytes, _Dialing] = field(default_factory=dict)
    _announced: set[bytes] = field(default_factory=set)
    _answered: dict[object, float] = field(default_factory=dict)

    # --- addresses ------------------------------------------------------------------------
    def learn(self, key: bytes, address: Address, *, direct: bool = False) -> bool:
        """Note where ``key`` listens (``direct``: seen on a link with it, which wins over
        what others say).  Returns whether the book changed."""
        if key == self.me or not address.host or not address.port:
            return False
        if not direct and key in self._announced:
            return False
        if direct:
            self._announced.add(key)
        changed = self.book.get(key) != address
        self.book[key] = address
        if changed and key in self._dialing:
            self._dialing[key] = _Dialing()  # a new address: try it at once
        return changed

    def forget_direct(self, key: bytes) -> None:
        """The link with ``key`` closed: others may now tell where it went."""
        self._announced.discard(key)

    # --- dialing --------------------------------------------------------------------------
    def index(self, key: bytes) -> int:
        return self.peers.index(key) if key in self.peers else len(self.peers)

    def dials(self, key: bytes) -> bool:
        """Whether this peer is the one that dials ``key`` (the later joiner does)."""
        return self.index(self.me) > self.index(key) or self.restarted

    def to_dial(self, now: float, linked: Iterable[bytes]) -> list[tuple[bytes, Address]]:
        """The peers to dial now; each is marked busy until ``dial_ended``."""
        if self.me not in self.peers:
            return []
        have = set(linked)
        plan = []
        for key in self.peers:
            if key == self.me or key in have or key not in self.book or not self.dials(key):
                continue
            state = self._dialing.setdefault(key, _Dialing())
            if not state.busy and now >= state.next_at:
                state.busy = True
                plan.append((key, self.book[key]))
        return plan

    def dialing_state(self, key: bytes) -> _Dialing:
        """The dial record of ``key`` (a spectator redialing uses it too)."""
        return self._dialing.setdefault(key, _Dialing())

    def dial_ended(self, key: bytes, now: float, ok: bool) -> None:
        state = self._dialing.setdefault(key, _Dialing())
        state.busy = False
        if ok:
            state.tries, state.next_at = 0, now
        else:
            state.tries += 1
            pause = min(RETRY_FIRST * 2 ** (state.tries - 1), RETRY_MAX)
            state.next_at = now + pause

    def link_lost(self, key: bytes, now: float) -> None:
        """A link with ``key`` ended: dial it again soon (if this peer is the dialer)."""
        state = self._dialing.setdefault(key, _Dialing())
        state.next_at = max(state.next_at, now + RETRY_FIRST)
        self.reports.pop(key, None)
        self.forget_direct(key)

    def next_dial(self) -> float | None:
        times = [s.next_at for s in self._dialing.values() if not s.busy]
        return min(times, default=None)

    def keeps_first(self, first_dialer: bytes, second_dialer: bytes) -> bool:
        """Two open links with one peer, dialed by these peers (the second is newer):
        whether to keep the first.  Both ends decide alike."""
        if first_dialer == second_dialer:
            return False
        return self.index(first_dialer) > self.index(second_dialer)

    # --- forwarding -----------------------------------------------------------------------
    def report(self, sender: bytes, heard: Iterable[bytes]) -> None:
        self.reports[sender] = frozenset(heard)

    def passes_on(
        self, record: SignedRecord, runner: bytes | None, to: bytes, spectator: bool
    ) -> bool:
        """Whether a record taken from another link goes on to the link with ``to``."""
        if record.kind in FLOODED or spectator:
            return True
        if self.clocked and record.kind in CLOCK_FLOODED:
            return to != (runner or record.author)
        author = runner or record.author
        if to == author:
            return False
        return author not in self.reports.get(to, frozenset())

    def may_answer(self, link: object, now: float) -> bool:
        """At most one pull answered per link and ``PULL_SPACING``."""
        last = self._answered.get(link)
        if last is not None and now - last < PULL_SPACING:
            return False
        self._answered[link] = now
        return True


class Held:
    """Every record this peer holds, in the order it took them, with what a pull needs."""

    def __init__(self) -> None:
        self.envelopes: list[bytes] = []
        self.hashes: set[bytes] = set()
        self._plies: list[int | None] = []
        self._kinds: list[str] = []

    def __contains__(self, record_hash: object) -> bool:
        return record_hash in self.hashes

    def add(self, record: SignedRecord) -> None:
        """Keep ``record`` (once: a second copy is ignored)."""
        if record.record_hash in self.hashes:
            return
        self.hashes.add(record.record_hash)
        ply = record.body.get("ply") if hasattr(record.body, "get") else None
        self.envelopes.append(record.envelope)
        self._plies.append(ply if type(ply) is int else None)
        self._kinds.append(record.kind)

    def __len__(self) -> int:
        return len(self.envelopes)

    def answer(self, ply: int, same_branch: bool) -> list[bytes]:
        """What to send to a peer that asked from ``ply`` (everything when its chain is not
        this one there): plies after it, what else names it or a later ply, all chat."""
        if not same_branch:
            return list(self.envelopes)
        chosen = []
        for data, number, kind in zip(self.envelopes, self._plies, self._kinds, strict=True):
            if kind == CHAT:
                chosen.append(data)
            elif number is None or kind == START:
                continue
            elif number > ply or (number == ply and kind not in CHAIN_KINDS):
                chosen.append(data)
        return chosen


def stalled(waiting_since: float | None, now: float) -> bool:
    """Whether a table that has waited for missing records since ``waiting_since`` should
    pull them now."""
    return waiting_since is not None and now - waiting_since >= STALL_AFTER


def heard_keys(entries: Sequence[tuple[bytes, int]]) -> list[bytes]:
    return [key for key, _ago in entries]
