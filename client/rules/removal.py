"""REMOVE: taking absent peers off the table, and what a vote for it binds.

A REMOVE ply (DESIGN.md section 4, "The chain") takes one or more peers that are away
(silent past the table's away timeout) or idle (owing a move or an ack past its idle
timeout) off the table.  Its body is ``{ply, prev, removed, replacements, votes}``:

* ``removed``: the peers taken off, none twice (this peer lists them in the table's order);
* ``replacements``: one ``{seat, key, runner}`` per seat the removed peers played (their own
  seats and the bot seats they ran; this peer lists them in seat order): a **new** bot key
  for the seat, run by the appender; and ``level``, the level of the bot that takes the
  seat, when the appender names it (a REMOVE before levels has none, and stays valid);
* ``votes``: a VOTE envelope of **every** peer that remains (the appender's own included),
  each binding this ``ply``, ``prev``, ``removed`` and ``replacements`` exactly.

The rule (``remove_rule``), checked against the state before the ply:

* the remaining peers are more than half of the peers (a 2–2 split removes nobody; a
  2-peer table cannot remove at all, it ends as abandoned instead: ``abandoned_outcome``);
* the author is the **appender**: the remaining peer that plays the lowest seat (itself or
  through a bot it runs);
* replacement keys are fresh: no key that signed or could sign at this table before;
* the votes verify and match the REMOVE field for field.

Its effect: the same engine state, the seats handed to the new bot keys, the peers without
the removed ones.  Everything here is a pure function of its arguments.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from client.rules.bodies import (
    KEY_SIZE,
    all_keys,
    read_bytes,
    read_digest,
    read_int,
    read_list,
    read_text,
)
from client.rules.chain import PlyContext, PlyEffect, TableState
from client.rules.consent import check_consents
from client.rules.errors import Malformed, PlyRejected
from client.rules.records import VOTE, SignedRecord
from client.rules.start import MAX_LEVEL, SeatSpec, TableStart
from engines import Outcome

__all__ = [
    "ABANDONED",
    "Proposal",
    "abandoned_outcome",
    "appender_of",
    "check_proposal",
    "leaves_majority",
    "read_proposal",
    "remove_rule",
    "seats_played_by",
    "used_keys",
]

ABANDONED = "abandoned"
"""The reason of the END a 2-peer table signs when the other peer stays away."""
MAX_REMOVED = 15


@dataclass(frozen=True)
class Proposal:
    """What a VOTE and its REMOVE bind: the position, who goes, and who takes the seats."""

    ply: int
    prev: bytes
    removed: tuple[bytes, ...]
    replacements: tuple[SeatSpec, ...]

    def body(self) -> dict[str, object]:
        """The fields a VOTE carries (a REMOVE adds ``votes``)."""
        return {
            "ply": self.ply,
            "prev": self.prev,
            "removed": list(self.removed),
            "replacements": [_replacement_body(s) for s in self.replacements],
        }

    @property
    def runner(self) -> bytes | None:
        """The appender named by the replacements (None when there are none)."""
        return self.replacements[0].runner if self.replacements else None


def _replacement_body(spec: SeatSpec) -> dict[str, object]:
    """A replacement's fields; ``level`` only when known (a REMOVE before levels had none)."""
    body: dict[str, object] = {"seat": spec.seat, "key": spec.key, "runner": spec.runner}
    if spec.level is not None:
        body["level"] = spec.level
    return body


def read_proposal(body: Mapping[str, object]) -> Proposal:
    """The proposal of a VOTE or REMOVE body (``Malformed`` on a bad field)."""
    listed = read_list(body, "removed", MAX_REMOVED)
    if not listed or not all_keys(listed):
        raise Malformed("field 'removed' must list 1 to 15 keys")
    replacements = []
    for item in read_list(body, "replacements", 64):
        if not isinstance(item, Mapping):
            raise Malformed("a replacement is not a map")
        key, runner = read_bytes(item, "key", KEY_SIZE), read_bytes(item, "runner", KEY_SIZE)
        if len(key) != KEY_SIZE or len(runner) != KEY_SIZE:
            raise Malformed("a replacement key or runner is not a 32-byte key")
        level = read_text(item, "level", MAX_LEVEL) if "level" in item else None
        replacements.append(SeatSpec(read_int(item, "seat", 1, 64), key, runner, level))
    return Proposal(
        read_int(body, "ply", 1), read_digest(body, "prev"), tuple(listed), tuple(replacements)
    )


def seats_played_by(state: TableState, peers: Iterable[bytes]) -> tuple[int, ...]:
    """Seats that ``peers`` play at ``state``: their own, and the bot seats they run."""
    group = set(peers)
    return tuple(spec.seat for spec in state.seats if spec.key in group or spec.runner in group)


