"""The headless printer's line for a record the table ignored: a removed player's late move,
its confirmation and its chat, in words a player reads (``client.commands.ignored_words``).

The table is the sans-I/O core of ``test_removal``: X is cut at its own turn and signs ply 3,
A and B vote it off at ply 3, then the cut heals and X's late records reach A, which ignores
them.  The printer is ``client.commands.headless.Printer`` over a real ``Peer`` holding A's table.
"""

from __future__ import annotations

import io

from client.commands.headless import Printer
from client.rules.records import ACK, CHAT, MOVE, REMOVE
from client.runtime.peer import Peer
from client.tabletop.events import RecordIgnored
from tests.client.test_removal import cut_at_its_turn, removes, run_until


def printed(events: list[RecordIgnored], peer: Peer) -> list[str]:
    out = io.StringIO()
    printer = Printer(peer, out)
    try:
        for event in events:
            printer(event)
    finally:
        printer.close()
    return out.getvalue().splitlines()


def test_a_removed_players_late_move_ack_and_chat_are_printed_in_plain_words() -> None:
    setup, router, _ = cut_at_its_turn()  # X's MOVE for ply 3 and its ACK reach nobody
    a, b, x = (router.tables[name] for name in "ABX")
    router.take("X", x.chat("still here?", router.now))
    run_until(router, lambda: bool(removes(a)) and bool(removes(b)), limit=router.now + 60)
    assert a.chain.at(3).record.kind == REMOVE
    router.cut.clear()
    router.heal()
    run_until(router, lambda: x.head.chain_digest == a.head.chain_digest, limit=router.now + 5)
    ignored = router.of_type("A", RecordIgnored)
    assert {e.record.kind for e in ignored} >= {MOVE, ACK, CHAT}, ignored
    peer = Peer(setup.identities["A"].net)
    peer.node.table = a  # the table the node holds (the runtime reads it from there)
    lines = printed(ignored, peer)
    assert "ignored: X was removed at ply 3; their move was ignored" in lines
    assert "ignored: X was removed at ply 3; their confirmation of ply 3 was ignored" in lines
    assert "ignored: X was removed at ply 3; their chat message was ignored" in lines
    assert len(lines) == len(ignored)
    for line in lines:  # no key, no record kind: words a player reads
        assert "peer" not in line and "MOVE" not in line and "…" not in line, line
