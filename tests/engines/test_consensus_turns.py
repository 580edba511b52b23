"""Consensus rules 6-7 on hand-made positions: control, slots, passes, extra moves, the ends.

One test (at least) per rule of ../shared/rules/consensus.md sections 6 and 7.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from engines import IllegalMove
from engines.consensus import ENGINE, ConsensusState, PowerStatus
from engines.consensus_board import DEAD, E5
from tests.engines.test_consensus_positions import move, play, position, position_of, sq


def turn(state: ConsensusState) -> tuple[int | None, bool]:
    """(seat to move, whether it is an extra move)."""
    return ENGINE.to_move(state), state.extra


TRANSFER = """
    .  .  .  .  .  .  .  .  .
    .  .  .  .  .  .  .  .  .
    S2 .  .  .  .  .  P3 .  .
    .  .  .  .  .  .  .  .  .
    .  .  .  .  .  .  .  .  .
    .  .  .  P2 .  .  .  .  .
    .  .  .  .  .  .  .  .  .
    .  .  .  .  .  .  .  .  .
    P1 .  .  .  .  .  .  .  P4
"""


def test_the_killer_of_a_president_plays_that_seat_on_its_slot() -> None:
    """Section 6: control passes to the killer, who moves that seat's pieces on its slot."""
    state = play(position(TRANSFER), "Pa1xd4@a1")
    assert state.controllers == (1, 1, 3, 4)
    assert turn(state) == (2, False) and ENGINE.controller(state, 2) == 1
    assert {m.origin for m in ENGINE.legal_moves(state)} == {sq("a7")}
    with pytest.raises(IllegalMove, match="cannot move this turn"):
        ENGINE.apply(state, move("d4", "d5"))
    assert turn(play(state, "Sa7-a6")) == (3, False)


def test_control_passes_on_when_the_controller_is_killed() -> None:
    """Section 6: the killer takes everything the dead Président's player controlled."""
    state = play(position(TRANSFER), "Pa1xd4@a1", "Sa7-a6")
    state = play(state, "Pg7xd4@g7")
    assert state.controllers == (3, 3, 3, 4)
    assert turn(state) == (4, False)
    state = play(state, "Pi1-i2")
    assert turn(state) == (2, False) and ENGINE.controller(state, 2) == 3  # slot 1 is empty


def test_slots_without_living_controlled_pieces_are_skipped() -> None:
    """Section 6: a slot is in play while its seat has a living piece someone controls."""
    state = position(TRANSFER.replace("S2", "S3").replace("P3", "p3"), controllers=(1, 2, 0, 4))
    assert ENGINE.slots_in_play(state) == (1, 2, 4)
    state = play(state, "Pa1-b1")
    assert turn(state) == (2, False)
    state = play(state, "Pd4-d5")
    assert turn(state) == (4, False) and state.passed == ()
    with pytest.raises(IllegalMove, match="cannot move this turn"):
        ENGINE.apply(state, move("a7", "a6"))  # neutral pieces never move


BOXED = """
    P2 p3 .  .  .  .  .  .  P3
    p3 p3 .  .  .  .  .  .  .
    .  .  .  .  .  .  .  .  .
    .  .  .  .  .  .  .  .  .
    .  .  .  .  {e5} .  .  .  .
    .  .  .  .  .  .  .  .  .
    .  .  .  .  .  .  .  .  .
    .  .  .  .  .  .  .  .  .
    {a1} .  .  .  .  .  .  .  P4
"""


def test_a_slot_with_no_legal_move_passes_automatically() -> None:
    """Section 6: the pass is that slot's turn; the engine plays it inside apply."""
    state = play(position(BOXED.format(e5=".", a1="P1")), "Pa1-a2")
    assert turn(state) == (3, False) and state.passed == (2,)
    assert ENGINE.movable_pieces(replace(state, slot=2)) == ()


