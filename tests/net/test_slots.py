"""``net.slots``: the waiting slots and the link caps of a listener, without sockets."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from net.slots import Slots


def test_an_address_holding_its_share_is_refused_and_the_busiest_gives_way() -> None:
    slots: Slots[int] = Slots(max_pending=4, max_pending_per_address=2)
    assert slots.wait("a", 1) == [] and slots.wait("a", 2) == []
    assert slots.wait("a", 3) is None  # a holds its share: the newcomer is closed unread
    assert slots.wait("b", 4) == [] and slots.wait("c", 5) == []
    assert slots.wait("d", 6) == [1]  # all 4 taken: the oldest of the busiest (a) goes
    assert slots.pending == 4 and slots.waiting_from("a") == 1
    slots.done_waiting("a", 1)  # already gone: nothing changes
    slots.done_waiting("a", 2)
    assert slots.pending == 3 and slots.waiting_from("a") == 0


def test_links_are_capped_in_all_and_per_address() -> None:
    slots: Slots[int] = Slots(max_links=3, max_links_per_address=2)
    assert slots.refusal("a", "A") is None and slots.refusal("a", "A") is None
    assert slots.refusal("a", "A") == "too many connections from A already (2); try again later"
    assert slots.refusal("b", "B") is None
    assert slots.refusal("c", "C") == "too many connections here already (3); try again later"
    slots.unlink("a")
    assert slots.refusal("c", "C") is None and slots.links == 3


@settings(deadline=None)
@given(st.lists(st.tuples(st.sampled_from("abcde"), st.booleans()), max_size=300))
def test_the_bounds_hold_whatever_comes_and_goes(events: list[tuple[str, bool]]) -> None:
    slots: Slots[int] = Slots(max_pending=8, max_pending_per_address=3)
    waiting: dict[int, str] = {}
    for n, (address, leaves) in enumerate(events):
        if leaves and waiting:
            who = next(iter(waiting))
            slots.done_waiting(waiting.pop(who), who)
            continue
        evicted = slots.wait(address, n)
        if evicted is None:
            assert slots.waiting_from(address) == 3
            continue
        for who in evicted:
            del waiting[who]
        waiting[n] = address
        assert slots.pending == len(waiting) <= 8
        assert all(slots.waiting_from(a) <= 3 for a in "abcde")
