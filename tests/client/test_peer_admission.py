"""The admission part of the peer node (``client.node.peer_admission``), with plain links."""

from __future__ import annotations

from dataclasses import dataclass

from client.node.mesh import Mesh
from client.node.peer_admission import MAX_REFUSED_PER_LINK, MAX_SPECTATORS, Admission, Refusal
from net.errors import CloseCode
from net.events import LinkClosed

A, B, C = (bytes([n]) * 32 for n in range(1, 4))


@dataclass(eq=False)
class Link:
    key: bytes
    dialed_by: bytes
    spectator: bool = False
    closing: bool = False
    refused: int = 0


def test_of_two_links_with_one_peer_both_ends_keep_the_one_the_later_joiner_dialed() -> None:
    admission: Admission[Link] = Admission(Mesh(B, (A, B, C)))
    dialed_by_b = Link(A, dialed_by=B)  # B joined after A: B dials A
    dialed_by_a = Link(A, dialed_by=A)
    assert admission.second_links(dialed_by_a, [dialed_by_b, dialed_by_a]) == [dialed_by_a]
    assert admission.second_links(dialed_by_b, [dialed_by_a, dialed_by_b]) == [dialed_by_a]
    newer = Link(A, dialed_by=B)  # the same side dialed twice: the newer one stays
    assert admission.second_links(newer, [dialed_by_b, newer]) == [dialed_by_b]
    dialed_by_b.closing = True
    assert admission.second_links(newer, [dialed_by_b, newer]) == []
    assert admission.second_links(Link(C, dialed_by=C), [newer]) == []


def test_spectators_are_refused_past_the_limit_and_joins_after_start_are_answered() -> None:
    watchers = [Link(bytes([9]) * 32, b"", spectator=True) for _ in range(MAX_SPECTATORS - 1)]
    assert Admission.spectator_refusal([*watchers, Link(A, A)]) is None
    refusal = Admission.spectator_refusal([*watchers, Link(C, C, spectator=True)])
    assert refusal is not None and refusal.code is CloseCode.REFUSED
    assert Admission.join_after_start(A, False, (A, B)) == "rejoin"
    assert Admission.join_after_start(A, True, (A, B)) == "watch"
    assert Admission.join_after_start(C, True, (A, B)) == "watch"
    late = Admission.join_after_start(C, False, (A, B))
    assert isinstance(late, Refusal) and "--watch" in late.reason
    assert late.code is CloseCode.FULL  # a started table is full: the window offers Watch


def test_a_link_is_closed_past_its_refused_records_and_only_our_closes_are_faults() -> None:
    link = Link(A, A)
    answers = [Admission.refused_record(link) for _ in range(MAX_REFUSED_PER_LINK + 1)]
    assert answers[:-1] == [None] * MAX_REFUSED_PER_LINK
    last = answers[-1]
    assert (
        last is not None
        and last.code is CloseCode.PROTOCOL
        and str(MAX_REFUSED_PER_LINK + 1) in last.reason
    )
    assert Admission.is_fault(LinkClosed(CloseCode.TIMEOUT, "silent", by_peer=False))
    assert not Admission.is_fault(LinkClosed(CloseCode.TIMEOUT, "silent", by_peer=True))
    assert not Admission.is_fault(LinkClosed(CloseCode.CLOSING, "goodbye", by_peer=False))
