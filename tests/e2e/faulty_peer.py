"""A palabre peer with test-only behaviour, for the end-to-end tests (never used by palabre).

    python -m tests.e2e.faulty_peer [--profile P] host|join ARGS...   (palabre's own arguments)

It runs the real ``palabre host``/``join`` code (``client.commands.headless``) and adds what the
environment variable ``PALABRE_TEST_FAULTS`` asks, as ``name=value`` items separated by
``;``.  Plies are counted from 1; "at N" means when the table's head reaches ply N − 1 (so
the next ply to be played is N):

* ``illegal_at=N``: when this peer's own key is to sign ply N, it also signs an illegal
  move for it with that key and sends it first (run it with ``--bot-delay`` > 0);
* ``disagree_at=N``: this peer's engine computes a wrong digest from ply N on;
* ``resign_at=N``: this peer's player resigns at ply N (sent at its turn);
* ``offer_draw_at=N``: this peer offers a draw at ply N, and again at each later position
  until the game ends (an offer lapses if a move comes first); ``accept_draws=1``: it
  accepts any;
* ``chat_at=N:TEXT``, ``point_at=N``: it chats, or points (an arrow 0→10, square 5);
* ``takeback_at=N``: the first time the head is ply N or later and is this peer's own move,
  it asks to take it back (the others must run with ``--bot-delay`` > 0 to see the ask
  before their bots move on);
* ``cut_link_at=N:NAME``: at ply N it closes its link to the peer named NAME and never
  links with it again (dials it no more, closes its dials at once): one broken cable of
  the mesh, while both stay linked to the others;
* ``deaf_to_ends=1``: it drops every END another peer signed, however it comes (sent,
  passed on or pulled): a peer that never gets every END;
* ``link_delay=NAME:MS``: every byte it writes on its link with the peer named NAME reaches
  that peer MS milliseconds later (``tests.e2e.delayed_network``), from the table's START
  on (and on every later link with it); what NAME sends it is not delayed: a one-way delay
  on one link of the mesh;
* ``not_ready=1``: it joins without being ready;
* ``engine_version=V``: its engine claims version V;
* ``memory=1``: it prints its resident memory when the table starts, then its peak
  resident memory from then on when it exits (``faulty_peer: memory at start: N KiB`` and
  ``faulty_peer: peak memory after start: N KiB``; Linux).
"""

from __future__ import annotations

import hashlib
import os
import re
import sys
from pathlib import Path
from typing import Any

from client.commands.cli import build_parser
from client.commands.headless import run_host, run_join
from client.node.node_io import (
    Dial,
    DialEnded,
    Effect,
    FromLink,
    LinkUp,
    NodeInput,
    NodeSeams,
    Send,
)
from client.rules.net_adapter import record_from_net
from client.runtime.peer import Peer, TableStarted
from client.tabletop.events import DrawOffered
from client.tabletop.seating import IntentRefused
from engines import IllegalMove, InvalidMove, find_engine
from net.events import RecordReceived, SendRecord
from tests.e2e.delayed_network import DelayedNetwork


def faults() -> dict[str, str]:
    items = os.environ.get("PALABRE_TEST_FAULTS", "")
    return dict(item.split("=", 1) for item in items.split(";") if item)


class PatchedEngine:
    """The real engine, but for the version it claims and the digests from a ply on."""

    def __init__(self, engine: Any, version: str | None, disagree_at: int | None) -> None:
        self._engine = engine
        self.version = version or engine.version
        self._disagree_at = disagree_at
        self._depth: dict[Any, int] = {}

    def __getattr__(self, name: str) -> Any:
        return getattr(self._engine, name)

    def initial_state(self, params: Any) -> Any:
        state = self._engine.initial_state(params)
        self._depth[state] = 0
        return state

    def _next(self, before: Any, after: Any) -> Any:
        self._depth.setdefault(after, self._depth.get(before, 0) + 1)
        return after

    def apply(self, state: Any, move: Any) -> Any:
        return self._next(state, self._engine.apply(state, move))

    def resign(self, state: Any, seat: int) -> Any:
        return self._next(state, self._engine.resign(state, seat))

    def agree_draw(self, state: Any) -> Any:
        return self._next(state, self._engine.agree_draw(state))

    def digest(self, state: Any) -> bytes:
        digest: bytes = self._engine.digest(state)
        if self._disagree_at is not None and self._depth.get(state, 0) >= self._disagree_at:
            return hashlib.blake2b(digest + b"rogue", digest_size=32).digest()
        return digest


