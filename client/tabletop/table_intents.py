"""What a player asks its table to do: move, resign, offer or accept a draw, take back,
chat, point, leave.

``TableIntents`` is the part of ``client.tabletop.table.Table`` that turns a player's intent into
signed records.  Invariants:

* an intent is refused with ``IntentRefused`` and a sentence for the player — nothing
  signed, nothing changed — when this peer is a spectator, was removed, or the table was
  abandoned; one that signs a ply or a draw or takeback record also when the table is
  halted, the game is over, the genesis is not final or a vote freezes the head;
* ``Table.handle`` sets ``now`` before an intent (``client.tabletop.table_input``), hands it to
  ``take`` and runs its loop after it, so an intent returns the table's ``Output`` like a
  received record;
* a resignation asked for before its turn is sent when that player's turn comes;
* a peer whose every seat resigned cannot offer a draw (it has left the game: a draw would
  turn its loss into a draw), and a draw or a takeback the bots this peer runs decline is
  refused with their reason (``client.bots.answers``), nothing signed.
"""

from __future__ import annotations

from collections.abc import Sequence

from client.rules.errors import IntentRefused
from client.rules.records import (
    CHAT,
    DRAW_ACCEPT,
    DRAW_OFFER,
    MOVE,
    POINT,
    TAKEBACK_ASK,
    TAKEBACK_CONSENT,
)
from client.tabletop.flood_guard import FloodGuard
from client.tabletop.table_input import (
    AcceptDraw,
    AskTakeback,
    Chat,
    ConsentTakeback,
    Intent,
    LeaveTable,
    OfferDraw,
    PlayMove,
    Point,
    Resign,
)
from client.tabletop.table_leaving import TableLeaving
from client.tabletop.table_ledger import TableLedger
from client.tabletop.table_outside import TableOutside


