"""The in-memory router with the mesh's own decisions: links, forwarding, presence, pulls.

``MeshRouter`` carries a record only over links (pairs of tables not cut and not down) and
lets each table's ``client.mesh.Mesh`` decide where it goes next, as ``client.peer`` does on
real links: what a table signs goes on its links; what it takes from a link goes on to the
links ``Mesh.passes_on`` names; every 2 s each table sends its presence report on each link
(``Mesh.report`` learns the reporter's links from it), and a table whose ``waiting_since``
is old pulls from a linked table, which answers with ``Held.answer``.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from typing import Any

from client.mesh import Held, Mesh, heard_keys, stalled
from client.net_adapter import open_envelope
from client.records import SignedRecord
from client.table import Table
from tests.client.harness import Router


class MeshRouter(Router):
    def __init__(self, tables: Mapping[str, Table], **options: Any) -> None:
        super().__init__(tables, presence=True, **options)
        self.meshes: dict[str, Mesh] = {}
        self.held: dict[str, Held] = {}
        self.pulls: list[tuple[str, str]] = []
        self.forwarded: list[tuple[float, str]] = []
        """(time, kind) of each record passed on from one link to another."""
        self._turn = itertools.count()
        for name, table in self.tables.items():
            self.join(name, table)

    def join(self, name: str, table: Table) -> None:
        """``name`` (new, or restarted with ``table``) takes part in the mesh."""
        self.tables[name] = table
        self.logs.setdefault(name, [])
        self.events.setdefault(name, [])
        self.sent_by.setdefault(name, [])
        self.meshes[name] = Mesh(table.me or b"", table.start.peer_keys)
        held = self.held[name] = Held()
        for record in self.logs[name]:
            held.add(record)

    def spectator(self, name: str) -> bool:
        return self.tables[name].me is None

    def links_of(self, name: str) -> list[str]:
        return [n for n in self.tables if n != name and self.linked(name, n)]

    def send_own(self, source: str, record: SignedRecord) -> None:
        self.held[source].add(record)
        self.deliver(record.envelope, self.links_of(source), source=source)

    def arrive(self, name: str, envelope: bytes, source: str | None) -> None:
        record = open_envelope(envelope)
        held = self.held[name]
        if record.record_hash in held:
            return  # a duplicate, dropped before anything (net's policy.knows)
        held.add(record)
        table = self.tables[name]
        if source is not None:
            self.take(name, table.heard(self.tables[source].me or b"", self.now))
        runner = table.runner_of(record.author)
        for other in self.links_of(name):
            if other == source:
                continue
            key = self.tables[other].me or b""
            if self.meshes[name].passes_on(record, runner, key, self.spectator(other)):
                self.forwarded.append((self.now, record.kind))
                self.deliver(envelope, [other], source=name)
        self.take(name, table.receive(record, self.now))

    def _beat(self, name: str) -> None:
        table = self.tables[name]
        if name not in self.down:
            entries = table.presence.report_entries(self.now) if table.me else []
            for other in self.links_of(name):
                if table.me is not None:
                    self.meshes[other].report(table.me, heard_keys(entries))
                    self.take(
                        other, self.tables[other].presence_report(table.me, entries, self.now)
                    )
            if stalled(table.waiting_since, self.now):
                self.pull(name)
        self._schedule_heartbeat(name)

    def pull(self, name: str, frm: str | None = None) -> None:
        """``name`` asks a linked table (``frm``, or the next in turn) for what it lacks."""
        links = self.links_of(name)
        if not links:
            return
        source = frm or links[next(self._turn) % len(links)]
        table, other = self.tables[name], self.tables[source]
        ply = max(table.final_ply, 0)
        same = ply <= other.head.ply and other.chain.at(ply).chain_digest == (
            table.chain.at(ply).chain_digest
        )
        self.pulls.append((name, source))
        for envelope in self.held[source].answer(ply, same):
            self.deliver(envelope, [name], delay=0.0, source=source)