def test_the_ruler_moves_again_after_every_other_players_turn_passes_included() -> None:
    """Section 6: one extra move after each turn of another player's slot, a pass too."""
    state = position(BOXED.format(e5="P1", a1="."), slot=4)
    state = play(state, "Pi1-i2")
    assert turn(state) == (1, True)
    assert ENGINE.controller(state, 1) == 1
    state = play(state, "Pe5-e6")  # the ruler leaves: power ends at once
    assert turn(state) == (1, False) and ENGINE.power_status(state).ruler is None
    state = play(state, "Pe6-e5")  # its own turn: no extra move follows
    assert turn(state) == (1, True) and state.passed == (2,)  # after slot 2's pass
    state = play(state, "Pe5-e4")  # the extra move ends power, so ...
    assert turn(state) == (3, False)  # ... play resumes after the passing slot


def test_one_extra_move_after_a_turn_with_any_piece_the_ruler_controls() -> None:
    """Section 6: never two in a row; none after a slot the ruler controls; any piece the
    ruler controls may make it."""
    state = position(
        """
        P2 .  .  .  .  .  .  .  P3
        .  .  .  .  .  .  .  .  .
        .  .  .  .  .  .  .  .  .
        .  .  .  .  .  .  .  .  .
        .  .  .  .  P1 .  .  .  .
        .  .  .  .  .  .  .  .  .
        .  .  S1 .  .  .  .  .  .
        .  .  .  .  .  .  .  .  .
        .  .  .  .  .  .  S4 .  p4
        """,
        slot=3,
        controllers=(1, 2, 3, 1),
    )
    state = play(state, "Pi9-i8")
    assert turn(state) == (1, True)
    assert ENGINE.movable_pieces(state) == (sq("g1"), sq("c3"), sq("e5"))
    state = play(state, "Sg1-g2")
    assert turn(state) == (4, False) and ENGINE.controller(state, 4) == 1
    state = play(state, "Sg2-g3")
    assert turn(state) == (1, False)
    state = play(state, "Sc3-c4")
    assert turn(state) == (2, False)


def test_the_ruler_with_no_legal_extra_move_skips_it() -> None:
    """Section 6: a ruler with no legal extra move skips it."""
    walled = """
        P2 .  .  .  .  .  .  .  P3
        .  .  .  .  .  .  .  .  .
        .  .  .  .  .  .  .  .  .
        .  .  .  s4 s4 s4 .  .  .
        .  .  .  s4 P1 s4 .  .  .
        .  .  .  s4 s4 s4 .  .  .
        .  .  .  .  .  .  .  .  .
        .  .  .  .  .  .  .  .  .
        .  .  .  .  .  .  .  .  P4
    """
    state = play(position(walled, slot=2), "Pa9-a8")
    assert turn(state) == (3, False)
    state = play(state, "Pi9-i8")
    assert turn(state) == (4, False)


CROWNING = """
    .  .  .  .  .  .  .  .  P3
    S2 .  .  .  .  .  .  .  .
    .  .  .  .  .  .  .  .  .
    .  .  .  .  .  .  .  .  .
    .  .  .  .  .  .  .  .  .
    .  .  .  P2 .  .  .  .  .
    .  .  .  .  .  .  .  .  .
    .  F1 .  .  .  .  .  .  .
    P1 .  .  .  .  .  .  .  P4
"""


def test_a_crowned_president_moves_at_once_then_on_its_own_slot() -> None:
    """Section 6: a Fonctionnaire putting an enemy Président on e5 earns it an extra move."""
    state = play(position(CROWNING), "Fb2xd4@e5")
    assert ENGINE.power_status(state) == PowerStatus(2, (1, 3, 4))
    assert turn(state) == (2, True)
    state = play(state, "Sa8-a7")  # the extra move
    assert turn(state) == (2, False)  # then slot 2, which follows the interrupted slot 1
    state = play(state, "Sa7-a6")
    assert turn(state) == (3, False)  # no extra move after the ruler's own turn
    state = play(state, "Pi9-i8")
    assert turn(state) == (2, True)
    assert ENGINE.power_status(state) == PowerStatus(2, (1, 4))


