"""A person watching a table from the terminal (``palabre join ADDRESS --watch``): the board
after each final ply, as a player sees it at its turn (issue 21).

A watcher types nothing and has no turn, so nothing ever printed the board for it: it read
only the plies' notation.  Now each ply final here is followed by the position it made
(``client.logs.board_text``, as ``palabre log show --ply`` draws it), the first one too when
the watcher came in during the game.
"""

from __future__ import annotations

from typing import TextIO

from client.logs.board_text import board_lines
from client.node.peer_events import PeerEvent, TableStarted
from client.rules.seat_words import named_seats
from client.runtime.peer import Peer
from client.tabletop.events import PlyFinal

__all__ = ["TerminalWatcher"]


class TerminalWatcher:
    def __init__(self, peer: Peer, out: TextIO) -> None:
        self.peer = peer
        self.out = out
        self._shown = -1
        peer.observers.append(self._on_event)

    def _on_event(self, event: PeerEvent) -> None:
        if isinstance(event, PlyFinal | TableStarted):
            self.peer.call_soon(self._board)

    def _board(self) -> None:
        """The position at the last final ply, once per ply (after that ply's line)."""
        table = self.peer.table
        if table is None:
            return
        view = table.view
        ply = max(view.final_ply, 0)
        if ply == self._shown:
            return
        self._shown = ply
        state = view.chain.at(ply)
        lines = board_lines(view.engine, state.engine_state)
        text = named_seats("\n".join(lines), view.start, state.seats)  # names, not seat numbers
        print(f"position after ply {ply}:\n{text}", file=self.out, flush=True)
