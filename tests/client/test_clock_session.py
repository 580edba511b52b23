"""What the window's session says of a clocked table as it plays: a real ``NetSession`` over a
real ``Peer`` holding table B of three real tables on the virtual clock, fed each of B's
events as it comes out.  Seat 1 (A, a person) never moves on a 1.5 s clock and loses on time
at ply 1; the game goes on between the bots of seats 2 and 3."""

from __future__ import annotations

from pathlib import Path

from client.node.peer_events import TableStarted
from client.runtime.peer import Peer
from client.sessions.net_session import NetSession
from client.tabletop.events import Output
from tests.client.test_clock_table import slow_seat_one_world


def test_the_chat_says_who_lost_on_time_once_while_the_game_goes_on() -> None:
    setup, router = slow_seat_one_world()
    peer = Peer(setup.identities["B"].net)
    peer.node.table = router.tables["B"]  # the table the node holds (the runtime reads it)
    session = NetSession(peer)
    table = router.tables["B"]
    peer.notify(TableStarted(table.start, (2,), Path("B.palabre-log")))  # what the node says
    late_seen_at: list[int] = []

    def watch(source: str, output: Output) -> bool:
        if source == "B":
            for event in output.events:
                peer.notify(event)
            if session.snapshot.lost_on_time and not late_seen_at:
                late_seen_at.append(session.snapshot.ply)
        return False  # no crash: only watching

    router.crash_when = watch
    router.start()
    router.run()
    snapshot = session.snapshot
    assert snapshot.clock == "0.025+0"
    assert snapshot.lost_on_time == ((1, 1),)
    said = [entry.text for entry in snapshot.chat]
    assert said.count("A lost on time.") == 1, said  # once, when the verdict came
    assert late_seen_at and late_seen_at[0] < snapshot.ply  # the game went on after it
    assert snapshot.outcome is not None  # and ended between the others
    told = said.index("A lost on time.")
    assert all(not text.startswith("Game over") for text in said[:told])
