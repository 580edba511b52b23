"""The rematch's seat rotation and each peer's part of the next table (client/node/rematch.py).

The whole exchange runs between real processes in tests/e2e/test_rematch.py.
"""

from __future__ import annotations

import pytest

from client.node.rematch import plan_next, rotated
from client.rules.start import parse_start
from net.identity import fingerprint
from tests.client.harness import Setup

NEW_ID = b"\x07" * 16


@pytest.mark.parametrize("count", range(2, 7))
def test_rotation_moves_everyone_and_seat_2_starts(count: int) -> None:
    new = [rotated(seat, count) for seat in range(1, count + 1)]
    assert sorted(new) == list(range(1, count + 1))  # a permutation
    assert all(n != s for s, n in zip(range(1, count + 1), new, strict=True))  # nobody stays
    assert new.index(1) + 1 == 2  # the player at seat 2 starts
    assert rotated(1, count) == count


def test_each_peer_takes_its_rotated_seat_and_its_bots_follow() -> None:
    setup = Setup(["ann", "bot:bob", "bob", "bot:ann"])
    start = parse_start(setup.start_record)
    ann = plan_next(start, setup.key("ann"), NEW_ID, "", 7000)
    bob = plan_next(start, setup.key("bob"), NEW_ID, "10.0.0.1", 7000)
    assert ann.is_host and not bob.is_host
    assert (ann.seat, ann.bot_seats) == (4, (3,))  # seat 1 -> 4, its bot at 4 -> 3
    assert (bob.seat, bob.bot_seats) == (2, (1,))  # seat 3 -> 2, its bot at 2 -> 1
    assert ann.players == bob.players == {setup.key("ann"), setup.key("bob")}
    assert bob.host_fingerprint == fingerprint(setup.key("ann"))
    assert (bob.game, dict(bob.params)) == (start.game, dict(start.params))
    assert (bob.away_ms, bob.idle_ms) == (start.away_ms, start.idle_ms)
    invite = bob.invite
    assert (invite.addresses, invite.port, invite.table_id) == (("10.0.0.1",), 7000, NEW_ID)
    assert invite.fingerprint == fingerprint(setup.key("ann"))


def test_a_key_without_a_seat_of_its_own_has_no_rematch() -> None:
    setup = Setup(["ann", "bob"])
    start = parse_start(setup.start_record)
    with pytest.raises(ValueError, match="no seat of its own"):
        plan_next(start, b"z" * 32, NEW_ID, "", 1)
