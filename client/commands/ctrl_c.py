"""Ctrl-C at a terminal's table: the player leaves with the leave notice, then palabre says
it was interrupted.

While ``palabre host`` or ``join`` runs, ``leave_on_ctrl_c`` takes SIGINT instead of trio
(and, through ``client.commands.interrupts``, Windows' Ctrl-Break): the first Ctrl-C makes the
peer sign LEAVE and end (``Peer.leave_table``), so the others replace this player or end a
table of two at once instead of after the away timeout; the links are given their bounded
moment to say goodbye.  A second Ctrl-C, or one after the peer is done, is an interrupt at
once.  The caller raises ``KeyboardInterrupt`` after ``trio.run`` when ``CtrlC.pressed``, so
the command still ends with ``palabre: interrupted`` and exit code 130.

Invariants: only the main thread takes signals (elsewhere this waits for nothing and returns
at once); the peer is asked to leave at most once.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable
from dataclasses import dataclass

import trio

from client.runtime.peer import Peer

__all__ = ["INTERRUPTED", "CtrlC"]

INTERRUPTED = 130
"""The shell's exit code for a program ended by Ctrl-C."""


@dataclass
class CtrlC:
    """Leaves ``peer``'s table on the first Ctrl-C, saying so with ``say``."""

    peer: Peer
    say: Callable[[str], None]
    pressed: bool = False

    async def serve(self) -> None:
        """Take SIGINT for as long as the table runs (until cancelled)."""
        if threading.current_thread() is not threading.main_thread():
            return
        with trio.open_signal_receiver(signal.SIGINT) as signals:
            async for _ in signals:
                if self.pressed or self.peer.done.is_set():
                    raise KeyboardInterrupt
                self.pressed = True
                self.say("You left the table (Ctrl-C).")
                self.peer.leave_table(INTERRUPTED)
