"""Takeback by consent: undoing the last ply when it is the asker's own move.

A player whose own move is the last ply asks every peer to take it back (TAKEBACK_ASK,
outside the chain, signed with its own TAKEBACK_CONSENT); every peer that agrees signs a
TAKEBACK_CONSENT.  All of them bind ``{ply, prev}``: the number the TAKEBACK ply would have
and the chain digest it would follow, so they are void as soon as any other ply is
appended.  When the key that controls the seat to move holds a consent of every peer at the
table on the head, it appends the TAKEBACK ply ``{ply, prev, consents}`` (``Table`` does it
by itself, like a DRAW).

Invariants of an accepted TAKEBACK at ply n+1 (``takeback_rule``, else ``PlyRejected``):

* it is signed by the key that controls the seat to move, like a MOVE;
* ply n is a MOVE signed by a peer still at the table (a person's own move: never a bot's,
  a resignation, a REMOVE, nor a TAKEBACK — so a takeback never undoes across a takeback;
  after an END no ply is accepted at all);
* ``consents`` holds a TAKEBACK_CONSENT of every peer at the table, each binding this
  ``ply`` and ``prev`` (``client.rules.consent.check_consents``), the asker's among them;
* the engine state after it is exactly the state after ply n−1, taken from the chain's
  history; seats and peers do not change.  The chain keeps both records, and the chain
  digest goes on forward: H(chain digest n ‖ TAKEBACK's record hash ‖ engine digest of the
  restored state).

``TakebackBook`` keeps the asks and consents a table received, per position, bounded.  A
peer that consented, or whose person was asked and has not answered, **holds** its bots on
that position for ``HOLD`` seconds (so the
takeback is not overtaken by its own bot's move); a peer without a person (every seat it
signs played by a bot, ``--bot``) consents by itself to a valid ask on its head when its
bots agree (``client.bots.answers``), unless they already moved on — once the next ply is
appended the ask is void.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from client.rules.bodies import read_digest, read_int, read_list
from client.rules.chain import PlyContext, PlyEffect, TableState
from client.rules.consent import check_consents
from client.rules.errors import IntentRefused, Malformed, PlyRejected
from client.rules.records import MOVE, TAKEBACK, TAKEBACK_ASK, TAKEBACK_CONSENT, SignedRecord

__all__ = [
    "HOLD",
    "TAKEBACK_KINDS",
    "Pending",
    "TakebackBook",
    "ask_refusal",
    "refusal",
    "takeback_rule",
]

HOLD = 10.0
"""Seconds a peer that consented keeps its bots from moving on that position."""
MAX_KEPT_POSITIONS = 8
TAKEBACK_KINDS = frozenset({TAKEBACK_ASK, TAKEBACK_CONSENT})

Describe = Callable[[bytes], str]


def refusal(last: TableState, describe: Describe) -> str | None:
    """Why the ply of ``last`` (the head) cannot be taken back, or None if it can."""
    ply, record = last.ply, last.record
    if ply == 0:
        return "no ply has been played yet"
    if record.kind == TAKEBACK:
        return f"ply {ply} is a takeback, and a takeback is never taken back"
    if record.kind != MOVE:
        return f"ply {ply} is a {record.kind}: only a move can be taken back"
    if record.author not in last.peers:
        return (
            f"ply {ply} was played by {describe(record.author)}: only a player's own move "
            "can be taken back"
        )
    return None


def ask_refusal(last: TableState, asker: bytes, describe: Describe) -> str | None:
    """Why ``asker`` may not ask to take back the ply of ``last``, or None if it may."""
    why = refusal(last, describe)
    if why is None and last.record.author != asker:
        return f"ply {last.ply} was played by {describe(last.record.author)}, not by them"
    return why


def takeback_rule(ctx: PlyContext, record: SignedRecord) -> PlyEffect:
    """The ``PlyRule`` for TAKEBACK (see the module docstring)."""
    before = ctx.before
    who = ctx.describe(record.author)
    state = before.engine_state
    seat = ctx.engine.to_move(state)
    if seat is None:
        raise PlyRejected(
            f"{who} sent a takeback after the game ended; it was ignored", code="bad-takeback"
        )
    controller = ctx.engine.controller(state, seat)
    if record.author != before.seat_key(controller):
        turn = f"seat {seat}'s turn" + (
            f", played by seat {controller}" if controller != seat else ""
        )
        raise PlyRejected(
            f"{who} sent a takeback, but it is {turn}: only the player to move appends one; "
            "the takeback was ignored",
            code="bad-takeback",
        )
    why = refusal(before, ctx.describe)
    if why is not None:
        raise PlyRejected(
            f"{who} sent a takeback, but {why}; the takeback was ignored", code="bad-takeback"
        )
    envelopes = read_list(record.body, "consents", len(before.peers))
    what = f"{who}'s takeback of ply {before.ply}"
    check_consents(ctx, envelopes, frozenset({TAKEBACK_CONSENT}), before.peers, what)
    restored = ctx.history[before.ply - 1]
    return PlyEffect(restored.engine_state, f"ply {before.ply} taken back", seat)


@dataclass
class _Position:
    ask: SignedRecord | None = None
    consents: dict[bytes, SignedRecord] = field(default_factory=dict)
    held_until: float | None = None


@dataclass(frozen=True)
class Pending:
    """An ask on the head: who asked to take back which ply, and who consented so far."""

    ply: int
    """The ply to be taken back (the head's)."""
    asker: bytes
    consents: frozenset[bytes]
    missing: tuple[bytes, ...]
    """Peers at the table whose consent is still missing, in table order."""


class TakebackBook:
    """Asks and consents by position (the chain digest they follow), the first per author.

    Only the last ``MAX_KEPT_POSITIONS`` positions are kept: an older one can never be taken
    back again.  Nothing here judges an ask; ``Table`` checks it against the chain first.
    """

    def __init__(self) -> None:
        self._positions: dict[bytes, _Position] = {}

    @staticmethod
    def read(record: SignedRecord) -> tuple[int, bytes]:
        """``(ply, prev)`` of an ask or consent (``Malformed`` otherwise)."""
        if record.kind not in TAKEBACK_KINDS:
            raise Malformed(f"{record.kind} is no takeback ask or consent")
        return read_int(record.body, "ply", 1), read_digest(record.body, "prev")

    def add(self, record: SignedRecord, prev: bytes) -> bool:
        """Keep ``record``; False when its author had already said the same there."""
        position = self._position(prev)
        if record.kind == TAKEBACK_ASK:
            if position.ask is not None:
                return False
            position.ask = record
            return True
        if record.author in position.consents:
            return False
        position.consents[record.author] = record
        return True

    def _position(self, prev: bytes) -> _Position:
        if prev not in self._positions and len(self._positions) >= MAX_KEPT_POSITIONS:
            del self._positions[next(iter(self._positions))]
        return self._positions.setdefault(prev, _Position())

    def consents_on(self, prev: bytes) -> Mapping[bytes, SignedRecord]:
        position = self._positions.get(prev)
        return {} if position is None else position.consents

    def ask_on(self, prev: bytes) -> SignedRecord | None:
        position = self._positions.get(prev)
        return None if position is None else position.ask

    def pending(self, head: TableState) -> Pending | None:
        """The ask on the head, if any."""
        ask = self.ask_on(head.chain_digest)
        if ask is None:
            return None
        consents = self.consents_on(head.chain_digest)
        missing = tuple(peer for peer in head.peers if peer not in consents)
        return Pending(head.ply, ask.author, frozenset(consents), missing)

    def ready(self, head: TableState) -> list[bytes] | None:
        """The consent envelopes a TAKEBACK on the head carries, once every peer gave one."""
        consents = self.consents_on(head.chain_digest)
        if not head.peers or any(peer not in consents for peer in head.peers):
            return None
        return [consents[peer].envelope for peer in head.peers]

    # --- holding bots ------------------------------------------------------------------------
    def hold(self, prev: bytes, until: float) -> None:
        self._position(prev).held_until = until

    def held_until(self, prev: bytes, now: float) -> float | None:
        """When this peer's bots may move again on ``prev``, if they are held now."""
        position = self._positions.get(prev)
        if position is None or position.held_until is None or position.held_until <= now:
            return None
        return position.held_until

    # --- intents --------------------------------------------------------------------------
    def ask_position(self, head: TableState, me: bytes, describe: Describe) -> dict[str, object]:
        """The ``{ply, prev}`` this peer's ask binds now (``IntentRefused`` saying why not)."""
        why = refusal(head, describe)
        if why is not None:
            raise IntentRefused(f"nothing to take back: {why}")
        if head.record.author != me:
            raise IntentRefused(
                f"ply {head.ply} was played by {describe(head.record.author)}: you can only "
                "ask to take back your own move"
            )
        if self.ask_on(head.chain_digest) is not None:
            raise IntentRefused(f"you already asked to take back ply {head.ply}")
        return {"ply": head.ply + 1, "prev": head.chain_digest}

    def consent_position(self, head: TableState, me: bytes) -> dict[str, object]:
        """The ``{ply, prev}`` this peer's consent binds now (``IntentRefused``)."""
        if self.ask_on(head.chain_digest) is None:
            raise IntentRefused(f"nobody asked to take back ply {head.ply}")
        if me in self.consents_on(head.chain_digest):
            raise IntentRefused(f"you already agreed to take back ply {head.ply}")
        return {"ply": head.ply + 1, "prev": head.chain_digest}
