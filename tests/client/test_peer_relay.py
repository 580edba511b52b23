"""The relay part of the peer node (``client.node.peer_relay``), with plain links and ``now``."""

from __future__ import annotations

from dataclasses import dataclass

from client.node.mesh import STALL_AFTER, Mesh
from client.node.peer_policy import TablePolicy
from client.node.peer_relay import Relay
from client.rules.records import ACK, MOVE, REMOVE
from tests.client.harness import Setup, forge

DIGEST = bytes(32)


@dataclass(eq=False)
class Link:
    key: bytes
    spectator: bool = False
    admitted: bool = True


def relay_at(setup: Setup, me: str) -> tuple[Relay[Link], dict[str, Link]]:
    keys = {name: setup.key(name) for name in "ABC"}
    mesh = Mesh(keys[me], tuple(keys.values()))
    links = {name: Link(key) for name, key in keys.items() if name != me}
    links["S"] = Link(b"s" * 32, spectator=True)
    return Relay(mesh, TablePolicy()), links


def test_a_record_goes_on_never_back_nor_to_a_link_not_admitted_and_is_held_once() -> None:
    setup = Setup(["A", "B", "C"])
    relay, links = relay_at(setup, "A")
    move = forge(setup, "B", MOVE, {"ply": 1, "prev": DIGEST, "seat": 2, "move": [1]})
    assert not relay.knows(move.record_hash)
    relay.hold(move)
    relay.hold(move)
    assert relay.knows(move.record_hash) and len(relay.held) == 1
    every = list(links.values())
    # C has said nothing of its links: it may lack B's record; the spectator gets everything
    assert relay.pass_on(move, None, links["B"], every) == [links["C"], links["S"]]
    relay.mesh.report(setup.key("C"), [setup.key("B")])
    assert relay.pass_on(move, None, links["B"], every) == [links["S"]]
    links["S"].admitted = False
    assert relay.pass_on(move, None, links["B"], every) == []
    assert relay.everyone(every) == [links["B"], links["C"]]


def test_a_refused_record_goes_as_evidence_to_every_admitted_link_it_has_not_gone_to() -> None:
    setup = Setup(["A", "B", "C"])
    relay, links = relay_at(setup, "A")
    relay.mesh.report(setup.key("C"), [setup.key("B")])
    ack = forge(setup, "B", ACK, {"ply": 1, "digest": DIGEST})
    every = list(links.values())
    passed = relay.pass_on(ack, None, links["B"], every)
    assert passed == [links["S"]]
    assert relay.evidence(links["B"], passed, every) == [links["C"]]
    remove = forge(setup, "B", REMOVE, {"ply": 1, "prev": DIGEST, "removed": [setup.key("C")],
                                        "replacements": [], "votes": [b"x"]})  # fmt: skip
    assert relay.pass_on(remove, None, links["B"], every) == [links["C"], links["S"]]


def test_a_stalled_table_pulls_from_one_peer_at_a_time_in_turn() -> None:
    setup = Setup(["A", "B", "C"])
    relay, links = relay_at(setup, "A")
    peers = [links["B"], links["C"]]
    assert relay.pull_from(peers, None, 10.0) is None  # not waiting
    assert relay.pull_from(peers, 9.0, 10.0) is None  # not for long enough
    assert relay.pull_from([], 0.0, 10.0) is None
    assert relay.pull_from(peers, 0.0, 10.0) is links["C"]
    assert relay.pull_from(peers, 0.0, 10.0 + STALL_AFTER / 2) is None  # pulled lately
    assert relay.pull_from(peers, 0.0, 10.0 + STALL_AFTER) is links["B"]


def test_a_pull_is_answered_once_per_spacing_per_link() -> None:
    setup = Setup(["A", "B", "C"])
    relay, links = relay_at(setup, "A")
    relay.hold(setup.start_record)
    move = forge(setup, "A", MOVE, {"ply": 1, "prev": DIGEST, "seat": 1, "move": [1]})
    relay.hold(move)
    assert relay.answer(links["B"], 0.0, 0, same_branch=True) == [move.envelope]
    assert relay.answer(links["B"], 0.5, 0, same_branch=True) == []
    assert relay.answer(links["C"], 0.5, 0, same_branch=False) == [
        setup.start_record.envelope,
        move.envelope,
    ]
