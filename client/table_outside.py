"""Records outside the chain at the table: chat, pointing, draw offers, takebacks.

``TableOutside`` is the layer of ``client.table.Table`` that keeps chat, POINT, DRAW_OFFER,
DRAW_ACCEPT (``client.outside``) and TAKEBACK_ASK and TAKEBACK_CONSENT
(``client.takeback``), in arrival order.  Invariants:

* none of them changes the chain; each is logged when it is well formed (a repeated ask or
  consent too, so a seq never leaves a gap) and only the first of an author on a position
  counts;
* asks and consents bind a position (ply and chain digest): they are void once another ply
  is appended there, and events are emitted only for those on the head;
* a peer without a person answers by itself, while ``live``, a valid ask or a draw offer on
  its head by its bots' rule (``client.bots.answers``); a DRAW_OFFER of a peer whose every
  seat resigned is refused;
  a peer that consented holds its bots on that position for ``HOLD``;
* the TAKEBACK is appended by the local key to move once every peer consented on the head.
"""

from __future__ import annotations

from typing import Any

from client.bodies import Malformed
from client.chain import TableState
from client.events import (
    ChatReceived,
    DrawAccepted,
    DrawOffered,
    PointReceived,
    TakebackAsked,
    TakebackConsented,
)
from client.records import (
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
from client.seating import IntentRefused
from client.table_core import TableCore
from client.takeback import HOLD, TAKEBACK_KINDS, ask_refusal


class TableOutside(TableCore):
    """Chat, pointing, draws and takebacks: the records outside the chain."""

    def _on_outside(self, record: SignedRecord) -> None:
        if record.kind in TAKEBACK_KINDS:
            self._on_takeback(record)
            return
        who = self.describe(record.author)
        if record.kind == DRAW_OFFER:
            why = self.draw_offer_refusal(record.author)
            if why is not None:
                self.reject(record, f"{who} offered a draw, but {why}; it was ignored")
                return
        try:
            entry = self.outside.add(record)
        except Malformed as error:
            self.reject(record, f"{who} sent a malformed {record.kind}: {error}")
            return
        self.accept(record)
        if record.kind == CHAT:
            self.out.events.append(ChatReceived(record.author, who, entry.text))
        elif record.kind == POINT:
            self.out.events.append(
                PointReceived(
                    record.author, who, int(record.body["ply"]), entry.arrows, entry.squares
                )
            )
        elif record.kind == DRAW_OFFER:
            self.out.events.append(DrawOffered(record.author, who))
            self._bots_answer_draw(record, entry.prev)
        elif not self.outside.offered(entry.prev, by=record.author):  # not the offer's own
            self.out.events.append(DrawAccepted(record.author, who))

    def draw_offer_refusal(self, peer: bytes) -> str | None:
        """Why ``peer`` may not offer a draw now, or None: a player whose every seat
        resigned has left the game, and a draw would turn its loss into a draw."""
        seats = self.chain.head.seats_of(peer)
        if not seats:
            return None
        resigned = self.resigned_seats()
        if all(seat in resigned for seat in seats):
            return "a player who resigned cannot offer a draw: it is out of the game"
        return None

    def resigned_seats(self) -> frozenset[int]:
        """The seats a RESIGN ply of the chain resigned (a takeback never undoes one)."""
        head = self.chain.head
        if self._resigned[0] != head.chain_digest:
            seats = frozenset(
                int(state.record.body["seat"])
                for state in (self.chain.at(ply) for ply in range(1, head.ply + 1))
                if state.record.kind == RESIGN
            )
            self._resigned = (head.chain_digest, seats)
        return self._resigned[1]

    def bot_answer(self, what: str, *, own: bool) -> str | None:
        """Why this peer's bots decline a ``"draw"`` or a ``"takeback"`` on the head
        (``LocalSeats.bot_refusal``; ``own``: its own seat's bot too), or None."""
        head = self.chain.head
        if what == "draw":
            return self.local.bot_refusal(head, "draw", own=own)
        restored = self.chain.at(head.ply - 1).engine_state if head.ply else None
        taken_back = sum(
            1 for ply in range(1, head.ply + 1) if self.chain.at(ply).record.kind == TAKEBACK
        )
        return self.local.bot_refusal(head, "takeback", restored, taken_back, own=own)

    def _bots_answer_draw(self, offer: SignedRecord, prev: bytes) -> None:
        """A peer without a person answers a draw offer on its head by its bots' rule."""
        head = self.chain.head
        if not self._auto_consent or not self.live() or offer.author == self.me:
            return
        if prev != head.chain_digest or self._draw_answered == prev:
            return
        self._draw_answered = prev
        agreed = self.me in self.outside.consents_for(prev)
        if not agreed and self.bot_answer("draw", own=True) is None:
            self.sign_outside(DRAW_ACCEPT, {"ply": head.ply + 1, "prev": prev})

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
        if self.takebacks.held_until(head.chain_digest, self.now) is not None:
            return None
        return self.local.next_action(head, self.outside, self.now)

    def _on_takeback(self, record: SignedRecord) -> None:
        """An ask or consent: judged against the position it binds, kept, void unless that
        position is the head; a peer without a person consents to a valid ask at once."""
        who = self.describe(record.author)
        try:
            ply, prev = self.takebacks.read(record)
        except Malformed as error:
            self.reject(record, f"{who} sent a malformed {record.kind}: {error}")
            return
        if ply - 1 > self.chain.head.ply:
            self.buffer(record, ply - 1)
            return
        position = self.chain.at(ply - 1)
        current = position is self.chain.head and prev == position.chain_digest
        if record.kind == TAKEBACK_ASK and prev == position.chain_digest:
            why = ask_refusal(position, record.author, self.describe)
            if why is not None:
                self.reject(
                    record, f"{who} asked to take back ply {ply - 1}, but {why}; it was ignored"
                )
                return
        self.accept(record)  # logged even when it repeats its author: no seq gap
        if not self.takebacks.add(record, prev):
            return  # its author said so already there: the first one counts
        if record.author == self.me and record.kind == TAKEBACK_CONSENT:
            self.takebacks.hold(prev, self.now + HOLD)
        if not current:
            return  # void: the chain has moved on (or never passed there)
        if record.kind == TAKEBACK_ASK:
            self.out.events.append(TakebackAsked(record.author, who, ply - 1))
            mine = self.me in self.takebacks.consents_on(prev)
            asker = record.author == self.me  # its consent comes with the ask
            agree = self._auto_consent and not mine and not asker and self.live()
            if agree and self.bot_answer("takeback", own=True) is None:
                self.sign_outside(TAKEBACK_CONSENT, {"ply": ply, "prev": prev})
        else:
            ask = self.takebacks.ask_on(prev)
            if ask is None or ask.author != record.author:  # not the asker's own consent
                self.out.events.append(TakebackConsented(record.author, who, ply - 1))
