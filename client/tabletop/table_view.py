"""What a front end may read of a table: ``TableView``, read-only.

A session (the window's ``client.sessions.net_session.NetSession``, the terminal's ``Printer`` and
``TerminalPlayer``) never changes a table: it reads ``Table.view`` and acts through the
peer, which hands intents to ``Table.handle``.  ``TableView`` is a Protocol the table's
ledger (``client.tabletop.table_ledger.TableLedger``) satisfies, so reading costs no copy and is
always current; mypy refuses a session that would reach past it (``handle``, the parts, the
books' writers).

Invariant: every member is a property or a method without side effects.
"""

from __future__ import annotations

from typing import Protocol

from client.rules.chain import Chain, TableState
from client.rules.start import TableStart
from client.rules.takeback import TakebackBook
from client.tabletop.table_clock import ClockDisplay
from engines import AnyEngine

__all__ = ["TableView"]


class TableView(Protocol):
    """One peer's table as its front ends read it."""

    @property
    def start(self) -> TableStart:
        """The table's START: its game, seats, peers and timeouts."""

    @property
    def engine(self) -> AnyEngine: ...

    @property
    def chain(self) -> Chain:
        """The plies applied so far (``at(ply)``, ``outcome()``); read it, never apply."""

    @property
    def me(self) -> bytes | None:
        """This peer's key (None: a spectator)."""

    @property
    def head(self) -> TableState: ...

    @property
    def final_ply(self) -> int:
        """The last ply every peer at the table acked (-1 before the genesis is final)."""

    @property
    def halted(self) -> bool: ...

    @property
    def ended(self) -> bool:
        """Every peer at the table signed the same END."""

    @property
    def abandoned(self) -> tuple[int, tuple[bytes, ...]] | None:
        """The ply and the absent peers' keys when the table ended without its game."""

    @property
    def absent_left(self) -> bool:
        """The table was abandoned and every absent peer left on purpose (a LEAVE)."""

    @property
    def takebacks(self) -> TakebackBook:
        """The takeback asks and consents (``pending(state)``)."""

    def describe(self, key: bytes) -> str:
        """``peer K3QF-7XZA… (Ann)`` or ``the bot of seat 3 run by peer ...``."""

    def live(self) -> bool:
        """Whether local keys may sign plies now."""

    def present(self, key: bytes) -> bool:
        """Whether peer ``key`` is at the table and not shown away (as of the last call)."""

    def removed_me_at(self, ply: int) -> bool:
        """Whether ply ``ply`` (a REMOVE) took this peer off the table."""

    def has_left(self, key: bytes) -> bool:
        """Whether peer ``key`` left on purpose (its LEAVE came: a LEAVE is final)."""

    def clocks(self, now: float) -> ClockDisplay | None:
        """The clocks to show at ``now`` (the runtime's clock), None on a table without."""
