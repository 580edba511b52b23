"""The presence side of a peer: heartbeats, presence reports, pulls, being alone.

``PeerPresence`` is the layer of ``client.peer.Peer`` that keeps the mesh alive.
Invariants:

* every ``HEARTBEAT`` (and at once when the links changed) each admitted link gets a
  presence report and the address book when it changed (``client.peer_beat`` says when
  and what);
* a table stalled past ``STALL_AFTER`` pulls from one peer link at a time, in turn;
* dialing happens as soon as something is due (``Mesh.to_dial``); a spectator without links
  asks another peer of the book to let it watch, the least failed first, one at a time;
* a headless peer with no peer link for ``client.peer_beat.ALONE_LIMIT`` past the away
  timeout gives up (code 1); one that ``stay``s never does.
"""

from __future__ import annotations

import trio

from client.mesh import HEARTBEAT
from client.peer_events import LinkLost
from client.peer_links import PeerLinks
from client.table import Table


class PeerPresence(PeerLinks):
    """Heartbeats, presence reports, pulls and dialing: the mesh kept alive."""

    async def serve_mesh(self) -> None:
        """Presence reports and pulls every beat; dialing as soon as there is someone to
        dial (the table started, a link was lost, a pause is over)."""
        beat = self.beat
        while not self.done.is_set():
            now = trio.current_time()
            table = self.table
            if table is not None and not self.left_table:
                self._dial_what_is_due(now)
                if beat.report_due(now):
                    self._beat(table, now)
            pause = HEARTBEAT if table is None else max(beat.next_report - now, 0.0)
            upcoming = self.mesh.next_dial()
            if upcoming is not None:
                pause = min(pause, max(upcoming - now, 0.05))
            with trio.move_on_after(pause):
                await self._mesh_wake.wait()
            self._mesh_wake = trio.Event()

    def _beat(self, table: Table, now: float) -> None:
        linked = [k.key for k in self.peer_links() if k.admitted and not k.closing]
        messages = self.beat.messages(table.me, table.presence, linked, now)
        for link in self.links:
            if link.admitted:
                for message in messages:
                    link.send(message)
        ended = self._ended()
        if self.conclusion.told_of_ends(ended):  # again: a link that came up since, or a
            self.tell_peers(self.conclusion.ended_message(ended))  # peer that lacks it
        peers = [link for link in self.peer_links() if link.admitted]
        stalled_on = self.relay.pull_from(peers, table.waiting_since, now)
        if stalled_on is not None:
            self._pull(stalled_on)
        if not peers and table.me is None and self._nursery is not None and not self.done.is_set():
            self._watch_elsewhere(now)
        if self.beat.gives_up(bool(peers), table.start.away_ms, now):
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
