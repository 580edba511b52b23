"""Records outside the chain at the table: chat, pointing, draw offers, takebacks.

``TableOutside`` is the layer of ``client.table.Table`` that keeps chat, POINT, DRAW_OFFER,
DRAW_ACCEPT (``client.outside``) and TAKEBACK_ASK and TAKEBACK_CONSENT
(``client.takeback``), in arrival order.  Invariants:

* none of them changes the chain; each is logged when it is well formed (a repeated ask or
  consent too, so a seq never leaves a gap) and only the first of an author on a position
  counts;
* asks and consents bind a position (ply and chain digest): they are void once another ply
  is appended there, and events are emitted only for those on the head;
* a peer without a person consents by itself to every valid ask on its head while ``live``;
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
    DRAW_OFFER,
    POINT,
    TAKEBACK,
    TAKEBACK_ASK,
    TAKEBACK_CONSENT,
    SignedRecord,
)
from client.seating import IntentRefused
from client.table_claims import TableClaims
from client.takeback import HOLD, TAKEBACK_KINDS, ask_refusal


class TableOutside(TableClaims):
    """Chat, pointing, draws and takebacks: the records outside the chain."""

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
