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

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from client.events import (
    ChatReceived,
    DrawOffered,
    EvidenceUpdated,
    GameOver,
    PlyApplied,
    PlyDropped,
    PlyFinal,
    PointReceived,
    PresenceChanged,
    RecordRejected,
    TableEnded,
    VoteReceived,
)
from client.events import Halted as TableHalted
from client.hosting import HostPeer
from client.joining import JoinFailed, JoinPeer
from client.lobby import JoinRefused
from client.lobby_model import LobbyModel, LobbySeat, LobbyView
from client.lobby_wire import LobbyChanged, Roster
from client.peer import EvidenceWritten, LinkLost, TableStarted
from client.records import DRAW, REMOVE, RESIGN, key_label
from client.rematch import RematchChanged, RematchReady, next_peer
from client.seating import IntentRefused
from client.session_api import (
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
)
from engines import IllegalMove, InvalidMove, InvalidParams
from net.errors import IdentityError, LinkError

__all__ = ["NetSession"]


class NetSession:
    """A ``GameSession`` and ``LobbyIntents`` over a networked table."""

    def __init__(self, peer: HostPeer | JoinPeer, *, port: int = 0) -> None:
        self.peer = peer
        self.port = port
        self.started = False
        game = peer.engine.name if isinstance(peer, HostPeer) else ""
        self.lobby = LobbyModel(LobbyView(game=game, is_host=isinstance(peer, HostPeer)))
        self._listeners: list[Listener] = []
        self._plies: list[PlyView] = []
        self._chat: list[ChatEntry] = []
        self._offers: set[bytes] = set()
        self._halted: Halted | None = None
        self._evidence: Path | None = None
        self._snapshot: SessionSnapshot | None = None
        peer.observers.append(self._on_event)

    # --- GameSession --------------------------------------------------------------------------
    @property
    def snapshot(self) -> SessionSnapshot:
        if self._snapshot is None:
            raise RuntimeError("the game has not started yet (watch NetSession.started)")
        return self._snapshot

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        self._listeners.append(listener)

        def unsubscribe() -> None:
            if listener in self._listeners:
                self._listeners.remove(listener)

        return unsubscribe

    def move(self, wire: Sequence[int]) -> None:
        def play(table: Any, now: float) -> Any:
            return table.move(table.engine.move_from_wire(list(wire)), now)

        self._intent(play, "That move is not allowed")

    def resign(self) -> None:
        self._intent(lambda table, now: table.resign(now), "You cannot resign")

    def offer_draw(self) -> None:
        self._intent(lambda table, now: table.offer_draw(now), "You cannot offer a draw")

    def accept_draw(self) -> None:
        self._intent(lambda table, now: table.accept_draw(now), "You cannot accept a draw")

    def chat(self, text: str) -> None:
        self._intent(lambda table, now: table.chat(text, now), "Your message was not sent")

    def point(self, arrows: Sequence[tuple[int, int]], squares: Sequence[int]) -> None:
        self._intent(lambda table, now: table.point(arrows, squares, now), "Not shown")

    def play_again(self) -> None:
        """Accept to play again with the same players, seats rotated (``client.rematch``)."""
        if not self.peer.rematch.answer(True):
            self._emit(SessionError("You cannot ask to play again now."))

    def leave(self) -> None:
        self.peer.finish(0 if self.peer.table is not None else 1, "the player left the table")

    async def serve(self) -> None:
        """Listen (host) or dial (join), then run the table until the player leaves."""
        if isinstance(self.peer, HostPeer):
            try:
                invite = await self.peer.open(self.port)
            except LinkError as error:
                self.lobby.fail(str(error))
                self._emit(SessionError(str(error)))
                return
            self.lobby.update(invite=str(invite), host_fingerprint=invite.fingerprint)
        await self.peer.run()

    def _intent(self, intent: Callable[[Any, float], Any], failure: str) -> None:
        try:
            self.peer.act(intent)
        except (IntentRefused, InvalidMove, IllegalMove) as error:
            self._emit(SessionError(f"{failure}: {error}"))

    # --- LobbyIntents ---------------------------------------------------------------------------
    def set_ready(self, ready: bool) -> None:
        self._lobby_intent(lambda: self.peer.set_ready(ready))

    def add_bot(self) -> None:
        self._lobby_intent(self.peer.add_bot)

    def remove_bot(self, seat: int) -> None:
        self._lobby_intent(lambda: self.peer.remove_bot(seat))

    def start(self) -> None:
        peer = self.peer
        if isinstance(peer, HostPeer):
            self._lobby_intent(peer.start_table)
        else:
            self.lobby.update(status="Only the host starts the game.")

    def _lobby_intent(self, action: Callable[[], None]) -> None:
        try:
            action()
        except JoinRefused as refusal:
            self.lobby.update(status=str(refusal))

    # --- events ---------------------------------------------------------------------------------
    def _on_event(self, event: Any) -> None:
        handler = getattr(self, f"_on_{type(event).__name__}", None)
        if handler is not None:
            handler(event)

    def _on_LobbyChanged(self, event: LobbyChanged) -> None:
        roster = event.roster
        self.lobby.update(
            game=roster.game,
            options=", ".join(f"{k}={v}" for k, v in sorted(roster.options.items())),
            seats=self._lobby_seats(roster),
            status="; ".join(roster.waiting) or "Everyone is ready.",
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
                )
            )
        return tuple(seats)

    def _on_JoinFailed(self, event: JoinFailed) -> None:
        self.lobby.fail(event.reason)
        self._emit(SessionError(event.reason))

    def _on_TableStarted(self, event: TableStarted) -> None:
        self.started = True
        self._refresh(PlayersChanged(self._seats()))

    def _on_PlyApplied(self, event: PlyApplied) -> None:
        table = self.peer.table
        assert table is not None
        state = event.state
        before = table.chain.at(state.ply - 1).engine_state
        seat = state.seat or 0
        player = table.engine.controller(before, seat) if seat else 0
        kind = {RESIGN: "resign", DRAW: "draw", REMOVE: "remove"}.get(state.record.kind, "move")
        wire = tuple(state.record.body.get("move", ())) if kind == "move" else ()
        self._plies.append(PlyView(state.ply, seat, player, kind, state.label, wire))
        self._offers.clear()
        last = self._plies[-1]
        self._refresh(StateChanged(state.ply, table.final_ply, last))
        self._emit(PlayersChanged(self._seats()))

    def _on_PlyFinal(self, event: PlyFinal) -> None:
        if self.peer.table is not None and self._plies:
            self._refresh(StateChanged(len(self._plies), event.ply, self._plies[-1]))

    def _on_ChatReceived(self, event: ChatReceived) -> None:
        self._add_chat(
            ChatEntry(len(self._plies), self._seat_of(event.author), event.name, event.text)
        )

    def _on_PointReceived(self, event: PointReceived) -> None:
        seat = self._seat_of(event.author)
        self._emit(Pointed(event.ply, seat, event.name, event.arrows, event.squares))

    def _on_DrawOffered(self, event: DrawOffered) -> None:
        self._offers.add(event.author)
        self._notice(f"{event.name} offers a draw.")
        self._emit(PlayersChanged(self._seats()))

    def _on_RecordRejected(self, event: RecordRejected) -> None:
        self._notice(f"Refused: {event.reason}")

    def _on_EvidenceWritten(self, event: EvidenceWritten) -> None:
        if event.halted:
            self._evidence = event.path
            if self._halted is not None:
                self._halt(event.verdict)
        else:
            self._notice(f"Evidence written to {event.path}")

    def _on_Halted(self, event: TableHalted) -> None:
        self._halt(event.evidence.verdict, event.evidence.ply, event.evidence.reason)

    def _on_EvidenceUpdated(self, event: EvidenceUpdated) -> None:
        self._halt(event.evidence.verdict)

    def _halt(self, verdict: str, ply: int | None = None, reason: str | None = None) -> None:
        earlier = self._halted
        ply = ply if ply is not None else (earlier.ply if earlier else 0)
        message = reason or (earlier.message if earlier else "the table halted")
        self._halted = Halted(ply, verdict, str(self._evidence or ""), message)
        self._refresh(self._halted)
        if earlier is None:
            self._notice(f"The table halted at ply {ply}: {message}. {verdict}")

    def _on_GameOver(self, event: GameOver) -> None:
        self._notice(f"Game over: {event.outcome.summary}")
        self._refresh(GameEnded(event.outcome))

    def _on_PresenceChanged(self, event: PresenceChanged) -> None:
        self._notice(f"{event.name} is {'back' if event.present else 'away'}.")
        self._refresh(PlayersChanged(self._seats()))

    def _on_VoteReceived(self, event: VoteReceived) -> None:
        gone = ", ".join(event.names)
        self._notice(f"{event.name} votes to remove {gone}; bots will take their seats.")

    def _on_PlyDropped(self, event: PlyDropped) -> None:
        if self._plies and self._plies[-1].ply == event.state.ply:
            self._plies.pop()
        self._notice(f"Ply {event.state.ply} ({event.state.label}) was dropped: its player left.")

    def _on_Notice(self, event: Any) -> None:
        """The host's word in the lobby (``joining.Notice``), the table's after START."""
        if self.started:
            self._notice(event.text)
        else:
            self.lobby.update(status=event.text)

    def _on_TableEnded(self, event: TableEnded) -> None:
        self._refresh(PlayersChanged(self._seats()))  # every END came: it can play again

    def _on_RematchChanged(self, event: RematchChanged) -> None:
        self._refresh(PlayersChanged(self._seats()))

    def _on_RematchReady(self, event: RematchReady) -> None:
        peer = self.peer
        try:
            nxt = next_peer(
                event.next,
                peer.identity,
                peer.name,
                stay=True,
                profile=peer.profile,
                home=peer.home,
                engine_for=peer.engine_for,
                bot_kind=peer.bot_kind,
                seed=peer.seed,
                bot_delay=peer.bot_delay,
            )
        except (IdentityError, InvalidParams, LookupError) as error:
            self._emit(SessionError(f"The new table cannot be opened: {error}"))
            return
        self._emit(NextTable(NetSession(nxt, port=event.next.port)))

    def _on_LinkLost(self, event: LinkLost) -> None:
        if event.fatal:
            self._emit(SessionError(f"{event.name} is gone ({event.reason})"))

    # --- helpers ----------------------------------------------------------------------------------
    def _seat_of(self, key: bytes) -> int | None:
        table = self.peer.table
        if table is None:
            return None
        seats = table.head.seats_of(key)
        return seats[0] if seats else None

    def _seats(self) -> tuple[SeatView, ...]:
        table = self.peer.table
        if table is None:
            return ()
        start, head = table.start, table.head
        names = {peer.key: peer.name for peer in start.peers}
        views = []
        for spec in head.seats:
            runner = spec.runner
            name = names.get(spec.key) or f"Bot of {names.get(runner or b'', '?')}"
            player = runner or spec.key
            away = player != table.me and not table.present(player)
            views.append(
                SeatView(
                    seat=spec.seat,
                    name=name,
                    is_bot=runner is not None,
                    controller=table.engine.controller(head.engine_state, spec.seat),
                    is_mine=self.peer.me in (spec.key, runner),
                    fingerprint=key_label(spec.key),
                    present=not away,
                )
            )
        return tuple(views)

    def _snapshot_now(self) -> SessionSnapshot | None:
        table = self.peer.table
        if table is None:
            return None
        head = table.head
        mine = head.seats_of(self.peer.me) if table.me is not None else ()
        offered = tuple(s for key in self._offers for s in head.seats_of(key))
        return SessionSnapshot(
            title=f"{table.engine.name.capitalize()} at a networked table",
            engine=table.engine,
            state=head.engine_state,
            plies=tuple(self._plies),
            final_ply=max(table.final_ply, 0),
            seats=self._seats(),
            my_seat=mine[0] if mine else None,
            chat=tuple(self._chat),
            outcome=table.chain.outcome(),
            draw_offered_by=offered,
            peers=len(head.peers),
            digest=head.engine_digest,
            halted=self._halted,
            rematch=self._rematch_view(),
        )

    def _rematch_view(self) -> RematchView | None:
        rematch = self.peer.rematch
        if not rematch.ended or self.peer.table is None or self.peer.table.me is None:
            return None
        view = rematch.view()
        return RematchView(view.accepted, view.declined, view.waiting, view.mine)

    def _notice(self, text: str) -> None:
        self._add_chat(ChatEntry(len(self._plies), None, "table", text))

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
