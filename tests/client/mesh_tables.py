"""Whole tables of real peers on the in-memory network, with faults at a ply.

Each peer is the product's ``client.runtime.peer.Peer`` (hosting or joining, its node, its
links and handshakes) on ``tests.client.memnet.MemoryNetwork`` under trio's autojump
``MockClock`` with a seeded scheduler: a table of four plays its virtual minute in a few
seconds of test time (mostly the game files' real fsyncs), the same way on every run.  Bots
play every seat.

What the test sees comes through the seams the product offers, never by replacing methods:
each peer's observers (what it tells its front ends) and the node's ``NodeSeams`` (every
input with its time, every effect as decided), which pass everything on unchanged.  Faults
are the network's (``MemoryNetwork.cut``, ``delay``, ``reset``), set before the table starts
or by ``at_ply`` when a peer applies a given ply.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import trio
import trio.testing

from client.node.node_io import Effect, FromLink, LinkDown, NodeInput, NodeSeams, Send
from client.runtime.peer import Peer
from client.tabletop.events import PlyApplied, PlyFinal
from net.events import RecordReceived, SendRecord
from net.records import open_record
from tests.client.golden import TABLE_ID, identity, peer_options
from tests.client.memnet import MemoryNetwork, deterministic
from tests.client.peers import host_peer, join_peer
from tests.client.tinygame import ENGINE

__all__ = ["Arrival", "LinkEnd", "MeshTable", "Sent", "play_table"]


@dataclass(frozen=True)
class Sent:
    """A record a node put on a link: when, by whom, to whom, its kind and author."""

    at: float
    by: str
    to: str
    kind: str
    author: bytes
    record_hash: bytes


@dataclass(frozen=True)
class Arrival:
    """A record that came in on a link: when, at whom, from whom."""

    at: float
    at_peer: str
    came_from: str
    kind: str
    author: bytes
    record_hash: bytes


@dataclass(frozen=True)
class LinkEnd:
    """A link ended at one peer (the node's ``LinkDown`` input): when, with whom, why."""

    at: float
    at_peer: str
    other: str
    reason: str
    by_peer: bool


@dataclass
class MeshTable:
    """One table's peers on one network, and what the seams saw."""

    names: Sequence[str]
    network: MemoryNetwork = field(default_factory=MemoryNetwork)
    peers: dict[str, Peer] = field(default_factory=dict)
    codes: dict[str, int] = field(default_factory=dict)
    told: dict[str, list[tuple[float, Any]]] = field(default_factory=dict)
    sent: list[Sent] = field(default_factory=list)
    arrived: list[Arrival] = field(default_factory=list)
    ended: list[LinkEnd] = field(default_factory=list)
    """Links that ended after the table started, at either end (the lobby's at the end)."""
    at_ply: dict[tuple[str, int], Callable[[MeshTable], None]] = field(default_factory=dict)
    """(peer, ply): what to do, once, when that peer applies that ply."""
    at_final: dict[tuple[str, int], Callable[[MeshTable], None]] = field(default_factory=dict)
    """(peer, ply): what to do, once, when that ply becomes final at that peer."""
    watchers: Sequence[str] = ()
    """Spectators, each given an address beside the players'; ``watch`` sits one down."""
    withhold: dict[str, Callable[[Effect], bool]] = field(default_factory=dict)
    """Per peer, the effects its node decides but never carries out (a modified client that
    does not send what it signs, say), through the node's effect seam."""
    join: Callable[[str, bool], None] = lambda name, watch: None
    """Starts a peer that dials the host (set while the table runs)."""

    def watch(self, name: str) -> None:
        """``name`` (one of ``watchers``) dials the host now and watches the game."""
        self.join(name, True)

    def host_of(self, name: str) -> str:
        """The address ``name`` has on the network."""
        return f"10.0.0.{[*self.names, *self.watchers].index(name) + 1}"

    def name_of(self, key: bytes) -> str:
        for name in [*self.names, *self.watchers]:
            if identity(name).public_key == key:
                return name
        return "?"

    @staticmethod
    def network_time() -> float:
        """The virtual time, for a fault set at a ply to say when it was set."""
        return trio.current_time()

    def cut(self, source: str, to: str) -> None:
        self.network.cut(self.host_of(source), self.host_of(to))

    def delay(self, source: str, to: str, seconds: float) -> None:
        self.network.delay(self.host_of(source), self.host_of(to), seconds)

    def reset(self, a: str, b: str) -> int:
        return self.network.reset(self.host_of(a), self.host_of(b))

    def seams(self, name: str) -> NodeSeams:
        def inputs(event: NodeInput) -> NodeInput:
            if isinstance(event, FromLink) and isinstance(event.event, RecordReceived):
                record = event.event.record
                who = self.name_of(event.link.key)
                self.arrived.append(
                    Arrival(event.now, name, who, record.kind.name, record.author, record.hash)
                )
            if isinstance(event, LinkDown):
                closed = event.closed
                who = self.name_of(event.link.key)
                self.ended.append(LinkEnd(event.now, name, who, closed.reason, closed.by_peer))
            return event

        def effects(effect: Effect) -> Effect | None:
            withhold = self.withhold.get(name)
            if withhold is not None and withhold(effect):
                return None
            if isinstance(effect, Send) and isinstance(effect.event, SendRecord):
                record = open_record(effect.event.envelope)
                to, now = self.name_of(effect.link.key), trio.current_time()
                self.sent.append(Sent(now, name, to, record.kind.name, record.author, record.hash))
            return effect

        return NodeSeams(inputs=inputs, effects=effects)

    def observer(self, name: str) -> Callable[[Any], None]:
        told = self.told.setdefault(name, [])

        def observe(event: Any) -> None:
            told.append((trio.current_time(), event))
            if isinstance(event, PlyApplied):
                action = self.at_ply.pop((name, event.state.ply), None)
                if action is not None:
                    action(self)
            if isinstance(event, PlyFinal):
                action = self.at_final.pop((name, event.ply), None)
                if action is not None:
                    action(self)

        return observe

    def events(self, name: str, kind: type) -> list[Any]:
        return [event for _, event in self.told.get(name, []) if isinstance(event, kind)]

    def final_chains(self) -> dict[str, list[bytes]]:
        """Every peer's chain, as the hashes of its records, from START to the last ply."""
        out = {}
        for name, peer in self.peers.items():
            table = peer.table
            assert table is not None, f"{name} never sat at the table"
            out[name] = [state.record.record_hash for state in table.chain.states]
        return out


def play_table(
    names: Sequence[str],
    home: Path,
    *,
    pile: int = 24,
    faults: Callable[[MeshTable], None] = lambda table: None,
    at_ply: Mapping[tuple[str, int], Callable[[MeshTable], None]] | None = None,
    host_options: Mapping[str, Any] | None = None,
    watchers: Sequence[str] = (),
    limit: float = 600.0,
    withhold: Mapping[str, Callable[[Effect], bool]] | None = None,
    at_final: Mapping[tuple[str, int], Callable[[MeshTable], None]] | None = None,
) -> MeshTable:
    """Play a whole table of ``names`` (the host first) and return what was seen."""
    table = MeshTable(
        names, at_ply=dict(at_ply or {}), watchers=watchers, withhold=dict(withhold or {})
    )
    table.at_final.update(at_final or {})
    faults(table)

    def options(name: str) -> dict[str, Any]:
        index = [*names, *watchers].index(name)
        network = table.network.at(table.host_of(name))
        return peer_options(name, index, home) | {"network": network, "seams": table.seams(name)}

    async def run(name: str, peer: Peer) -> None:
        table.codes[name] = await peer.run()

    async def main() -> None:
        host_name = names[0]
        params = {"seats": len(names), "pile": pile}
        host = host_peer(
            identity(host_name), ENGINE, params, host_name, table_id=TABLE_ID,
            **options(host_name), **(host_options or {}),
        )  # fmt: skip
        table.peers[host_name] = host
        host.observers.append(table.observer(host_name))
        await host.open(0)
        with trio.fail_after(limit):
            async with trio.open_nursery() as nursery:

                def join(name: str, watch: bool) -> None:
                    more = options(name) | ({"watch": True, "bot_me": False} if watch else {})
                    target = (table.host_of(host_name), host.port)
                    peer = join_peer(identity(name), target, name, **more)
                    peer.observers.append(table.observer(name))
                    table.peers[name] = peer
                    nursery.start_soon(run, name, peer)

                table.join = join
                nursery.start_soon(run, host_name, host)
                for name in names[1:]:
                    join(name, False)

    with deterministic():
        trio.run(main, clock=trio.testing.MockClock(autojump_threshold=0))
    return table
