"""A networked table as the Qt client sees it: a ``GameSession`` and the lobby before it.

``NetSession`` wraps a hosting or joining ``Peer`` (``stay=True``: it never leaves by
itself after the game).  Before START it feeds a ``LobbyModel`` from the rosters and
carries out the lobby screen's intents (``LobbyIntents``); from START on it is a
``GameSession``: ``snapshot`` reads the table, intents go to the table core, and the core's
events become session events.  ``started`` tells the window when to leave the lobby.

Invariants: every intent is synchronous and never raises for the player's mistakes (a
``SessionError`` event says why); the snapshot is rebuilt after every change and is an
immutable value; plies appear once each, in chain order, as the table applies them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from client.node.lobby import JoinRefused
from client.node.lobby_model import LobbyModel, LobbySeat, LobbyView
from client.node.lobby_wire import LobbyChanged, Roster
from client.node.peer_events import (
    EvidenceWritten,
    HostNotice,
    JoinFailed,
    LinkLost,
    LinkRefused,
    NameWarning,
    PeerEvent,
    TableFlooded,
    TableStarted,
)
from client.node.peer_node import next_role
from client.node.rematch import RematchChanged, RematchReady
from client.rules.bot_names import BotNamer, bot_name
from client.rules.chain import TableState
from client.rules.clock import CLOCKED_KINDS
from client.rules.clock_history import lost_on_time, verdict_on
from client.rules.divergence import Evidence
from client.rules.errors import Malformed
from client.rules.records import DRAW, HALT, REMOVE, RESIGN, TAKEBACK, key_label
from client.rules.removal import abandoned_outcome, read_proposal
from client.rules.seat_words import with_seat_names
from client.rules.seated_names import seat_name
from client.rules.start import SeatSpec
from client.rules.takeback import refusal
from client.runtime.peer import Peer
from client.sessions.notices import notice
from client.sessions.session_api import (
    ChatEntry,
    ChatLine,
    GameEnded,
    GameSession,
    Halted,
    Listener,
    NextTable,
    PlayersChanged,
    PlyView,
    Pointed,
    RematchView,
    SeatView,
    SessionError,
    SessionEvent,
    SessionSnapshot,
    StateChanged,
    TakebackView,
)
from client.sessions.table_addresses import table_addresses
from client.tabletop.events import (
    ChatReceived,
    DrawOffered,
    EvidenceUpdated,
    GameOver,
    PeerLeft,
    PlyApplied,
    PlyDropped,
    PlyFinal,
    PointReceived,
    PresenceChanged,
    TableEnded,
    TableHalted,
    TableNotice,
    TableRejected,
    TakebackAsked,
    TakebackConsented,
    VoteReceived,
)
from client.tabletop.seating import IntentRefused
from client.tabletop.table import handing
from client.tabletop.table_clock import ClockDisplay
from client.tabletop.table_input import (
    AcceptDraw,
    AskTakeback,
    Chat,
    ConsentTakeback,
    Intent,
    OfferDraw,
    PlayMove,
    Point,
    Resign,
)
from client.tabletop.table_view import TableView
from engines import InvalidMove, InvalidParams, Outcome
from net.errors import IdentityError, LinkError
from net.invite import Invite

__all__ = ["NetSession"]


class NetSession:
    """A ``GameSession`` and ``LobbyIntents`` over a networked table."""

    def __init__(self, peer: Peer, *, port: int = 0, bot_namer: BotNamer = bot_name) -> None:
        self.peer = peer
        self.port = port
        self._bot_namer = bot_namer
        """How a bot is named (``client.rules.bot_names``; the window's namer translates)."""
        self.started = False
        self.invite: Invite | None = None
        """The invite this peer hosts with, once its table is open (None for a joiner)."""
        host = peer.host
        game = host.config.engine.name if host is not None else ""
        self.lobby = LobbyModel(LobbyView(game=game, is_host=host is not None))
        self._listeners: list[Listener] = []
        self._plies: list[PlyView] = []
        self._chat: list[ChatEntry] = []
        self._offers: set[bytes] = set()
        self._refused: bytes | None = None
        """The position on which this player refused a takeback (the prompt stays hidden)."""
        self._halted: Halted | None = None
        self._halt_claims: set[bytes] = set()
        """The HALTs whose claim was shown (each once)."""
        self._evidence: Path | None = None
        self._away: set[bytes] = set()
        self._ended: Outcome | None = None
        """How the table ended when its game did not (an abandoned 2-peer table's END)."""
        self._absent: tuple[str, ...] = ()
        self._absent_left = False
        self._removed = False
        """This player was voted off: the table goes on without it (it watches)."""
        self._stopped = ""
        self._told_late: set[int] = set()
        """The plies whose seat's loss on time the chat said (each once)."""
        self._snapshot: SessionSnapshot | None = None
        peer.observers.append(self._on_event)

    # --- GameSession --------------------------------------------------------------------------
    @property
    def snapshot(self) -> SessionSnapshot:
        if self._snapshot is None:
            raise RuntimeError("the game has not started yet (watch NetSession.started)")
        return self._snapshot

    @property
    def came_back(self) -> bool:
        """This player came back to the table mid-game (a rejoin): the window did not see
        the game from its start, so it cannot know how long it lasted."""
        return self.peer.resumed

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        self._listeners.append(listener)

        def unsubscribe() -> None:
            if listener in self._listeners:
                self._listeners.remove(listener)

        return unsubscribe

    def move(self, wire: Sequence[int]) -> None:
        table = self._table()
        try:
            move = None if table is None else table.engine.move_from_wire(list(wire))
        except InvalidMove as error:
            self._emit(SessionError(f"That move is not allowed: {error}"))
            return
        self._intent(lambda now: PlayMove(move, now), "That move is not allowed")

    def resign(self) -> None:
        self._intent(Resign, "You cannot resign")

    def offer_draw(self) -> None:
        self._intent(OfferDraw, "You cannot offer a draw")

    def accept_draw(self) -> None:
        self._intent(AcceptDraw, "You cannot accept a draw")

    def take_back(self) -> None:
        self._intent(AskTakeback, "You cannot take back")

    def consent_takeback(self) -> None:
        self._intent(ConsentTakeback, "You cannot consent")

    def refuse_takeback(self) -> None:
        table = self._table()
        if table is not None and table.takebacks.pending(table.head) is not None:
            self._refused = table.head.chain_digest
            self._refresh(PlayersChanged(self._seats()))

    def chat(self, text: str) -> None:
        self._intent(lambda now: Chat(text, now), "Your message was not sent")

    def point(self, arrows: Sequence[tuple[int, int]], squares: Sequence[int]) -> None:
        self._intent(lambda now: Point(tuple(arrows), tuple(squares), now), "Not shown")

    def play_again(self) -> None:
        """Accept to play again with the same players, seats rotated (``client.node.rematch``)."""
        if not self.peer.rematch.answer(True):
            self._emit(SessionError("You cannot ask to play again now."))

    def leave(self) -> None:
        self.peer.leave_table(0 if self._table() is not None else 1)

    def clocks(self) -> ClockDisplay | None:
        return self.peer.clocks()

    async def serve(self) -> None:
        """Listen (host) or dial (join), then run the table until the player leaves."""
        if self.peer.host is not None:
            try:
                invite = await self.peer.open(self.port)
            except LinkError as error:  # the window goes back to its start screen
                self.lobby.fail(str(error), f"listen:{error.problem or 'other'}")
                self._emit(SessionError(str(error)))
                return
            self.invite = invite
            self.lobby.update(invite=str(invite), host_fingerprint=invite.fingerprint)
        await self.peer.run()

    def _intent(self, intent: Callable[[float], Intent], failure: str) -> None:
        try:
            self.peer.act(handing(intent))
        except IntentRefused as error:
            self._emit(SessionError(f"{failure}: {error}"))

    def addresses(self) -> tuple[str, ...]:
        """Every ``host:port`` this table's peers listen at, as far as this peer knows."""
        return table_addresses(self.peer, self.invite)

    # --- LobbyIntents ---------------------------------------------------------------------------
    def set_ready(self, ready: bool) -> None:
        self._lobby_intent(lambda: self.peer.set_ready(ready))

    def add_bot(self) -> None:
        self._lobby_intent(self.peer.add_bot)

    def remove_bot(self, seat: int) -> None:
        self._lobby_intent(lambda: self.peer.remove_bot(seat))

    def remove_player(self, seat: int) -> None:
        peer = self.peer
        if peer.host is None:
            self.lobby.update(status="Only the host sends players away.")
            return

        def remove() -> None:
            name = peer.remove_player(seat)
            self.lobby.update(status=f"{name} was sent away and will not be admitted again.")

        self._lobby_intent(remove)

    def start(self) -> None:
        peer = self.peer
        if peer.host is not None:
            self._lobby_intent(peer.start_table)
        else:
            self.lobby.update(status="Only the host starts the game.")

    def _lobby_intent(self, action: Callable[[], None]) -> None:
        try:
            action()
        except JoinRefused as refusal:
            self.lobby.update(status=str(refusal))

    # --- events ---------------------------------------------------------------------------------
    def _on_event(self, event: PeerEvent) -> None:
        match event:
            case LobbyChanged():
                self._on_lobby_changed(event)
            case JoinFailed():
                self._on_join_failed(event)
            case NameWarning():
                self._on_name_warning(event)
            case LinkRefused():
                self._on_link_refused(event)
            case TableStarted():
                self._on_table_started(event)
            case PlyApplied():
                self._on_ply_applied(event)
            case PlyFinal():
                self._on_ply_final(event)
            case ChatReceived():
                self._on_chat_received(event)
            case PointReceived():
                self._on_point_received(event)
            case DrawOffered():
                self._on_draw_offered(event)
            case TakebackAsked():
                self._on_takeback_asked(event)
            case TakebackConsented():
                self._on_takeback_consented(event)
            case TableFlooded():
                self._on_table_flooded(event)
            case TableRejected():
                self._on_table_rejected(event)
            case EvidenceWritten():
                self._on_evidence_written(event)
            case TableHalted():
                self._on_table_halted(event)
            case EvidenceUpdated():
                self._on_evidence_updated(event)
            case GameOver():
                self._on_game_over(event)
            case VoteReceived():
                self._on_vote_received(event)
            case PeerLeft():
                self._notice("player-left-table", name=self._name_of(event.key) or event.name)
            case PlyDropped():
                self._on_ply_dropped(event)
            case HostNotice() | TableNotice():
                self._on_notice(event)
            case TableEnded():
                self._on_table_ended(event)
            case RematchChanged():
                self._on_rematch_changed(event)
            case RematchReady():
                self._on_rematch_ready(event)
            case LinkLost():
                self._on_link_lost(event)
            case PresenceChanged():
                self._on_presence_changed(event)
            case _:
                pass  # not shown in the window (records sent, mDNS notes, ...)

    def _on_lobby_changed(self, event: LobbyChanged) -> None:
        roster = event.roster
        self.lobby.update(
            game=roster.game,
            host_name=roster.peers[0].name if roster.peers else "",
            options=", ".join(f"{k}={v}" for k, v in sorted(roster.options.items())),
            seats=self._lobby_seats(roster),
            status="; ".join(roster.waiting) or "Everyone is ready.",
            clock="" if roster.clock is None else roster.clock.describe(),
            machines=len(roster.peers),
        )

    def _lobby_seats(self, roster: Roster) -> tuple[LobbySeat, ...]:
        seats = []
        for seat in roster.seats:
            runner = roster.peer(seat.runner or seat.key or b"")
            seats.append(
                LobbySeat(
                    seat.seat,
                    name="" if seat.key is None else roster.holder(seat),
                    fingerprint="" if seat.key is None else key_label(seat.key),
                    is_bot=seat.is_bot,
                    ready=runner is not None and runner.ready,
                    is_mine=seat.key == self.peer.me or seat.runner == self.peer.me,
                    runner=runner.name if runner is not None and seat.is_bot else "",
                    level=seat.level if seat.runner is not None else seat.own_bot,
                    own_bot=seat.own_bot is not None,
                )
            )
        return tuple(seats)

    def _on_join_failed(self, event: JoinFailed) -> None:
        self.lobby.fail(event.reason, event.kind)
        self._emit(SessionError(event.reason))

    def _on_name_warning(self, event: NameWarning) -> None:
        if event.text not in self.lobby.view.warnings:
            self.lobby.update(warnings=(*self.lobby.view.warnings, event.text))
        self._notice("warning", text=event.text)

    def _on_link_refused(self, event: LinkRefused) -> None:
        self._notice("refused", reason=event.reason)

    def _on_table_started(self, event: TableStarted) -> None:
        self.started = True
        self._refresh(PlayersChanged(self._seats()))

    def _on_ply_applied(self, event: PlyApplied) -> None:
        table = self._table()
        assert table is not None
        state = event.state
        before = table.chain.at(state.ply - 1).engine_state
        seat = state.seat or 0
        player = table.engine.controller(before, seat) if seat else 0
        kinds = {RESIGN: "resign", DRAW: "draw", TAKEBACK: "takeback", REMOVE: "remove"}
        kind = kinds.get(state.record.kind, "move")
        asked = table.takebacks.pending(table.chain.at(state.ply - 1))
        if asked is not None and kind != "takeback":
            self._notice("takeback-lapsed", ply=asked.ply)
        wire = tuple(state.record.body.get("move", ())) if kind == "move" else ()
        removed = self._removed_names(state.record.body) if kind == "remove" else ()
        by = self._holder_name(table.chain.at(state.ply - 1), player) if player else ""
        self._plies.append(
            PlyView(state.ply, seat, player, kind, state.label, wire, removed, by=by)
        )
        self._offers.clear()
        removed_me = kind == "remove" and table.removed_me_at(state.ply)
        self._removed = self._removed or removed_me
        last = self._plies[-1]
        self._refresh(StateChanged(state.ply, table.final_ply, last))
        self._emit(PlayersChanged(self._seats()))
        if removed_me:
            me = table.me
            self._notice("left-watching" if me is not None and table.has_left(me) else "voted-off")
        self._tell_time_losses()

    def _on_ply_final(self, event: PlyFinal) -> None:
        if self._table() is not None:  # ply 0 too: the table is live from then on
            last = self._plies[-1] if self._plies else None
            self._refresh(StateChanged(len(self._plies), event.ply, last))
            self._tell_time_losses()

    def _tell_time_losses(self) -> None:
        """Say in the chat who lost on time, once the verdict is given, while the game goes
        on without them (at its end, the game-over line says it)."""
        table = self._table()
        if table is None or table.start.clock is None:
            return
        for seat, ply in lost_on_time(table.chain):
            if ply in self._told_late:
                continue
            self._told_late.add(ply)
            if table.chain.outcome() is None:
                self._notice("lost-on-time", name=self._seat_name(seat))

    def _seat_name(self, seat: int) -> str:
        return next((view.name for view in self._seats() if view.seat == seat), f"seat {seat}")

    def _on_chat_received(self, event: ChatReceived) -> None:
        author = self._name_of(event.author) or event.name
        self._add_chat(ChatEntry(len(self._plies), self._seat_of(event.author), author, event.text))

    def _on_point_received(self, event: PointReceived) -> None:
        seat = self._seat_of(event.author)
        self._emit(Pointed(event.ply, seat, event.name, event.arrows, event.squares))

    def _on_draw_offered(self, event: DrawOffered) -> None:
        self._offers.add(event.author)
        self._notice("draw-offered", name=event.name)
        self._emit(PlayersChanged(self._seats()))

    def _on_takeback_asked(self, event: TakebackAsked) -> None:
        self._notice("takeback-asked", name=event.name, ply=event.ply)
        self._emit(PlayersChanged(self._seats()))

    def _on_takeback_consented(self, event: TakebackConsented) -> None:
        self._notice("takeback-consented", name=event.name, ply=event.ply)
        self._emit(PlayersChanged(self._seats()))

    def _on_table_flooded(self, event: TableFlooded) -> None:
        name = self._name_of(event.key) or event.name
        self._notice(event.notice_key, name=name, count=f"{event.dropped:,}")

    def _on_table_rejected(self, event: TableRejected) -> None:
        self._notice("refused", reason=event.reason)

    def _on_evidence_written(self, event: EvidenceWritten) -> None:
        if event.halted:
            self._evidence = event.path
            if self._halted is not None:
                self._halted = replace(self._halted, evidence=str(event.path))
                self._refresh(self._halted)
        else:
            self._notice("evidence-written", path=event.path)

    def _on_table_halted(self, event: TableHalted) -> None:
        self._halt(event.evidence)

    def _on_evidence_updated(self, event: EvidenceUpdated) -> None:
        self._halt(event.evidence)

    def _halt(self, evidence: Evidence) -> None:
        """The table halted, or learnt more about why: name the culprits the evidence
        names (none when there is no majority), with the verdict and the reason."""
        table = self._table()
        assert table is not None
        first = self._halted is None
        culprits = ", ".join(table.describe(key) for key in evidence.culprits)
        # A divergence opened by another peer's HALT has that peer's claim for its reason:
        # the verdict alone is the table's finding, and each claim is shown as a claim.
        claimed = evidence.kind == "halt"
        message = evidence.verdict if claimed else f"{evidence.verdict} ({evidence.reason})"
        self._halted = Halted(evidence.ply, culprits, str(self._evidence or ""), message)
        self._refresh(self._halted)
        if first:
            self._notice("halted", ply=evidence.ply, message=message)
        for record in evidence.records:
            if record.kind == HALT and record.record_hash not in self._halt_claims:
                self._halt_claims.add(record.record_hash)
                if record.author != table.me:
                    name = self._name_of(record.author) or table.describe(record.author)
                    claim = str(record.body.get("reason", "")) or "—"
                    self._notice("halt-claim", name=name, ply=record.body.get("ply"), claim=claim)

    def _on_game_over(self, event: GameOver) -> None:
        self._notice("game-over", summary=with_seat_names(event.outcome.summary, self._seat_name))
        self._refresh(GameEnded(event.outcome))

    def _on_vote_received(self, event: VoteReceived) -> None:
        name = self._name_of(event.author) or event.name  # players' names, not key labels
        names = [
            self._name_of(key) or label
            for key, label in zip(event.removed, event.names, strict=True)
        ]
        self._notice("vote-remove", name=name, names=", ".join(names))

    def _on_ply_dropped(self, event: PlyDropped) -> None:
        if self._plies and self._plies[-1].ply == event.state.ply:
            self._plies.pop()
        self._notice("ply-dropped", ply=event.state.ply, label=event.state.label)

    def _on_notice(self, event: HostNotice | TableNotice) -> None:
        """The host's word in the lobby (``HostNotice``), the table's after START."""
        if self.started:
            self._notice("host-says", text=event.text)
        else:
            self.lobby.update(status=event.text)

    def _on_table_ended(self, event: TableEnded) -> None:
        """Every END came (it can play again), or the table ended without its game's end:
        abandoned, when the other peer of two stayed away.  That is an ending like a won
        game's: the same ``GameEnded``, with the outcome in the snapshot."""
        table = self._table()
        if table is not None and table.chain.outcome() is None and self._ended is None:
            absent = table.abandoned[1] if table.abandoned is not None else ()
            self._absent = tuple(self._name_of(key) or "?" for key in absent)
            self._absent_left = table.absent_left
            # The signed summary names peers by key for the game file; players read names.
            summary = abandoned_outcome(
                table.start, absent, table.absent_left, lambda key: self._name_of(key) or "?"
            ).summary
            self._ended = replace(event.outcome, summary=summary)
            self._notice("game-over", summary=summary)
            self._refresh(GameEnded(self._ended))
        self._refresh(PlayersChanged(self._seats()))

    def _on_rematch_changed(self, event: RematchChanged) -> None:
        self._refresh(PlayersChanged(self._seats()))

    def _on_rematch_ready(self, event: RematchReady) -> None:
        peer = self.peer
        try:
            config = peer.config.next_table(stay=True)
            role = next_role(event.next, peer.name, config, secret=peer.secret)
            nxt = Peer(peer.identity, role, config)
        except (IdentityError, InvalidParams, LookupError) as error:
            self._emit(SessionError(f"The new table cannot be opened: {error}"))
            return
        self._emit(NextTable(NetSession(nxt, port=event.next.port, bot_namer=self._bot_namer)))

    def _on_link_lost(self, event: LinkLost) -> None:
        if not event.fatal:
            return
        if event.key is not None:
            self._away.add(event.key)
        self._stopped = f"{event.name} left the table ({event.reason})"
        self._notice("player-left", name=event.name, reason=event.reason)
        self._emit(PlayersChanged(self._seats()))

    def _on_presence_changed(self, event: PresenceChanged) -> None:
        """A peer is shown away, or back (the mesh's presence, ``client.tabletop.presence``)."""
        if event.present:
            self._away.discard(event.key)
        else:
            self._away.add(event.key)
        name = self._name_of(event.key) or event.name  # the player's name, not a key label
        self._notice("player-back" if event.present else "player-away", name=name)
        self._refresh(PlayersChanged(self._seats()))

    # --- helpers ----------------------------------------------------------------------------------
    def _table(self) -> TableView | None:
        """The table's read-only view (None before START)."""
        table = self.peer.table
        return None if table is None else table.view

    def _removed_names(self, body: Mapping[str, object]) -> tuple[str, ...]:
        """The players an applied REMOVE took off, by the names they gave (a key label for a
        peer without one): the move list says them in the player's words."""
        try:
            keys = read_proposal(body).removed
        except Malformed:  # never for an applied REMOVE (it was read to be applied)
            return ()
        return tuple(self._name_of(key) or key_label(key) for key in keys)

    def _name_of(self, key: bytes) -> str:
        """The name a peer of the table gave (empty for anyone else)."""
        table = self._table()
        if table is None:
            return ""
        return next((peer.name for peer in table.start.peers if peer.key == key), "")

    def _seat_of(self, key: bytes) -> int | None:
        table = self._table()
        if table is None:
            return None
        seats = table.head.seats_of(key)
        return seats[0] if seats else None

    def _position_at(self, ply: int) -> object | None:
        """The position after ``ply`` plies, from the chain (every state is kept there)."""
        table = self._table()
        if table is None or not 0 <= ply <= table.chain.head.ply:
            return None
        return table.chain.at(ply).engine_state

    def _holder_name(self, state: TableState, seat: int) -> str:
        """Who holds ``seat`` in ``state``, by name: the player, or the bot in their seat."""
        for spec in state.seats:
            if spec.seat == seat:
                return self._spec_name(spec)
        return ""

    def _spec_name(self, spec: SeatSpec) -> str:
        table = self._table()
        assert table is not None
        names = {peer.key: peer.name for peer in table.start.peers}
        return seat_name(spec, names, self._bot_namer)

    def _seats(self) -> tuple[SeatView, ...]:
        table = self._table()
        if table is None:
            return ()
        head = table.head
        views = []
        for spec in head.seats:
            runner = spec.runner
            name = self._spec_name(spec)
            player = runner or spec.key
            away = player in self._away or (player != table.me and not table.present(player))
            views.append(
                SeatView(
                    seat=spec.seat,
                    name=name,
                    is_bot=spec.bot_runner is not None,
                    controller=table.engine.controller(head.engine_state, spec.seat),
                    is_mine=self.peer.me in (spec.key, runner),
                    fingerprint=key_label(spec.key),
                    present=not away,
                )
            )
        return tuple(views)

    def _snapshot_now(self) -> SessionSnapshot | None:
        table = self._table()
        if table is None:
            return None
        head = table.head
        # A halted table shows the last position every peer agreed on, not its own head.
        shown = table.chain.at(max(table.final_ply, 0)) if self._halted is not None else head
        mine = head.seats_of(self.peer.me) if table.me is not None else ()
        offered = tuple(s for key in self._offers for s in head.seats_of(key))
        return SessionSnapshot(
            position_at=self._position_at,
            title=f"{table.engine.name.capitalize()} at a networked table",
            engine=table.engine,
            state=shown.engine_state,
            plies=tuple(self._plies),
            final_ply=max(table.final_ply, 0),
            seats=self._seats(),
            my_seat=mine[0] if mine else None,
            chat=tuple(self._chat),
            outcome=self._judged_outcome(table) or self._ended,
            absent=self._absent,
            absent_left=self._absent_left,
            removed=self._removed,
            left=table.me is not None and table.has_left(table.me),
            draw_offered_by=offered,
            peers=len(head.peers),
            digest=shown.engine_digest,
            shown_ply=shown.ply if self._halted is not None else None,
            starting=table.final_ply < 0,
            stopped=self._stopped,
            halted=self._halted,
            can_take_back=self._can_take_back(),
            takeback=self._takeback_view(),
            rematch=self._rematch_view(),
            lost_on_time=tuple(lost_on_time(table.chain)),
            clock="" if table.start.clock is None else table.start.clock.describe(),
        )

    @staticmethod
    def _judged_outcome(table: TableView) -> Outcome | None:
        """The game's outcome once its clock, if any, judged the last ply: a last ply that
        came too late had no effect, and the result is then its seat's loss on time."""
        chain = table.chain
        outcome = chain.outcome()
        head = chain.head
        timed = chain.start.clock is not None and head.record.kind in CLOCKED_KINDS
        ended = table.ended or table.abandoned is not None  # no verdict will come any more
        if outcome is not None and timed and not ended and verdict_on(chain, head.ply) is None:
            return None  # not over until the verdict says how
        return outcome

    def _can_take_back(self) -> bool:
        table = self._table()
        if table is None or not table.live():
            return False
        head = table.head
        return (
            refusal(head, table.describe) is None
            and head.record.author == self.peer.me
            and table.takebacks.pending(head) is None
        )

    def _takeback_view(self) -> TakebackView | None:
        table = self._table()
        if table is None or not table.live():
            return None
        pending = table.takebacks.pending(table.head)
        if pending is None:
            return None
        names = {peer.key: peer.name for peer in table.start.peers}
        me = self.peer.me
        return TakebackView(
            ply=pending.ply,
            asker=names.get(pending.asker, "?"),
            mine=pending.asker == me,
            consented=me in pending.consents,
            refused=self._refused == table.head.chain_digest,
            waiting_for=tuple(names.get(key, "?") for key in pending.missing),
        )

    def _rematch_view(self) -> RematchView | None:
        rematch = self.peer.rematch
        table = self._table()
        if not rematch.ended or table is None or table.me is None:
            return None
        if table.me not in table.head.peers:  # left or voted off: it watches, it has no seat
            return None
        if self._ended is not None:
            return None  # abandoned: the other player is gone, there is nobody to ask
        view = rematch.view()
        return RematchView(view.accepted, view.declined, view.waiting, view.mine)

    def _notice(self, key: str, **params: object) -> None:
        """Add the table's notice ``key`` (``client.sessions.notices``) to the chat."""
        said = notice(key, **params)
        self._add_chat(ChatEntry(len(self._plies), None, "table", said.english(), said))

    def _add_chat(self, entry: ChatEntry) -> None:
        self._chat.append(entry)
        self._refresh(ChatLine(entry))

    def _refresh(self, event: SessionEvent) -> None:
        self._snapshot = self._snapshot_now()
        self._emit(event)

    def _emit(self, event: SessionEvent) -> None:
        if self._snapshot is None and not isinstance(event, SessionError):
            return  # nothing to show before START: the lobby model speaks then
        for listener in list(self._listeners):
            listener(event)


if TYPE_CHECKING:
    _IS_A_SESSION: type[GameSession] = NetSession
