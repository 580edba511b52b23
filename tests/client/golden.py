"""Golden traces: what each peer of a whole seeded table sends, writes and tells, in order.

A trace is recorded at the boundary between a peer and the world, which the redesign of the
peer into a sans-I/O node (issue 22) keeps: what goes into a link's queue (a record, a
message, a goodbye: the node's ``Send`` and ``Close`` effects), what goes into the game file
(each append, each fsync: the journal port), the evidence files, and the events observers
are told.  One line each, in the order they happen at that peer, with the (virtual) time.

The tables are real ``client.runtime.peer.Peer`` objects (hosting, joining) on
``tests.client.memnet``'s in-memory network under trio's autojump ``MockClock`` with a seeded
scheduler, with fixed keys, table id and bot seeds: every run plays the same table.  Keys are
written by name; a key no peer was given (a bot made for a REMOVE, say) is ``new-key-N`` in the
order met.

What it catches: any change in what a peer sends on which link, writes, or tells, and in
the order of those (a send before the fsync of what it carries, a relay before the table
judged the record, an END told before it is durable...), and any change of timing in
virtual seconds (a conclusion, a heartbeat, a retry).
What it cannot: interleavings that depend on the machine (the order in which two links'
bytes arrive over TCP, a timer racing a frame); these tables run in one seeded order of
many.  It also fixes the order in which trio runs the tasks of this runtime: a new runtime
whose tasks wake in another order may change a trace with no change of behaviour; then
read the diff (``PALABRE_GOLDEN=write`` writes the traces again) before accepting it.

Recording wraps, for the test's duration (``pytest.MonkeyPatch``), the one place the node
decides an effect (``PeerNode._emit``: a send, a close, a word to the front ends, noted in
the order the node decides them, fsyncs and appends in between), what the runtime and the
lobby roles say by themselves (``PeerLink.send``/``close``, ``Peer.notify``), the game
file's appends and fsyncs and the evidence files: it calls through unchanged and changes
nothing of what they do.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import trio
import trio.testing
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from client.node.node_io import Close, Effect, Send, Tell
from client.node.peer_node import PeerNode
from client.profile.evidence_files import EvidenceFiles
from client.profile.game_file import GameFile
from client.runtime.peer import Peer
from client.runtime.peer_link import PeerLink
from client.tabletop.events import PlyApplied
from net.events import Refuse, SendEvent, SendMessage, SendRecord
from net.identity import Identity
from net.records import open_record
from tests.client.memnet import MemoryNetwork, deterministic
from tests.client.peers import host_peer, join_peer
from tests.client.tinygame import ENGINE

__all__ = ["GOLDEN", "Recorder", "Scenario", "peer_options", "play"]

GOLDEN = Path(__file__).parent / "golden"
TABLE_ID = bytes(range(16))


def identity(name: str) -> Identity:
    """A fixed key per name (its seed is the name, padded)."""
    return Identity(Ed25519PrivateKey.from_private_bytes(name.encode().ljust(32, b".")))


@dataclass
class Recorder:
    """Every peer's trace, by name."""

    names: dict[bytes, str]
    traces: dict[str, list[str]] = field(default_factory=dict)
    _new: dict[bytes, str] = field(default_factory=dict)

    def who(self, key: bytes) -> str:
        if key in self.names:
            return self.names[key]
        return self._new.setdefault(key, f"new-key-{len(self._new) + 1}")

    def note(self, peer: str, line: str) -> None:
        self.traces.setdefault(peer, []).append(f"{trio.current_time():9.3f} {line}")

    def record(self, envelope: bytes) -> str:
        record = open_record(envelope)
        ply = record.body.get("ply") if hasattr(record.body, "get") else None
        where = "" if ply is None else f" ply {ply}"
        return f"{record.kind.name} {self.who(record.author)}#{record.seq}{where}"

    def message(self, topic: str, body: Any) -> str:
        if not isinstance(body, Mapping):
            return topic
        parts = []
        for name, value in sorted(body.items()):
            parts.append(f"{name}={self._value(value)}")
        return f"{topic} {' '.join(parts)}"

    def _value(self, value: Any) -> str:
        if isinstance(value, bytes):  # a key by name; a digest, an id by its first bytes
            known = self.names.get(value) or self._new.get(value)
            return known or value.hex()[:12]
        if isinstance(value, Mapping):
            return "{" + ",".join(f"{k}:{self._value(v)}" for k, v in value.items()) + "}"
        if isinstance(value, list | tuple):
            return "[" + ",".join(self._value(v) for v in value) + "]"
        return str(value)

    def event(self, send: SendEvent) -> str:
        if isinstance(send, SendRecord):
            return self.record(send.envelope)
        if isinstance(send, SendMessage):
            return self.message(send.topic, send.body)
        if isinstance(send, Refuse):
            return f"REFUSE {send.code.name} {send.reason}"
        return type(send).__name__

    def told(self, event: Any) -> str:
        name = type(event).__name__
        if isinstance(event, PlyApplied):
            record = event.state.record
            return f"{name} {record.kind} {self.who(record.author)} ply {event.state.ply}"
        return name


