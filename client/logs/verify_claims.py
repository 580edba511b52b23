"""ACKs, ENDs and finality, judged once the whole chain is replayed (``client.logs.verifier``).

Claims are collected in file order and judged at the end against the replayed chain, so a
REMOVE that dropped a record does not make the removed peer's ACK of that record an error.

* An ACK ``{ply, digest}`` must name a ply of the chain, be signed by a peer at the table
  after that ply, and carry the replayed chain digest; a peer's first claim for a ply is
  the one that counts and a second, different one is a double claim (as at the table,
  ``client.rules.finality``).  A removed peer's claims about plies from its removal on are
  ignored: the REMOVE took it off the table.
* Ply n is **final** when every peer at the table after ply n acked the replayed chain
  digest n; finality is a prefix, as at the table.  As at the table (``client.rules.finality``),
  a peer that a REMOVE at ply r took off owes no ACK for the plies before r once every
  remaining peer acked ply r: chain digest r commits to them, and a vanished peer could not.
* An END ``{ply, digest, result}`` must carry the chain digest of the last ply and the
  engine's outcome there (winners, draw, reason, scores; ``summary`` is display text and is
  not compared), with ``absent`` empty — except for an **abandoned** table: an END whose
  ``absent`` names peers that could not be removed because the others were not more than
  half of the table (a 2-peer table), reason ``abandoned``, signed by a peer not absent,
  on the last ply of a game the engine has not finished.  Its winners cannot be checked
  against the engine; every remaining peer must sign the same result.  Finality then
  counts only the peers not absent.
* The log is complete when the game is over (or abandoned), every ply is final, and every
  peer at the table (not absent) signed a matching END.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Hashable, Mapping
from typing import Generic, Protocol, TypeVar

from client.logs.verify_report import INCOMPLETE, INVALID
from client.rules.chain import Chain
from client.rules.ending import ResultClaim, read_result, result_claim
from client.rules.errors import Malformed
from client.rules.records import ACK, SignedRecord
from engines import Outcome

__all__ = ["ClaimJudge"]

ABANDONED = "abandoned"


class _Entry(Protocol):
    number: int


E = TypeVar("E", bound=_Entry)
"""The verifier's log entry a claim came in (``client.logs.verifier.Entry``)."""

Finding = tuple[str, str, str, int | None, E | None]
"""(code, severity, reason, ply, the entry concerned or None): a problem as ``Problem``
reports it."""