class TableIntents:
    """A player's intents at the table."""

    def __init__(self, ledger: TableLedger, outside: TableOutside, leaving: TableLeaving) -> None:
        self._ledger = ledger
        self._chain = ledger.chain
        self._outside = outside
        self._leaving = leaving
        self._own_pace = FloodGuard()
        """This peer's own player's pace of chat and pointing (``client.tabletop.flood_guard``)."""

    def take(self, intent: Intent) -> None:
        """Carry out ``intent`` (``IntentRefused`` saying why not, nothing signed)."""
        match intent:
            case PlayMove(move=move):
                self.move(move)
            case Resign(seat=seat):
                self.resign(seat)
            case OfferDraw():
                self.offer_draw()
            case AcceptDraw():
                self.accept_draw()
            case AskTakeback():
                self.ask_takeback()
            case ConsentTakeback():
                self.consent_takeback()
            case Chat(text=text):
                self.chat(text)
            case Point(arrows=arrows, squares=squares):
                self.point(arrows, squares)
            case LeaveTable():
                self._leaving.leave()

    def move(self, move: object) -> None:
        """Sign ``move`` for the seat to move (``IntentRefused`` saying why not)."""
        self._refuse_unless(playing=True)
        signer = self._ledger.local.signer_to_move(self._chain.head)
        self._ledger.local.check_move(self._chain.head, move)
        seat = self._ledger.engine.to_move(self._chain.head.engine_state)
        body: dict[str, object] = {"seat": seat, "move": self._ledger.engine.move_to_wire(move)}
        clock = self._ledger.clock
        if clock is not None and not clock.may_sign_after(self._ledger.finality.final_ply):
            # the ply before is not final here yet (its last ACK is on its way): the move
            # is signed once it is, carrying every ACK (``LocalSeats.next_action``)
            self._ledger.local.wait_to_move(self._chain.head, body)
            return
        self._ledger.sign_ply(signer, MOVE, body)

    def resign(self, seat: int | None = None) -> None:
        """Resign this peer's seat; it is sent at that player's own turn (maybe at once)."""
        self._refuse_unless(playing=True)
        self._ledger.local.want_resign(self._chain.head, seat)

    def offer_draw(self) -> None:
        """Offer a draw in the current position (with this peer's own acceptance)."""
        self._refuse_unless(playing=True)
        assert self._ledger.me is not None
        why = self._outside.draw_offer_refusal(self._ledger.me)
        if why is not None:
            raise IntentRefused(why)
        position = self._ledger.local.draw_position(
            self._chain.head, self._ledger.outside, offer=True
        )
        self._refuse_unless_bots_agree("draw")
        self._ledger.sign_outside(DRAW_OFFER, position)
        self._ledger.sign_outside(DRAW_ACCEPT, position)

    def accept_draw(self) -> None:
        """Accept the draw offered in the current position."""
        self._refuse_unless(playing=True)
        position = self._ledger.local.draw_position(
            self._chain.head, self._ledger.outside, offer=False
        )
        self._refuse_unless_bots_agree("draw")
        self._ledger.sign_outside(DRAW_ACCEPT, position)

    def ask_takeback(self) -> None:
        """Ask to take back the last ply, this player's own move (with this peer's consent)."""
        self._refuse_unless(playing=True)
        assert self._ledger.me is not None
        position = self._ledger.takebacks.ask_position(
            self._chain.head, self._ledger.me, self._ledger.describe
        )
        self._refuse_unless_bots_agree("takeback")
        self._ledger.sign_outside(TAKEBACK_ASK, position)
        self._ledger.sign_outside(TAKEBACK_CONSENT, position)

    def consent_takeback(self) -> None:
        """Consent to take back the last ply, as another peer asked."""
        self._refuse_unless(playing=True)
        assert self._ledger.me is not None
        position = self._ledger.takebacks.consent_position(self._chain.head, self._ledger.me)
        self._refuse_unless_bots_agree("takeback")
        self._ledger.sign_outside(TAKEBACK_CONSENT, position)

    def chat(self, text: str) -> None:
        self._refuse_unless(playing=False)
        body = {"text": self._ledger.local.check_chat(text)}
        self._keep_pace(CHAT, "you are sending lines faster than the table takes them")
        self._ledger.sign_outside(CHAT, body)

    def point(self, arrows: Sequence[tuple[int, int]], squares: Sequence[int]) -> None:
        """Show arrows and highlighted squares (the engine's square numbers) to everyone;
        none of either clears this peer's marks."""
        self._refuse_unless(playing=False)
        body = self._ledger.local.check_point(arrows, squares)
        self._keep_pace(POINT, "you are pointing faster than the table takes it")
        self._ledger.sign_outside(POINT, {"ply": self._chain.head.ply, **body})

    def _keep_pace(self, kind: str, why: str) -> None:
        """Refuse a line or a pointing the others would drop (``client.tabletop.flood_guard``): a
        player who pastes a page learns it here rather than wondering who saw what."""
        assert self._ledger.me is not None
        if not self._own_pace.spend(self._ledger.me, kind, self._ledger.now):
            raise IntentRefused(f"{why}; wait a moment")

    def _refuse_unless_bots_agree(self, what: str) -> None:
        """``IntentRefused`` when a bot this peer hosts declines (``client.bots.answers``):
        this peer's agreement speaks for its bots' seats too (its own seat's bot, with
        ``--bot``, is this peer: what it asks for is that seat's will)."""
        why = self._outside.bot_answer(what, own=False)
        if why is not None:
            raise IntentRefused(why)

    def _refuse_unless(self, *, playing: bool) -> None:
        """``IntentRefused`` for a spectator, or (``playing``) when plies cannot be signed."""
        if self._ledger.me is None:
            raise IntentRefused("you are watching this table: spectators do not play or talk")
        if not self._ledger.seated:
            raise IntentRefused("you were removed from this table: you can only watch")
        if self._ledger.ended and self._ledger.abandoned is not None:
            raise IntentRefused("the table was abandoned")
        if not playing:
            return
        if self._ledger.divergence is not None:
            raise IntentRefused(f"the table is halted: {self._ledger.divergence.reason}")
        if self._chain.outcome() is not None:
            raise IntentRefused("the game is over")
        if self._ledger.finality.final_ply < 0:
            raise IntentRefused(
                "the game has not started: not every peer has confirmed the start yet"
            )
        if self._ledger.ballot.frozen(self._chain.head):
            raise IntentRefused(
                "a vote to remove an absent player is under way: wait until it is settled"
            )
