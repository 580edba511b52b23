"""One peer's table: the chain, acks, finality, END, divergence and outside records together.

A ``Table`` is a plain object fed by events — ``receive(record, now)`` for records ``net``
verified, intents (``move``, ``resign``, ``offer_draw``, ``accept_draw``, ``chat``,
``point``) and ``tick(now)`` for time — and each call returns an ``Output``: records it
signed (send them), records it accepted (log them) and events for the UI.  It reads no
clock, opens no socket and never blocks; the driver passes ``now`` and calls ``tick`` at
``next_deadline()``.

How a record is handled (everything is checked before anything changes):

* same record hash as one seen before: dropped silently;
* a ply record for ply head+1: checked by ``Chain.check`` (author, ``prev``, legality),
  applied, then this peer signs ACK ``{ply, digest}`` — and END when the game is over;
* a ply record for an occupied ply: judged against the state before that ply: a legal one
  by the same author is equivocation and halts the table; an illegal one is rejected;
* records that arrive ahead of what they build on (a ply beyond head+1, an ACK or END for
  a ply not applied yet) wait in a bounded buffer and are handled when the head gets there;
* an ACK or END with another digest than this peer's, or a peer claiming two digests,
  halts the table; a HALT from a peer halts it too, after checking the records it carries;
* chat, pointing, draw offers and acceptances, takeback asks and consents are kept in
  arrival order (``client.takeback``: a ply's own player asks, every peer consents, the
  player to move appends the TAKEBACK).

A rejected record is never applied, never occupies its ply, and is kept as ``Evidence``.
A halted table applies (and acks) plies only up to the diverging one — so a peer that was
behind still says what it computed there — and signs no ply at all.  The evidence is about
the earliest ply known to diverge.  Local keys (the peer's and its bots') act only when
the table is live: genesis final, no halt, no outcome.  This peer never signs two ply
records for one ply, nor two ACKs or ENDs for one ply (``LocalProtocolError`` if the code
ever tried: that would be our bug).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from client.bodies import Malformed, read_digest, read_int
from client.bots import Bot
from client.chain import Chain, PlyRejected, PlyRule, TableState, describe_key
from client.divergence import Divergence, Evidence, StateView
from client.ending import read_result, result_body, result_claim
from client.events import (
    ChatReceived,
    DrawAccepted,
    DrawOffered,
    EvidenceUpdated,
    GameOver,
    Halted,
    Output,
    PlyApplied,
    PlyFinal,
    PointReceived,
    RecordDropped,
    RecordRejected,
    TableEnded,
    TakebackAsked,
    TakebackConsented,
)
from client.finality import Claim, ClaimBook, FinalityTracker, LocalProtocolError, OwnClaims
from client.halting import halt_body, read_halt, state_view
from client.outside import OutsideLog
from client.plies import PLY_RULES
from client.records import (
    ACK,
    CHAT,
    DRAW_ACCEPT,
    DRAW_OFFER,
    END,
    HALT,
    MOVE,
    OUTSIDE_KINDS,
    POINT,
    START,
    TAKEBACK,
    TAKEBACK_ASK,
    TAKEBACK_CONSENT,
    EnvelopeOpener,
    SignedRecord,
    Signer,
)
from client.seating import IntentRefused, LocalSeats
from client.start import open_start
from client.takeback import HOLD, TAKEBACK_KINDS, TakebackBook, ask_refusal
from engines import AnyEngine, Outcome

__all__ = ["Table"]

BUFFER_LIMIT = 1024
"""Records held while waiting for their predecessor (all kinds together)."""
BUFFER_WINDOW = 256
"""How many plies ahead of the head a record may be and still be buffered."""


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
    ) -> None:
        """``StartRefused`` if START does not fit ``engine``; ``ValueError`` if ``signers``
        lacks a key this peer must sign with.  ``bots`` maps a seat key this peer runs to the
        bot that plays it (its own key too, with ``--bot``); ``me=None`` is a spectator.

        ``journal``, if given, is called with each accepted record not signed by a local key,
        the moment it is accepted: with signers that journal their own records when they
        sign (``net``'s ``RecordSigner``), one file then holds every record in the order
        this peer took it, plies in chain order."""
        self.start, self.engine = open_start(start_record, lambda _name: engine)
        self.chain = Chain(self.start, engine, opener, rules)
        self.me = me
        self.local = LocalSeats(self.start, engine, me, signers or {}, bots or {}, bot_delay)
        self.outside = OutsideLog()
        self.takebacks = TakebackBook()
        self._auto_consent = me is not None and me in (bots or {})
        """No person here (``--bot``): this peer consents to every valid takeback by itself."""
        self.acks = ClaimBook()
        self.ends = ClaimBook()
        self.finality = FinalityTracker()
        self.rejected: list[Evidence] = []
        self.divergence: Divergence | None = None
        self.ended = False
        self._opener = opener
        self._journal = journal
        self._own_acks = OwnClaims("ACK")
        self._own_ends = OwnClaims("END")
        self._seen: set[bytes] = set()
        self._own: set[bytes] = set()
        self._early: dict[int, list[SignedRecord]] = {}
        self._early_count = 0
        self._inbox: deque[SignedRecord] = deque()
        self._released: deque[SignedRecord] = deque()
        """Buffered records whose predecessor arrived: seen already, handled first."""
        self._out = Output()
        self._now = 0.0
        self._begun = False

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

    def live(self) -> bool:
        """Whether local keys may sign plies now."""
        return (
            self.me is not None
            and not self.halted
            and self.finality.final_ply >= 0
            and self.chain.outcome() is None
        )

    def next_deadline(self) -> float | None:
        """When ``tick`` should next be called (a bot's delayed move, the end of a takeback
        hold), or None."""
        if not self.live():
            return None
        head = self.chain.head
        held = self.takebacks.held_until(head.chain_digest, self._now)
        return held if held is not None else self.local.deadline(head.ply)

    # --- entry points ---------------------------------------------------------------------
    def begin(self, now: float) -> Output:
        """Accept START and sign the genesis ACK; call once, before anything else."""
        if self._begun:
            raise LocalProtocolError("the table has begun already")
        self._begun, self._now = True, now
        self._seen.add(self.start.record.record_hash)
        self._accept(self.start.record)
        self._after_apply(self.chain.head)
        return self._run()

    def receive(self, record: SignedRecord, now: float) -> Output:
        """Handle one record ``net`` verified (signature checked, payload decoded)."""
        self._now = now
        self._inbox.append(record)
        return self._run()

    def tick(self, now: float) -> Output:
        """Let time pass: bots whose delay is over move."""
        self._now = now
        return self._run()

    def move(self, move: Any, now: float) -> Output:
        """Sign ``move`` for the seat to move (``IntentRefused`` saying why not)."""
        self._now = now
        self._refuse_unless(playing=True)
        signer = self.local.signer_to_move(self.chain.head)
        self.local.check_move(self.chain.head, move)
        seat = self.engine.to_move(self.chain.head.engine_state)
        self._sign_ply(signer, MOVE, {"seat": seat, "move": self.engine.move_to_wire(move)})
        return self._run()

    def resign(self, now: float, seat: int | None = None) -> Output:
        """Resign this peer's seat; it is sent at that player's own turn (maybe at once)."""
        self._now = now
        self._refuse_unless(playing=True)
        self.local.want_resign(self.chain.head, seat)
        return self._run()

    def offer_draw(self, now: float) -> Output:
        """Offer a draw in the current position (with this peer's own acceptance)."""
        self._now = now
        self._refuse_unless(playing=True)
        position = self.local.draw_position(self.chain.head, self.outside, offer=True)
        self._sign_outside(DRAW_OFFER, position)
        self._sign_outside(DRAW_ACCEPT, position)
        return self._run()

    def accept_draw(self, now: float) -> Output:
        """Accept the draw offered in the current position."""
        self._now = now
        self._refuse_unless(playing=True)
        position = self.local.draw_position(self.chain.head, self.outside, offer=False)
        self._sign_outside(DRAW_ACCEPT, position)
        return self._run()

    def ask_takeback(self, now: float) -> Output:
        """Ask to take back the last ply, this player's own move (with this peer's consent)."""
        self._now = now
        self._refuse_unless(playing=True)
        assert self.me is not None
        position = self.takebacks.ask_position(self.chain.head, self.me, self.describe)
        self._sign_outside(TAKEBACK_ASK, position)
        self._sign_outside(TAKEBACK_CONSENT, position)
        return self._run()

    def consent_takeback(self, now: float) -> Output:
        """Consent to take back the last ply, as another peer asked."""
        self._now = now
        self._refuse_unless(playing=True)
        assert self.me is not None
        position = self.takebacks.consent_position(self.chain.head, self.me)
        self._sign_outside(TAKEBACK_CONSENT, position)
        return self._run()

    def chat(self, text: str, now: float) -> Output:
        self._now = now
        self._refuse_unless(playing=False)
        self._sign_outside(CHAT, {"text": self.local.check_chat(text)})
        return self._run()

    def point(
        self, arrows: Sequence[tuple[int, int]], squares: Sequence[int], now: float
    ) -> Output:
        """Show arrows and highlighted squares (the engine's square numbers) to everyone;
        none of either clears this peer's marks."""
        self._now = now
        self._refuse_unless(playing=False)
        body = self.local.check_point(arrows, squares)
        self._sign_outside(POINT, {"ply": self.chain.head.ply, **body})
        return self._run()

    def _refuse_unless(self, *, playing: bool) -> None:
        """``IntentRefused`` for a spectator, or (``playing``) when plies cannot be signed."""
        if self.me is None:
            raise IntentRefused("you are watching this table: spectators do not play or talk")
        if not playing:
            return
        if self.divergence is not None:
            raise IntentRefused(f"the table is halted: {self.divergence.reason}")
        if self.chain.outcome() is not None:
            raise IntentRefused("the game is over")
        if self.finality.final_ply < 0:
            raise IntentRefused(
                "the game has not started: not every peer has confirmed the start yet"
            )

    # --- the loop ---------------------------------------------------------------------------
    def _run(self) -> Output:
        if not self._begun:
            return Output()  # records received so far wait in the inbox for begin()
        while True:
            while self._released or self._inbox:
                if self._released:
                    self._dispatch(self._released.popleft())
                else:
                    self._handle(self._inbox.popleft())
            head = self.chain.head
            action = self._next_action(head) if self.live() else None
            if action is None:
                break
            self._sign_ply(*action)
        out, self._out = self._out, Output()
        return out

    def _sign(self, signer: Signer, kind: str, body: Mapping[str, Any]) -> None:
        record = signer.sign(kind, body)
        self._own.add(record.record_hash)
        self._out.send.append(record)
        self._inbox.append(record)

    def _sign_ply(self, signer: Signer, kind: str, extra: Mapping[str, Any]) -> None:
        head = self.chain.head
        self.local.claim_ply(signer.key, head.ply + 1)
        self._sign(signer, kind, {"ply": head.ply + 1, "prev": head.chain_digest, **extra})

    def _sign_outside(self, kind: str, body: Mapping[str, Any]) -> None:
        self._sign(self.local.peer_signer(), kind, body)

    def _handle(self, record: SignedRecord) -> None:
        if record.record_hash in self._seen:
            return
        self._seen.add(record.record_hash)
        self._dispatch(record)

    def _dispatch(self, record: SignedRecord) -> None:
        if record.table_id != self.start.table_id:
            self._reject(record, f"{self.describe(record.author)} sent a record for another table")
        elif record.kind == START:
            self._reject(record, f"{self.describe(record.author)} sent a second START")
        elif self.chain.is_ply_kind(record.kind):
            self._on_ply(record)
        elif record.kind in (ACK, END, HALT) or record.kind in OUTSIDE_KINDS:
            if record.author not in self.chain.head.peers:
                self._reject(
                    record,
                    f"{self.describe(record.author)} is no peer at this table "
                    f"and may not sign a {record.kind}",
                )
            elif record.kind == HALT:
                self._on_halt(record)
            elif record.kind in OUTSIDE_KINDS:
                self._on_outside(record)
            else:
                self._on_claim(record)
        else:
            self._reject(
                record,
                f"{self.describe(record.author)} sent a record of unknown kind {record.kind!r}",
            )

    def _reject(self, record: SignedRecord, reason: str, before: TableState | None = None) -> None:
        if record.record_hash in self._own:
            raise LocalProtocolError(f"this peer's own {record.kind} was refused: {reason}")
        runner = self.start.runner_of(record.author)
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
            (record,),
            states,
        )
        self.rejected.append(evidence)
        self._out.events.append(RecordRejected(record, reason, evidence))

    def _accept(self, record: SignedRecord) -> None:
        self._out.log.append(record)
        if self._journal is not None and not self.local.signs_with(record.author):
            self._journal(record)

    def _buffer(self, record: SignedRecord, ready_at: int) -> None:
        """Keep ``record`` until the head reaches ply ``ready_at``."""
        if ready_at > self.chain.head.ply + BUFFER_WINDOW or self._early_count >= BUFFER_LIMIT:
            self._seen.discard(record.record_hash)  # a later copy may be taken
            self._out.events.append(
                RecordDropped(record, f"{record.kind} for ply {ready_at} is too far ahead")
            )
            return
        self._early.setdefault(ready_at, []).append(record)
        self._early_count += 1

    # --- plies ----------------------------------------------------------------------------
    def _on_ply(self, record: SignedRecord) -> None:
        head = self.chain.head
        try:
            ply = read_int(record.body, "ply", 1)
        except Malformed as error:
            self._reject(
                record, f"{self.describe(record.author)} sent a malformed {record.kind}: {error}"
            )
            return
        if ply > head.ply + 1:
            self._buffer(record, ply - 1)
        elif ply <= head.ply:
            self._on_occupied(record, ply)
        elif self._may_apply(ply):
            try:
                state = self.chain.check(record)
            except PlyRejected as error:
                self._reject(record, str(error), head)
                return
            self.chain.append(state)
            self._accept(record)
            self._out.events.append(PlyApplied(state, self.describe(record.author)))
            self._after_apply(state)

    def _may_apply(self, ply: int) -> bool:
        """Plies are applied up to the diverging one, even when halted, so a peer that was
        behind can still ack it and tell who disagrees with the majority."""
        return self.divergence is None or ply <= self.divergence.ply

    def _on_occupied(self, record: SignedRecord, ply: int) -> None:
        existing = self.chain.at(ply)
        try:
            other = self.chain.check(record, ply)
        except PlyRejected as error:
            self._reject(record, str(error), self.chain.at(ply - 1))
            return
        same = self.start.runner_of(record.author) == self.start.runner_of(existing.record.author)
        kind = "equivocation" if same else "fork"
        who = self.describe(record.author)
        reason = (
            f"{who} signed two different records for ply {ply}"
            if same
            else f"two different legal records for ply {ply}, by "
            f"{self.describe(existing.record.author)} and {who}"
        )
        views = (
            state_view(f"after {existing.label}", self.engine, existing),
            state_view(f"after {other.label}", self.engine, other),
        )
        runner = self.start.runner_of(record.author)
        accused = {runner: f"signed two different records for ply {ply}"} if same and runner else {}
        self._halt(kind, ply, reason, (existing.record, record), views, accused)

    def _after_apply(self, state: TableState) -> None:
        speaks = self.me is not None and self._may_apply(state.ply)
        if speaks and self._own_acks.should_sign(state.ply, state.chain_digest):
            self._sign(
                self.local.peer_signer(), ACK, {"ply": state.ply, "digest": state.chain_digest}
            )
        outcome = self.engine.outcome(state.engine_state)
        if outcome is not None:
            self._out.events.append(GameOver(state.ply, outcome))
            claim = (state.chain_digest, result_claim(outcome))
            if speaks and self._own_ends.should_sign(state.ply, claim):
                body = {
                    "ply": state.ply,
                    "digest": state.chain_digest,
                    "result": result_body(outcome),
                }
                self._sign(self.local.peer_signer(), END, body)
        ready = self._early.pop(state.ply, [])
        self._early_count -= len(ready)
        self._released.extend(ready)

    # --- acks and ends --------------------------------------------------------------------
    def _on_claim(self, record: SignedRecord) -> None:
        """An ACK or END: compare it with this peer's chain (buffer it if ahead)."""
        who = self.describe(record.author)
        try:
            ply = read_int(record.body, "ply", 0)
            digest = read_digest(record.body, "digest")
            result = read_result(record.body.get("result")) if record.kind == END else None
        except Malformed as error:
            self._reject(record, f"{who} sent a malformed {record.kind}: {error}")
            return
        if ply > self.chain.head.ply:
            self._buffer(record, ply)
            return
        state = self.chain.at(ply)
        value: Any = digest if result is None else (digest, result_claim(*result))
        book = self.acks if record.kind == ACK else self.ends
        earlier = book.add(Claim(record.author, ply, value, record))
        self._accept(record)
        claims = {record.author: digest}
        if earlier is not None:
            reason = f"{who} signed two different {record.kind}s for ply {ply}"
            deed = f"signed two different {record.kind}s for ply {ply}"
            self._halt(
                "digest", ply, reason, (earlier.record, record), (), {record.author: deed}, claims
            )
        elif digest != state.chain_digest:
            reason = f"{who} signed another chain digest for ply {ply} than this peer"
            self._halt("digest", ply, reason, (state.record, record), (), {}, claims)
        elif result is not None and _disagree(self.engine.outcome(state.engine_state), result):
            reason = f"{who} signed another result for ply {ply} than this peer"
            deed = f"signed another result for ply {ply} than the engine gives"
            self._halt(
                "result", ply, reason, (state.record, record), (), {record.author: deed}, claims
            )
        elif self.divergence is not None and self.divergence.ply == ply:
            self.divergence.add_claim(record.author, digest)
            self.divergence.add_record(record)
            self._out.events.append(EvidenceUpdated(self.divergence.evidence()))
        self._check_progress()

    def _check_progress(self) -> None:
        for ply in self.finality.advance(self.acks, self.chain.states):
            self._out.events.append(PlyFinal(ply))
        head = self.chain.head
        outcome = self.engine.outcome(head.engine_state)
        if outcome is None or self.ended or self.halted or self.finality.final_ply < head.ply:
            return
        if self.ends.all_agree(head.ply, (head.chain_digest, result_claim(outcome)), head.peers):
            self.ended = True
            self._out.events.append(TableEnded(head.ply, outcome))

    # --- divergence -----------------------------------------------------------------------
    def _halt(
        self,
        kind: str,
        ply: int,
        reason: str,
        records: Sequence[SignedRecord],
        views: Sequence[StateView],
        accused: Mapping[bytes, str],
        claims: Mapping[bytes, bytes] | None = None,
    ) -> None:
        """Stop the table, or add to the evidence if it is stopped already.

        The evidence is about the earliest ply known to diverge: a disagreement found later
        about an earlier ply (acks arrive in any order) moves it there, keeping what was
        gathered.  This peer signs a HALT when it halts, when the evidence moves, and when it
        finds someone to accuse, embedding the records of that finding so that every peer can
        check it for itself.
        """
        earlier = self.divergence
        if earlier is None or ply < earlier.ply:
            self.divergence = self._open_divergence(kind, ply, reason, earlier)
        divergence = self.divergence
        assert divergence is not None
        accusing = any(key not in divergence.accused for key in accused)
        for key, deed in accused.items():
            divergence.accused.setdefault(key, deed)
        for record in records:
            divergence.add_record(record)
        for view in views:
            divergence.add_state(view)
        if divergence.ply == ply:
            for author, digest in (claims or {}).items():
                divergence.add_claim(author, digest)
            if kind == "equivocation":  # the precise explanation of a digest split
                divergence.kind, divergence.reason = kind, reason
        event = Halted if earlier is None else EvidenceUpdated
        self._out.events.append(event(divergence.evidence()))
        speak = divergence is not earlier or accusing
        if speak and self.me is not None and divergence.ply <= self.chain.head.ply:
            state = self.chain.at(divergence.ply)
            body = halt_body(self.engine, state, reason, records)
            self._sign(self.local.peer_signer(), HALT, body)

    def _open_divergence(
        self, kind: str, ply: int, reason: str, earlier: Divergence | None
    ) -> Divergence:
        at = self.chain.at(min(ply, self.chain.head.ply))
        divergence = Divergence(kind, ply, reason, at.peers, self.describe, self.me)
        for claim in self.acks.claims(ply):
            divergence.add_claim(claim.author, claim.value)
        if ply <= self.chain.head.ply:
            divergence.add_state(state_view("this peer", self.engine, at))
        if earlier is not None:
            divergence.accused.update(earlier.accused)
            for record in earlier.records:
                divergence.add_record(record)
            for view in earlier.states:
                divergence.add_state(view)
        return divergence

    def _on_halt(self, record: SignedRecord) -> None:
        """A peer halted: check what it shows, then halt too with its state as evidence."""
        who = self.describe(record.author)
        try:
            halt = read_halt(record, self._opener, self.start.table_id)
        except Malformed as error:
            self._reject(record, f"{who} sent a malformed HALT: {error}")
            return
        self._accept(record)
        for embedded in halt.records:
            self._handle(embedded)
        view = halt.view(who, self.engine, self.chain)
        reason = f"{who} halted the table: {halt.reason}"
        claims = {record.author: halt.chain}
        shown = (record, *halt.records)  # passed on, so the finding spreads in any topology
        self._halt("halt", halt.ply, reason, shown, (view,), {}, claims)

    # --- outside the chain ----------------------------------------------------------------
    def _on_outside(self, record: SignedRecord) -> None:
        if record.kind in TAKEBACK_KINDS:
            self._on_takeback(record)
            return
        who = self.describe(record.author)
        try:
            entry = self.outside.add(record)
        except Malformed as error:
            self._reject(record, f"{who} sent a malformed {record.kind}: {error}")
            return
        self._accept(record)
        if record.kind == CHAT:
            self._out.events.append(ChatReceived(record.author, who, entry.text))
        elif record.kind == POINT:
            self._out.events.append(
                PointReceived(
                    record.author, who, int(record.body["ply"]), entry.arrows, entry.squares
                )
            )
        elif record.kind == DRAW_OFFER:
            self._out.events.append(DrawOffered(record.author, who))
        elif not self.outside.offered(entry.prev, by=record.author):  # not the offer's own
            self._out.events.append(DrawAccepted(record.author, who))

    # --- takebacks (client.takeback) ------------------------------------------------------
    def _next_action(self, head: TableState) -> Any:
        """A TAKEBACK once every peer consented on the head and a local key is to move;
        else what the local seats do — unless this peer consented and holds its bots."""
        consents = self.takebacks.ready(head)
        if consents is not None:
            try:
                signer = self.local.signer_to_move(head)
            except IntentRefused:
                signer = None
            if signer is not None:
                return signer, TAKEBACK, {"consents": consents}
        if self.takebacks.held_until(head.chain_digest, self._now) is not None:
            return None
        return self.local.next_action(head, self.outside, self._now)

    def _on_takeback(self, record: SignedRecord) -> None:
        """An ask or consent: judged against the position it binds, kept, void unless that
        position is the head; a peer without a person consents to a valid ask at once."""
        who = self.describe(record.author)
        try:
            ply, prev = self.takebacks.read(record)
        except Malformed as error:
            self._reject(record, f"{who} sent a malformed {record.kind}: {error}")
            return
        if ply - 1 > self.chain.head.ply:
            self._buffer(record, ply - 1)
            return
        position = self.chain.at(ply - 1)
        current = position is self.chain.head and prev == position.chain_digest
        if record.kind == TAKEBACK_ASK and prev == position.chain_digest:
            why = ask_refusal(position, record.author, self.describe)
            if why is not None:
                self._reject(
                    record, f"{who} asked to take back ply {ply - 1}, but {why}; it was ignored"
                )
                return
        self._accept(record)  # logged even when it repeats its author: no seq gap
        if not self.takebacks.add(record, prev):
            return  # its author said so already there: the first one counts
        if record.author == self.me and record.kind == TAKEBACK_CONSENT:
            self.takebacks.hold(prev, self._now + HOLD)
        if not current:
            return  # void: the chain has moved on (or never passed there)
        if record.kind == TAKEBACK_ASK:
            self._out.events.append(TakebackAsked(record.author, who, ply - 1))
            mine = self.me in self.takebacks.consents_on(prev)
            asker = record.author == self.me  # its consent comes with the ask
            if self._auto_consent and not mine and not asker and self.live():
                self._sign_outside(TAKEBACK_CONSENT, {"ply": ply, "prev": prev})
        else:
            ask = self.takebacks.ask_on(prev)
            if ask is None or ask.author != record.author:  # not the asker's own consent
                self._out.events.append(TakebackConsented(record.author, who, ply - 1))


def _disagree(ours: Outcome | None, theirs: tuple[Outcome, tuple[bytes, ...]]) -> bool:
    return ours is None or result_claim(ours) != result_claim(*theirs)
