"""Records outside the chain at the table: chat, pointing, draw offers, takebacks.

``TableOutside`` is the part of ``client.tabletop.table.Table`` that keeps chat, POINT, DRAW_OFFER,
DRAW_ACCEPT (``client.tabletop.outside``) and TAKEBACK_ASK and TAKEBACK_CONSENT
(``client.rules.takeback``), in arrival order.  Invariants:

* none of them changes the chain; each is logged when it is well formed (a repeated ask or
  consent too, so a seq never leaves a gap) and only the first of an author on a position
  counts;
* asks and consents bind a position (ply and chain digest): they are void once another ply
  is appended there, and events are emitted only for those on the head;
* a peer without a person answers by itself, while ``live``, a valid ask or a draw offer on
  its head by its bots' rule (``client.bots.answers``), and a takeback its bots decline with
  a CHAT saying why; a DRAW_OFFER of a peer whose every seat resigned is refused;
* a peer that consented, or that has a person who was asked and has not answered yet, holds
  its bots on that position for ``HOLD``;
* the TAKEBACK is appended by the local key to move once every peer consented on the head.
"""

from __future__ import annotations

from client.rules.chain import TableState
from client.rules.errors import IntentRefused, Malformed
from client.rules.records import (
    CHAT,
    DRAW_ACCEPT,
    DRAW_OFFER,
    POINT,
    RESIGN,
    TAKEBACK,
    TAKEBACK_ASK,
    TAKEBACK_CONSENT,
    SignedRecord,
)
from client.rules.takeback import HOLD, TAKEBACK_KINDS, ask_refusal
from client.tabletop.events import (
    ChatReceived,
    DrawAccepted,
    DrawOffered,
    PointReceived,
    TakebackAsked,
    TakebackConsented,
)
from client.tabletop.seating import Action
from client.tabletop.table_ledger import TableLedger