def leaves_majority(peers: Sequence[bytes], removed: Iterable[bytes]) -> bool:
    """Whether the peers left after removing ``removed`` are more than half of ``peers``."""
    gone = set(removed)
    remaining = [p for p in peers if p not in gone]
    return 2 * len(remaining) > len(peers)


def appender_of(state: TableState, removed: Iterable[bytes]) -> bytes | None:
    """The remaining peer that plays the lowest seat: it appends the REMOVE and runs the bots."""
    gone = set(removed)
    best: tuple[int, int, bytes] | None = None
    for order, peer in enumerate(state.peers):
        if peer in gone:
            continue
        seats = seats_played_by(state, (peer,))
        rank = (min(seats) if seats else 1 << 20, order, peer)
        best = rank if best is None or rank < best else best
    return None if best is None else best[2]


def used_keys(start: TableStart, history: Sequence[TableState]) -> set[bytes]:
    """Every key that could sign at this table so far (peers, seats, earlier replacements)."""
    keys = set(start.peer_keys) | set(start.seat_keys)
    for state in history:
        keys.update(spec.key for spec in state.seats)
    return keys


def check_proposal(
    start: TableStart,
    before: TableState,
    history: Sequence[TableState],
    proposal: Proposal,
    author: bytes,
) -> str | None:
    """Why ``proposal`` by ``author`` cannot be a REMOVE after ``before``; None if it can."""
    if proposal.ply != before.ply + 1 or proposal.prev != before.chain_digest:
        return "it is for another position"
    removed = proposal.removed
    if len(set(removed)) != len(removed) or any(key not in before.peers for key in removed):
        return "it names a key twice, or one that is no peer at the table"
    if author in removed:
        return "its author removes itself"
    if not leaves_majority(before.peers, removed):
        left = len(before.peers) - len(removed)
        return f"it would leave {left} of {len(before.peers)} peers, not more than half"
    appender = appender_of(before, removed)
    if author != appender:
        who = "nobody" if appender is None else start.name_of(appender)
        return f"the remaining peer with the lowest seat appends it, which is {who}"
    seats = seats_played_by(before, removed)
    given = [s.seat for s in proposal.replacements]
    if sorted(given) != list(seats) or len(set(given)) != len(given):
        return f"it replaces seats {sorted(given)} but the removed peers played seats {list(seats)}"
    if any(s.runner != author for s in proposal.replacements):
        return "it has its bots run by another peer than the one that appends it"
    fresh = [s.key for s in proposal.replacements]
    if len(set(fresh)) != len(fresh) or set(fresh) & used_keys(start, history):
        return "it does not give each seat a new bot key"
    return None


def remove_rule(ctx: PlyContext, record: SignedRecord) -> PlyEffect:
    """The REMOVE ply rule (see the module docstring)."""
    who = ctx.describe(record.author)
    proposal = read_proposal(record.body)
    history = ctx.history[: ctx.before.ply + 1]
    problem = check_proposal(ctx.start, ctx.before, history, proposal, record.author)
    if problem is not None:
        raise PlyRejected(
            f"{who}'s REMOVE cannot be applied: {problem}; it was ignored", code="bad-remove"
        )
    remaining = tuple(p for p in ctx.before.peers if p not in set(proposal.removed))
    what = f"{who}'s REMOVE"
    envelopes = read_list(record.body, "votes", len(ctx.before.peers))
    for vote in check_consents(ctx, envelopes, frozenset({VOTE}), remaining, what):
        try:
            matches = read_proposal(vote.body) == proposal
        except Malformed:
            matches = False
        if not matches:
            raise PlyRejected(
                f"{what} carries a vote by {ctx.describe(vote.author)} for another "
                "removal; it was ignored",
                code="bad-remove",
            )
    new_seats = {spec.seat: spec for spec in proposal.replacements}
    seats = tuple(new_seats.get(spec.seat, spec) for spec in ctx.before.seats)
    names = ", ".join(ctx.start.name_of(key) for key in proposal.removed)
    taken = sorted(spec.seat for spec in proposal.replacements)
    label = f"{names} removed" + (f"; bots take seats {taken}" if taken else "")
    return PlyEffect(ctx.before.engine_state, label, None, seats, remaining)


def abandoned_outcome(
    start: TableStart,
    absent: Sequence[bytes],
    left: bool = False,
    name_of: Callable[[bytes], str] | None = None,
) -> Outcome:
    """The result of a 2-peer table whose other peer stayed away, or ``left`` on purpose (a
    LEAVE): no winner, no draw.  The summary is display text, never compared; the signed one
    names peers by key (``start.name_of``, the default), a player reads ``start.player_name``."""
    names = ", ".join((name_of or start.name_of)(key) for key in absent)
    why = "left the table" if left else "stayed away"
    return Outcome(
        winners=(),
        draw=False,
        reason=ABANDONED,
        summary=f"The table was abandoned: {names} {why}."[:200],
        scores=(),
    )