class ClaimJudge(Generic[E]):
    """Collects ACK and END records, then judges them against the chain (``judge``)."""

    def __init__(
        self, chain: Chain, describe: Callable[[bytes], str], removed_at: Mapping[bytes, int]
    ) -> None:
        self.chain = chain
        self.describe = describe
        self.removed_at = removed_at
        self._claims: list[tuple[SignedRecord, E]] = []
        self._acks: dict[tuple[int, bytes], bytes] = {}
        self._ends: dict[bytes, ResultClaim] = {}
        self._found: list[Finding[E]] = []
        self.final_ply = -1
        self.result: Outcome | None = None
        self.absent: tuple[bytes, ...] = ()
        self.ended = False

    def add(self, record: SignedRecord, entry: E) -> None:
        self._claims.append((record, entry))

    def _invalid(self, code: str, reason: str, ply: int | None, entry: E | None) -> None:
        self._found.append((code, INVALID, reason, ply, entry))

    def judge(self) -> list[Finding[E]]:
        """Every problem with the claims, finality and the end (call once)."""
        books: dict[tuple[str, int, bytes], tuple[Hashable, E]] = {}
        abandoned: list[tuple[Outcome, tuple[bytes, ...], bytes]] = []
        for record, entry in self._claims:
            self._judge_one(record, entry, books, abandoned)
        if abandoned:
            outcome, absent, _ = abandoned[0]
            self.result, self.absent = outcome, absent
        self._finality()
        self._ending()
        return self._found

    def _judge_one(
        self,
        record: SignedRecord,
        entry: E,
        books: dict[tuple[str, int, bytes], tuple[Hashable, E]],
        abandoned: list[tuple[Outcome, tuple[bytes, ...], bytes]],
    ) -> None:
        kind = record.kind

        def who() -> str:  # named only when something is wrong: most claims are fine
            return self.describe(record.author)

        ply, digest = int(record.body["ply"]), bytes(record.body["digest"])
        head = self.chain.head
        if ply > head.ply:
            self._invalid(
                "claim-beyond-log",
                f"{who()}'s {kind} is for ply {ply}, which this log does not hold",
                ply,
                entry,
            )
            return
        state = self.chain.at(ply)
        if record.author not in state.peers:
            gone = self.removed_at.get(record.author)
            if gone is None or gone > ply:
                self._invalid(
                    "not-at-table",
                    f"{who()} is not a peer at ply {ply} and may not sign a {kind}",
                    ply,
                    entry,
                )
            return  # a removed peer's late word about the ply its REMOVE replaced
        value: Hashable = digest
        claimed: tuple[Outcome, tuple[bytes, ...]] | None = None
        if kind != ACK:
            try:
                claimed = read_result(record.body["result"])
            except Malformed as error:
                self._invalid("malformed", f"{who()}'s END is malformed: {error}", ply, entry)
                return
            value = (digest, result_claim(*claimed))
        earlier = books.setdefault((kind, ply, record.author), (value, entry))
        if earlier[0] != value:
            first = getattr(earlier[1], "number", "?")
            self._invalid(
                "double-claim",
                f"{who()} signed two different {kind}s for ply {ply}: records {first} and "
                f"{entry.number}",
                ply,
                entry,
            )
            return
        if earlier[1] is not entry:
            return  # the same claim again (a HALT carrying it)
        if kind == ACK:
            self._acks[(ply, record.author)] = digest
        if digest != state.chain_digest:
            self._invalid(
                "wrong-digest",
                f"{who()} signed another chain digest for ply {ply} than the replay of this log "
                f"gives ({kind} {digest[:4].hex()}…, replay {state.chain_digest[:4].hex()}…)",
                ply,
                entry,
            )
            return
        if claimed is not None:
            self._judge_end(record, entry, ply, claimed, abandoned)

    def _judge_end(
        self,
        record: SignedRecord,
        entry: E,
        ply: int,
        claimed: tuple[Outcome, tuple[bytes, ...]],
        abandoned: list[tuple[Outcome, tuple[bytes, ...], bytes]],
    ) -> None:
        who = self.describe(record.author)
        state = self.chain.at(ply)
        outcome, absent = claimed
        engine = self.chain.engine
        given = engine.outcome(state.engine_state)
        if absent:
            reason = self._abandon_fault(record.author, ply, outcome, absent, given is not None)
            if (
                reason is None
                and abandoned
                and result_claim(*claimed) != result_claim(abandoned[0][0], abandoned[0][1])
            ):
                reason = "another abandoned result than the first END"
            if reason is not None:
                self._invalid(
                    "bad-abandon",
                    f"{who}'s END says the table was abandoned, but {reason}",
                    ply,
                    entry,
                )
                return
            abandoned.append((outcome, absent, record.author))
        elif given is None:
            self._invalid(
                "end-not-over",
                f"{who} signed END for ply {ply}, but the game is not over there",
                ply,
                entry,
            )
            return
        elif result_claim(given) != result_claim(outcome):
            self._invalid(
                "wrong-result",
                f"{who}'s END says {_words(outcome)}, but the engine gives {_words(given)}",
                ply,
                entry,
            )
            return
        self._ends[record.author] = result_claim(*claimed)

    def _abandon_fault(
        self,
        author: bytes,
        ply: int,
        outcome: Outcome,
        absent: tuple[bytes, ...],
        over: bool,
    ) -> str | None:
        state = self.chain.at(ply)
        remaining = [peer for peer in state.peers if peer not in absent]
        if outcome.reason != ABANDONED:
            return f"its reason is {outcome.reason!r}, not {ABANDONED!r}"
        if over:
            return "the game was over there"
        if ply != self.chain.head.ply:
            return f"the chain goes on after ply {ply}"
        if len(set(absent)) != len(absent) or not set(absent) <= set(state.peers):
            return "it names as absent someone who is not a peer at the table"
        if author in absent:
            return "its author names itself absent"
        if 2 * len(remaining) > len(state.peers):
            return "the peers left were more than half and should have removed the absent ones"
        return None

    # --- finality and the end ---------------------------------------------------------------
    def _finality(self) -> None:
        absent = set(self.absent)
        states = self.chain.states
        excused: dict[bytes, int] = {}
        for before, state in itertools.pairwise(states):
            gone = set(before.peers) - set(state.peers)
            acked = all(
                self._acks.get((state.ply, peer)) == state.chain_digest
                for peer in state.peers
                if peer not in absent
            )
            if gone and acked:
                for peer in gone:
                    excused.setdefault(peer, state.ply)
        for state in states:
            missing = [
                peer
                for peer in state.peers
                if peer not in absent
                and excused.get(peer, -1) <= state.ply
                and self._acks.get((state.ply, peer)) != state.chain_digest
            ]
            if missing:
                head = self.chain.head.ply
                after = head - state.ply
                rest = (
                    ""
                    if not after
                    else "; neither is the ply after it"
                    if after == 1
                    else f"; neither are the {after} plies after it"
                )
                names = ", ".join(self.describe(peer) for peer in missing)
                self._found.append(
                    (
                        "not-final",
                        INCOMPLETE,
                        f"ply {state.ply} is not final: no ACK of its chain digest from {names}"
                        + rest,
                        state.ply,
                        None,
                    )
                )
                return
            self.final_ply = state.ply

    def _ending(self) -> None:
        head = self.chain.head
        if self.result is None:
            self.result = self.chain.engine.outcome(head.engine_state)
        if self.result is None:
            self._found.append(
                (
                    "not-over",
                    INCOMPLETE,
                    f"the game is not over: the log stops after ply {head.ply}",
                    head.ply,
                    None,
                )
            )
            return
        expected = result_claim(self.result, self.absent)
        missing = [
            peer
            for peer in head.peers
            if peer not in self.absent and self._ends.get(peer) != expected
        ]
        if missing:
            names = ", ".join(self.describe(peer) for peer in missing)
            self._found.append(("no-end", INCOMPLETE, f"no END from {names}", head.ply, None))
        self.ended = not missing and self.final_ply == head.ply


def _words(outcome: Outcome) -> str:
    winners = ", ".join(map(str, outcome.winners)) or "none"
    scores = f", scores {list(outcome.scores)}" if outcome.scores else ""
    draw = "a draw" if outcome.draw else f"winners {winners}"
    return f"{draw} ({outcome.reason}{scores})"
