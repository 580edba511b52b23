"""Where a bot thinks: at once on the caller's thread, or in a worker thread that wakes the
caller's trio loop when the move is found.

A strong bot searches for up to a second of CPU; on a peer's trio loop that second would
stall every link of the peer (presence reports, records to pass on, a chat).  The peer's
runtime therefore thinks in a thread (``ThreadThinking``); the sans-I/O table core and the
tests on trio's virtual clock think at once (``INLINE``: a worker thread is invisible to a
virtual clock, which would race ahead while the bot thinks).

Invariants:

* a thought plays a **copy** of the bot: no thread but the caller's ever touches the bot the
  caller holds.  The copy, whose generator has moved on, is what the caller keeps once it
  plays the move (``Thought.bot``); a thought it drops (the position changed meanwhile)
  leaves its bot as it was.  So a bot plays the same moves for a seed whichever way it
  thinks, and however long it takes;
* ``ThreadThinking`` runs one thought at a time per caller (``client.tabletop.seating`` starts one
  only when the last one is over) and calls ``wake`` on the trio loop when it is, through the
  loop's token, which outlives nothing: a thought ending after the loop is gone wakes no one;
* what the bot raises is raised again where the move is taken, as if it had thought inline.
"""

from __future__ import annotations

import contextlib
import copy
import sys
import threading
from collections.abc import Callable
from typing import Protocol

from client.bots import Bot
from engines import AnyEngine

__all__ = ["INLINE", "InlineThinking", "Thinking", "Thought", "ThreadThinking"]


class Thought:
    """One bot's search for one position: over once ``done``; then ``move()`` is its move."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        """The copy that thinks (and, once its move is played, the bot from then on)."""
        self._move: object = None
        self._error: BaseException | None = None
        self._done = threading.Event()

    @property
    def done(self) -> bool:
        return self._done.is_set()

    def move(self) -> object:
        """The move found; what the bot raised, raised again.  Only once ``done``."""
        assert self.done, "the bot is still thinking"
        if self._error is not None:
            raise self._error
        return self._move

    def run(self, engine: AnyEngine, state: object) -> None:
        try:
            self._move = self.bot.choose(engine, state)
        except BaseException as error:  # handed to the caller's thread, which raises it
            self._error = error
        finally:
            self._done.set()


class Thinking(Protocol):
    """Starts a bot's search for the player to move in ``state``."""

    def think(self, bot: Bot, engine: AnyEngine, state: object) -> Thought: ...


class InlineThinking:
    """Thinks on the caller's thread: the thought is over when ``think`` returns."""

    def think(self, bot: Bot, engine: AnyEngine, state: object) -> Thought:
        thought = Thought(copy.deepcopy(bot))
        thought.run(engine, state)
        return thought


INLINE = InlineThinking()


SWITCH_INTERVAL = 0.0005
"""Seconds a thread may hold the GIL while another waits for it, once a bot thinks here."""


class ThreadThinking:
    """Thinks in a worker thread; ``wake`` is called on the trio loop that made this object
    (it must be made there) once the thought is over."""

    def __init__(self, wake: Callable[[], None]) -> None:
        import trio  # here: the sans-I/O node, which imports this module, loads no trio

        self._wake = wake
        self._token = trio.lowlevel.current_trio_token()
        self._finished = trio.RunFinishedError

    def think(self, bot: Bot, engine: AnyEngine, state: object) -> Thought:
        thought = Thought(copy.deepcopy(bot))

        def work() -> None:
            thought.run(engine, state)
            with contextlib.suppress(self._finished):  # the peer is gone: nobody waits
                self._token.run_sync_soon(self._wake)

        # The search holds the GIL while the loop has yet to write this step's records (the
        # ACK that makes the ply before final at the others, whose clocks start then) and
        # take the next ones: at Python's default 5 ms switch interval each of the loop's
        # wake-ups may wait that long for it.  Measured (docs/BENCHMARKS.md, the table
        # clock): the charge's p99 error against the mover's own figure fell from 15-21 ms
        # to 5-6 ms.  Process-wide and kept: the peer's loop is what must not wait.
        sys.setswitchinterval(min(sys.getswitchinterval(), SWITCH_INTERVAL))
        # A daemon: a peer that ends while its bot thinks does not wait for the move.
        threading.Thread(target=work, name="palabre-bot", daemon=True).start()
        return thought
