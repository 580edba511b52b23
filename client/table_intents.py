"""What a player asks its table to do: move, resign, offer or accept a draw, take back,
chat, point.

``TableIntents`` is the layer of ``client.table.Table`` that turns a player's intent into
signed records.  Invariants:

* an intent is refused with ``IntentRefused`` and a sentence for the player — nothing
  signed, nothing changed — when this peer is a spectator, was removed, or the table was
  abandoned; one that signs a ply or a draw or takeback record also when the table is
  halted, the game is over, the genesis is not final or a vote freezes the head;
* every intent passes ``now`` and returns the table's ``Output``, like ``receive``;
* a resignation asked for before its turn is sent when that player's turn comes;
* a peer whose every seat resigned cannot offer a draw (it has left the game: a draw would
  turn its loss into a draw), and a draw or a takeback the bots this peer runs decline is
  refused with their reason (``client.bots.answers``), nothing signed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from client.events import Output
from client.records import (
    CHAT,
    DRAW_ACCEPT,
    DRAW_OFFER,
    MOVE,
    POINT,
    TAKEBACK_ASK,
    TAKEBACK_CONSENT,
)
from client.seating import IntentRefused
from client.table_core import TableCore
from client.table_outside import TableOutside


class TableIntents(TableCore):
    """A player's intents at the table."""

    outside_records: TableOutside

    def _run(self) -> Output:
        """Handle what is in the inbox, let local keys act (``client.table.Table``)."""
        raise NotImplementedError

    def move(self, move: Any, now: float) -> Output:
        """Sign ``move`` for the seat to move (``IntentRefused`` saying why not)."""
        self.now = now
        self._refuse_unless(playing=True)
        signer = self.local.signer_to_move(self.chain.head)
        self.local.check_move(self.chain.head, move)
        seat = self.engine.to_move(self.chain.head.engine_state)
        self.sign_ply(signer, MOVE, {"seat": seat, "move": self.engine.move_to_wire(move)})
        return self._run()

    def resign(self, now: float, seat: int | None = None) -> Output:
        """Resign this peer's seat; it is sent at that player's own turn (maybe at once)."""
        self.now = now
        self._refuse_unless(playing=True)
        self.local.want_resign(self.chain.head, seat)
        return self._run()

    def offer_draw(self, now: float) -> Output:
        """Offer a draw in the current position (with this peer's own acceptance)."""
        self.now = now
        self._refuse_unless(playing=True)
        assert self.me is not None
        why = self.outside_records.draw_offer_refusal(self.me)
        if why is not None:
            raise IntentRefused(why)
        position = self.local.draw_position(self.chain.head, self.outside, offer=True)
        self._refuse_unless_bots_agree("draw")
        self.sign_outside(DRAW_OFFER, position)
        self.sign_outside(DRAW_ACCEPT, position)
        return self._run()

    def accept_draw(self, now: float) -> Output:
        """Accept the draw offered in the current position."""
        self.now = now
        self._refuse_unless(playing=True)
        position = self.local.draw_position(self.chain.head, self.outside, offer=False)
        self._refuse_unless_bots_agree("draw")
        self.sign_outside(DRAW_ACCEPT, position)
        return self._run()

    def ask_takeback(self, now: float) -> Output:
        """Ask to take back the last ply, this player's own move (with this peer's consent)."""
        self.now = now
        self._refuse_unless(playing=True)
        assert self.me is not None
        position = self.takebacks.ask_position(self.chain.head, self.me, self.describe)
        self._refuse_unless_bots_agree("takeback")
        self.sign_outside(TAKEBACK_ASK, position)
        self.sign_outside(TAKEBACK_CONSENT, position)
        return self._run()

    def consent_takeback(self, now: float) -> Output:
        """Consent to take back the last ply, as another peer asked."""
        self.now = now
        self._refuse_unless(playing=True)
        assert self.me is not None
        position = self.takebacks.consent_position(self.chain.head, self.me)
        self._refuse_unless_bots_agree("takeback")
        self.sign_outside(TAKEBACK_CONSENT, position)
        return self._run()

    def chat(self, text: str, now: float) -> Output:
        self.now = now
        self._refuse_unless(playing=False)
        body = {"text": self.local.check_chat(text)}
        self._keep_pace(CHAT, "you are sending lines faster than the table takes them")
        self.sign_outside(CHAT, body)
        return self._run()

    def point(
        self, arrows: Sequence[tuple[int, int]], squares: Sequence[int], now: float
    ) -> Output:
        """Show arrows and highlighted squares (the engine's square numbers) to everyone;
        none of either clears this peer's marks."""
        self.now = now
        self._refuse_unless(playing=False)
        body = self.local.check_point(arrows, squares)
        self._keep_pace(POINT, "you are pointing faster than the table takes it")
        self.sign_outside(POINT, {"ply": self.chain.head.ply, **body})
        return self._run()

    def _keep_pace(self, kind: str, why: str) -> None:
        """Refuse a line or a pointing the others would drop (``client.flood_guard``): a
        player who pastes a page learns it here rather than wondering who saw what."""
        assert self.me is not None
        if not self._own_pace.spend(self.me, kind, self.now):
            raise IntentRefused(f"{why}; wait a moment")

    def _refuse_unless_bots_agree(self, what: str) -> None:
        """``IntentRefused`` when a bot this peer hosts declines (``client.bots.answers``):
        this peer's agreement speaks for its bots' seats too (its own seat's bot, with
        ``--bot``, is this peer: what it asks for is that seat's will)."""
        why = self.outside_records.bot_answer(what, own=False)
        if why is not None:
            raise IntentRefused(why)

    def _refuse_unless(self, *, playing: bool) -> None:
        """``IntentRefused`` for a spectator, or (``playing``) when plies cannot be signed."""
        if self.me is None:
            raise IntentRefused("you are watching this table: spectators do not play or talk")
        if not self.seated:
            raise IntentRefused("you were removed from this table: you can only watch")
        if self.ended and self.abandoned is not None:
            raise IntentRefused("the table was abandoned")
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
        if self.ballot.frozen(self.chain.head):
            raise IntentRefused(
                "a vote to remove an absent player is under way: wait until it is settled"
            )
