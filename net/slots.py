"""A listener's connection slots: who waits for a handshake, who holds a link (no I/O).

Two bounds, each per listener and per remote address (the host part, port aside):

* **Waiting** (accepted, handshake not done): at most ``MAX_PENDING`` in all and
  ``MAX_PENDING_PER_ADDRESS`` from one address.  A newcomer from an address that holds its
  share already is closed at once, unread (it costs no key and no task); any other gets a
  slot, if need be the one of the oldest connection of the address holding the most.  So a
  thousand idle or trickling connections from one address keep at most its share, cost
  little more than an accept each, and a joiner from anywhere else waits for nobody.
* **Links** (handshake done): at most ``MAX_LINKS`` in all and ``MAX_LINKS_PER_ADDRESS``
  from one address; one more is refused with the reason (``refusal``).  Far above any real
  table (a few seats and spectators, a handful of machines), far below the file
  descriptors a process has (1,024 by default on Linux; each link holds one).

The driver (``net.driver.serve``) holds one ``Slots`` for all its listeners and does what
it says: ``wait`` names the waiting connections to close.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Generic, TypeVar

__all__ = [
    "MAX_LINKS",
    "MAX_LINKS_PER_ADDRESS",
    "MAX_PENDING",
    "MAX_PENDING_PER_ADDRESS",
    "Slots",
]

MAX_PENDING = 64
"""Connections a listener lets wait for their handshake at once."""
MAX_PENDING_PER_ADDRESS = 16
"""Of those, from one remote address (a machine opening more loses its oldest)."""
MAX_LINKS = 128
"""Links (handshake done) a listener holds at once; one more is refused."""
MAX_LINKS_PER_ADDRESS = 32
"""Of those, from one remote address."""

T = TypeVar("T")


class Slots(Generic[T]):
    """The waiting connections (``T``: whatever the driver closes them by) and the links
    of one listener, per remote address."""

    def __init__(
        self,
        max_pending: int = MAX_PENDING,
        max_pending_per_address: int = MAX_PENDING_PER_ADDRESS,
        max_links: int = MAX_LINKS,
        max_links_per_address: int = MAX_LINKS_PER_ADDRESS,
    ) -> None:
        self.max_pending = max_pending
        self.max_pending_per_address = max_pending_per_address
        self.max_links = max_links
        self.max_links_per_address = max_links_per_address
        self._waiting: dict[str, OrderedDict[T, None]] = {}
        self._links: dict[str, int] = {}
        self.pending = 0
        self.links = 0

    def wait(self, address: str, who: T) -> list[T] | None:
        """``who`` from ``address`` would begin its handshake: None if it may not (close
        it unread), else the waiting ones to close now to make room (no longer counted)."""
        evicted = []
        mine = self._waiting.get(address)
        if mine is not None and len(mine) >= self.max_pending_per_address:
            return None
        if self.pending >= self.max_pending:
            busiest = max(self._waiting, key=lambda a: len(self._waiting[a]))
            evicted.append(self._pop_oldest(busiest))
        self._waiting.setdefault(address, OrderedDict())[who] = None
        self.pending += 1
        return evicted

    def done_waiting(self, address: str, who: T) -> None:
        """``who``'s handshake ended (either way), or it was closed: it waits no more."""
        mine = self._waiting.get(address)
        if mine is not None and who in mine:
            del mine[who]
            self.pending -= 1
            if not mine:
                del self._waiting[address]

    def refusal(self, address: str, where: str) -> str | None:
        """Why a new link from ``address`` (shown as ``where``) is refused, or None: then
        it is counted until ``unlink``."""
        if self.links >= self.max_links:
            return f"too many connections here already ({self.links}); try again later"
        held = self._links.get(address, 0)
        if held >= self.max_links_per_address:
            return f"too many connections from {where} already ({held}); try again later"
        self._links[address] = held + 1
        self.links += 1
        return None

    def unlink(self, address: str) -> None:
        """A link ``refusal`` let in ended."""
        held = self._links.get(address, 0)
        if held <= 1:
            self._links.pop(address, None)
        else:
            self._links[address] = held - 1
        self.links -= 1

    def waiting_from(self, address: str) -> int:
        return len(self._waiting.get(address, ()))

    def _pop_oldest(self, address: str) -> T:
        mine = self._waiting[address]
        who, _ = mine.popitem(last=False)
        self.pending -= 1
        if not mine:
            del self._waiting[address]
        return who