class TableOutside:
    """Chat, pointing, draws and takebacks: the records outside the chain."""

    def __init__(self, ledger: TableLedger, *, auto_consent: bool) -> None:
        self._ledger = ledger
        self._chain = ledger.chain
        self._auto_consent = auto_consent
        """No person here (``--bot``): this peer answers takeback asks and draw offers by
        itself, by its bots' rule (``client.bots.answers``)."""
        self._draw_answered: bytes | None = None
        """The position (chain digest) this peer's bots last answered a draw offer on: once
        per position, however many offers come (each costs an evaluation)."""
        self._resigned: tuple[bytes, frozenset[int]] = (b"", frozenset())
        """``resigned_seats`` for the head it was computed on (one chain scan per head)."""

    def on_outside(self, record: SignedRecord) -> None:
        if record.kind in TAKEBACK_KINDS:
            self._on_takeback(record)
            return
        who = self._ledger.describe(record.author)
        if record.kind == DRAW_OFFER:
            why = self.draw_offer_refusal(record.author)
            if why is not None:
                self._ledger.reject(record, f"{who} offered a draw, but {why}; it was ignored")
                return
        try:
            entry = self._ledger.outside.add(record)
        except Malformed as error:
            self._ledger.reject(record, f"{who} sent a malformed {record.kind}: {error}")
            return
        self._ledger.accept(record)
        if record.kind == CHAT:
            self._ledger.out.events.append(ChatReceived(record.author, who, entry.text))
        elif record.kind == POINT:
            self._ledger.out.events.append(
                PointReceived(
                    record.author, who, int(record.body["ply"]), entry.arrows, entry.squares
                )
            )
        elif record.kind == DRAW_OFFER:
            self._ledger.out.events.append(DrawOffered(record.author, who))
            self._bots_answer_draw(record, entry.prev)
        elif not self._ledger.outside.offered(entry.prev, by=record.author):  # not the offer's own
            self._ledger.out.events.append(DrawAccepted(record.author, who))

    def draw_offer_refusal(self, peer: bytes) -> str | None:
        """Why ``peer`` may not offer a draw now, or None: a player whose every seat
        resigned has left the game, and a draw would turn its loss into a draw."""
        seats = self._chain.head.seats_of(peer)
        if not seats:
            return None
        resigned = self.resigned_seats()
        if all(seat in resigned for seat in seats):
            return "a player who resigned cannot offer a draw: it is out of the game"
        return None

    def resigned_seats(self) -> frozenset[int]:
        """The seats a RESIGN ply of the chain resigned (a takeback never undoes one)."""
        head = self._chain.head
        if self._resigned[0] != head.chain_digest:
            seats = frozenset(
                int(state.record.body["seat"])
                for state in (self._chain.at(ply) for ply in range(1, head.ply + 1))
                if state.record.kind == RESIGN
            )
            self._resigned = (head.chain_digest, seats)
        return self._resigned[1]

    def bot_answer(self, what: str, *, own: bool) -> str | None:
        """Why this peer's bots decline a ``"draw"`` or a ``"takeback"`` on the head
        (``LocalSeats.bot_refusal``; ``own``: its own seat's bot too), or None."""
        head = self._chain.head
        if what == "draw":
            return self._ledger.local.bot_refusal(head, "draw", own=own)
        restored = self._chain.at(head.ply - 1).engine_state if head.ply else None
        taken_back = sum(
            1 for ply in range(1, head.ply + 1) if self._chain.at(ply).record.kind == TAKEBACK
        )
        return self._ledger.local.bot_refusal(head, "takeback", restored, taken_back, own=own)

    def _answer_ask(self, ply: int, prev: bytes) -> None:
        """Another peer asks to take back the head's ply.  A peer without a person answers at
        once by its bots' rule: it consents, or says in a CHAT why its bots decline (the asker
        sees the refusal, not silence).  A peer with a person holds its bots on that position
        for ``HOLD`` meanwhile, so none of them moves on and voids the ask before the person
        answered."""
        if not self._auto_consent:
            self._ledger.takebacks.hold(prev, self._ledger.now + HOLD)
            return
        why = self.bot_answer("takeback", own=True)
        if why is None:
            self._ledger.sign_outside(TAKEBACK_CONSENT, {"ply": ply, "prev": prev})
        else:
            self._ledger.sign_outside(CHAT, {"text": f"{why[0].upper()}{why[1:]}."})

    def _bots_answer_draw(self, offer: SignedRecord, prev: bytes) -> None:
        """A peer without a person answers a draw offer on its head by its bots' rule."""
        head = self._chain.head
        if (
            not self._auto_consent
            or not self._ledger.live(answering=True)
            or offer.author == self._ledger.me
        ):
            return
        if prev != head.chain_digest or self._draw_answered == prev:
            return
        self._draw_answered = prev
        agreed = self._ledger.me in self._ledger.outside.consents_for(prev)
        if not agreed and self.bot_answer("draw", own=True) is None:
            self._ledger.sign_outside(DRAW_ACCEPT, {"ply": head.ply + 1, "prev": prev})

    # --- takebacks (client.rules.takeback) ------------------------------------------------------
    def next_action(self, head: TableState) -> Action | None:
        """A TAKEBACK once every peer consented on the head and a local key is to move;
        else what the local seats do — unless this peer consented and holds its bots."""
        consents = self._ledger.takebacks.ready(head)
        if consents is not None:
            try:
                signer = self._ledger.local.signer_to_move(head)
            except IntentRefused:
                signer = None
            if signer is not None:
                return signer, TAKEBACK, {"consents": consents}
        if self._ledger.held_until() is not None:
            return None
        return self._ledger.local.next_action(head, self._ledger.outside, self._ledger.now)

    def _on_takeback(self, record: SignedRecord) -> None:
        """An ask or consent: judged against the position it binds, kept, void unless that
        position is the head; a peer without a person consents to a valid ask at once."""
        who = self._ledger.describe(record.author)
        try:
            ply, prev = self._ledger.takebacks.read(record)
        except Malformed as error:
            self._ledger.reject(record, f"{who} sent a malformed {record.kind}: {error}")
            return
        if ply - 1 > self._chain.head.ply:
            self._ledger.buffer(record, ply - 1)
            return
        position = self._chain.at(ply - 1)
        current = position is self._chain.head and prev == position.chain_digest
        if record.kind == TAKEBACK_ASK and prev == position.chain_digest:
            why = ask_refusal(position, record.author, self._ledger.describe)
            if why is not None:
                self._ledger.reject(
                    record, f"{who} asked to take back ply {ply - 1}, but {why}; it was ignored"
                )
                return
        self._ledger.accept(record)  # logged even when it repeats its author: no seq gap
        if not self._ledger.takebacks.add(record, prev):
            return  # its author said so already there: the first one counts
        if record.author == self._ledger.me and record.kind == TAKEBACK_CONSENT:
            self._ledger.takebacks.hold(prev, self._ledger.now + HOLD)
        if not current:
            return  # void: the chain has moved on (or never passed there)
        if record.kind == TAKEBACK_ASK:
            self._ledger.out.events.append(TakebackAsked(record.author, who, ply - 1))
            mine = self._ledger.me in self._ledger.takebacks.consents_on(prev)
            asker = record.author == self._ledger.me  # its consent comes with the ask
            if not mine and not asker and self._ledger.live(answering=True):
                self._answer_ask(ply, prev)
        else:
            ask = self._ledger.takebacks.ask_on(prev)
            if ask is None or ask.author != record.author:  # not the asker's own consent
                self._ledger.out.events.append(TakebackConsented(record.author, who, ply - 1))
