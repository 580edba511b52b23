"""A game file opened in the window: a read-only ``GameSession`` over the verifier's replay.

``open_game_file(path)`` runs ``palabre verify``'s verifier (``client.verifier``) and shows
what its replay accepted: the plies in notation with their finality as the file proves it,
the chat in the order the file holds it, the players, the result, and the verdict in the
title (``valid and complete``, ``valid but incomplete``, ``invalid``) with each problem as a
notice in the chat.  ``show_ply(n)`` puts the board after ply ``n``.

Invariants: nothing is shown that the replay did not accept; every intent is refused with a
``SessionError`` (a file is never played on); ``serve`` returns at once (no loop, no network).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from client.chain import Chain, TableState
from client.records import CHAT, DRAW, RESIGN, key_label
from client.session_api import (
    ChatEntry,
    GameSession,
    Listener,
    PlyView,
    SeatView,
    SessionError,
    SessionEvent,
    SessionSnapshot,
    StateChanged,
)
from client.start import TableStart
from client.verifier import Verification, verify_file
from engines import AnyEngine

__all__ = ["GameFileError", "GameFileSession", "open_game_file"]


class GameFileError(Exception):
    """The file cannot be shown (unreadable, not a game log, no START); says why."""


def open_game_file(path: Path) -> GameFileSession:
    """Verify ``path`` and open it for showing; ``GameFileError`` saying why not."""
    verification = verify_file(path)
    report = verification.report
    if report.unreadable is not None:
        raise GameFileError(f"Cannot open {path.name}: {report.unreadable}")
    if verification.chain is None or verification.start is None or verification.engine is None:
        reason = report.problems[0].reason if report.problems else "it holds no readable START"
        raise GameFileError(f"Cannot show {path.name}: {reason}")
    return GameFileSession(path, verification)


class GameFileSession:
    """The game of one file, read only.  See the module docstring."""

    def __init__(self, path: Path, verification: Verification) -> None:
        assert verification.chain is not None and verification.start is not None
        assert verification.engine is not None
        self.path = path
        self.verification = verification
        self.chain: Chain = verification.chain
        self.start: TableStart = verification.start
        self.engine: AnyEngine = verification.engine
        self._listeners: list[Listener] = []
        self._plies = tuple(self._ply_view(state) for state in self.chain.states[1:])
        self._chat = self._chat_entries()
        self._shown = self.chain.head.ply

    # --- GameSession --------------------------------------------------------------------------
    @property
    def snapshot(self) -> SessionSnapshot:
        report = self.verification.report
        shown = self.chain.at(self._shown)
        return SessionSnapshot(
            title=f"{self.engine.name.capitalize()}, game file {self.path.name}: {report.status}",
            engine=self.engine,
            state=shown.engine_state,
            plies=self._plies,
            final_ply=max(report.final, 0),
            seats=self._seats(),
            my_seat=None,
            chat=self._chat,
            outcome=self.chain.outcome(),
            peers=len(self.chain.head.peers),
            digest=shown.engine_digest,
            shown_ply=self._shown,
            read_only=True,
        )

    def show_ply(self, ply: int) -> None:
        """Show the board after ``ply`` (0: the start), within the replayed plies."""
        self._shown = min(max(ply, 0), self.chain.head.ply)
        last = self._plies[self._shown - 1] if self._shown else None
        self._emit(StateChanged(self._shown, self.snapshot.final_ply, last))

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        self._listeners.append(listener)

        def unsubscribe() -> None:
            if listener in self._listeners:
                self._listeners.remove(listener)

        return unsubscribe

    def move(self, wire: Sequence[int]) -> None:
        self._refuse()

    def resign(self) -> None:
        self._refuse()

    def offer_draw(self) -> None:
        self._refuse()

    def accept_draw(self) -> None:
        self._refuse()

    def chat(self, text: str) -> None:
        self._refuse()

    def leave(self) -> None:
        pass

    async def serve(self) -> None:
        return None

    # --- building the views ---------------------------------------------------------------------
    def _refuse(self) -> None:
        self._emit(SessionError("This is a game file: nothing can be played or sent from it."))

    def _emit(self, event: SessionEvent) -> None:
        for listener in list(self._listeners):
            listener(event)

    def _ply_view(self, state: TableState) -> PlyView:
        before = self.chain.at(state.ply - 1)
        seat = state.seat or 0
        player = self.engine.controller(before.engine_state, seat) if seat else 0
        kind = {RESIGN: "resign", DRAW: "draw"}.get(state.record.kind, "move")
        wire = tuple(state.record.body.get("move", ())) if kind == "move" else ()
        return PlyView(state.ply, seat, player, kind, state.label, wire)

    def _seats(self) -> tuple[SeatView, ...]:
        names = {peer.key: peer.name for peer in self.start.peers}
        head = self.chain.head
        views = []
        for spec in head.seats:
            runner = spec.runner
            views.append(
                SeatView(
                    seat=spec.seat,
                    name=names.get(spec.key) or f"Bot of {names.get(runner or b'', '?')}",
                    is_bot=runner is not None,
                    controller=self.engine.controller(head.engine_state, spec.seat),
                    is_mine=False,
                    fingerprint=key_label(spec.key),
                )
            )
        return tuple(views)

    def _chat_entries(self) -> tuple[ChatEntry, ...]:
        names = {peer.key: peer.name for peer in self.start.peers}
        seats = {spec.key: spec.seat for spec in self.start.seats}
        entries = []
        ply = 0
        for entry in self.verification.entries[1:]:
            record = entry.record
            if entry.status == "applied" and entry.ply is not None:
                ply = max(ply, entry.ply)
            elif record is not None and record.kind == CHAT and entry.status == "ok":
                name = names.get(record.author, key_label(record.author))
                text = str(record.body["text"])
                entries.append(ChatEntry(ply, seats.get(record.author), name, text))
        report = self.verification.report
        for problem in report.problems:
            where = f" at ply {problem.ply}" if problem.ply is not None else ""
            entries.append(ChatEntry(ply, None, "file", f"Problem{where}: {problem.reason}"))
        return tuple(entries)


if TYPE_CHECKING:
    _IS_A_SESSION: type[GameSession] = GameFileSession
