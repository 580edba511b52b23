"""Presence: who is here, who is away, who owes the table a move or an ack.

Peers send unsigned presence reports every 2 s on each link (``client.mesh``); any frame
from a linked peer is *direct* news of it, and a report tells what the reporter heard
directly and how long ago, so a peer cut from one other still knows it is there through the
rest.  Time is passed in (seconds, any origin); nothing here reads a clock.

* A peer is **shown away** after ``min(10 s, away timeout)`` of silence; everyone sees it
  (``PresenceChanged`` events, ``SeatView.present``).
* A peer is **away** after the table's away timeout (START ``away_ms``, at least
  ``MIN_AWAY``), and **idle** when
  it has owed an ack, or a move of a seat it plays, for longer than the idle timeout
  (START ``idle_ms``).  Either makes it removable (``client.removal``).

Invariants: hearing only moves a peer's time forward; a report never makes a peer heard
later than the reporter says, nor in the future; only peers of the table are tracked, and
this peer is always here.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

__all__ = ["AWAY_SHOWN", "MIN_AWAY", "Debts", "Presence"]

AWAY_SHOWN = 10.0
"""Seconds of silence after which a peer is shown as away (DESIGN.md, Presence)."""
MIN_AWAY = 5.0
"""The shortest away timeout that makes sense: two and a half heartbeats (2 s).  Between
two presence reports a peer that sends nothing else is silent for 2 s; a shorter timeout
would find every such peer away, then back, at every beat."""


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

    def tracks(self, key: bytes) -> bool:
        return key in self._heard

    def hear(self, key: bytes, now: float) -> None:
        """A frame came from ``key`` on a link to it."""
        if key in self._heard:
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
        return key in self._heard and self.silent_for(key, now) >= self.away_after

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
            for after in (self.shown_after, self.away_after):
                if when + after > now:
                    times.append(when + after)
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

    def owed_since(self, key: bytes, head: int, to_move: bytes | None) -> float | None:
        """When ``key``'s oldest debt began (``to_move``: the peer whose move it is)."""
        times = []
        first = self._acked.get(key, -1) + 1
        if first <= head < len(self._applied_at):
            times.append(self._applied_at[first])
        if to_move == key and head < len(self._applied_at):
            times.append(self._applied_at[head])
        return min(times, default=None)
