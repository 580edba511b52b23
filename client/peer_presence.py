"""The presence side of a peer: heartbeats, presence reports, pulls, being alone.

``PeerPresence`` is the layer of ``client.peer.Peer`` that keeps the mesh alive.
Invariants:

* every ``HEARTBEAT`` (and at once when the links changed) each admitted link gets a
  presence report — the peers this peer has a link with and how long ago it heard each, at
  most 16 — and the address book when it changed; a spectator reports nobody;
* a table stalled past ``STALL_AFTER`` pulls from one peer link at a time, in turn;
* dialing happens as soon as something is due (``Mesh.to_dial``); a spectator without links
  asks another peer of the book to let it watch, the least failed first, one at a time;
* a headless peer with no peer link for ``ALONE_LIMIT`` past the away timeout gives up
  (code 1); one that ``stay``s never does.
"""

from __future__ import annotations

import math
from typing import Any

import trio

from client.mesh import ADDRESSES, HEARTBEAT, PRESENCE, addresses_body
from client.peer_events import LinkLost
from client.peer_links import PeerLinks
from client.table import Table
from net.events import SendMessage

ALONE_LIMIT = 30.0
"""With no link to any peer for this long past the away timeout, a headless peer gives up."""


class PeerPresence(PeerLinks):
    """Heartbeats, presence reports, pulls and dialing: the mesh kept alive."""

    async def serve_mesh(self) -> None:
        """Presence reports and pulls every beat; dialing as soon as there is someone to
        dial (the table started, a link was lost, a pause is over)."""
        next_report = -math.inf
        while not self.done.is_set():
            now = trio.current_time()
            table = self.table
            if table is not None and not self.left_table:
                self._dial_what_is_due(now)
                if now >= next_report or self._links_changed_since_report:
                    next_report = now + HEARTBEAT
                    self._links_changed_since_report = False
                    self._beat(table, now)
            pause = HEARTBEAT if table is None else max(next_report - now, 0.0)
            upcoming = self.mesh.next_dial()
            if upcoming is not None:
                pause = min(pause, max(upcoming - now, 0.05))
            with trio.move_on_after(pause):
                await self._mesh_wake.wait()
            self._mesh_wake = trio.Event()

    def _report(self, table: Table, now: float) -> dict[str, Any]:
        """This peer's presence report: the peers it has a link with, and how long ago it
        last heard from each (so the others know which links it has: ``Mesh.passes_on``)."""
        if table.me is None:
            return {"heard": []}
        keys = dict.fromkeys(k.key for k in self.peer_links() if k.admitted and not k.closing)
        entries = [
            {"key": key, "ago": min(int(table.presence.silent_for(key, now) * 1000), 2**32 - 1)}
            for key in keys
            if table.presence.tracks(key)
        ]
        return {"heard": entries[:16]}

    def _beat(self, table: Table, now: float) -> None:
        report = self._report(table, now)
        book = addresses_body(self.mesh.book) if self._book_changed else None
        self._book_changed = False
        for link in self.links:
            if link.admitted:
                link.send(SendMessage(PRESENCE, report))
                if book is not None:
                    link.send(SendMessage(ADDRESSES, book))
        ended = self._ended()
        if self.conclusion.told_of_ends(ended):  # again: a link that came up since, or a
            self.tell_peers(self.conclusion.ended_message(ended))  # peer that lacks it
        peers = [link for link in self.peer_links() if link.admitted]
        stalled_on = self.relay.pull_from(peers, table.waiting_since, now)
        if stalled_on is not None:
            self._pull(stalled_on)
        if not peers and table.me is None and self._nursery is not None and not self.done.is_set():
            self._watch_elsewhere(now)
        if not peers and not self.stay:
            self._alone_since = now if self._alone_since is None else self._alone_since
            if now - self._alone_since >= ALONE_LIMIT + table.start.away_ms / 1000:
                self.notify(LinkLost("every peer", "no peer could be reached", fatal=True))
                self.conclude(1, 0.0, wait_links=False)

    def _watch_elsewhere(self, now: float) -> None:
        """A spectator that lost its links asks another peer to let it watch (in turn)."""
        assert self._nursery is not None
        if any(not link.closing for link in self.links):
            return
        states = {key: self.mesh.dialing_state(key) for key in self.mesh.book}
        if any(state.busy for state in states.values()):
            return
        ready = [key for key, state in states.items() if now >= state.next_at]
        if ready:
            key = min(ready, key=lambda k: states[k].tries)  # the least failed first
            states[key].busy = True
            self._nursery.start_soon(self._dial, key, self.mesh.book[key], True)