def test_holding_power_wins_once_every_other_slot_had_a_turn_after_it_began() -> None:
    """Section 7: the turn that took power does not count; the ruler's captured seat owes
    nothing; a win is checked after every turn."""
    captured = """
        .  .  .  .  .  .  .  .  P3
        S2 .  .  .  .  .  .  .  .
        .  .  .  .  .  .  .  .  .
        .  .  .  .  .  .  .  .  .
        .  .  .  .  .  .  .  .  .
        .  .  .  P1 .  .  .  .  .
        .  .  .  .  .  .  .  .  .
        .  .  .  .  .  .  .  .  .
        p2 .  .  .  .  .  .  .  P4
    """
    state = play(position(captured, controllers=(1, 1, 3, 4)), "Pd4-e5")
    assert ENGINE.power_status(state) == PowerStatus(1, (3, 4))
    assert turn(state) == (2, False) and ENGINE.controller(state, 2) == 1
    state = play(state, "Sa8-a7")
    assert turn(state) == (3, False)
    state = play(state, "Pi9-i8")
    assert turn(state) == (1, True) and ENGINE.outcome(state) is None
    state = play(state, "Sa7-a6")
    assert ENGINE.power_status(state) == PowerStatus(1, (4,))
    state = play(state, "Pi1-i2")
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.winners == (1,) and outcome.reason == "power"
    assert ENGINE.to_move(state) is None


def test_a_seat_captured_by_another_player_owes_the_ruler_a_turn() -> None:
    """Section 7: every slot in play controlled by another player counts, as control stands."""
    state = position(
        """
        P2 .  .  .  .  .  .  .  p3
        .  .  .  .  .  .  .  .  S3
        .  .  .  .  .  .  .  .  .
        .  .  .  .  .  .  .  .  .
        .  .  .  .  .  .  .  .  .
        .  .  .  P1 .  .  .  .  .
        .  .  .  .  .  .  .  .  .
        .  .  .  .  .  .  .  .  .
        .  .  .  .  .  .  .  .  P4
        """,
        controllers=(1, 2, 4, 4),
    )
    state = play(state, "Pd4-e5")
    assert ENGINE.power_status(state) == PowerStatus(1, (2, 3, 4))
    state = play(state, "Pa9-a8", "Pe5-e6")  # slot 2, then the extra move leaves e5
    assert ENGINE.power_status(state) == PowerStatus(None, ())


def test_the_turn_that_crowned_a_president_does_not_count() -> None:
    """Section 7: after a crowning on slot 1, slot 1 must still play once."""
    state = play(position(CROWNING), "Fb2xd4@e5", "Sa8-a7", "Sa7-a6")
    state = play(state, "Pi9-i8", "Sa6-a5", "Pi1-i2", "Sa5-a4")
    assert ENGINE.power_status(state) == PowerStatus(2, (1,))
    assert turn(state) == (1, False) and ENGINE.outcome(state) is None
    state = play(state, "Pa1-a2")
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.winners == (2,)


def test_the_last_president_alive_wins() -> None:
    """Section 7: last one in."""
    state = position(TRANSFER.replace("P3", "p3").replace("P4", "p4"), controllers=(1, 2, 1, 2))
    state = play(state, "Pa1xd4@a1")
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.winners == (1,) and outcome.reason == "last-one-in"


def test_resigning_kills_the_president_and_neutralises_its_pieces() -> None:
    """Section 7: on its own turn; pieces stay alive, never move again, anyone may kill them."""
    state = play(position(TRANSFER), "Pa1-b1")
    with pytest.raises(IllegalMove, match="own turn"):
        ENGINE.resign(state, 3)
    resigned = ENGINE.resign(state, 2)
    assert resigned.board[sq("d4")] & DEAD and not resigned.board[sq("a7")] & DEAD
    assert resigned.controllers == (1, 0, 3, 4)
    assert ENGINE.slots_in_play(resigned) == (1, 3, 4)
    assert turn(resigned) == (3, False) and resigned.quiet_plies == state.quiet_plies
    resigned = play(resigned, "Pg7xa7@g7", "Pi1-h1", "Pb1-b2")  # a neutral piece dies
    assert turn(resigned) == (3, False)  # slot 2 no longer plays


