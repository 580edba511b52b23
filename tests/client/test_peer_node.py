"""The peer node on its own (``client.node.peer_node``): no trio, no clock, effects as data.

A host's node with a real game file and a real key takes a joiner's link, signs START and
begins, driven only by inputs whose ``now`` the test picks: what it decides comes back as
effects in order, durable before any send, and its seams filter inputs and effects.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from client.node.lobby import Lobby
from client.node.node_io import (
    Close,
    FromLink,
    Leave,
    LinkUp,
    NodeSeams,
    Send,
    Started,
    Tell,
    TimerDue,
)
from client.node.peer_events import RecordsSent, TableStarted
from client.node.peer_node import NodeConfig, PeerNode
from client.profile.evidence_files import EvidenceFiles
from client.profile.game_file import GameFile
from client.rules.records import START
from net.events import RecordReceived, SendRecord
from net.records import Kind, open_record, sign_record
from tests.client.golden import identity
from tests.client.tinygame import ENGINE

ROOT = Path(__file__).resolve().parents[2]


@dataclass(eq=False)
class Handle:
    """A link as the node sees one: the runtime's handle, with no socket behind it."""

    key: bytes
    name: str
    spectator: bool = False
    dialed_by: bytes = b""
    admitted: bool = False
    refused: int = 0
    closing: bool = False
    watching: bool = False
    remote: str = "127.0.0.2:40001"
    address: str | None = "127.0.0.2"
    listen_port: int = 40001


def host_node(tmp_path: Path, seams: NodeSeams | None = None) -> tuple[PeerNode, list[str]]:
    """A host's node whose game file notes each fsync in ``journal`` (real file, real key)."""
    journal: list[str] = []

    class NotedFile(GameFile):
        def sync(self) -> None:
            journal.append("sync")
            super().sync()

    def open_journal(table_id: bytes, game: str, players: Sequence[str]) -> GameFile:
        return NotedFile.create(tmp_path / f"{table_id.hex()}.palabre-log")

    config = NodeConfig(profile="host", home=tmp_path, engine_for=lambda name: ENGINE)
    node = PeerNode(
        identity("host"),
        config,
        open_journal=open_journal,
        evidence=EvidenceFiles(tmp_path),
        seams=seams,
    )
    return node, journal


def start_record(node: PeerNode, joiner: bytes) -> object:
    lobby = Lobby(ENGINE, {"seats": 2, "pile": 12}, node.me, "host")
    lobby.set_ready(node.me)
    lobby.join(joiner, "ann", seat=None, watch=False)
    lobby.set_ready(joiner)
    node.open_file(bytes(range(16)), ENGINE.name, ["host", "ann"])
    return node.signer(node.identity).sign(START, lobby.start_body())


def test_importing_the_node_loads_no_trio() -> None:
    code = "import sys, client.node.peer_node; sys.exit('trio' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], cwd=ROOT).returncode == 0


def test_a_host_node_begins_with_its_start_durable_before_any_send(tmp_path: Path) -> None:
    node, journal = host_node(tmp_path)
    ann = identity("ann").public_key
    link = Handle(ann, "ann", dialed_by=ann)
    assert node.handle(LinkUp(link, now=1000.0)).effects == []  # before START: nothing said
    start = start_record(node, ann)
    synced_before = len(journal)
    output = node.handle(Started(start, spectator=False, now=1000.0))  # type: ignore[arg-type]
    sends = [e for e in output.effects if isinstance(e, Send)]
    kinds = [
        open_record(e.event.envelope).kind.name for e in sends if isinstance(e.event, SendRecord)
    ]
    assert kinds[:2] == ["START", "ACK"]  # START first, then the genesis ACK
    assert len(journal) >= synced_before + 2 and node.file is not None and not node.file.unsynced
    told = output.events
    assert isinstance(told[0], TableStarted) and any(isinstance(e, RecordsSent) for e in told)
    assert all(e.link is link for e in sends)
    # no clock: the table's deadlines are in the time the inputs gave
    deadline = node.next_deadline()
    assert deadline is None or deadline >= 1000.0


def test_leaving_closes_every_link_once_and_finishes(tmp_path: Path) -> None:
    node, _ = host_node(tmp_path)
    ann = identity("ann").public_key
    link = Handle(ann, "ann", dialed_by=ann)
    node.handle(LinkUp(link, now=0.0))
    node.handle(Started(start_record(node, ann), spectator=False, now=0.0))  # type: ignore[arg-type]
    output = node.handle(Leave(1, "unplugged", now=5.0))
    closes = [e for e in output.effects if isinstance(e, Close)]
    assert [(c.link, c.reason) for c in closes] == [(link, "unplugged")] and link.closing
    assert node.finished and node.exit_code == 1
    again = node.handle(Leave(0, "again", now=6.0))
    assert not [e for e in again.effects if isinstance(e, Close)] and node.exit_code == 1
    # a link that is closing gets nothing more, whatever the table decides
    later = node.handle(TimerDue(now=60.0))
    assert not [e for e in later.effects if isinstance(e, Send)]


def test_a_record_reaches_the_table_from_an_admitted_link_only(tmp_path: Path) -> None:
    """The node itself decides which links hand records to the table, whoever dialed them:
    the joiner's lobby link after START does, a spectator's or a link not admitted yet does
    not, and what they sent is not remembered (the same record on the right link is still
    taken)."""
    node, _ = host_node(tmp_path)
    ann = identity("ann")
    lobby_link = Handle(ann.public_key, "ann", dialed_by=ann.public_key)
    node.handle(LinkUp(lobby_link, now=0.0))
    node.handle(Started(start_record(node, ann.public_key), spectator=False, now=0.0))  # type: ignore[arg-type]
    table = node.table
    assert table is not None and table.final_ply == -1  # ann's genesis ACK is missing
    genesis = {"ply": 0, "digest": table.chain.head.chain_digest}
    ack = sign_record(ann, Kind.ACK, table.start.table_id, 1, genesis)
    watcher = Handle(b"w" * 32, "sam", spectator=True, admitted=True, dialed_by=b"w" * 32)
    stranger = Handle(ann.public_key, "ann", dialed_by=ann.public_key)  # a second, unadmitted
    for link in (watcher, stranger):
        output = node.handle(FromLink(link, RecordReceived(ack), now=1.0))  # type: ignore[arg-type]
        assert output.effects == [] and table.final_ply == -1
    node.handle(FromLink(lobby_link, RecordReceived(ack), now=2.0))  # type: ignore[arg-type]
    assert table.final_ply == 0


def test_the_seams_filter_inputs_and_effects(tmp_path: Path) -> None:
    dropped: list[object] = []

    def no_tells(effect: object) -> object | None:
        if isinstance(effect, Tell):
            dropped.append(effect.event)
            return None
        return effect

    node, _ = host_node(tmp_path, NodeSeams(effects=no_tells))  # type: ignore[arg-type]
    ann = identity("ann").public_key
    node.handle(LinkUp(Handle(ann, "ann", dialed_by=ann), now=0.0))
    output = node.handle(Started(start_record(node, ann), spectator=False, now=0.0))  # type: ignore[arg-type]
    assert output.events == [] and any(isinstance(e, TableStarted) for e in dropped)
    assert any(isinstance(e, Send) for e in output.effects)

    deaf, _ = host_node(tmp_path / "deaf", NodeSeams(inputs=lambda event: None))
    assert deaf.handle(LinkUp(Handle(ann, "ann"), now=0.0)).effects == [] and not deaf.links
