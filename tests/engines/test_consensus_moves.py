"""Consensus rules 1-5 on hand-made positions: moving, each piece's action, the centre.

One test (at least) per rule of ../shared/rules/consensus.md sections 2-5; the section is
named in each test's docstring.
"""

from __future__ import annotations

import pytest

from engines import IllegalMove
from engines.consensus import ENGINE, ConsensusState
from engines.consensus_board import DEAD, E5, PRESIDENT, kind_of
from tests.engines.test_consensus_positions import move, notations, play, position, sq


def dests(state: ConsensusState, square: str) -> set[str]:
    return {f"{'abcdefghi'[s % 9]}{s // 9 + 1}" for s in ENGINE.destinations(state, sq(square))}


def names(text: str) -> set[str]:
    return set(text.split())


def moves_to(state: ConsensusState, origin: str, target: str) -> list[str]:
    return [
        text
        for m, text in zip(ENGINE.legal_moves(state), notations(state), strict=True)
        if (m.origin, m.target) == (sq(origin), sq(target))
    ]


def refused(state: ConsensusState, *names: str, reason: str = "") -> None:
    with pytest.raises(IllegalMove, match=reason):
        ENGINE.apply(state, move(*names))


def is_corpse(state: ConsensusState, square: str) -> bool:
    return bool(state.board[sq(square)] & DEAD)


OPEN = """
    P2 .  .  .  .  .  .  .  P3
    .  .  .  .  .  .  .  .  .
    .  .  .  .  .  .  .  .  .
    .  .  .  .  .  .  .  .  .
    .  .  .  .  .  .  .  .  .
    .  .  .  .  .  .  .  .  .
    .  .  .  .  G1 .  .  .  .
    .  .  .  .  .  .  .  .  .
    P1 .  .  .  .  .  .  .  P4
"""


def test_start_offers_30_moves_from_the_coutumier_and_syndicalistes() -> None:
    """Section 9: C 12; S 4, 5, 4, 5; P, G, H and F are blocked."""
    state = ENGINE.initial_state({"seats": 4})
    per_piece = {at: len(moves_to_any(state, at)) for at in ENGINE.movable_pieces(state)}
    assert per_piece == {sq("c1"): 4, sq("c2"): 5, sq("a3"): 4, sq("b3"): 5, sq("c3"): 12}
    assert len(ENGINE.legal_moves(state)) == 30


def moves_to_any(state: ConsensusState, origin: int) -> list[object]:
    return [m for m in ENGINE.legal_moves(state) if m.origin == origin]


def test_queen_moves_any_distance_in_eight_directions() -> None:
    """Section 3: straight lines, orthogonal or diagonal, forward or back."""
    assert dests(position(OPEN), "e3") == names(
        "a3 b3 c3 d3 f3 g3 h3 i3 e1 e2 e4 e6 e7 e8 e9 d2 c1 f2 g1 d4 c5 b6 a7 f4 g5 h6 i7"
    )


def test_lines_stop_at_any_piece_alive_or_dead() -> None:
    """Section 3: no passing over a piece; an enemy can be taken, a friend or corpse not."""
    state = position(
        """
        P2 .  .  .  .  .  .  .  P3
        .  .  .  .  .  .  .  .  .
        .  .  .  .  .  .  .  .  .
        .  .  .  .  S2 .  .  .  .
        .  .  .  .  .  .  S1 .  .
        .  .  .  .  .  .  .  .  .
        .  .  s3 .  G1 .  .  .  .
        .  .  .  .  .  .  .  .  .
        P1 .  .  .  .  .  .  .  P4
        """
    )
    assert dests(state, "e3") == names("d3 f3 g3 h3 i3 e1 e2 e4 e6 d2 c1 f2 g1 d4 c5 b6 a7 f4")


CROSSING = """
    P2 .  .  .  .  .  .  .  P3
    .  .  .  .  .  .  .  .  .
    .  .  .  .  .  .  .  .  .
    .  .  .  S1 .  .  .  .  .
    .  .  .  .  {e5} .  .  .  .
    .  .  .  .  .  .  .  .  .
    .  .  {c3} .  .  .  .  .  .
    .  .  .  .  .  .  .  .  .
    {a1} .  .  .  .  .  .  .  P4
"""