def my_turn(peer: Peer) -> bool:
    """Whether ``peer``'s own key is to sign the next ply."""
    table = peer.table
    assert table is not None
    state = table.head.engine_state
    seat = table.engine.to_move(state)
    if seat is None:
        return False
    return table.head.seat_key(table.engine.controller(state, seat)) == peer.me


def illegal_wire(engine: Any, state: Any) -> list[int]:
    """A well-formed move the engine refuses here (a legal one, nudged)."""
    for move in engine.legal_moves(state):
        wire = list(engine.move_to_wire(move))
        for index in range(len(wire)):
            for delta in (1, -1, 2, -2, 9, -9, 10, -10):
                nudged = [*wire[:index], wire[index] + delta, *wire[index + 1 :]]
                try:
                    engine.apply(state, engine.move_from_wire(nudged))
                except IllegalMove:
                    return nudged
                except InvalidMove:
                    continue
    raise AssertionError("no illegal move found")


def memory(field: str) -> int:
    """A ``/proc/self/status`` memory field in KiB (VmRSS now, VmHWM the peak)."""
    status = Path("/proc/self/status").read_text()
    return int(re.search(rf"^{field}:\s+(\d+) kB$", status, re.M)[1])  # type: ignore[index]


def memory_at_start() -> None:
    print(f"faulty_peer: memory at start: {memory('VmRSS')} KiB", flush=True)
    Path("/proc/self/clear_refs").write_text("5")  # the peak starts again from here


def peak_memory() -> None:
    print(f"faulty_peer: peak memory after start: {memory('VmHWM')} KiB", flush=True)


