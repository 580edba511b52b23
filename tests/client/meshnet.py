"""The in-memory router with the peer node's own parts: relay, beat and the mesh's rules.

``MeshRouter`` carries a record only over links (pairs of tables not cut and not down) and
lets each table's ``client.node.peer_relay.Relay`` decide what a peer decides over TCP: a
duplicate is dropped, what a table signs goes on every link, what it takes from a link goes
on to the links ``Relay.pass_on`` names before the table judges it, and a record the table
refuses goes on to every other link as evidence.  Every 2 s each table beats as
``client.runtime.peer.Peer`` does: its presence report is ``client.node.peer_beat.Beat.report`` (the
peers it has a link with, and how long ago it heard each), the others learn its links from
it (``Mesh.report``) and hear it, and a stalled table pulls from one peer in turn
(``Relay.pull_from``), answered with ``Relay.answer``.

Only the transport is the router's: delays, drops, duplicates, cut links and crashes.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from client.node.mesh import Mesh, heard_keys, read_presence
from client.node.peer_beat import Beat
from client.node.peer_policy import TablePolicy
from client.node.peer_relay import Relay
from client.rules.net_adapter import open_envelope
from client.rules.records import SignedRecord
from client.tabletop.events import TableRejected
from client.tabletop.table import Table
from tests.client.harness import Router


@dataclass(eq=False)
class End:
    """One table's end of its link with the table ``name``: what the relay reads of a link."""

    name: str
    key: bytes
    spectator: bool
    admitted: bool = True


class MeshRouter(Router):
    def __init__(self, tables: Mapping[str, Table], **options: Any) -> None:
        super().__init__(tables, presence=True, **options)
        self.relays: dict[str, Relay[End]] = {}
        self.pulls: list[tuple[str, str]] = []
        self.forwarded: list[tuple[float, str]] = []
        """(time, kind) of each record passed on from one link to another."""
        self._ends: dict[tuple[str, str], End] = {}
        for name, table in self.tables.items():
            self.join(name, table)

    @property
    def meshes(self) -> dict[str, Mesh]:
        return {name: relay.mesh for name, relay in self.relays.items()}

    def join(self, name: str, table: Table) -> None:
        """``name`` (new, or restarted with ``table``) takes part in the mesh."""
        self.tables[name] = table
        self.logs.setdefault(name, [])
        self.events.setdefault(name, [])
        self.sent_by.setdefault(name, [])
        mesh = Mesh(table.me or b"", table.start.peer_keys)
        relay = self.relays[name] = Relay(mesh, TablePolicy())
        for pair in [pair for pair in self._ends if name in pair]:
            del self._ends[pair]  # a restarted table's links are new ones
        for record in self.logs[name]:
            relay.hold(record)

    def key(self, name: str) -> bytes:
        me = self.tables[name].me
        return me if me is not None else f"spectator {name}".encode()

    def spectator(self, name: str) -> bool:
        return self.tables[name].me is None

    def links_of(self, name: str) -> list[str]:
        return [n for n in self.tables if n != name and self.linked(name, n)]

    def ends(self, name: str) -> list[End]:
        """``name``'s ends of its links, in the order of the tables (the same objects while
        the tables last, as a peer's links are: a pull's answer is spaced per link)."""
        ends = []
        for other in self.links_of(name):
            end = self._ends.get((name, other))
            if end is None or end.key != self.key(other):
                end = self._ends[(name, other)] = End(other, self.key(other), self.spectator(other))
            ends.append(end)
        return ends

    def send_own(self, source: str, record: SignedRecord) -> None:
        self.relays[source].hold(record)
        self.deliver(record.envelope, [end.name for end in Relay.everyone(self.ends(source))])

    def arrive(self, name: str, envelope: bytes, source: str | None) -> None:
        record = open_envelope(envelope)
        relay = self.relays[name]
        if relay.knows(record.record_hash):
            return  # a duplicate, dropped before anything (net's policy.knows)
        relay.hold(record)
        table = self.tables[name]
        ends = self.ends(name)
        came_by = next((end for end in ends if end.name == source), None)
        runner = table.runner_of(record.author)
        passed = relay.pass_on(record, runner, came_by, ends)
        for end in passed:
            self.forwarded.append((self.now, record.kind))
            self.deliver(envelope, [end.name], source=name)
        if came_by is not None and not came_by.spectator:
            table.presence.hear(came_by.key, self.now)
        output = table.receive(record, self.now)
        if any(isinstance(e, TableRejected) and e.record == record for e in output.events):
            for end in relay.evidence(came_by, passed, ends):
                self.deliver(envelope, [end.name], source=name)
        self.take(name, output)

    def _beat(self, name: str) -> None:
        table = self.tables[name]
        if name not in self.down:
            ends = self.ends(name)
            peers = [end for end in ends if not end.spectator]
            report = Beat.report(table.me, table.presence, [e.key for e in peers], self.now)
            entries = read_presence(report)
            for end in ends:
                if table.me is not None:  # a spectator's report is not read
                    other = self.tables[end.name]
                    self.relays[end.name].mesh.report(table.me, heard_keys(entries))
                    self.take(end.name, other.presence_report(table.me, entries, self.now))
                    other.presence.hear(table.me, self.now)
            stalled_on = self.relays[name].pull_from(peers, table.waiting_since, self.now)
            if stalled_on is not None:
                self.pull(name, stalled_on.name)
        self._schedule_heartbeat(name)

    def pull(self, name: str, frm: str) -> None:
        """``name`` asks the linked table ``frm`` for what it lacks (as a peer whose link
        opens, or whose table stalls, does)."""
        if frm not in self.links_of(name):
            return
        table, other = self.tables[name], self.tables[frm]
        ply = max(table.final_ply, 0)
        digest = table.chain.at(ply).chain_digest
        same = ply <= other.head.ply and other.chain.at(ply).chain_digest == digest
        self.pulls.append((name, frm))
        asker = next(end for end in self.ends(frm) if end.name == name)
        for envelope in self.relays[frm].answer(asker, self.now, ply, same):
            self.deliver(envelope, [name], delay=0.0, source=frm)
