"""What every part of a ``Table`` shares: its state, what it reads, how it signs and records.

``TableLedger`` is the shared state of ``client.tabletop.table.Table``: each part
(``client.tabletop.table_halt``, ``client.tabletop.table_removals``,
``client.tabletop.table_claims``, ``client.tabletop.table_outside``,
``client.tabletop.table_intents``) is given it in its constructor, and ``client.tabletop.table``
holds it with the entry points, the loop, the route table and the plies.  It holds the read-only
views (``head``, ``live``, ``next_deadline`` ...) and the primitives every part signs and records
through:

* ``sign`` is the only way a local key signs: the record is sent and fed back into this
  table's own inbox, so this peer's records go through exactly the checks of everyone's;
* ``accept`` logs (and journals) a record once, never during a replay of the log;
* ``reject`` keeps a refused record as ``Evidence`` — and raises ``LocalTableError``
  if the record is this peer's own (that would be our bug);
* ``buffer`` holds an early record in the inbox (``client.tabletop.table_inbox``), or tells it was
  dropped.

Local keys act only when ``live()``: seated, genesis final, no halt, no outcome, no vote
freezing the head, not replaying.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from client.bots import Bot
from client.bots.clock_budget import Budget, budget
from client.rules.ballot import Ballot
from client.rules.chain import Chain, TableState, describe_key
from client.rules.clock_history import clocks_now
from client.rules.divergence import Divergence, Evidence
from client.rules.errors import LocalTableError, PlyRejected
from client.rules.finality import ClaimBook, FinalityTracker, OwnClaims
from client.rules.halting import state_view
from client.rules.records import REMOVE, EnvelopeOpener, SignedRecord, Signer
from client.rules.takeback import TakebackBook
from client.tabletop.events import Output, RecordDropped, RecordIgnored, TableRejected
from client.tabletop.outside import OutsideLog
from client.tabletop.presence import Debts, Presence
from client.tabletop.seating import LocalSeats
from client.tabletop.table_clock import ClockDisplay, TableClock
from client.tabletop.table_inbox import TableInbox

BotFactory = Callable[[int, int], tuple[Signer, Bot | None]]
"""``(seat, ply) -> (signer, bot)``: the new bot key (and its bot) this peer runs for
``seat`` when a REMOVE at ``ply`` hands it the seat.  The same arguments must give the same
key again after a restart (``net.identity`` bot keys named after the table, seat and ply)."""


class TableLedger:
    """The state and primitives the parts of ``client.tabletop.table.Table`` share."""

    def __init__(
        self,
        chain: Chain,
        local: LocalSeats,
        me: bytes | None,
        opener: EnvelopeOpener,
        journal: Callable[[SignedRecord], None] | None,
    ) -> None:
        """``chain`` holds START and the engine; ``local`` the keys this peer signs with
        (``client.tabletop.table.Table`` says what each argument means)."""
        self.start, self.engine, self.chain = chain.start, chain.engine, chain
        self.me = me
        self.local = local
        self.outside = OutsideLog()
        self.takebacks = TakebackBook()
        self.acks = ClaimBook()
        self.ends = ClaimBook()
        self.finality = FinalityTracker()
        self.clock = (
            None if self.start.clock is None else TableClock(self.start.clock, chain, self.acks)
        )
        """The clock of a clocked table (``client.tabletop.table_clock``), else None."""
        if self.clock is not None:
            local.budget_of = self._bot_budget
        self.rejected: list[Evidence] = []
        self.divergence: Divergence | None = None
        self.ended = False
        self.abandoned: tuple[int, tuple[bytes, ...]] | None = None
        """``(ply, absent peers)`` once a 2-peer table ended as abandoned."""
        self.left: dict[bytes, int] = {}
        """The peers that left on purpose (a LEAVE, ``client.tabletop.table_leaving``), with
        the ply each left at: removable at once, and never seated again."""
        self.presence = Presence(self.start.peer_keys, me, 0.0, away=self.start.away_ms / 1000)
        self.idle_after = self.start.idle_ms / 1000
        self.ballot = Ballot(me)
        self.debts = Debts()
        self.runners: dict[bytes, bytes] = {
            key: runner for key in self.start.seat_keys if (runner := self.start.runner_of(key))
        }
        self.replaying = False
        self.replayed: set[bytes] = set()
        self.opener = opener
        self.journal = journal
        self.own_acks = OwnClaims("ACK")
        self.own_ends = OwnClaims("END")
        self.own: set[bytes] = set()
        self.progress_at = 0.0
        self.inbox = TableInbox(self.start.record)
        self.out = Output()
        self.now = 0.0
        self.begun = False

    # --- reading --------------------------------------------------------------------------
    @property
    def head(self) -> TableState:
        return self.chain.head

    @property
    def final_ply(self) -> int:
        return self.finality.final_ply

    @property
    def halted(self) -> bool:
        return self.divergence is not None

    @property
    def evidence(self) -> Evidence | None:
        return None if self.divergence is None else self.divergence.evidence()

    def describe(self, key: bytes) -> str:
        """``peer K3QF-7XZA… (Ann)`` or ``the bot of seat 3 run by peer ...``."""
        return describe_key(self.start, self.chain.head.seats, key)

    def runner_of(self, key: bytes) -> bytes | None:
        """The peer that speaks for ``key``: itself for a peer, the runner for a bot key
        (new bot keys of REMOVEs included); None for a key never seen at this table."""
        return self.runners.get(key)

    @property
    def seated(self) -> bool:
        """Whether this peer is still at the table (not a spectator, not removed, not left)."""
        return self.me is not None and self.me in self.chain.head.peers and self.me not in self.left

    def removed_me_at(self, ply: int) -> bool:
        """Whether ply ``ply`` (a REMOVE) took this peer off the table."""
        me, chain = self.me, self.chain
        return me is not None and me in chain.at(ply - 1).peers and me not in chain.at(ply).peers

    def has_left(self, key: bytes) -> bool:
        """Whether peer ``key`` left on purpose (its LEAVE came: a LEAVE is final)."""
        return key in self.left

    @property
    def absent_left(self) -> bool:
        """The table was abandoned and every absent peer left on purpose (a LEAVE)."""
        absent = () if self.abandoned is None else self.abandoned[1]
        return bool(absent) and all(key in self.left for key in absent)

    def live(self, *, answering: bool = False) -> bool:
        """Whether local keys may sign plies now (``answering``: a consent or an acceptance
        outside the chain, which a clocked table's head need not be final for: the bot peer
        asked to take back or draw answers when the ask comes, as it does at any table)."""
        return (
            self.seated
            and not self.replaying
            and not self.halted
            and not self.ended
            and self.finality.final_ply >= 0
            and self.chain.outcome() is None
            and not self.ballot.frozen(self.chain.head)
            and (
                answering
                or self.clock is None
                or self.clock.may_sign_after(self.finality.final_ply)
            )
        )

    def open_for_removals(self) -> bool:
        """Whether removals (votes, REMOVE, an abandoned END) can still happen here."""
        return (
            self.seated
            and not self.halted
            and not self.ended
            and not self.replaying
            and self.chain.outcome() is None
        )

    def present(self, key: bytes) -> bool:
        """Whether peer ``key`` is at the table and not shown away (as of the last call)."""
        return (
            key in self.chain.head.peers
            and key not in self.left
            and not self.presence.shown_away(key, self.now)
        )

    def removable(self, key: bytes, now: float) -> bool:
        """Whether peer ``key`` left (a LEAVE), or is away past the away timeout or idle past
        the idle timeout."""
        if key in self.left or self.presence.away(key, now):
            return True
        owed = self.owed_since(key)  # time this peer was cut off does not count (presence)
        if owed is not None and self.presence.sighted(owed, now) >= self.idle_after:
            return True
        return self.stalled(key, now)

    def stalled(self, key: bytes, now: float) -> bool:
        """On a clocked table: ``key`` has owed an ACK for the stall timeout, or is to move
        with its seat's clock past its limit for that long (as measured here)."""
        if self.clock is None:
            return False
        due = self.stall_due(key, now)
        return due is not None and due <= now

    def stall_due(self, key: bytes, now: float) -> float | None:
        """When ``key`` becomes removable by the clocked stall rule if nothing changes."""
        if self.clock is None:
            return None
        span = self.clock.spec.ack_ms / 1000
        times = [self.presence.due(self.debts.ack_owed_since(key, self.chain.head.ply), span, now)]
        if key == self.mover():
            limit = self.clock.limit_at(now)
            over = self.clock.overdue(now)
            if limit is not None:
                times.append(limit + span)
            elif over is not None:
                times.append(now + (self.clock.spec.ack_ms - over[1]) / 1000)
        return min((t for t in times if t is not None), default=None)

    def clocks(self, now: float) -> ClockDisplay | None:
        """The clocks to show at ``now`` (``client.tabletop.table_view``), or None."""
        if self.clock is None:
            return None
        live = self.begun and not self.ended  # an ended table's clocks stand still
        return self.clock.display(now if live else self.now)

    def _bot_budget(self, seat: int) -> Budget | None:
        """What the bot of ``seat`` may spend on its move (``client.bots.clock_budget``), from
        its clock as the chain stands (the same all through its turn)."""
        clocks = clocks_now(self.chain)
        if clocks is None or self.clock is None:
            return None
        return budget(clocks.of(seat), self.clock.spec.increment_ms)

    def held_until(self) -> float | None:
        """Until when this peer's bots wait on the head for a takeback (``HOLD`` after an
        ask, ``client.rules.takeback``), None if they do not.  On a clocked table the clock
        of the seat to move runs meanwhile: its bot waits no longer in all than its budget
        lets it wait before moving (``client.bots.clock_budget``), then plays on."""
        head = self.chain.head
        held = self.takebacks.held_until(head.chain_digest, self.now)
        if held is None or self.clock is None:
            return held
        running, ran = self.clock.running(), self.clock.running_for(self.now)
        spend = None if running is None else self._bot_budget(running[0])
        if spend is None or ran is None:
            return held
        # the bot's own delay comes after the hold: both together within its budget
        ends = self.now - ran / 1000 + spend.max_delay - self.local.bot_wait(spend)
        return min(held, ends) if ends > self.now else None

    def stop_on_time(self) -> None:
        """A seat this peer signs for whose clock ran past its limit, as measured here,
        resigns: its player's time ran out (the verdict will say so too)."""
        if self.clock is None or not self.live():
            return
        over = self.clock.overdue(self.now)
        if over is not None:
            self.local.resign_on_time(self.chain.head, over[0])

    def owed_since(self, key: bytes) -> float | None:
        return self.debts.owed_since(key, self.chain.head.ply, self.mover())

    def mover(self) -> bytes | None:
        """The peer that signs the next ply (for itself or a bot it runs), if any."""
        head = self.chain.head
        seat = self.engine.to_move(head.engine_state)
        if seat is None:
            return None
        return self.runner_of(head.seat_key(self.engine.controller(head.engine_state, seat)))

    @property
    def waiting_since(self) -> float | None:
        """Since when this table has waited for records it lacks: records held for a ply
        it has not reached, or plies applied but not final with no progress since (the mesh
        pulls after a while, ``client.node.mesh.stalled``).  None when it waits for nothing."""
        times = []
        if self.inbox.waiting:
            times.append(self.inbox.early_since)
        if self.finality.final_ply < self.chain.head.ply and not self.halted:
            times.append(self.progress_at)
        return min(times, default=None)

    def next_deadline(self, presence: bool = True) -> float | None:
        """When ``tick`` should next be called (a bot's delayed move, the end of a takeback
        hold; with ``presence``, also when a peer may be shown away or become removable),
        or None."""
        times = []
        if self.live():
            head = self.chain.head
            held = self.held_until()
            times.append(held if held is not None else self.local.deadline(head.ply))
        if presence and not self.halted and not self.ended and self.chain.outcome() is None:
            times.append(self.presence.next_change(self.now))
            if self.open_for_removals():
                for peer in self.chain.head.peers:
                    owed = self.owed_since(peer) if peer != self.me else None
                    due = self.presence.due(owed, self.idle_after, self.now)
                    if due is not None and due > self.now:
                        times.append(due)
                    stall = self.stall_due(peer, self.now) if peer != self.me else None
                    if stall is not None and stall > self.now:
                        times.append(stall)
        clock = self.clock
        if clock is not None and self.live():
            running = clock.running()  # this peer's own seat runs out of time
            if running is not None and self.local.signs_with(self.chain.head.seat_key(running[0])):
                times.append(clock.limit_at(self.now))
        return min((t for t in times if t is not None), default=None)

    # --- signing and recording ------------------------------------------------------------
    def sign(self, signer: Signer, kind: str, body: Mapping[str, object]) -> None:
        record = signer.sign(kind, body)
        self.own.add(record.record_hash)
        self.out.send.append(record)
        self.inbox.arrived.append(record)

    def sign_ply(self, signer: Signer, kind: str, extra: Mapping[str, object]) -> None:
        head = self.chain.head
        self.local.claim_ply(signer.key, head.ply + 1)
        body = {"ply": head.ply + 1, "prev": head.chain_digest, **extra}
        if self.clock is not None:  # the ACKs of the head, by every peer the ply leaves
            removed = set(extra.get("removed", ())) if kind == REMOVE else set()  # type: ignore[call-overload]
            body["acks"] = self.clock.carried([p for p in head.peers if p not in removed])
        self.sign(signer, kind, body)

    def sign_outside(self, kind: str, body: Mapping[str, object]) -> None:
        self.sign(self.local.peer_signer(), kind, body)

    def ignore(self, record: SignedRecord, reason: str) -> None:
        self.out.events.append(RecordIgnored(record, f"{reason}; its {record.kind} was ignored"))

    def reject(
        self,
        record: SignedRecord,
        reason: str,
        before: TableState | None = None,
        also: SignedRecord | None = None,
    ) -> None:
        if record.record_hash in self.own:
            raise LocalTableError(f"this peer's own {record.kind} was refused: {reason}")
        runner = self.runner_of(record.author)
        states = (
            () if before is None else (state_view("the position before it", self.engine, before),)
        )
        ply = before.ply + 1 if before is not None else self.chain.head.ply
        evidence = Evidence(
            "rejected",
            ply,
            reason,
            f"signed by {self.describe(record.author)}",
            (runner,) if runner else (),
            (record,) if also is None else (also, record),
            states,
        )
        self.rejected.append(evidence)
        self.out.events.append(TableRejected(record, reason, evidence))

    def accept(self, record: SignedRecord) -> None:
        if record.record_hash in self.replayed:
            return  # it is in the log already
        self.out.log.append(record)
        if self.journal is not None and not self.local.signs_with(record.author):
            self.journal(record)

    def buffer(self, record: SignedRecord, ready_at: int) -> None:
        """Keep ``record`` until the head reaches ply ``ready_at`` (``TableInbox.hold``)."""
        if not self.inbox.hold(record, ready_at, self.chain.head.ply, self.now):
            self.out.events.append(
                RecordDropped(record, f"{record.kind} for ply {ready_at} is too far ahead")
            )

    def digest_of(self, record: SignedRecord) -> bytes | None:
        """The chain digest ``record`` would give on the head, None if it is not legal there."""
        try:
            return self.chain.check(record).chain_digest
        except PlyRejected:
            return None

    def may_apply(self, ply: int) -> bool:
        """Plies are applied up to the diverging one, even when halted, so a peer that was
        behind can still ack it and tell who disagrees with the majority."""
        return self.divergence is None or ply <= self.divergence.ply
