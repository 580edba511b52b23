"""The link side of a peer: listening, dialing, admitting links, mesh messages, faults.

``PeerLinks`` is the layer of ``client.peer.Peer`` that runs the links of the mesh
(``client.mesh`` decides, this layer does).  Invariants:

* one reader and one writer task per link; a link takes part in the table (records passed
  on to and taken from it) only once ``admit``ted, and the mesh keeps one link per peer
  (``Mesh.keeps_first`` says which of two);
* an admitted link to a peer begins with a PULL and this peer's address book;
* after START a link another side dialed begins with ``pull`` (a peer of the mesh) or
  ``join`` (a peer of START rejoins and gets everything held, START first; a spectator
  watches; anyone else is refused with the reason);
* at most ``MAX_SPECTATORS`` spectators at once (in the lobby or after START), so
  watchers never fill the listener's links (``net.slots``) and keep a player out
  (``client.peer_admission`` decides admission and the limits per link, this layer does);
* a writer puts at most ``BATCH_BYTES`` in one write, so a flood relayed to a slow peer is
  paced by it, not cut off;
* a record ``net`` refuses on a link and a link closed for the peer's fault are shown
  naming the link's peer and counted, never written to a file (anyone can send them: they
  prove nothing); past ``MAX_REFUSED_PER_LINK`` refused records the link is closed; once
  the game file is closed, mesh messages no longer reach the table.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import trio

from client.lobby_wire import JOIN
from client.lobby_wire import SCHEMAS as LOBBY_SCHEMAS
from client.mesh import (
    ADDRESSES,
    ENDED,
    PRESENCE,
    PULL,
    Address,
    addresses_body,
    heard_keys,
    pull_body,
    read_addresses,
    read_presence,
)
from client.mesh import SCHEMAS as MESH_SCHEMAS
from client.peer_admission import SECOND_LINK, Refusal
from client.peer_events import LinkLost, LinkRefused
from client.peer_link import PeerLink
from client.peer_table import PeerTable
from net.driver import Link, serve
from net.errors import CloseCode, LinkError
from net.events import (
    LinkClosed,
    MessageReceived,
    RecordReceived,
    Refuse,
    SendEvent,
    SendMessage,
    SendRecord,
)
from net.events import RecordRejected as NetRecordRejected
from net.handshake import APP_VERSION
from net.identity import fingerprint, short_fingerprint
from net.linkspec import LinkSpec

SCHEMAS = {**LOBBY_SCHEMAS, **MESH_SCHEMAS}
"""Every message topic a peer takes: the lobby's and the mesh's."""
FRAME_OVERHEAD = 4 + 1 + 16
"""Bytes a record frame adds to its envelope: length, type, encryption tag."""
BATCH_BYTES = 256 * 1024
"""The most a link's writer puts in one write (one record more at most)."""
__all__ = ["BATCH_BYTES", "FRAME_OVERHEAD", "SCHEMAS"]


