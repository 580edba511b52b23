"""The conclusion part of the peer node (``client.node.peer_conclusion``), driven with ``now``."""

from __future__ import annotations

import math

from client.node.mesh import ENDED
from client.node.peer_conclusion import END_LINGER, END_WAIT, Conclusion, Ended

ANN, BOB, CY = b"a" * 32, b"b" * 32, b"c" * 32


def test_a_weak_conclusion_gives_way_and_a_halt_overrides_an_ending() -> None:
    conclusion = Conclusion(stay=False)
    assert conclusion.due(links_left=True) is None and conclusion.code is None
    assert conclusion.conclude(0, 5.0, END_WAIT, wait_links=False, weak=True)
    assert conclusion.conclude(0, 6.0, END_LINGER, wait_links=False)  # the weak one gives way
    assert conclusion.due(links_left=True) == 7.0
    assert not conclusion.conclude(0, 6.5, 0.1, wait_links=False)  # the first one stands
    assert conclusion.conclude(3, 6.5, 2.0, wait_links=False)  # a halt overrides an ending
    assert not conclusion.conclude(1, 6.6, 0.0, wait_links=False)  # but not another problem
    assert (conclusion.code, conclusion.due(links_left=True)) == (3, 8.5)
    assert conclusion.reason == "leaving the table"


def test_a_peer_that_stays_never_ends_by_itself_but_on_a_fatal_problem() -> None:
    conclusion = Conclusion(stay=True)
    assert not conclusion.conclude(0, 1.0, 0.0, wait_links=False)
    assert not conclusion.conclude(3, 1.0, 0.0, wait_links=False)
    assert conclusion.due(links_left=False) is None
    assert conclusion.conclude(1, 1.0, 0.0, wait_links=False)
    assert conclusion.code == 1


def test_waiting_for_links_ends_once_none_is_left_and_a_hold_delays_an_ending() -> None:
    conclusion = Conclusion(stay=False)
    conclusion.conclude(0, 0.0, 3.0, wait_links=True)
    assert conclusion.due(links_left=True) == 3.0
    assert conclusion.due(links_left=False) == -math.inf
    conclusion.hold(1.0, 30.0)
    assert conclusion.due(links_left=False) == 31.0
    assert conclusion.reason == "the game is over"
    conclusion.hold(2.0, None)
    assert conclusion.due(links_left=True) == 3.0


def test_a_peer_that_holds_every_end_says_so_and_leaves_once_every_peer_does() -> None:
    conclusion = Conclusion(stay=False)
    table = Ended(ANN, True, (ANN, BOB, CY))
    told = conclusion.holds_every_end(table, 10.0)
    assert told is not None and told.topic == ENDED and told.body == {"keys": [ANN]}
    assert conclusion.due(links_left=True) == 10.0 + END_WAIT
    assert conclusion.learn_end_holders(table, [ANN], 11.0) is None  # nothing new
    passed = conclusion.learn_end_holders(table, [BOB], 11.0)
    assert passed is not None and passed.body == {"keys": [ANN, BOB]}
    assert conclusion.due(links_left=True) == 10.0 + END_WAIT  # still waiting for cy
    conclusion.learn_end_holders(table, [CY], 12.0)
    assert conclusion.due(links_left=True) == 12.0 + END_LINGER


def test_the_absent_are_not_waited_for_and_a_spectator_leaves_soon() -> None:
    conclusion = Conclusion(stay=False)
    conclusion.holds_every_end(Ended(ANN, True, (ANN, BOB), absent=(BOB,)), 4.0)
    assert conclusion.due(links_left=True) == 4.0 + END_LINGER
    watcher = Conclusion(stay=False)
    assert watcher.holds_every_end(Ended(None, True, (ANN, BOB)), 4.0) is None
    assert watcher.due(links_left=True) == 4.0 + END_LINGER


def test_news_of_end_holders_before_this_peer_holds_every_end_is_kept_not_passed_on() -> None:
    conclusion = Conclusion(stay=False)
    table = Ended(ANN, False, (ANN, BOB))
    assert conclusion.learn_end_holders(table, [BOB], 1.0) is None
    assert conclusion.learn_end_holders(None, [CY], 1.0) is None
    assert conclusion.end_holders.keys == {BOB}
    assert conclusion.due(links_left=True) is None
