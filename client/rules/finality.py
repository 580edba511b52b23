"""Acks and finality: who signed which chain digest for which ply.

After applying ply n every peer signs ACK ``{ply, digest}``; ply n is **final** when every
peer still at the table (``TableState.peers`` after ply n) acked the chain digest this peer
computed.  Because chain digest n commits to every earlier ply, finality is a prefix: the
tracker reports plies final in order, and ply n+1 can only be final once n is.  A peer that
a REMOVE at ply r took off owes no ack for the plies before r once every remaining peer
acked ply r (it may have vanished before acking them).

A :class:`ClaimBook` keeps one claim per (ply, peer): for ACKs the chain digest, for ENDs
the digest and the result (``client.rules.ending``).  Invariants:

* the first claim a peer makes for a ply is the one kept; a second identical claim (a
  re-sent record) is harmless, a second different claim is reported as a conflict — an
  honest peer never claims two things for one ply;
* a peer's own claims go through :class:`OwnClaims`, which refuses (``LocalTableError``,
  our bug) to sign two different claims for one ply.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass

from client.rules.chain import TableState
from client.rules.errors import LocalTableError
from client.rules.records import SignedRecord

__all__ = ["Claim", "ClaimBook", "FinalityTracker", "OwnClaims"]


@dataclass(frozen=True)
class Claim:
    author: bytes
    ply: int
    value: Hashable
    record: SignedRecord


class ClaimBook:
    """The claims held, by ply then author."""

    def __init__(self) -> None:
        self._by_ply: dict[int, dict[bytes, Claim]] = {}

    def add(self, claim: Claim) -> Claim | None:
        """Keep ``claim``; return the author's earlier, *different* claim for that ply if any.

        When a conflict is returned the book still holds the earlier claim.
        """
        claims = self._by_ply.setdefault(claim.ply, {})
        earlier = claims.get(claim.author)
        if earlier is None:
            claims[claim.author] = claim
            return None
        return None if earlier.value == claim.value else earlier

    def get(self, ply: int, author: bytes) -> Claim | None:
        return self._by_ply.get(ply, {}).get(author)

    def claims(self, ply: int) -> tuple[Claim, ...]:
        return tuple(self._by_ply.get(ply, {}).values())

    def all_agree(self, ply: int, value: Hashable, peers: Iterable[bytes]) -> bool:
        """Whether every one of ``peers`` claimed ``value`` for ``ply``."""
        claims = self._by_ply.get(ply, {})
        return all(
            (claim := claims.get(peer)) is not None and claim.value == value for peer in peers
        )


class FinalityTracker:
    """The highest ply every peer at the table acked with this peer's chain digest."""

    def __init__(self) -> None:
        self.final_ply = -1
        """-1 until the genesis (ply 0) is final."""

    def advance(self, acks: ClaimBook, states: Sequence[TableState]) -> list[int]:
        """Plies that became final, in order (``states[i]`` is the state after ply i).

        A peer a REMOVE took off at ply r owes no ack for the plies before r once every
        remaining peer acked ply r: chain digest r commits to all of them."""
        excused: dict[bytes, int] = {}
        for ply in range(len(states) - 1, max(self.final_ply, 0), -1):
            state, before = states[ply], states[ply - 1]
            gone = set(before.peers) - set(state.peers)
            if gone and acks.all_agree(ply, state.chain_digest, state.peers):
                excused.update(dict.fromkeys(gone, ply))
        newly: list[int] = []
        while self.final_ply + 1 < len(states):
            state = states[self.final_ply + 1]
            owing = [p for p in state.peers if excused.get(p, -1) <= state.ply]
            if not acks.all_agree(state.ply, state.chain_digest, owing):
                break
            self.final_ply = state.ply
            newly.append(state.ply)
        return newly

    def step_back(self, head_ply: int) -> None:
        """After ``Chain.drop_head``: a dropped ply was never final (DESIGN.md, REMOVE)."""
        if self.final_ply > head_ply:
            raise LocalTableError(f"ply {self.final_ply} was final and cannot be dropped")


class OwnClaims:
    """What this peer signed per ply, so it never signs two different claims for one."""

    def __init__(self, what: str) -> None:
        self._what = what
        self._signed: dict[int, Hashable] = {}

    def should_sign(self, ply: int, value: Hashable) -> bool:
        """True the first time; False when this exact claim was signed already."""
        earlier = self._signed.get(ply)
        if earlier is None:
            self._signed[ply] = value
            return True
        if earlier != value:
            raise LocalTableError(f"this peer already signed another {self._what} for ply {ply}")
        return False