class PeerLinks(PeerTable):
    """The links of a peer's mesh: listening, dialing, admitting, mesh messages, faults."""

    # --- listening and links ------------------------------------------------------------------
    async def listen(self, port: int) -> None:
        """Listen on ``port`` (0: any free one); ``LinkError`` saying why not."""
        self._listeners = await self.network.open_listeners(port)
        self.port = int(self._listeners[0].socket.getsockname()[1])

    def release(self) -> None:
        """Close the listening sockets and the game file now, even when the peer's task was
        cancelled before ``wind_down`` (a window closed mid-game): nothing is left to the
        garbage collector.  The port is free again (a rematch listens there)."""
        for listener in getattr(self, "_listeners", ()):
            listener.socket.close()
        if self.file is not None and not self.file.closed:
            self.file.close()

    def link_spec(self, *, expect: bytes | None = None) -> LinkSpec:
        """What this peer brings to a link (``expect``: the key the other end must hold)."""
        return LinkSpec(
            self.identity,
            APP_VERSION,
            self.policy,
            table_id=self.table_id,
            listen_port=self.port,
            expected_fingerprint=None if expect is None else fingerprint(expect),
            secret=self.table_secret(),
            message_schemas=SCHEMAS,
        )

    def table_secret(self) -> str | None:
        """The table secret links prove and ask for (``net.linkspec``), if the table has one."""
        return self.secret

    async def serve_listeners(self, on_link: Callable[[Link], Awaitable[object]]) -> None:
        """Accept links for as long as the peer runs."""
        if self._listeners:
            await serve(self._listeners, self.link_spec, on_link, on_failure=self._on_failure)

    async def _on_failure(self, remote: str, closed: LinkClosed) -> None:
        self.notify(LinkLost(remote, f"no link: {closed.reason}", fatal=False))

    def admit(self, link: PeerLink) -> None:
        """``link`` takes part in the table: after START it is a link of the mesh."""
        table = self.table
        if link not in self.links:
            self.links.append(link)
        link.admitted = True
        if link.link.address is not None and link.link.peer.listen_port and not link.spectator:
            where = Address(link.link.address[0], link.link.peer.listen_port)
            self.beat.learned(self.mesh.learn(link.key, where, direct=True))
        if table is None:
            return
        for loser in self.admission.second_links(link, list(self.links)):
            loser.close(SECOND_LINK)
            loser.admitted = False
            if loser is link:
                return
        self._pull(link)  # first: a link this peer dialed begins with it
        link.send(SendMessage(ADDRESSES, addresses_body(self.mesh.book)))
        self.beat.linked()
        self.beat.links_changed()
        self._mesh_wake.set()

    def _pull(self, link: PeerLink) -> None:
        table = self.table
        if table is None:
            return
        ply = max(table.final_ply, 0)
        link.send(SendMessage(PULL, pull_body(ply, table.chain.at(ply).chain_digest)))

    def mesh_message(self, link: PeerLink, topic: str, body: Any) -> bool:
        """Handle a mesh topic from an admitted link; False if ``topic`` is not one."""
        if self.left_table:
            return topic in MESH_SCHEMAS  # the game file is closed: nothing reaches the table
        now = trio.current_time()
        table = self.table
        if topic == PRESENCE:
            entries = read_presence(body)
            if table is not None and not link.spectator:
                self.mesh.report(link.key, heard_keys(entries))
                self.absorb(table.presence_report(link.key, entries, now))
        elif topic == ADDRESSES:
            # A spectator is nobody at the table: its word on where players listen would
            # send them dialing any address it likes (it sends its book all the same).
            learned = [] if link.spectator else read_addresses(body)
            for key, where in learned:
                if not self.mesh.peers or key in self.mesh.peers:
                    self.beat.learned(self.mesh.learn(key, where))
        elif topic == ENDED:
            if not link.spectator:  # nor on who holds every END, which lets a peer leave
                self.learn_end_holders(body["keys"])
        elif topic == PULL:
            if table is not None:
                ply, digest = body["ply"], body["digest"]
                same = ply <= table.head.ply and table.chain.at(ply).chain_digest == digest
                for data in self.relay.answer(link, now, ply, same):
                    link.send(SendRecord(data))
        else:
            return False
        if table is not None and not link.spectator:
            table.presence.hear(link.key, now)
        return True

    def link_lost(self, link: PeerLink) -> None:
        """A link ended: the mesh dials again (or waits to be dialed)."""
        if self.table is not None and not link.spectator:
            self.mesh.link_lost(link.key, trio.current_time())
        self._wake.set()
        self.beat.links_changed()
        self._mesh_wake.set()

    def _dial_what_is_due(self, now: float) -> None:
        if self._nursery is not None and not self.done.is_set():
            linked = [link.key for link in self.links if not link.closing]
            for key, where in self.mesh.to_dial(now, linked):
                self._nursery.start_soon(self._dial, key, where)

    async def _dial(self, key: bytes, where: Address, watch: bool = False) -> None:
        """Dial a peer of the mesh (``watch``: as a spectator) and run the link."""
        try:
            link = await self.network.connect(
                where.host, where.port, self.link_spec(expect=key), timeout=5.0
            )
        except LinkError:
            self.mesh.dial_ended(key, trio.current_time(), ok=False)
            return
        self.mesh.dial_ended(key, trio.current_time(), ok=True)
        if watch:
            assert self.table is not None
            name = self.name or "a spectator"
            peer_link = PeerLink(link, key, self.table.start.name_of(key), dialed_by=self.me)
            peer_link.send(
                SendMessage(JOIN, {"name": name, "seat": 0, "watch": True, "ready": True})
            )
            self.admit(peer_link)
            await self.run_link(peer_link, self._deliver_mesh)
            self.mesh.link_lost(key, trio.current_time())
            return
        assert self.table is not None
        peer_link = PeerLink(link, key, self.table.start.name_of(key), dialed_by=self.me)
        self.admit(peer_link)
        closed = await self.run_link(peer_link, self._deliver_mesh)
        self.link_fault(peer_link, closed)
        self.link_lost(peer_link)

    def _deliver_mesh(self, link: PeerLink, event: Any) -> None:
        """Events of a link this peer dialed after START."""
        if isinstance(event, NetRecordRejected):
            self.link_refused(link, event)
        elif isinstance(event, RecordReceived):
            if link.admitted:
                self.receive(event.record, link)
        elif isinstance(event, MessageReceived) and not (
            link.admitted and self.mesh_message(link, event.topic, event.body)
        ):
            link.close(f"a peer does not send {event.topic!r} here", CloseCode.PROTOCOL)

    def deliver_incoming(self, link: PeerLink, event: Any) -> None:
        """Events of a link another peer or a spectator dialed, once the game has started:
        ``pull`` first from a peer of the mesh, ``join`` from one that rejoins or watches."""
        if isinstance(event, NetRecordRejected):
            self.link_refused(link, event)
            return
        if isinstance(event, RecordReceived):
            if link.admitted and not link.spectator:
                self.receive(event.record, link)
            return
        if not isinstance(event, MessageReceived):
            return
        topic, body, table = event.topic, event.body, self.table
        if link.admitted:
            if not self.mesh_message(link, topic, body):
                link.close(f"a peer does not send {topic!r} here", CloseCode.PROTOCOL)
        elif table is None:
            link.close(
                "this peer does not host the table: join at the host's address",
                CloseCode.REFUSED,
            )
        elif topic == JOIN:
            self.join_after_start(link, body)
        elif topic == PULL and link.key in table.start.peer_keys:
            link.name = table.start.name_of(link.key)
            self.admit(link)
            if link.admitted:
                self.mesh_message(link, topic, body)
        else:
            link.close(f"a link does not begin with {topic!r}", CloseCode.PROTOCOL)

    def join_after_start(self, link: PeerLink, body: Any) -> None:
        """A ``join`` once the game has started (any peer answers): a peer of START rejoins,
        a spectator watches, anyone else is told why not."""
        table = self.table
        assert table is not None
        answer = self.admission.join_after_start(link.key, body["watch"], table.start.peer_keys)
        if answer == "rejoin":
            link.name = table.start.name_of(link.key)
        elif answer == "watch" and self.refuse_spectator(link):
            return
        elif answer == "watch":
            link.name, link.spectator = body["name"], True
        else:
            assert isinstance(answer, Refusal)
            link.close(answer.reason, answer.code)
            return
        self.links.append(link)
        self.send_held(link)  # everything so far, in order, START first
        self.admit(link)

    async def run_link(
        self, peer_link: PeerLink, deliver: Callable[[PeerLink, Any], None]
    ) -> LinkClosed:
        """Read and write ``peer_link`` until it closes; ``deliver`` gets each event.

        The link joins ``links`` (broadcasts) only when its owner admits it."""

        async def handle(event: Any) -> None:
            deliver(peer_link, event)

        try:
            async with trio.open_nursery() as nursery:
                nursery.start_soon(self._write_link, peer_link)
                closed = await peer_link.link.run(handle)
                nursery.cancel_scope.cancel()
        finally:
            if peer_link in self.links:
                self.links.remove(peer_link)
            peer_link.closing = True
            self._wake.set()
            self._links_changed.set()
        return closed

    async def _write_link(self, peer_link: PeerLink) -> None:
        """Drain the link's queue, what is waiting in one write of at most ``BATCH_BYTES``
        (so a write never needs the peer to read more than that within the send timeout:
        a flood relayed to a slow peer is paced by it, not cut off)."""
        async for first in peer_link.inbox:
            batch = [first]
            size = _size(first)
            while size < BATCH_BYTES:
                try:
                    event = peer_link.inbox.receive_nowait()
                except trio.WouldBlock:
                    break
                batch.append(event)
                size += _size(event)
            if not await peer_link.link.send_batch(batch):
                return
            sent = sum(len(e.envelope) for e in batch if isinstance(e, SendRecord))
            frames = sum(1 for e in batch if isinstance(e, SendRecord))
            peer_link.bytes_sent += sent + frames * FRAME_OVERHEAD
            self.bytes_sent += sent + frames * FRAME_OVERHEAD
            if any(isinstance(e, Refuse) for e in batch):
                return

    def refuse_spectator(self, link: PeerLink) -> bool:
        """Refuse ``link`` as a spectator, telling it why, when ``MAX_SPECTATORS`` watch."""
        refusal = self.admission.spectator_refusal(self.links)
        if refusal is None:
            return False
        link.close(refusal.reason, refusal.code)
        return True

    def send_held(self, peer_link: PeerLink) -> None:
        """Send every record held so far (a peer or spectator joining after START)."""
        for data in self.relay.held.envelopes:
            peer_link.send(SendRecord(data))

    # --- faults on links ------------------------------------------------------------------------
    def describe_link(self, link: PeerLink) -> str:
        """Who is at the other end of ``link`` (as the table names it), and where."""
        if self.table is not None:
            who = self.table.describe(link.key)
        else:
            who = f"{link.name} ({short_fingerprint(link.key)})"
        return f"{who} at {link.link.remote}"

    def link_refused(self, link: PeerLink, event: NetRecordRejected) -> None:
        """A record ``net`` did not take on ``link`` (its author is not at the table, or it is
        for another table): shown, counted, never written (anyone can send one, so it is
        evidence of nothing); past ``MAX_REFUSED_PER_LINK`` the link is closed."""
        if link.closing:
            return  # what was on its way when the link was closed: nothing more to say
        refusal = self.admission.refused_record(link)
        self.refused_on_links += 1
        reason = f"from {self.describe_link(link)}: {event.reason}"
        self.notify(LinkRefused(reason, link.key, link.link.remote))
        if refusal is not None:
            link.close(refusal.reason, refusal.code)

    def link_fault(self, link: PeerLink, closed: LinkClosed) -> None:
        """Report a link this side closed for the peer's fault (bad input, bad signature,
        silence).  Nothing is written: a bad signature or noise proves nothing about a key."""
        if not self.admission.is_fault(closed):
            return
        who = self.describe_link(link)
        self.notify(LinkLost(who, f"closed on a fault: {closed.reason}", fatal=False))


def _size(event: SendEvent) -> int:
    return len(event.envelope) + FRAME_OVERHEAD if isinstance(event, SendRecord) else 64
