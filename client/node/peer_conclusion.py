"""When and how a peer ends: its conclusion, and the wait for every peer to hold every END.

A part of the peer node with no I/O and no clock: every call that depends on time is
given ``now``, and what is to be sent comes back as data (the ``ended`` message) for the
caller to put on the links.  The runtime asks ``due`` when to end, and ends then with
``code`` and ``reason`` (``client.runtime.peer.Peer.serve_timer``).

Rules:

* a **weak** conclusion (waiting for the ENDs, ``END_WAIT``) gives way to any other; a halt
  or a lost link (a code other than 0) overrides an ending (code 0); otherwise the first
  conclusion stands;
* ``wait_links``: end as soon as no peer link is left, at the latest at the time given;
* a peer that ``stay``\\ s (a UI session) ends only on a fatal problem (codes 1, 4...) or
  when asked: it never concludes with 0 or 3 by itself;
* ``hold`` keeps a headless peer at least that long before ending with code 0 (a rematch
  is being agreed);
* **ENDs** (``client.rules.ending``): once this peer holds every END it says so on every peer link
  (``ended``), then waits ``END_WAIT`` for every peer still at the table to hold them too
  (a peer cut off from some gets their ENDs through the others) and leaves ``END_LINGER``
  after they all do; a spectator leaves ``END_LINGER`` after the END, since nobody waits
  for it.  What a link says of END holders is passed on when it is news.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from client.node.mesh import ENDED
from client.rules.ending import EndHolders
from net.events import SendMessage

__all__ = ["END_LINGER", "END_WAIT", "HALT_LINGER", "Conclusion", "Ended"]

END_WAIT = 10.0
"""How long a peer waits for every END after the game's outcome, and then for every peer at
the table to hold them too (``client.rules.ending.EndHolders``)."""
END_LINGER = 1.0
"""How long a peer stays once every peer holds every END, so its word of it reaches them."""
HALT_LINGER = 2.0
"""How long a halted peer stays so its HALT and the others' reach everyone."""


@dataclass(frozen=True)
class Ended:
    """What the conclusion needs of the table: this peer (None: a spectator), whether the
    table holds every END, its peers at the head, and the peers absent at the end."""

    me: bytes | None
    ended: bool
    peers: Sequence[bytes]
    absent: Sequence[bytes] = ()


@dataclass(frozen=True)
class _Planned:
    code: int
    at: float
    wait_links: bool
    weak: bool


class Conclusion:
    """One peer's conclusion (see the module docstring)."""

    def __init__(self, *, stay: bool) -> None:
        self.stay = stay
        self.end_holders = EndHolders()
        self.hold_until: float | None = None
        """A headless peer ends (code 0) no sooner than this: a rematch is being agreed."""
        self._planned: _Planned | None = None

    @property
    def code(self) -> int | None:
        """The code this peer will end with (None: not concluded)."""
        return None if self._planned is None else self._planned.code

    @property
    def reason(self) -> str:
        """What this peer says on its links as it ends by its conclusion."""
        return "the game is over" if self.code == 0 else "leaving the table"

    def conclude(
        self, code: int, now: float, after: float, *, wait_links: bool, weak: bool = False
    ) -> bool:
        """End with ``code`` ``after`` seconds from ``now`` (or sooner once no peer link is
        left, when ``wait_links``); whether this changed the plan (see the rules)."""
        if self.stay and code in (0, 3):
            return False
        current = self._planned
        if current is not None and not current.weak and not (current.code == 0 and code != 0):
            return False
        self._planned = _Planned(code, now + after, wait_links, weak)
        return True

    def hold(self, now: float, seconds: float | None) -> None:
        """Stay at least ``seconds`` more before ending with code 0 (None: stop holding)."""
        self.hold_until = None if seconds is None else now + seconds

    def due(self, links_left: bool) -> float | None:
        """When to end (None: not concluded); ``links_left``: a peer link is still up."""
        planned = self._planned
        if planned is None:
            return None
        due = -math.inf if planned.wait_links and not links_left else planned.at
        if planned.code == 0 and self.hold_until is not None:
            due = max(due, self.hold_until)
        return due

    # --- the ENDs ---------------------------------------------------------------------------
    def holds_every_end(self, table: Ended, now: float) -> SendMessage | None:
        """This peer's table holds every END: the ``ended`` message for every peer link (None:
        a spectator, which says nothing and leaves soon)."""
        if table.me is None or table.me not in table.peers:
            self.conclude(0, now, END_LINGER, wait_links=False)  # nobody waits for a spectator
            return None
        self.end_holders.learn([table.me])
        self.conclude(0, now, END_WAIT, wait_links=False, weak=True)
        self._leave_once_every_peer_holds_every_end(table, now)
        return self.ended_message(table)

    def learn_end_holders(
        self, table: Ended | None, keys: Sequence[bytes], now: float
    ) -> SendMessage | None:
        """A link says who holds every END: the ``ended`` message to pass on when it is news
        and this peer holds them too (None: nothing to say)."""
        if table is None or not self.end_holders.learn(keys):
            return None
        if not self.told_of_ends(table):
            return None
        self._leave_once_every_peer_holds_every_end(table, now)
        return self.ended_message(table)

    def told_of_ends(self, table: Ended) -> bool:
        """Whether this peer holds every END and says so (each heartbeat, again)."""
        return table.ended and table.me in self.end_holders.keys

    def ended_message(self, table: Ended) -> SendMessage:
        return SendMessage(ENDED, self.end_holders.body(table.peers))

    def _leave_once_every_peer_holds_every_end(self, table: Ended, now: float) -> None:
        if not self.end_holders.missing(table.peers, table.absent):
            self.conclude(0, now, END_LINGER, wait_links=False)
