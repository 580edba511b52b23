"""Presence: who is here, who is away, who owes the table a move or an ack.

Peers send unsigned presence reports every 2 s on each link (``client.node.mesh``); any frame
from a linked peer is *direct* news of it, and a report tells what the reporter heard
directly and how long ago, so a peer cut from one other still knows it is there through the
rest.  Time is passed in (seconds, any origin); nothing here reads a clock.

* A peer is **shown away** after ``min(10 s, away timeout)`` of silence; everyone sees it
  (``PresenceChanged`` events, ``SeatView.present``).
* A peer is **away** after the table's away timeout (START ``away_ms``, at least
  ``MIN_AWAY``), and **idle** when
  it has owed an ack, or a move of a seat it plays, for longer than the idle timeout
  (START ``idle_ms``).  Either makes it removable (``client.rules.removal``).
* [palabre] **A peer cut off from the table judges nobody by that time.**  When it has
  heard from no peer at all for more than ``CUT_OFF``, it was cut off itself (every link
  carries a report every 2 s): while that lasts, and until a whole timeout after its
  **return** (the first thing it hears again), it finds nobody away or idle (``sighted``
  counts time from the return).  So two peers cut off together and healed a few seconds
  apart do not remove each other: the first one back adds its vote only after the other
  was silent for a whole away timeout *since that return*, as every other voter saw it.
  What it saw before it was cut off is not counted: its news of each peer was up to a beat
  old then, so a peer that fell silent a moment before it may well have been cut by the
  same fault.  A restarted peer starts its clocks at its restart (``Presence(now)``),
  and if it hears nobody for ``CUT_OFF`` after that, at its return, like anyone cut off.
  With one other peer left there is no telling its silence from one's own cut, and a
  2-peer table ends as abandoned instead: nobody is cut off then.

Invariants: hearing only moves a peer's time forward; a report never makes a peer heard
later than the reporter says, nor in the future; only peers of the table are tracked, and
this peer is always here; the return only moves forward, and ``sighted`` never exceeds the
time elapsed, so being cut off only ever delays a peer's being away or idle.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

__all__ = ["AWAY_SHOWN", "CUT_OFF", "MIN_AWAY", "Debts", "Presence"]

AWAY_SHOWN = 10.0
"""Seconds of silence after which a peer is shown as away (DESIGN.md, Presence)."""
MIN_AWAY = 5.0
"""The shortest away timeout that makes sense: two and a half heartbeats (2 s).  Between
two presence reports a peer that sends nothing else is silent for 2 s; a shorter timeout
would find every such peer away, then back, at every beat."""
CUT_OFF = 4.0
"""Seconds with nothing from any peer after which this peer was cut off itself: every link
carries a report every 2 s (``client.node.mesh.HEARTBEAT``), so that is two missed beats of every
link at once.  Shorter than ``MIN_AWAY``: a peer knows it is cut off before it could find
anyone away."""


class Presence:
    """When each peer was last heard, directly or by report, and whether it is away."""

    def __init__(
        self,
        peers: Sequence[bytes],
        me: bytes | None,
        now: float,
        *,
        away: float,
        shown: float = AWAY_SHOWN,
    ) -> None:
        self.me = me
        self.away_after = max(away, MIN_AWAY)
        self.shown_after = min(shown, self.away_after)
        self._heard = {peer: now for peer in peers if peer != me}
        self._direct: dict[bytes, float] = {}
        self._shown_away: set[bytes] = set()
        self._last_heard = now
        """When this peer last heard directly from any peer of the table (or began)."""
        self._back_at = now
        """When this peer began, or came back from being cut off: nobody's silence or
        idleness counts from before."""

    def tracks(self, key: bytes) -> bool:
        return key in self._heard

    def hear(self, key: bytes, now: float) -> None:
        """A frame came from ``key`` on a link to it (a return, if this peer was cut off)."""
        if key in self._heard:
            if self.cut_off(now):
                self._back_at = max(self._back_at, now)
            self._last_heard = max(self._last_heard, now)
            self._heard[key] = max(self._heard[key], now)
            self._direct[key] = max(self._direct.get(key, now), now)

    def report(self, sender: bytes, entries: Iterable[tuple[bytes, int]], now: float) -> None:
        """``sender`` (a linked peer) heard each key directly ``ago_ms`` milliseconds ago."""
        if sender not in self._heard:
            return  # only a peer of the table vouches for others (not a spectator)
        for key, ago_ms in entries:
            if key in self._heard and key != sender:
                self._heard[key] = max(self._heard[key], now - max(ago_ms, 0) / 1000)

    def report_entries(self, now: float) -> list[tuple[bytes, int]]:
        """What this peer heard directly lately, for its own report: ``(key, ago_ms)``."""
        return [
            (key, int((now - when) * 1000))
            for key, when in self._direct.items()
            if key in self._heard and now - when <= self.shown_after
        ]

    def silent_for(self, key: bytes, now: float) -> float:
        return 0.0 if key not in self._heard else max(0.0, now - self._heard[key])

    def shown_away(self, key: bytes, now: float) -> bool:
        return key in self._heard and self.silent_for(key, now) >= self.shown_after

    def away(self, key: bytes, now: float) -> bool:
        """Silent for the away timeout of time this peer could hear the table."""
        return key in self._heard and self.sighted(self._heard[key], now) >= self.away_after

    def cut_off(self, now: float) -> bool:
        """Whether this peer has heard from no peer for more than ``CUT_OFF`` (with at
        least two others to hear from: one peer's silence is not one's own cut)."""
        return len(self._heard) >= 2 and now - self._last_heard > CUT_OFF

    def sighted(self, since: float, now: float) -> float:
        """Seconds from ``since`` to ``now`` this peer counts toward a silence or a debt:
        none while it is cut off, and none before its return."""
        return 0.0 if self.cut_off(now) else max(0.0, now - max(since, self._back_at))

    def due(self, since: float | None, span: float, now: float) -> float | None:
        """When ``sighted(since, ...)`` reaches ``span`` if nothing changes; None without
        ``since``, or while cut off (the clock stands still until something is heard)."""
        if since is None or self.cut_off(now):
            return None
        return max(since, self._back_at) + span

    def forget(self, keys: Iterable[bytes]) -> None:
        """Stop tracking peers (removed from the table)."""
        for key in keys:
            self._heard.pop(key, None)
            self._direct.pop(key, None)
            self._shown_away.discard(key)

    def changes(self, now: float) -> list[tuple[bytes, bool]]:
        """Peers whose shown presence flipped since the last call: ``(key, present)``."""
        flips = []
        for key in self._heard:
            away = self.shown_away(key, now)
            if away != (key in self._shown_away):
                (self._shown_away.add if away else self._shown_away.discard)(key)
                flips.append((key, not away))
        return flips

    def next_change(self, now: float) -> float | None:
        """The next time a peer may be shown away or become away, if nothing is heard."""
        times = []
        for when in self._heard.values():
            for due in (when + self.shown_after, self.due(when, self.away_after, now)):
                if due is not None and due > now:
                    times.append(due)
        return min(times, default=None)


class Debts:
    """Since when each peer owes the table something: an ack of a ply, or a move."""

    def __init__(self) -> None:
        self._applied_at: list[float] = []
        self._acked: dict[bytes, int] = {}

    def applied(self, ply: int, now: float) -> None:
        """Ply ``ply`` became the head at ``now`` (after a step back, the later ones go)."""
        del self._applied_at[ply:]
        self._applied_at.extend([now] * (ply + 1 - len(self._applied_at)))

    def truncate(self, ply: int) -> None:
        """The plies after ``ply`` were dropped (the one step back)."""
        del self._applied_at[ply + 1 :]

    def acked(self, key: bytes, ply: int) -> None:
        self._acked[key] = max(self._acked.get(key, -1), ply)

    def ack_owed_since(self, key: bytes, head: int) -> float | None:
        """When the oldest ply ``key`` has not acked began (the clocked stall rule)."""
        first = self._acked.get(key, -1) + 1
        return self._applied_at[first] if first <= head < len(self._applied_at) else None

    def owed_since(self, key: bytes, head: int, to_move: bytes | None) -> float | None:
        """When ``key``'s oldest debt began (``to_move``: the peer whose move it is)."""
        times = []
        first = self._acked.get(key, -1) + 1
        if first <= head < len(self._applied_at):
            times.append(self._applied_at[first])
        if to_move == key and head < len(self._applied_at):
            times.append(self._applied_at[head])
        return min(times, default=None)
