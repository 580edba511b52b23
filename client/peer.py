"""One table at one peer, over trio: links, the table core, the game file and the timer.

``Peer`` is what hosting (``client.hosting``) and joining (``client.joining``) share.  It
owns, in one nursery: one reader and one writer task per link, the table's timer (bots'
delays, ``Table.next_deadline``) and the game file.  Everything the table core decides goes
through :meth:`Peer.absorb`, synchronously, so intents from a UI, records from links and
ticks of the timer are handled one at a time, in the order they happen.

Invariants:

* **Write-ahead.**  Every record this peer signs, and every record it accepts, is appended
  to the game file (``games/<table>.palabre-log`` in the profile, net/logfile.py format) as
  the table takes it; nothing is sent before one fsync has made the file durable up to it.
  Records received while there is nothing to send are fsynced within ``SYNC_DELAY``.
* **The mesh** (``client.mesh`` decides, this module does): every peer listens; after START
  each peer dials the peers that joined before it (a restarted one dials everyone), keeps
  one link per peer, sends a presence report on every link every 2 s, passes on what it
  takes from a link to the links ``Mesh.passes_on`` names, as soon as it arrives and exactly
  as received — refused plies included, so every peer sees the evidence — and pulls what its
  table lacks.  Duplicates (same record hash) are dropped before their signature is checked
  (``TablePolicy.knows``).
* **Joining after START** (any peer answers): a peer of START rejoins (it gets everything
  this peer holds, then both pull from each other), a spectator watches, anyone else is
  refused.  A restarted peer resumes from its own game file (``resume``).
* **Keys.**  Before START a link takes only START; after it, only records signed by the
  keys START names, and the new bot keys votes and REMOVEs name.
* **Ending.**  With ``stay=False`` (headless) the peer concludes by itself: shortly after
  the END of every peer (0), 10 s after the game's outcome without them (0), shortly after a
  halt (3, evidence file written), or when it has had no link with any peer for a long
  while (1).  A lost link is not the end: the others go on, and REMOVE takes care of a peer
  that does not come back.
* **Names.**  Every (key, name) this peer learns (rosters, joins, START) is checked against
  the keys the profile met under that name (``client.known_peers``, trust on first use): a
  known name with a new key is a ``NameWarning``; START's peers are remembered.
* **Faults on a link.**  A record ``net`` refuses on a link (signed for another table, or
  by a key not at this one) and a link this side closes for the peer's fault (bad bytes, a
  bad signature, silence) are shown naming the link's peer, and kept as evidence files
  next to the game file (with the offending envelope when there is one).

Where the code lives (issue 22 is turning this into a sans-I/O node and a thin runtime):
the decisions with no I/O and no clock are parts the layers hold, each given ``now`` —
``client.peer_conclusion`` (when and how this peer ends, the wait for every END),
``client.peer_relay`` (dedupe, pass on, pull), ``client.peer_beat`` (presence reports, the
address book, being alone), ``client.peer_admission`` (one link per peer, joins after
START, limits per link); listening and dialing go through ``client.peer_network``.
What is left is a stack of layers, each one concept and each building on
the ones below it — ``client.peer_core`` (state, files and keys, ending),
``client.peer_table`` (START, the table core, ``absorb``), ``client.peer_links`` (listening,
dialing, admitting links, mesh messages, faults on links), ``client.peer_presence``
(heartbeats, presence reports, pulls).  Its types live in ``client.peer_events``,
``client.peer_link`` and ``client.game_file``, and are importable from here as before.
This module adds the timer and the wind-down.
"""

from __future__ import annotations

import math

import trio

from client.game_file import GameFile, game_dir
from client.peer_conclusion import END_WAIT
from client.peer_events import (
    EvidenceWritten,
    LinkLost,
    LinkRefused,
    NameWarning,
    RecordsSent,
    TableFlooded,
    TableStarted,
)
from client.peer_link import PeerLink, TablePolicy
from client.peer_presence import PeerPresence
from client.peer_table import SYNC_DELAY

__all__ = [
    "END_WAIT",
    "SYNC_DELAY",
    "EvidenceWritten",
    "GameFile",
    "LinkLost",
    "LinkRefused",
    "NameWarning",
    "Peer",
    "PeerLink",
    "RecordsSent",
    "TableFlooded",
    "TablePolicy",
    "TableStarted",
    "game_dir",
]


class Peer(PeerPresence):
    """The part of a peer that hosting and joining share.  See the module docstring."""

    # --- tasks --------------------------------------------------------------------------------
    async def serve_timer(self) -> None:
        """Bots' delays, deferred fsyncs and the conclusion, each at its time."""
        while True:
            deadlines = [self._sync_due or math.inf, -math.inf if self._soon else math.inf]
            if self.table is not None:
                deadlines.append(self.table.next_deadline() or math.inf)
            due = self.conclusion.due(bool(self.peer_links()))
            if due is not None and not self.done.is_set():
                deadlines.append(due)
            deadlines.append(self.floods.due() or math.inf)
            with trio.move_on_at(min(deadlines)):
                await self._wake.wait()
            self._wake = trio.Event()
            while self._soon:
                self._soon.pop(0)()
            now = trio.current_time()
            if self._sync_due is not None and now >= self._sync_due:
                self._sync_due = None
                if self.file is not None and not self.file.closed:
                    self.file.sync()
            self.report_floods(now)
            if self.table is not None and not self.left_table:
                deadline = self.table.next_deadline()
                if deadline is not None and now >= deadline:
                    self.absorb(self.table.tick(now))
            due = self.conclusion.due(bool(self.peer_links()))
            code = self.conclusion.code
            if code is not None and due is not None and not self.done.is_set() and now >= due:
                self.finish(code, self.conclusion.reason)

    async def wind_down(self, timeout: float = 3.0) -> None:
        """After ``done``: let the links say goodbye (bounded), then close the file."""
        self.report_floods(math.inf)  # a burst of drops still going on is told all the same
        with trio.move_on_after(timeout):
            while self.links:
                self._links_changed = trio.Event()
                await self._links_changed.wait()
        if self.file is not None:
            self.file.close()