def test_anyone_crosses_an_empty_centre_but_only_a_president_stops() -> None:
    """Section 3: e5 may be crossed while empty, a Syndicaliste too within two squares."""
    state = position(CROSSING.format(e5=".", c3="G1", a1="P1"))
    assert {"f6", "g7", "h8", "i9"} <= dests(state, "c3")
    assert "e5" not in dests(state, "c3")
    assert "f4" in dests(state, "d6") and "e5" not in dests(state, "d6")
    refused(state, "c3", "e5", reason="only a Président may stop on e5")
    president = position(CROSSING.format(e5=".", c3="P1", a1="."))
    assert "e5" in dests(president, "c3")
    after = play(president, "Pc3-e5")
    assert ENGINE.power_status(after).ruler == 1


@pytest.mark.parametrize("occupant", ["P2", "p3"])
def test_an_occupied_centre_blocks_lines(occupant: str) -> None:
    """Section 3: an occupied e5 (the ruler or a corpse) blocks like any other square."""
    state = position(CROSSING.format(e5=occupant, c3="G1", a1="P1").replace("P2 .", ".  .", 1))
    assert not {"f6", "g7", "h8", "i9"} & dests(state, "c3")
    assert "f4" not in dests(state, "d6")


def test_a_syndicaliste_moves_one_or_two_squares() -> None:
    """Section 3: a Syndicaliste moves 1 or 2 squares only."""
    state = position(OPEN.replace("G1", "S1"))
    assert dests(state, "e3") == names("c3 d3 f3 g3 e1 e2 e4 c1 d2 f2 g1 c5 d4 f4 g5")
    refused(state, "e3", "e6", reason="one or two squares")


KILL = """
    P2 .  .  .  .  .  .  .  P3
    .  .  .  .  .  .  .  .  .
    .  .  .  .  .  .  .  .  .
    .  .  .  .  .  .  .  .  .
    .  .  .  .  .  .  .  .  .
    .  .  .  .  .  .  .  .  .
    .  .  S2 .  .  .  .  .  .
    .  .  .  .  .  .  .  .  .
    P1 .  .  .  .  .  .  .  P4
"""


def test_president_kills_and_places_the_corpse_on_any_empty_square_but_e5() -> None:
    """Section 4: Président; the vacated origin counts as empty (section 3)."""
    state = position(KILL)
    kills = moves_to(state, "a1", "c3")
    assert len(kills) == 81 - 4 - 1  # every empty square but e5, a1 included
    assert "Pa1xc3@a1" in kills and "Pa1xc3@e5" not in kills
    refused(state, "a1", "c3", "e5", reason="may not be put on e5")
    after = play(state, "Pa1xc3@d5")
    assert is_corpse(after, "d5") and after.board[sq("c3")] == state.board[sq("a1")]
    assert after.board[sq("a1")] == 0


def test_syndicaliste_kills_within_two_squares() -> None:
    """Section 4: Syndicaliste lands on an enemy 1-2 squares away; corpse anywhere but e5."""
    state = position(KILL.replace("P1 .  .  .  .  .", "P1 .  S1 .  .  S3"))
    assert "Sc1xc3@c1" in moves_to(state, "c1", "c3")
    assert "f1" not in dests(state, "c1")  # three squares away
    refused(state, "c1", "c3", "e5", reason="may not be put on e5")
    assert is_corpse(play(state, "Sc1xc3@d5"), "d5")


def test_gign_kills_and_its_corpse_goes_to_this_moves_origin() -> None:
    """Section 4: GIGN; the corpse goes where the GIGN moved from, not a setup square."""
    gign = position(KILL.replace(".  .  S2", ".  G1 S2"))
    assert moves_to(gign, "b3", "c3") == ["Gb3xc3"]
    after = play(gign, "Gb3xc3")
    assert is_corpse(after, "b3") and kind_of(after.board[sq("c3")]) == 3
    refused(gign, "b3", "c3", "d5", reason="no more choice")


HAUSSAIRE = """
    P2 .  .  .  .  .  .  .  P3
    .  .  .  .  .  .  .  .  .
    .  .  .  .  .  .  .  .  .
    .  S3 .  .  .  .  .  .  .
    .  S1 .  S2 .  .  .  .  .
    .  .  H1 .  .  .  .  .  .
    .  .  .  .  .  .  .  .  .
    .  .  .  .  .  .  .  .  .
    P1 .  .  .  .  .  .  .  P4
"""


