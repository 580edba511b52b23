"""The position after every ply of a table being played, for looking back at it.

A session that records the game gives every position (``SessionSnapshot.position_at``: a
screen that first sees the game late, after a rejoin, needs the earlier ones too); without
it, the table screen shows every snapshot it reads to ``observe``, which keeps the position
after each ply count it sees; a ply it missed (a
batch of plies arriving at once) is replayed from the nearest earlier position with the
engine, from the ply's wire form.  A ply the engine cannot replay alone (a REMOVE) leaves
later missing positions unknown: ``position`` then says None rather than guess.

Invariant: ``position(n)`` is the engine state after the first ``n`` plies of the snapshot
(``0``: the start), or None.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from client.sessions.session_api import PlyView, SessionSnapshot
from engines import AnyEngine, IllegalMove, InvalidMove

__all__ = ["PositionHistory"]


class PositionHistory:
    def __init__(self, engine: AnyEngine) -> None:
        self.engine = engine
        self.known: dict[int, Any] = {}
        self.plies: tuple[PlyView, ...] = ()
        self._position_at: Callable[[int], object | None] | None = None

    def observe(self, snapshot: SessionSnapshot) -> None:
        self.plies = snapshot.plies
        self._position_at = snapshot.position_at
        if snapshot.shown_ply is None:  # a halted table shows an older position: not the head
            self.known[len(snapshot.plies)] = snapshot.state

    def position(self, ply: int) -> Any | None:
        if ply in self.known:
            return self.known[ply]
        if not 0 <= ply <= len(self.plies):
            return None
        if self._position_at is not None:  # the session's own record of the game: exact
            state = self._position_at(ply)  # not kept: a removal may drop plies from it
            if state is not None:
                return state
        base = max((known for known in self.known if known < ply), default=None)
        if base is None:
            return None
        state = self.known[base]
        for count in range(base + 1, ply + 1):
            state = self._after(state, self.plies[count - 1], count)
            if state is None:
                return None
            self.known[count] = state
        return state

    def _after(self, state: Any, view: PlyView, count: int) -> Any | None:
        engine = self.engine
        try:
            if view.kind == "move":
                return engine.apply(state, engine.move_from_wire(list(view.wire)))
            if view.kind == "resign":
                return engine.resign(state, view.seat)
            if view.kind == "draw":
                return engine.agree_draw(state)
            if view.kind == "takeback":  # the ply before is undone
                return self.known.get(count - 2)
        except (IllegalMove, InvalidMove):  # a ply this engine cannot replay: unknown
            return None
        return None
