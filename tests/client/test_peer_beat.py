"""The beat part of the peer node (``client.node.peer_beat``), with the table's presence book."""

from __future__ import annotations

from client.node.mesh import ADDRESSES, HEARTBEAT, PRESENCE, Address, Mesh
from client.node.peer_beat import ALONE_LIMIT, Beat
from client.tabletop.presence import Presence

A, B, C = (bytes([n]) * 32 for n in range(1, 4))


def test_a_beat_comes_every_heartbeat_and_at_once_when_the_links_change() -> None:
    beat = Beat(Mesh(A, (A, B, C)), stay=False)
    assert beat.report_due(0.0)
    assert not beat.report_due(HEARTBEAT / 2)
    beat.links_changed()
    assert beat.report_due(HEARTBEAT / 2)
    assert not beat.report_due(HEARTBEAT)
    assert beat.report_due(HEARTBEAT / 2 + HEARTBEAT)


def test_the_report_names_the_linked_peers_heard_and_the_book_goes_once_it_changed() -> None:
    mesh = Mesh(A, (A, B, C))
    beat = Beat(mesh, stay=False)
    heard = Presence((A, B, C), A, 0.0, away=60.0)
    heard.hear(B, 1.0)
    messages = beat.messages(A, heard, [B, B, C], 1.5)
    assert [m.topic for m in messages] == [PRESENCE]
    assert messages[0].body == {"heard": [{"key": B, "ago": 500}, {"key": C, "ago": 1500}]}
    beat.learned(mesh.learn(B, Address("127.0.0.2", 7000)))
    assert [m.topic for m in beat.messages(A, heard, [], 2.0)] == [PRESENCE, ADDRESSES]
    assert [m.topic for m in beat.messages(A, heard, [], 2.0)] == [PRESENCE]
    assert Beat.report(None, heard, [B], 2.0) == {"heard": []}  # a spectator


def test_a_peer_alone_past_the_away_timeout_gives_up_unless_it_stays() -> None:
    beat = Beat(Mesh(A, (A, B)), stay=False)
    assert not beat.gives_up(False, 5000, 10.0, (A, B))
    assert not beat.gives_up(True, 5000, 100.0, (A, B))  # a link meanwhile does not reset the count
    assert beat.gives_up(False, 5000, 10.0 + ALONE_LIMIT + 5.0, (A, B))
    beat.linked()
    assert not beat.gives_up(False, 5000, 10.0 + ALONE_LIMIT + 5.0, (A, B))
    staying = Beat(Mesh(A, (A, B)), stay=True)
    assert not staying.gives_up(False, 0, 0.0, (A, B)) and not staying.gives_up(
        False, 0, 1e9, (A, B)
    )


def test_the_only_peer_of_its_table_never_gives_up_however_long_its_bots_play() -> None:
    """A host whose bots play every other seat has no link to lose (a strong bots' game on
    a headless host lasted past the away timeout and ended as if every peer were gone)."""
    alone = Beat(Mesh(A, (A,)), stay=False)
    assert not alone.gives_up(False, 5000, 0.0, (A,))
    assert not alone.gives_up(False, 5000, 10.0 * (ALONE_LIMIT + 5.0), (A,))


def test_a_peer_left_alone_by_removals_plays_on_with_the_bots_that_took_the_seats() -> None:
    """START had two peers; B was removed and a bot A runs took its seat: the table's head
    has A alone, who has nobody left to reach and must not end the game for want of B."""
    seated = Beat(Mesh(A, (A, B)), stay=False)
    seated.gives_up(False, 5000, 0.0, (A, B))
    assert seated.gives_up(False, 5000, 10.0 * (ALONE_LIMIT + 5.0), (A, B))  # B still seated
    removed = Beat(Mesh(A, (A, B)), stay=False)
    assert not removed.gives_up(False, 5000, 0.0, (A,))
    assert not removed.gives_up(False, 5000, 10.0 * (ALONE_LIMIT + 5.0), (A,))