def test_haussaire_moves_then_may_kill_one_enemy_beside_it() -> None:
    """Section 4: Haussaire: to an empty square, then an optional kill sharing a side."""
    state = position(HAUSSAIRE)
    assert moves_to(state, "c4", "c5") == ["Hc4-c5", "Hc4-c5xd5"]
    assert "d5" not in dests(state, "c4")  # it never lands on a piece
    refused(state, "c4", "c5", "b6", reason="beside it")  # diagonal
    refused(state, "c4", "c5", "b5", reason="beside it")  # friendly
    refused(state, "c4", "c5", reason="victim square or none")
    killed = play(state, "Hc4-c5xd5")
    assert is_corpse(killed, "d5") and killed.quiet_plies == 0
    spared = play(state, "Hc4-c5")
    assert not is_corpse(spared, "d5") and spared.quiet_plies == 1


FONCTIONNAIRE = """
    {a9} .  .  .  .  .  .  .  P3
    .  .  .  .  .  .  .  .  .
    .  .  .  .  .  .  .  .  .
    .  .  .  .  .  .  .  .  .
    .  .  .  .  .  .  .  .  .
    .  .  .  {d4} .  .  .  .  .
    .  .  .  .  .  .  .  .  .
    .  F1 .  .  .  .  .  .  .
    P1 .  .  .  .  .  .  .  P4
"""


def test_fonctionnaire_displaces_an_enemy_alive_to_any_empty_square() -> None:
    """Section 4: Fonctionnaire; only a Président may be put on e5."""
    state = position(FONCTIONNAIRE.format(d4="G3", a9="P2"))
    displacements = moves_to(state, "b2", "d4")
    assert "Fb2xd4@b2" in displacements and "Fb2xd4@e5" not in displacements
    assert len(displacements) == 81 - 5 - 1
    refused(state, "b2", "d4", "e5", reason="only a Président")
    after = play(state, "Fb2xd4@h4")
    assert after.board[sq("h4")] == state.board[sq("d4")]  # alive, not a corpse
    assert after.quiet_plies == 1  # a displacement is not a kill


def test_fonctionnaire_may_put_an_enemy_president_in_power() -> None:
    """Section 4: putting an enemy Président on e5 gives that player power."""
    state = position(FONCTIONNAIRE.format(d4="P2", a9="."))
    assert "Fb2xd4@e5" in moves_to(state, "b2", "d4")
    after = play(state, "Fb2xd4@e5")
    assert ENGINE.power_status(after).ruler == 2


COUTUMIER = """
    P2 .  .  .  .  .  .  .  P3
    .  .  .  .  .  .  .  .  .
    .  .  .  .  .  .  .  .  .
    .  .  .  .  .  .  .  .  .
    .  .  S2 .  .  .  .  .  .
    .  .  .  s4 .  .  .  .  .
    .  .  C1 .  .  .  .  .  .
    .  .  .  .  .  .  .  .  .
    P1 .  .  .  .  .  .  .  P4
"""


def test_coutumier_carries_a_corpse_to_any_empty_square_but_e5() -> None:
    """Section 4: Coutumier lands on a corpse of any colour; it never passes over one."""
    state = position(COUTUMIER)
    carries = moves_to(state, "c3", "d4")
    assert "Cc3xd4@c3" in carries and "Cc3xd4@e5" not in carries
    refused(state, "c3", "d4", "e5", reason="may not be put on e5")
    assert not {"e5", "f6", "c5"} & dests(state, "c3")  # past the corpse; onto a living piece
    after = play(state, "Cc3xd4@a8")
    assert is_corpse(after, "a8") and after.quiet_plies == 1  # not a kill


def test_friendly_pieces_cannot_be_killed_or_displaced() -> None:
    """Section 3 [palabre]: killing or displacing a friendly piece is not allowed."""
    state = position(KILL.replace("S2", "S1"))
    assert "c3" not in dests(state, "a1")
    refused(state, "a1", "c3", "d5", reason="on your side")
    # Pieces of a captured seat are friendly to their controller.
    captured = position(KILL.replace("P2", ". "), controllers=(1, 1, 3, 4))
    assert "c3" not in dests(captured, "a1")


def test_neutral_pieces_are_everyones_enemy() -> None:
    """Section 3 and 7: neutral pieces can be killed by anyone."""
    state = position(KILL.replace("S2", "S3").replace("P3", ". "), controllers=(1, 2, 0, 4))
    assert "Pa1xc3@d5" in moves_to(state, "a1", "c3")


CENTRE = """
    .  .  .  .  .  .  .  .  P3
    .  .  .  .  .  .  .  .  .
    .  .  .  .  .  .  .  .  .
    .  .  .  s4 s4 s4 .  .  .
    P1 .  .  s4 P2 s4 .  .  .
    .  .  .  {d4} s4 s4 .  .  .
    .  .  {c3} .  .  .  .  .  .
    .  .  .  .  .  .  .  .  .
    .  .  .  .  .  .  .  .  P4
"""


