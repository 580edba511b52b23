"""One peer's table: the chain, acks, finality, END, divergence and outside records together.

A ``Table`` is a plain object with one way in, ``handle(input)``: the inputs
(``client.tabletop.table_input``) are frozen values carrying ``now`` — ``Received`` for records
``net`` verified, a player's ``Intent`` (a move, a resignation, a draw, a takeback, chat,
pointing), ``Tick`` for time — and each call returns an ``Output``: records it signed (send
them), records it accepted (log them) and events for the UI.  It reads no clock, opens no
socket and never blocks; the driver passes ``now`` and hands it a ``Tick`` at
``next_deadline()``.  The older methods (``receive``, ``move``, ``tick`` ...) are one-line
wrappers over ``handle``.

How a record is handled (everything is checked before anything changes):

* same record hash as one seen before: dropped silently;
* another record with the ``seq`` of one its author signed before: rejected, or the table
  halts if either is in the chain (``client.rules.seq_book`` says which);
* a ply record for ply head+1: checked by ``Chain.check`` (author, ``prev``, legality),
  applied, then this peer signs ACK ``{ply, digest}`` — and END when the game is over;
* a ply record for an occupied ply: judged against the state before that ply: a legal one
  by the same author is equivocation and halts the table; an illegal one is rejected;
* records that arrive ahead of what they build on (a ply beyond head+1, an ACK or END for
  a ply not applied yet) wait in a bounded buffer and are handled when the head gets there;
* an ACK or END with another digest than this peer's, or a peer claiming two digests,
  halts the table; a HALT from a peer halts it too, after checking the records it carries;
* chat, pointing, draw offers and acceptances, takeback asks and consents are kept in
  arrival order (``client.rules.takeback``: a ply's own player asks, every peer consents, the
  player to move appends the TAKEBACK).

A rejected record is never applied, never occupies its ply, and is kept as ``Evidence``.
A halted table applies (and acks) plies only up to the diverging one — so a peer that was
behind still says what it computed there — and signs no ply at all.  The evidence is about
the earliest ply known to diverge.  Local keys (the peer's and its bots') act only when
the table is live: genesis final, no halt, no outcome.  This peer never signs two ply
records for one ply, nor two ACKs or ENDs for one ply (``LocalTableError`` if the code
ever tried: that would be our bug).

Where the code lives: ``Table`` is composed of parts, each told its collaborators in its
constructor, over one shared state, ``client.tabletop.table_ledger.TableLedger`` (the books, the
reading views, and the primitives sign, accept, reject, ignore, buffer):
``client.tabletop.table_halt`` (halting, evidence), ``client.tabletop.table_removals`` (votes,
REMOVE, the step back, abandoned tables; given the bot factory), ``client.tabletop.table_claims``
(ACKs, ENDs, finality; given the halt and the removals), ``client.tabletop.table_outside`` (chat,
pointing, draws, takebacks), ``client.tabletop.table_leaving`` (LEAVE: a peer left on purpose),
``client.tabletop.table_intents`` (a player's intents; given the outside and leaving parts).
No part calls the table that holds it.  This module holds the one way in, the loop, the inbox
(seen hashes, seqs), the membership guards and the route table.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from client.bots import Bot
from client.rules.ballot import Ballot
from client.rules.bodies import read_digest, read_int
from client.rules.chain import Chain, PlyRule, TableState
from client.rules.divergence import Divergence, Evidence
from client.rules.ending import read_result, result_claim
from client.rules.errors import LocalTableError, Malformed
from client.rules.finality import ClaimBook, FinalityTracker
from client.rules.plies import PLY_RULES
from client.rules.records import (
    ACK,
    CHAIN_KINDS,
    END,
    HALT,
    LEAVE,
    OUTSIDE_KINDS,
    START,
    VOTE,
    EnvelopeOpener,
    SignedRecord,
    Signer,
)
from client.rules.start import TableStart, open_start
from client.rules.takeback import TakebackBook
from client.tabletop.events import Output, PresenceChanged
from client.tabletop.opened_once import OpenedOnce
from client.tabletop.outside import OutsideLog
from client.tabletop.presence import Presence
from client.tabletop.seating import LocalSeats
from client.tabletop.table_claims import TableClaims
from client.tabletop.table_halt import TableHalt
from client.tabletop.table_input import (
    AcceptDraw,
    AskTakeback,
    Begin,
    Chat,
    ConsentTakeback,
    HeardFrom,
    Intent,
    OfferDraw,
    PlayMove,
    Point,
    PresenceReport,
    Received,
    Resign,
    Restore,
    TableInput,
    Tick,
)
from client.tabletop.table_intents import TableIntents
from client.tabletop.table_leaving import TableLeaving
from client.tabletop.table_ledger import BotFactory, TableLedger
from client.tabletop.table_outside import TableOutside
from client.tabletop.table_plies import TablePlies
from client.tabletop.table_removals import TableRemovals
from client.tabletop.table_view import TableView
from engines import AnyEngine

__all__ = ["ANYONE", "PEER", "PRESENT", "BotFactory", "RecordRoute", "Table", "handing"]

ANYONE = "anyone"
"""Every key may sign it; the part judges (plies: the seat's key or a bot key)."""
PEER = "peer"
"""Only a peer of START may sign it, even one removed since (claims about earlier plies)."""
PRESENT = "present"
"""Only a peer still at the table may sign it; a removed peer's is ignored."""


@dataclass(frozen=True)
class RecordRoute:
    """Where a record kind goes: the part's method that takes it, and who may sign it."""

    take: Callable[[SignedRecord], None]
    signers: str


class Table:
    """The table as one peer (or spectator) sees it.  See the module docstring."""

    def __init__(
        self,
        start_record: SignedRecord,
        engine: AnyEngine,
        opener: EnvelopeOpener,
        *,
        me: bytes | None = None,
        signers: Mapping[bytes, Signer] | None = None,
        bots: Mapping[bytes, Bot] | None = None,
        bot_delay: float = 0.0,
        rules: Mapping[str, PlyRule] = PLY_RULES,
        journal: Callable[[SignedRecord], None] | None = None,
        bot_factory: BotFactory | None = None,
        bot_level: str | None = None,
    ) -> None:
        """``StartRefused`` if START does not fit ``engine``; ``ValueError`` if ``signers``
        lacks a key this peer must sign with.  ``bots`` maps a seat key this peer runs to the
        bot that plays it (its own key too, with ``--bot``); ``me=None`` is a spectator.

        ``journal``, if given, is called with each accepted record not signed by a local key,
        the moment it is accepted: with signers that journal their own records when they
        sign (``net``'s ``RecordSigner``), one file then holds every record in the order
        this peer took it, plies in chain order.

        ``bot_factory`` makes the bot keys of the seats a REMOVE hands to this peer (without
        it this peer never appends a REMOVE, but still votes); ``bot_level`` is their level,
        which the REMOVE names."""
        start, engine = open_start(start_record, lambda _name: engine)
        # Every embedded consent is verified once here, however often the chain reads it.
        self._opened = opened = OpenedOnce(opener)
        chain = Chain(start, engine, opened, rules)
        local = LocalSeats(start, engine, me, signers or {}, bots or {}, bot_delay)
        self._ledger = ledger = TableLedger(chain, local, me, opened, journal)
        self.halt = TableHalt(ledger)
        self.removals = TableRemovals(ledger, bot_factory, bot_level)
        self.claims = TableClaims(ledger, self.halt, self.removals)
        auto_consent = me is not None and me in (bots or {})
        self.outside_records = TableOutside(ledger, auto_consent=auto_consent)
        self.leaving = TableLeaving(ledger)
        self.intents = TableIntents(ledger, self.outside_records, self.leaving)
        self.plies = TablePlies(ledger, self.halt, self.removals, self.claims)
        self._routes = self._route_table(rules)

    # --- reading: the ledger's views (read-only) -------------------------------------------
    # Front ends read ``view`` (``client.tabletop.table_view``); the one-line views below are for
    # the node's code and the tests until they read ``view`` or the parts' own books.
    @property
    def view(self) -> TableView:
        """What front ends read (``client.tabletop.table_view``): the ledger, read-only."""
        return self._ledger

    @property
    def start(self) -> TableStart:
        return self._ledger.start

    @property
    def engine(self) -> AnyEngine:
        return self._ledger.engine

    @property
    def chain(self) -> Chain:
        return self._ledger.chain

    @property
    def me(self) -> bytes | None:
        return self._ledger.me

    @property
    def local(self) -> LocalSeats:
        return self._ledger.local

    @property
    def outside(self) -> OutsideLog:
        return self._ledger.outside

    @property
    def takebacks(self) -> TakebackBook:
        return self._ledger.takebacks

    @property
    def acks(self) -> ClaimBook:
        return self._ledger.acks

    @property
    def finality(self) -> FinalityTracker:
        return self._ledger.finality

    @property
    def rejected(self) -> list[Evidence]:
        return self._ledger.rejected

    @property
    def divergence(self) -> Divergence | None:
        return self._ledger.divergence

    @property
    def ended(self) -> bool:
        return self._ledger.ended

    @property
    def abandoned(self) -> tuple[int, tuple[bytes, ...]] | None:
        return self._ledger.abandoned

    @property
    def presence(self) -> Presence:
        return self._ledger.presence

    @property
    def ballot(self) -> Ballot:
        return self._ledger.ballot

    @property
    def head(self) -> TableState:
        return self._ledger.head

    @property
    def final_ply(self) -> int:
        return self._ledger.final_ply

    @property
    def halted(self) -> bool:
        return self._ledger.halted

    @property
    def evidence(self) -> Evidence | None:
        return self._ledger.evidence

    @property
    def seated(self) -> bool:
        return self._ledger.seated

    @property
    def waiting_since(self) -> float | None:
        return self._ledger.waiting_since

    def describe(self, key: bytes) -> str:
        """``peer K3QF-7XZA… (Ann)`` or ``the bot of seat 3 run by peer ...``."""
        return self._ledger.describe(key)

    def runner_of(self, key: bytes) -> bytes | None:
        """The peer that speaks for ``key`` (``TableLedger.runner_of``)."""
        return self._ledger.runner_of(key)

    def removed_me_at(self, ply: int) -> bool:
        """Whether ply ``ply`` (a REMOVE) took this peer off the table."""
        return self._ledger.removed_me_at(ply)

    def live(self) -> bool:
        """Whether local keys may sign plies now."""
        return self._ledger.live()

    def present(self, key: bytes) -> bool:
        """Whether peer ``key`` is at the table and not shown away (as of the last call)."""
        return self._ledger.present(key)

    def next_deadline(self, presence: bool = True) -> float | None:
        """When ``tick`` should next be called, or None (``TableLedger.next_deadline``)."""
        return self._ledger.next_deadline(presence)

    @property
    def routes(self) -> Mapping[str, RecordRoute]:
        """The route table, read-only: record kind -> the part's method and who may sign
        (scripts/route_table_diagram.py draws it into docs/ARCHITECTURE.md)."""
        return MappingProxyType(self._routes)

    # --- the one way in -------------------------------------------------------------------
    def handle(self, event: TableInput) -> Output:
        """Handle one input (``client.tabletop.table_input``) and return what it produced.

        A peer's record never makes it raise; a refused intent raises ``IntentRefused``
        with nothing signed; ``LocalTableError`` is this peer's own bug (a second
        ``Begin``)."""
        match event:
            case Begin(now=now):
                return self._begin(now)
            case Restore(records=records, now=now):
                return self._restore(records, now)
        self._ledger.now = event.now
        match event:
            case Received(record=record):
                self._opened.remember(record)  # net verified it: its copy in a ply is known
                self._ledger.inbox.arrived.append(record)
            case HeardFrom(key=key, now=now):
                self.presence.hear(key, now)
            case PresenceReport(sender=sender, entries=entries, now=now):
                self.presence.hear(sender, now)
                self.presence.report(sender, entries, now)
            case Tick():
                pass
            case _:
                self.intents.take(event)
        return self._run()

    # --- the entry points as they were, for the callers not moved to ``handle`` yet -------
    def begin(self, now: float) -> Output:
        return self.handle(Begin(now))

    def receive(self, record: SignedRecord, now: float) -> Output:
        return self.handle(Received(record, now))

    def tick(self, now: float) -> Output:
        return self.handle(Tick(now))

    def heard(self, key: bytes, now: float) -> Output:
        return self.handle(HeardFrom(key, now))

    def presence_report(
        self, sender: bytes, entries: Sequence[tuple[bytes, int]], now: float
    ) -> Output:
        return self.handle(PresenceReport(sender, tuple(entries), now))

    def restore(self, records: Sequence[SignedRecord], now: float) -> Output:
        return self.handle(Restore(tuple(records), now))

    def move(self, move: object, now: float) -> Output:
        return self.handle(PlayMove(move, now))

    def resign(self, now: float, seat: int | None = None) -> Output:
        return self.handle(Resign(now, seat))

    def offer_draw(self, now: float) -> Output:
        return self.handle(OfferDraw(now))

    def accept_draw(self, now: float) -> Output:
        return self.handle(AcceptDraw(now))

    def ask_takeback(self, now: float) -> Output:
        return self.handle(AskTakeback(now))

    def consent_takeback(self, now: float) -> Output:
        return self.handle(ConsentTakeback(now))

    def chat(self, text: str, now: float) -> Output:
        return self.handle(Chat(text, now))

    def point(
        self, arrows: Sequence[tuple[int, int]], squares: Sequence[int], now: float
    ) -> Output:
        return self.handle(Point(tuple(arrows), tuple(squares), now))

    # --- beginning --------------------------------------------------------------------------
    def _begin(self, now: float) -> Output:
        """Accept START and sign the genesis ACK."""
        if self._ledger.begun:
            raise LocalTableError("the table has begun already")
        self._ledger.begun, self._ledger.now = True, now
        self._ledger.progress_at = self._ledger.inbox.early_since = now
        self._ledger.presence = Presence(
            self.start.peer_keys,
            self.me,
            now,
            away=self.start.away_ms / 1000,
        )
        self._ledger.inbox.seen.add(self.start.record.record_hash)
        self._ledger.accept(self.start.record)
        if self._ledger.clock is not None:  # the first move's clock starts once START is final
            self._ledger.clock.took(self.chain.head, now, replaying=self._ledger.replaying)
        self.plies.after_apply(self.chain.head)
        return self._run()

    def _restore(self, records: Sequence[SignedRecord], now: float) -> Output:
        """Begin from this peer's own log after a restart.

        What local keys signed there is never signed again differently (ACKs, ENDs, plies:
        write-ahead means the log holds everything this peer may have sent); the records
        are replayed without being logged or journaled again and without local keys acting
        until the replay is over.
        """
        if not records or records[0] != self.start.record:
            raise ValueError("a log to restore from begins with this table's START")
        for record in records:
            if self.local.signs_with(record.author):
                self._remember_own(record)
        self._ledger.replaying = True
        self._ledger.replayed = {record.record_hash for record in records}
        try:
            out = self._begin(now)
            for record in records[1:]:
                out.extend(self.handle(Received(record, now)))
        finally:
            self._ledger.replaying = False
            self._ledger.replayed = set()
        out.extend(self._run())
        return out

    def _remember_own(self, record: SignedRecord) -> None:
        body = record.body
        try:
            ply = read_int(body, "ply", 0)
            if record.kind == ACK:
                self._ledger.own_acks.should_sign(ply, read_digest(body, "digest"))
            elif record.kind == END:
                outcome, absent = read_result(body.get("result"))
                claim = (read_digest(body, "digest"), result_claim(outcome, absent))
                self._ledger.own_ends.should_sign(ply, claim)
            elif record.kind in CHAIN_KINDS:
                self.local.mark_claimed(record.author, ply)
        except Malformed:
            return

    # --- the loop ---------------------------------------------------------------------------
    def _run(self) -> Output:
        if not self._ledger.begun:
            return Output()  # records received so far wait in the inbox for begin()
        while True:
            while self._ledger.inbox.released or self._ledger.inbox.arrived:
                if self._ledger.inbox.released:
                    self._dispatch(self._ledger.inbox.released.popleft())
                else:
                    self._handle(self._ledger.inbox.arrived.popleft())
            if self._ledger.replaying:
                break
            if self._ledger.open_for_removals() and self.removals.act_on_absence():
                continue
            self._ledger.stop_on_time()
            head = self.chain.head
            action = self.outside_records.next_action(head) if self._ledger.live() else None
            if action is None:
                break
            self._ledger.sign_ply(*action)
        for key, present in self.presence.changes(self._ledger.now):
            if key in self.chain.head.peers:
                self._ledger.out.events.append(PresenceChanged(key, self.describe(key), present))
        out, self._ledger.out = self._ledger.out, Output()
        return out

    def _handle(self, record: SignedRecord) -> None:
        if record.record_hash in self._ledger.inbox.seen:
            return
        self._ledger.inbox.seen.add(record.record_hash)
        runner = self.runner_of(record.author)
        jump = self._ledger.inbox.seqs.jump(record, runner)
        if jump is not None:  # refused before anything notes it (client.rules.seq_book)
            self._ledger.reject(record, f"{self.describe(record.author)} {jump}; it was ignored")
            return
        clash = self._ledger.inbox.seqs.clash(record, runner, self.chain.head.peers)
        if clash is None:
            self._dispatch(record)
        else:
            self.halt.on_seq_clash(record, clash)

    # --- the route table: record kind -> the part that owns it ----------------------------
    def _route_table(self, rules: Mapping[str, PlyRule]) -> dict[str, RecordRoute]:
        """Who takes each kind of record, and who may sign it (``_dispatch`` guards)."""
        routes = {
            kind: RecordRoute(self.outside_records.on_outside, PRESENT) for kind in OUTSIDE_KINDS
        }
        routes[VOTE] = RecordRoute(self.removals.on_vote, PRESENT)
        routes[HALT] = RecordRoute(self._on_halt, PRESENT)
        routes[LEAVE] = RecordRoute(self.leaving.on_leave, PRESENT)
        # a removed peer's claims about earlier plies count (the claims part judges the ply)
        routes[ACK] = routes[END] = RecordRoute(self.claims.on_claim, PEER)
        # plies: the ply part judges the author at that ply (a bot key, a removed peer)
        routes.update({kind: RecordRoute(self.plies.on_ply, ANYONE) for kind in rules})
        return routes

    def _dispatch(self, record: SignedRecord) -> None:
        """The membership guards, then the route table."""
        route = self._routes.get(record.kind)
        if route is not None and record.table_id == self.start.table_id:
            if route.signers is ANYONE:
                route.take(record)
                return
            member = record.author in self.start.peer_keys
            if member and (route.signers is PEER or record.author in self.chain.head.peers):
                route.take(record)
                return
        who = self.describe(record.author)
        if record.table_id != self.start.table_id:
            self._ledger.reject(record, f"{who} sent a record for another table")
        elif record.kind == START:
            self._ledger.reject(record, f"{who} sent a second START")
        elif route is None:
            self._ledger.reject(record, f"{who} sent a record of unknown kind {record.kind!r}")
        elif record.author not in self.start.peer_keys:
            self._ledger.reject(
                record, f"{who} is no peer at this table and may not sign a {record.kind}"
            )
        else:  # PRESENT, and the author was removed
            self._ledger.ignore(record, f"{who} was removed from the table")

    def _on_halt(self, record: SignedRecord) -> None:
        """A HALT re-enters the loop with the records it carries, checked as if they came
        on a link, before the sender's state is added to the evidence."""
        halt = self.halt.open_halt(record)
        if halt is None:
            return
        for embedded in halt.records:
            self._handle(embedded)
        self.halt.halt_shown(record, halt)


def handing(intent: Callable[[float], Intent]) -> Callable[[Table, float], Output]:
    """What a driver that owns the clock carries out (``Peer.act``): the intent, made at
    the driver's ``now``, handed to the table's one way in."""
    return lambda table, now: table.handle(intent(now))
