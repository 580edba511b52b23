"""The REMOVE ply as DESIGN.md section 4 states it, for the verifier until the table has one.

The removal issue adds REMOVE to ``client.plies.PLY_RULES``; when it does, the verifier uses
that rule (one source of truth) and this one is no longer consulted
(``client.verifier.verifier_rules``).  Until then this rule lets ``palabre verify`` check
REMOVE records as the design states them:

* ``removed``: distinct keys of peers still at the table;
* the remaining peers are **more than half** of the peers (a 2–2 split removes nobody; a
  2-peer table cannot remove and ends as abandoned instead);
* ``votes``: VOTE records of **every remaining peer** (every peer but the removed ones),
  each binding this ``ply`` and ``prev`` and the same ``removed`` and ``replacements``;
* ``replacements``: exactly one per seat a removed peer signed or ran a bot for, each a new
  bot key (no key ever at the table, no two alike) run by the remaining peer that signs the
  lowest seat — palabre's reading of "the remaining peer with the lowest seat": the lowest
  seat signed by that peer's own key or by a bot it runs;
* the REMOVE is signed by that same peer (its peer key);
* the engine state does not change; the seats and the peers do.

Dropping the absent peer's unacked head record is the verifier's business
(``client.verifier``), not a rule's: a rule only judges a record against the state before it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from client.bodies import KEY_SIZE, Malformed, read_int, read_list
from client.chain import PlyContext, PlyEffect, PlyRejected
from client.consent import check_consents
from client.records import VOTE, SignedRecord, key_label
from client.start import SeatSpec

__all__ = ["check_remove", "read_keys", "read_replacements"]

MAX_PEERS = 16
MAX_SEATS = 64


def read_keys(body: Any, name: str) -> tuple[bytes, ...]:
    keys = read_list(body, name, MAX_PEERS - 1)
    if not all(type(key) is bytes and len(key) == KEY_SIZE for key in keys):
        raise Malformed(f"field {name!r} holds something other than keys")
    return tuple(keys)


def read_replacements(body: Any) -> tuple[SeatSpec, ...]:
    items = read_list(body, "replacements", MAX_SEATS)
    specs = []
    for item in items:
        seat = read_int(item, "seat", 1, MAX_SEATS)
        key, runner = item.get("key"), item.get("runner")
        if not all(type(k) is bytes and len(k) == KEY_SIZE for k in (key, runner)):
            raise Malformed("a replacement's key or runner is not a key")
        specs.append(SeatSpec(seat, key, runner))
    return tuple(specs)


def _appender(seats: Sequence[SeatSpec], remaining: Sequence[bytes]) -> bytes:
    """The remaining peer that signs the lowest seat, itself or through a bot it runs."""
    for spec in seats:  # in seat order
        peer = spec.key if spec.runner is None else spec.runner
        if peer in remaining:
            return peer
    raise PlyRejected("no remaining peer plays a seat", code="bad-remove")


def check_remove(ctx: PlyContext, record: SignedRecord) -> PlyEffect:
    """A ``PlyRule`` for REMOVE (see the module docstring)."""
    before = ctx.before
    who = ctx.describe(record.author)
    what = f"{who}'s REMOVE"
    removed = read_keys(record.body, "removed")
    replacements = read_replacements(record.body)
    if not removed or len(set(removed)) != len(removed):
        raise PlyRejected(
            f"{what} names no peer, or one peer twice; it was ignored", code="bad-remove"
        )
    for key in removed:
        if key not in before.peers:
            raise PlyRejected(
                f"{what} removes {ctx.describe(key)}, who is not at the table; it was ignored",
                code="bad-remove",
            )
    remaining = tuple(peer for peer in before.peers if peer not in removed)
    if 2 * len(remaining) <= len(before.peers):
        raise PlyRejected(
            f"{what} would leave {len(remaining)} of {len(before.peers)} peers, not more than "
            "half; it was ignored",
            code="bad-remove",
        )
    appender = _appender(before.seats, remaining)
    if record.author != appender:
        raise PlyRejected(
            f"{what} is not appended by {ctx.describe(appender)}, the remaining peer with the "
            "lowest seat; it was ignored",
            code="bad-remove",
        )
    lost = {
        spec.seat
        for spec in before.seats
        if spec.key in removed or (spec.runner is not None and spec.runner in removed)
    }
    given = [spec.seat for spec in replacements]
    if sorted(given) != sorted(lost):
        raise PlyRejected(
            f"{what} replaces seats {sorted(given)} but the removed peers played seats "
            f"{sorted(lost)}; it was ignored",
            code="bad-remove",
        )
    used = set(ctx.start.peer_keys) | {spec.key for state in ctx.history for spec in state.seats}
    new_keys = [spec.key for spec in replacements]
    if len(set(new_keys)) != len(new_keys) or used & set(new_keys):
        raise PlyRejected(
            f"{what} does not give each seat a new bot key; it was ignored", code="bad-remove"
        )
    if any(spec.runner != appender for spec in replacements):
        raise PlyRejected(
            f"{what} has its bots run by another peer than {who}; it was ignored", code="bad-remove"
        )
    votes = read_list(record.body, "votes", MAX_PEERS)
    for vote in check_consents(ctx, votes, frozenset({VOTE}), remaining, what):
        if (
            read_keys(vote.body, "removed") != removed
            or read_replacements(vote.body) != replacements
        ):
            raise PlyRejected(
                f"{what} carries a vote by {ctx.describe(vote.author)} for another removal; "
                "it was ignored",
                code="bad-remove",
            )
    by_seat = {spec.seat: spec for spec in replacements}
    seats = tuple(by_seat.get(spec.seat, spec) for spec in before.seats)
    names = ", ".join(f"peer {key_label(key)}" for key in removed)
    label = f"{names} removed" + (f"; bots take seats {sorted(lost)}" if lost else "")
    return PlyEffect(before.engine_state, label, None, seats=seats, peers=remaining)