def test_the_ruler_may_resign_on_its_extra_move_and_leaves_a_corpse_on_e5() -> None:
    """Section 7: a resignation at the extra move; the Président dies where it stands."""
    state = play(position(BOXED.format(e5="P1", a1="."), slot=4), "Pi1-i2")
    assert turn(state) == (1, True)
    resigned = ENGINE.resign(state, 1)
    assert resigned.board[E5] & DEAD and ENGINE.power_status(resigned).ruler is None
    assert turn(resigned) == (3, False) and resigned.passed == (2,)


def test_the_ruler_moves_after_another_players_resignation() -> None:
    """Section 7: the resignation is a turn; the ruler's extra move follows it."""
    state = position(BOXED.format(e5="P1", a1="."), slot=3)
    resigned = ENGINE.resign(state, 3)
    assert turn(resigned) == (1, True)


def test_resigning_leaves_the_last_president_the_winner() -> None:
    """Section 7: when one Président is left alive, its player wins."""
    state = position(TRANSFER.replace("P3", "p3").replace("P4", "p4"), controllers=(1, 2, 1, 2))
    outcome = ENGINE.outcome(ENGINE.resign(state, 1))
    assert outcome is not None and outcome.winners == (2,)


def test_a_round_with_no_legal_move_for_anyone_is_a_draw() -> None:
    """Section 7: all slots in play pass in a row."""
    state = position(
        """
        P2 p1 .  .  .  .  .  p1 P3
        p1 p1 .  .  .  .  .  p1 p1
        .  .  .  .  .  .  .  .  .
        .  .  .  .  .  .  .  .  .
        .  .  .  .  .  .  .  .  .
        .  .  .  .  .  .  .  .  .
        .  .  .  p1 p1 p1 .  .  .
        p1 p1 .  p1 S4 p1 .  .  .
        P1 p1 .  p1 G3 p1 .  .  .
        """,
        slot=3,
        controllers=(1, 2, 3, 0),
    )
    assert [ENGINE.format_move(state, m) for m in ENGINE.legal_moves(state)] == ["Ge1xe2"]
    state = play(state, "Ge1xe2")
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.draw and outcome.reason == "no-moves"
    assert state.passed == (1, 2, 3)


def test_150_plies_without_a_kill_draw_and_a_kill_resets_the_count() -> None:
    """Section 7: extra moves count, passes and resignations do not."""
    state = position(TRANSFER, quiet_plies=149)
    outcome = ENGINE.outcome(play(state, "Pa1-b1"))
    assert outcome is not None and outcome.draw and outcome.reason == "quiet"
    assert play(state, "Pa1xd4@a1").quiet_plies == 0
    passes = play(position(BOXED.format(e5=".", a1="P1"), quiet_plies=10), "Pa1-a2")
    assert passes.passed == (2,) and passes.quiet_plies == 11
    ruled = play(position(BOXED.format(e5="P1", a1="."), slot=4, quiet_plies=10), "Pi1-i2")
    assert play(ruled, "Pe5-e4").quiet_plies == 12


def test_every_player_may_agree_to_a_draw() -> None:
    """Section 7: draw by agreement."""
    state = ENGINE.agree_draw(position(TRANSFER))
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.draw and outcome.reason == "agreement"
    with pytest.raises(IllegalMove, match="over"):
        ENGINE.agree_draw(state)
    with pytest.raises(IllegalMove, match="over"):
        ENGINE.resign(state, 1)


def test_an_automatic_pass_counts_as_a_turn_for_holding_power() -> None:
    """Section 7: passes are turns; a slot that only passed owes the ruler nothing more."""
    state = position_of("P2a9 p3b9 p3a8 p3b8 P3i9 P4i1 S1c6 P1d6")
    state = play(state, "Pd6-e5")
    assert turn(state) == (1, True) and state.passed == (2,)
    assert ENGINE.power_status(state) == PowerStatus(1, (3, 4))
    state = play(state, "Sc6-c7", "Pi9-i8", "Sc7-c8", "Pi1-i2")
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.winners == (1,) and outcome.reason == "power"