class Faults:
    """Watches the peer's events and does what ``PALABRE_TEST_FAULTS`` asks, once each."""

    def __init__(self, peer: Peer, wanted: dict[str, str]) -> None:
        self.peer = peer
        self.wanted = wanted
        self.done: set[str] = set()
        self._offered_at: int | None = None
        """The head ply of this peer's last draw offer (``offer_draw_at``)."""
        self.cut: tuple[bytes, str] | None = None
        """The key and name of the peer whose cable is cut (``cut_link_at``)."""
        peer.node.seams = NodeSeams(inputs=self.inputs, effects=self.effects)
        self.delayed: tuple[str, float] | None = None
        """The name of the peer our writes to are delayed, and by how long (``link_delay``)."""
        if "link_delay" in wanted:
            name, ms = wanted["link_delay"].rsplit(":", 1)
            self.delayed = (name, int(ms) / 1000)
            peer.network = DelayedNetwork(peer.network)

    def __call__(self, event: Any) -> None:
        if isinstance(event, TableStarted) and self.wanted.get("memory"):
            memory_at_start()
        mine = isinstance(event, DrawOffered) and event.author == self.peer.me
        if isinstance(event, DrawOffered) and self.wanted.get("accept_draws") and not mine:
            self.peer.call_soon(lambda: self._try(lambda t, now: t.accept_draw(now)))
        self.peer.call_soon(self.check)

    def _due(self, name: str) -> bool:
        table = self.peer.table
        if name not in self.wanted or name in self.done or table is None or not table.live():
            return False
        at = int(self.wanted[name].split(":", 1)[0])
        return table.head.ply >= at - 1

    def _try(self, intent: Any) -> None:
        try:
            self.peer.act(intent)
        except IntentRefused as refusal:
            print(f"faulty_peer: refused: {refusal}", file=sys.stderr, flush=True)

    def check(self) -> None:
        if self._due("chat_at"):
            self.done.add("chat_at")
            text = self.wanted["chat_at"].split(":", 1)[1]
            self._try(lambda t, now: t.chat(text, now))
        if self._due("point_at"):
            self.done.add("point_at")
            self._try(lambda t, now: t.point([(0, 10)], [5], now))
        if self._due("resign_at"):
            self.done.add("resign_at")
            self._try(lambda t, now: t.resign(now))
        head = self.peer.table.head.ply if self.peer.table is not None else None
        if self._due("offer_draw_at") and head != self._offered_at:
            # again at each new position: a move made before every acceptance arrived
            # (a loaded machine) lets the offer lapse, and the test wants a draw agreed
            self._offered_at = head
            self._try(lambda t, now: t.offer_draw(now))
        if self._due("takeback_at") and self._own_last_move():
            self.done.add("takeback_at")
            table = self.peer.table
            assert table is not None
            print(f"faulty_peer: asks to take back ply {table.head.ply}", flush=True)
            self._try(lambda t, now: t.ask_takeback(now))
        if self._due("cut_link_at"):
            self.done.add("cut_link_at")
            self._cut_link(self.wanted["cut_link_at"].split(":", 1)[1])
        if self._due("illegal_at") and self._my_turn():
            self.done.add("illegal_at")
            self._sign_illegal()

    def inputs(self, event: NodeInput) -> NodeInput | None:
        """The node's input seam: ENDs of the others never come in (``deaf_to_ends``), and
        no new link with a peer whose cable is cut is admitted (``cut_link_at``)."""
        record = None
        if isinstance(event, FromLink) and isinstance(event.event, RecordReceived):
            record = event.event.record  # every record comes on a link
        if record is not None and self.wanted.get("deaf_to_ends"):
            signed = record_from_net(record)
            if signed.kind == "END" and signed.author != self.peer.me:
                return None
        if self.cut is not None and isinstance(event, LinkUp | DialEnded | FromLink):
            link = event.link
            new = isinstance(event, LinkUp | DialEnded) or not link.admitted
            if link is not None and link.key == self.cut[0] and new:
                self._close_cut(link)
                print(f"faulty_peer: closed a new link with {self.cut[1]}", flush=True)
                return None
        return event

    def effects(self, effect: Effect) -> Effect | None:
        """The node's effect seam: the peer whose cable is cut is not dialed; what goes to
        the peer whose link is delayed waits (``link_delay``)."""
        if self.delayed is not None and isinstance(effect, Send):
            self._delay(effect.link)
        if self.cut is not None and isinstance(effect, Dial) and effect.key == self.cut[0]:
            return None
        return effect

    def _delay(self, link: Any) -> None:
        """Delay what this peer writes on ``link`` if it is the named peer's (known from
        START on: the lobby is not delayed)."""
        table, network = self.peer.table, self.peer.network
        assert self.delayed is not None and isinstance(network, DelayedNetwork)
        name, seconds = self.delayed
        peers = () if table is None else table.start.peers
        if any(p.key == link.key and p.name == name for p in peers):
            network.delay_towards(link.remote, seconds)

    @staticmethod
    def _close_cut(link: Any) -> None:
        link.close("test: the cable to this peer is cut")

    def _cut_link(self, name: str) -> None:
        peer, table = self.peer, self.peer.table
        assert table is not None
        [key] = [p.key for p in table.start.peers if p.name == name]
        self.cut = (key, name)
        for link in list(peer.links):
            if link.key == key:
                link.close("test: the cable to this peer is cut")
        print(f"faulty_peer: cut the link to {name} at ply {table.head.ply + 1}", flush=True)

    def _own_last_move(self) -> bool:
        table = self.peer.table
        assert table is not None
        head = table.head
        at = int(self.wanted["takeback_at"])
        return head.ply >= at and head.record.kind == "MOVE" and head.record.author == self.peer.me

    def _my_turn(self) -> bool:
        return my_turn(self.peer)

    def _sign_illegal(self) -> None:
        peer, table = self.peer, self.peer.table
        assert table is not None and peer.file is not None
        head = table.head
        seat = table.engine.to_move(head.engine_state)
        wire = illegal_wire(table.engine, head.engine_state)
        body = {"ply": head.ply + 1, "prev": head.chain_digest, "seat": seat, "move": wire}
        record = peer.signer(peer.identity).sign("MOVE", body)
        peer.file.sync()
        print(f"faulty_peer: signed an illegal move {wire} for ply {head.ply + 1}", flush=True)
        peer.policy.seen.add(record.record_hash)
        for link in peer.node.relay.everyone(peer.links):
            link.send(SendRecord(record.envelope))
        peer.act(lambda table, now: table.receive(record, now))  # it sees its own evidence


def main(argv: list[str]) -> int:
    args = build_parser().parse_args(argv)
    wanted = faults()
    disagree = int(wanted["disagree_at"]) if "disagree_at" in wanted else None
    version = wanted.get("engine_version")

    def engine_for(name: str) -> Any:
        engine = find_engine(name)
        return PatchedEngine(engine, version, disagree) if (version or disagree) else engine

    def setup(peer: Peer) -> None:
        if wanted.get("not_ready") and peer.joining is not None:
            peer.set_ready(False)  # before it joins: its join says it is not ready
        peer.observers.append(Faults(peer, wanted))  # and the node's seams (``Faults.inputs``)

    if args.command == "host":
        code = run_host(args, engine_for=engine_for, setup=setup)
    else:
        code = run_join(args, engine_for=engine_for, setup=setup)
    if wanted.get("memory"):
        peak_memory()
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