@contextmanager
def recording(recorder: Recorder, profiles: Mapping[Path, str]) -> Iterator[None]:
    """Note every peer's sends, writes and evidence (see the module docstring)."""

    def owner(link: Any) -> str:
        return recorder.who(link.link.connection.spec.identity.public_key)

    def of_file(file: GameFile) -> str:
        for folder, name in profiles.items():
            if folder in file.path.parents:
                return name
        return "?"

    send, close = PeerLink.send, PeerLink.close
    append, sync = GameFile.append, GameFile.sync
    write_evidence = EvidenceFiles.write
    emit, notify = PeerNode._emit, Peer.notify

    def sending(self: PeerLink, event: SendEvent) -> None:
        if not self.closing:
            recorder.note(owner(self), f"send {recorder.who(self.key)}: {recorder.event(event)}")
        send(self, event)

    def closing(self: PeerLink, reason: str, *args: Any) -> None:
        if not self.closing:
            code = args[0].name if args else "CLOSING"
            recorder.note(owner(self), f"close {recorder.who(self.key)}: {code} {reason}")
        close(self, reason, *args)

    def appending(self: GameFile, record: bytes, *, sync: bool = False) -> None:
        recorder.note(of_file(self), f"append {recorder.record(record)}{' +sync' * sync}")
        append(self, record, sync=sync)

    def syncing(self: GameFile) -> None:
        recorder.note(of_file(self), "sync")
        sync(self)

    def writing(self: EvidenceFiles, table_id: bytes, name: str, content: Any) -> Any:
        recorder.note(of_file_at(self.games), f"evidence {name}")
        return write_evidence(self, table_id, name, content)

    def of_file_at(folder: Path) -> str:
        for profile, name in profiles.items():
            if profile in folder.parents or profile == folder:
                return name
        return "?"

    def emitting(self: PeerNode, effect: Effect) -> None:
        match effect:
            case Send(link, event):
                recorder.note(
                    owner(link), f"send {recorder.who(link.key)}: {recorder.event(event)}"
                )
            case Close(link, reason, code):
                recorder.note(owner(link), f"close {recorder.who(link.key)}: {code.name} {reason}")
            case Tell(event):
                recorder.note(recorder.who(self.me), f"told {recorder.told(event)}")
        emit(self, effect)

    def notifying(self: Peer, event: Any) -> None:
        recorder.note(recorder.who(self.me), f"told {recorder.told(event)}")
        notify(self, event)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(PeerLink, "send", sending)
        patch.setattr(PeerLink, "close", closing)
        patch.setattr(GameFile, "append", appending)
        patch.setattr(GameFile, "sync", syncing)
        patch.setattr(EvidenceFiles, "write", writing)
        patch.setattr(PeerNode, "_emit", emitting)
        patch.setattr(Peer, "notify", notifying)
        yield