def test_president_kills_the_ruler_and_takes_power() -> None:
    """Section 5: a Président kills the ruler and stays on e5; corpse anywhere but e5."""
    state = position(CENTRE.format(d4=".", c3="P1").replace("P1 .", ".  .", 1))
    after = play(state, "Pc3xe5@c3")
    assert ENGINE.power_status(after).ruler == 1
    assert after.controllers == (1, 1, 3, 4)


def test_gign_kills_the_ruler_then_exits() -> None:
    """Section 5: the corpse goes to the GIGN's origin, then the GIGN exits e5."""
    state = position(CENTRE.format(d4=".", c3="G1"))
    assert moves_to(state, "c3", "e5") == ["Gc3xe5>d4"]  # its own corpse now blocks c3
    after = play(state, "Gc3xe5>d4")
    assert is_corpse(after, "c3") and after.board[E5] == 0
    assert after.controllers == (1, 1, 3, 4)


def test_gign_without_an_exit_cannot_act_on_the_ruler() -> None:
    """Section 5: a move that must exit e5 and has nowhere to go is not legal."""
    state = position(CENTRE.format(d4="G1", c3="."))
    assert "e5" not in dests(state, "d4")
    refused(state, "d4", "e5", "c3", reason="exit e5")


def test_fonctionnaire_on_the_centre_is_decided_per_complete_move() -> None:
    """Section 5: the placement of the ruler may block the only exit, another not."""
    state = position(CENTRE.format(d4="F1", c3="."))
    displacements = moves_to(state, "d4", "e5")
    assert not [text for text in displacements if "@d4" in text]
    assert [text for text in displacements if "@c3" in text] == ["Fd4xe5@c3>d4"]
    assert "Fd4xe5@h9>a1" in displacements
    refused(state, "d4", "e5", "d4", "c3", reason="exit e5")
    after = play(state, "Fd4xe5@h9>b2")
    assert after.board[sq("h9")] & 7 == PRESIDENT and not is_corpse(after, "h9")
    assert ENGINE.power_status(after).ruler is None
    assert after.board[sq("b2")] & 7 == 5 and after.board[E5] == 0


def test_haussaire_kills_the_ruler_and_the_corpse_blocks_the_centre() -> None:
    """Section 5: the corpse stays on e5; nobody rules; e5 blocks until cleared."""
    state = position(CENTRE.format(d4=".", c3="G1").replace("P1 .  .  s4", "P1 H1 .  . "))
    assert "Hb5-d5xe5" in moves_to(state, "b5", "d5")
    after = play(state, "Hb5-d5xe5")
    assert is_corpse(after, "e5") and ENGINE.power_status(after).ruler is None
    assert after.controllers == (1, 1, 3, 4)


def test_coutumier_clears_the_centre_and_exits() -> None:
    """Section 5: a Coutumier carries the corpse on e5 away, never onto e5, then exits."""
    state = position(CENTRE.format(d4="C1", c3=".").replace("P2", "p2"), controllers=(1, 1, 3, 4))
    clears = moves_to(state, "d4", "e5")
    assert not [text for text in clears if "@d4" in text or "@e5" in text]
    assert "Cd4xe5@c3>d4" in clears and "Cd4xe5@b4>b2" in clears
    refused(state, "d4", "e5", "d4", "c3", reason="exit e5")
    after = play(state, "Cd4xe5@b4>a1")
    assert after.board[E5] == 0 and is_corpse(after, "b4")


def test_a_syndicaliste_cannot_act_on_the_ruler() -> None:
    """Section 4 and 5: a Syndicaliste may never act on the Président in power."""
    state = position(CENTRE.format(d4="S1", c3="."))
    assert "e5" not in dests(state, "d4")
    refused(state, "d4", "e5", "c3", reason="Syndicaliste may not act")


def test_the_ruler_leaving_cannot_drop_a_corpse_on_its_vacated_centre() -> None:
    """Section 3 and 4: the vacated square counts as empty, but e5 never takes a corpse."""
    state = position(
        CENTRE.format(d4="G3", c3=".").replace("P2", "P1").replace("P1 .", "P2 .", 1), slot=1
    )
    takes = moves_to(state, "e5", "d4")
    assert takes and not [text for text in takes if "@e5" in text]
    refused(state, "e5", "d4", "e5", reason="may not be put on e5")