@dataclass(frozen=True)
class Scenario:
    """A whole table: its peers (the host first), the game and the peers' options."""

    name: str
    peers: Sequence[str]
    params: Mapping[str, int]
    host_options: Mapping[str, Any] = field(default_factory=dict)
    options: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    leaves: Mapping[str, Callable[[PlyApplied, int], bool]] = field(default_factory=dict)
    """A joiner that leaves (code 1, as if unplugged) at the first ply that says so (the
    ply applied, the joiner's seat)."""
    back_after: Mapping[str, float] = field(default_factory=dict)
    """A joiner that left comes back this long after, from its game file."""


def _engine_for(name: str) -> Any:
    assert name == "grab"
    return ENGINE


def peer_options(name: str, index: int, home: Path) -> dict[str, Any]:
    """A peer on the virtual clock (``tests.client.peers`` options): its profile ``name``
    under ``home``, the toy game, a bot at its own seat seeded by ``index``."""
    return {
        "profile": name,
        "home": home,
        "engine_for": _engine_for,
        "bot_me": True,
        "bot_delay": 0.3,
        "think_in_thread": False,  # a worker thread is invisible to the virtual clock
        "seed": index + 1,
    }


def play(scenario: Scenario, home: Path) -> tuple[dict[str, list[str]], dict[str, int]]:
    """Play ``scenario``'s table; every peer's trace and exit code, by name."""
    names = {identity(name).public_key: name for name in scenario.peers}
    recorder = Recorder(names)
    profiles = {home / "profiles" / name: name for name in scenario.peers}
    codes: dict[str, int] = {}
    network = MemoryNetwork()

    def common(name: str, index: int) -> dict[str, Any]:
        options = {"name": name, **peer_options(name, index, home)}
        options["network"] = network.at(f"127.0.0.{index + 1}")
        options.update(scenario.options.get(name, {}))
        return options

    def joiner(name: str, index: int, port: int) -> Peer:
        options = common(name, index)
        return join_peer(identity(name), ("127.0.0.1", port), options.pop("name"), **options)

    async def run_joiner(name: str, index: int, port: int) -> None:
        peer = joiner(name, index, port)
        leaves = scenario.leaves.get(name)
        if leaves is not None:

            def watch(event: Any) -> None:
                table = peer.table
                if table is None or not isinstance(event, PlyApplied):
                    return
                seat = next(s.seat for s in table.start.seats if s.key == peer.me)
                if leaves(event, seat):
                    peer.observers.remove(watch)
                    peer.call_soon(lambda: peer.finish(1, "unplugged"))

            peer.observers.append(watch)
        codes[name] = await peer.run()
        if name in scenario.back_after:
            await trio.sleep(scenario.back_after[name])
            recorder.note(name, "comes back")
            codes[name] = await joiner(name, index, port).run()

    async def main() -> None:
        host_name = scenario.peers[0]
        options = common(host_name, 0)
        options.update(scenario.host_options)
        options.pop("name")
        host = host_peer(
            identity(host_name), ENGINE, scenario.params, host_name, table_id=TABLE_ID, **options
        )
        await host.open(0)

        async def run_host() -> None:
            codes[host_name] = await host.run()

        with trio.fail_after(600):
            async with trio.open_nursery() as nursery:
                nursery.start_soon(run_host)
                for index, name in enumerate(scenario.peers[1:], 1):
                    nursery.start_soon(run_joiner, name, index, host.port)

    with deterministic(), recording(recorder, profiles):
        trio.run(main, clock=trio.testing.MockClock(autojump_threshold=0))
    return recorder.traces, codes


def trace_text(traces: Mapping[str, list[str]], codes: Mapping[str, int]) -> str:
    lines = [f"# exit codes: {' '.join(f'{name}={codes[name]}' for name in sorted(codes))}"]
    for name in sorted(traces):
        lines.append(f"== {name}")
        lines.extend(traces[name])
    return "\n".join(lines) + "\n"
