"""Discorder rules on hand-made positions, one test (or more) per rule of the rules file.

Section numbers refer to ``/work/shared/rules/discorder.md`` and ``docs/rules/discorder.md``.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from engines import IllegalMove, InvalidMove, InvalidParams, find_engine
from engines.discorder import (
    CELLS,
    ENGINE,
    PEGS,
    SITES,
    TILES_PER_PLAYER,
    DiscorderState,
    Peg,
    RunView,
    Tile,
    provisional_scores,
    run_views,
)

# --- hand-made positions ------------------------------------------------------------------


def cell(name: str) -> int:
    """``"d4"`` -> 27."""
    return (int(name[1]) - 1) * 8 + "abcdefgh".index(name[0])


def site(name: str) -> int:
    """``"c3|4"`` -> 18 (a site is numbered like its lower cell)."""
    return cell(name[:2])


def tile(name: str) -> Tile:
    return Tile(cell(name))


def peg(name: str) -> Peg:
    return Peg(site(name))


def position(
    diagram: str,
    pegs: tuple[str, ...] = (),
    to_move: int = 1,
    banned: tuple[bool, bool] = (False, False),
) -> DiscorderState:
    """A position from seven lines of eight cells (``.`` empty, ``J`` Jaune, ``N`` Noir).

    Each line may start with its row number; row 7 comes first.  Tiles in hand and pegs in
    the supply follow from what is on the board, so the state keeps the engine's invariants.
    """
    rows = [line.split()[-1] for line in diagram.strip().splitlines()]
    assert len(rows) == 7 and all(len(row) == 8 for row in rows), diagram
    board = [0] * CELLS
    for index, text in enumerate(rows):
        for col, char in enumerate(text):
            board[(6 - index) * 8 + col] = ".JN".index(char)
    tiles_left = (TILES_PER_PLAYER - board.count(1), TILES_PER_PLAYER - board.count(2))
    assert min(tiles_left) >= 0, "more than 28 tiles of one colour"
    assert len(pegs) <= PEGS
    peg_sites = [False] * SITES
    for name in pegs:
        peg_sites[site(name)] = True
    return DiscorderState(
        board=tuple(board),
        pegs=tuple(peg_sites),
        tiles_left=tiles_left,
        pegs_left=PEGS - len(pegs),
        to_move=to_move,
        banned=banned,
        passed=0,
        finish=0,
        resigned=0,
    )


EMPTY_BOARD = "\n".join(["........"] * 7)


def play(state: DiscorderState, *notations: str) -> DiscorderState:
    for text in notations:
        state = ENGINE.apply(state, ENGINE.parse_move(state, text))
    return state


def legal_pegs(state: DiscorderState) -> set[str]:
    return {ENGINE.format_move(state, m) for m in ENGINE.legal_moves(state) if isinstance(m, Peg)}


def legal_tiles(state: DiscorderState) -> set[str]:
    return {ENGINE.format_move(state, m) for m in ENGINE.legal_moves(state) if isinstance(m, Tile)}


def runs(state: DiscorderState) -> list[tuple[str, int, str]]:
    return [(view.name, view.owner, view.status) for view in run_views(state)]


# --- 1. material and 2. a turn ------------------------------------------------------------


def test_the_start_offers_every_cell_and_no_peg() -> None:
    state = ENGINE.initial_state({"seats": 2})
    assert state.tiles_left == (28, 28) and state.pegs_left == 10
    assert ENGINE.to_move(state) == 1, "Jaune starts"
    assert len(state.board) == 56 and len(state.pegs) == 48
    # A peg must follow a tile or a peg; on an empty board there is neither.
    assert ENGINE.legal_moves(state) == tuple(Tile(c) for c in range(56))


def test_a_tile_goes_on_an_empty_cell_and_the_turn_passes_over() -> None:
    state = play(ENGINE.initial_state({}), "d4")
    assert state.board[cell("d4")] == 1 and state.tiles_left == (27, 28)
    assert ENGINE.to_move(state) == 2
    with pytest.raises(IllegalMove, match="d4 is not empty"):
        ENGINE.apply(state, tile("d4"))
    state = play(state, "e4")
    assert state.board[cell("e4")] == 2 and ENGINE.to_move(state) == 1


# --- 2. peg sites and their conditions --------------------------------------------------


def test_a_peg_may_follow_a_tile_of_either_colour() -> None:
    state = play(ENGINE.initial_state({}), "d4")
    assert legal_pegs(state) == {"d3|4", "d4|5"}, "Noir may peg next to Jaune's tile"
    state = play(state, "d4|5")
    assert state.pegs[site("d4|5")] and state.pegs_left == 9
    assert ENGINE.to_move(state) == 1


def test_a_peg_may_follow_a_peg_on_the_same_grid_line_only() -> None:
    state = play(ENGINE.initial_state({}), "d4", "d3|4")
    pegs = legal_pegs(state)
    assert {"c3|4", "e3|4"} <= pegs, "both cells empty, but a peg stands beside on the line"
    assert "d2|3" not in pegs and "c2|3" not in pegs, "a peg on another line does not count"
    with pytest.raises(IllegalMove, match="follows no tile and no peg"):
        ENGINE.apply(state, peg("d2|3"))
    state = play(state, "c3|4", "a1", "b3|4")
    assert "a3|4" in legal_pegs(state), "a row of pegs may grow along its line"


def test_pegs_do_not_follow_each_other_around_the_board_edge() -> None:
    # h3|4 and a4|5 have neighbouring numbers but are not on one grid line.
    state = play(ENGINE.initial_state({}), "h4", "h3|4", "a1")
    assert "a4|5" not in legal_pegs(state) and "g3|4" in legal_pegs(state)
    with pytest.raises(IllegalMove):
        ENGINE.apply(state, peg("a4|5"))


def test_a_peg_needs_one_empty_cell_and_never_splits_tiles() -> None:
    state = play(ENGINE.initial_state({}), "d4", "d5")
    assert "d4|5" not in legal_pegs(state)
    with pytest.raises(IllegalMove, match="both cells of d4\\|5 hold tiles"):
        ENGINE.apply(state, peg("d4|5"))


def test_a_peg_site_holds_one_peg() -> None:
    state = play(ENGINE.initial_state({}), "d4", "d4|5")
    assert "d4|5" not in legal_pegs(state)
    with pytest.raises(IllegalMove, match="already holds a peg"):
        ENGINE.apply(state, peg("d4|5"))


def test_the_ten_pegs_are_shared_and_run_out() -> None:
    state = position(EMPTY_BOARD.replace("........", "JNJNJNJN", 1))  # row 7 filled
    state = play(state, "a6|7", "b6|7")  # one peg each from the same supply
    assert state.pegs_left == 8
    state = play(state, "c6|7", "d6|7", "e6|7", "f6|7", "g6|7", "h6|7", "a6", "a5|6", "b5|6")
    assert state.pegs_left == 0 and ENGINE.to_move(state) == 2
    assert legal_pegs(state) == set() and len(legal_tiles(state)) == 47
    with pytest.raises(IllegalMove, match="no peg is left"):
        ENGINE.apply(state, peg("f5|6"))


# --- 2. the ban after a line of three ---------------------------------------------------


def test_a_row_of_exactly_three_bans_pegs_on_the_next_turn() -> None:
    state = play(ENGINE.initial_state({}), "a1", "a2", "b1", "b2", "c1")
    assert state.banned == (True, False)
    state = play(state, "h7")  # Noir may still peg; it plays a tile
    assert legal_pegs(state) == set() and legal_tiles(state)
    with pytest.raises(IllegalMove, match="line of three"):
        ENGINE.apply(state, peg("c1|2"))
    # The ban lasts one turn: Jaune plays a tile, and on its next turn it may peg again.
    state = play(state, "h1", "g7")
    assert state.banned == (False, False)
    assert "c1|2" in legal_pegs(state)


def test_a_column_of_exactly_three_bans() -> None:
    state = play(ENGINE.initial_state({}), "d1", "e1", "d2", "e2", "d3", "h7")
    assert legal_pegs(state) == set()


def test_a_line_of_four_does_not_ban() -> None:
    state = position(
        """
        ........
        ........
        ........
        ........
        ........
        NNN.....
        JJJ.....
        """,
        to_move=1,
    )
    state = play(state, "d1", "h7")
    assert state.banned == (False, False) and "d1|2" in legal_pegs(state)


def test_a_peg_cuts_the_line_that_bans() -> None:
    diagram = """
        ........
        ........
        ........
        ..J.....
        ..J.....
        NN.N....
        NJJ.....
        """
    # c1 Jaune, c2 empty, c3 c4 Jaune: placing c2 makes c1-c4, four long: no ban ...
    assert play(position(diagram), "c2").banned == (False, False)
    # ... unless a peg stands on c1|2: then c2-c4 is a line of exactly three.
    assert play(position(diagram, pegs=("c1|2",)), "c2").banned == (True, False)


def test_placing_a_peg_never_bans() -> None:
    # Jaune's d1-d3 is pending; the peg on d3|4 closes it, which is no new line of tiles.
    state = position(
        """
        ........
        ........
        ........
        ........
        ...J....
        ...JN...
        ...JNN..
        """
    )
    state = play(state, "d3|4")
    assert runs(state) == [("d1-d3", 1, "secured")] and state.banned == (False, False)
    state = play(state, "h7")
    assert legal_pegs(state), "Jaune may peg again"


# --- 2. no tile left: must peg, else an automatic pass ---------------------------------


NO_JAUNE_TILES = """
7 ........
6 ........
5 NNNN....
4 JJJJ....
3 JJJJJJJJ
2 JJJJJJJJ
1 JJJJJJJJ
"""


def test_a_player_without_tiles_must_place_a_peg_when_one_is_legal() -> None:
    state = position(NO_JAUNE_TILES, to_move=1)
    moves = ENGINE.legal_moves(state)
    assert moves and all(isinstance(move, Peg) for move in moves)
    with pytest.raises(IllegalMove, match="no tile left"):
        ENGINE.apply(state, tile("h7"))


def test_a_player_without_tiles_or_legal_peg_passes_automatically() -> None:
    ten_pegs = ("a6|7", "b6|7", "c6|7", "d6|7", "e6|7", "f6|7", "g6|7", "h6|7", "h5|6", "g5|6")
    state = position(NO_JAUNE_TILES, pegs=ten_pegs, to_move=2)
    state = play(state, "e4")
    assert ENGINE.to_move(state) == 2 and state.passed == 1, "Jaune passed; Noir again"
    state = play(state, "f4")
    assert ENGINE.to_move(state) == 2 and state.passed == 1
    assert ENGINE.outcome(state) is None


def test_a_pass_is_the_banned_players_turn_and_ends_the_ban() -> None:
    state = position(
        """
        7 J.......
        6 ........
        5 JJ......
        4 NNNN....
        3 JJJJJJJJ
        2 JJJJJJJJ
        1 JJJJJJJJ
        """,
        to_move=1,
    )
    state = play(state, "c5")  # Jaune's last tile makes a5-c5: banned, and no tile left
    assert state.banned == (True, False) and state.tiles_left == (0, 24)
    state = play(state, "h7")
    assert ENGINE.to_move(state) == 2 and state.passed == 1 and state.banned == (False, False)
    state = play(state, "g7")
    assert ENGINE.to_move(state) == 1 and state.passed == 0
    assert "c5|6" in legal_pegs(state), "after its pass Jaune may peg again"


# --- 3. the end and the scoring ----------------------------------------------------------

# A full board (28 tiles each) whose only run of three or more is a1-a6 (Jaune), found by a
# small search; h7 (Noir's last tile) is left empty so that the game can end by a move.
NEARLY_FULL = """
7 NJNJNNJ.
6 JNJNJNNJ
5 JNJNNJNN
4 JJNJJNJJ
3 JNJJNNJN
2 JJNNJJNN
1 JNNJJNNJ
"""


def test_the_game_ends_when_the_board_is_full() -> None:
    state = position(NEARLY_FULL, pegs=("a3|4",), to_move=2)
    assert state.tiles_left == (0, 1) and ENGINE.outcome(state) is None
    state = play(state, "h7")
    assert ENGINE.to_move(state) is None and ENGINE.legal_moves(state) == ()
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.reason == "board-full"
    with pytest.raises(IllegalMove, match="game is over"):
        ENGINE.apply(state, peg("a4|5"))


def test_pegs_cut_columns_into_runs_when_scoring() -> None:
    # With a peg on a3|4, a1-a6 is two secured runs of three: two points for Jaune.
    cut = play(position(NEARLY_FULL, pegs=("a3|4",), to_move=2), "h7")
    outcome = ENGINE.outcome(cut)
    assert outcome is not None
    assert outcome.scores == (2, 0) and outcome.winners == (1,) and not outcome.draw
    assert outcome.summary == "Jaune 2 – Noir 0: Jaune wins."
    assert runs(cut) == [("a1-a3", 1, "secured"), ("a4-a6", 1, "secured")]
    # Without it, a1-a6 is one run of six: a point for Noir.
    whole = play(position(NEARLY_FULL, to_move=2), "h7")
    outcome = ENGINE.outcome(whole)
    assert outcome is not None and outcome.scores == (0, 1) and outcome.winners == (2,)
    # A peg between two cells of different colours changes nothing.
    beside = play(position(NEARLY_FULL, pegs=("b3|4", "a6|7"), to_move=2), "h7")
    assert ENGINE.outcome(beside) == outcome


def test_equal_totals_are_a_draw() -> None:
    # NEARLY_FULL with d2 and e2 swapped: Jaune's d1-d4 (four long) gives Noir a point, and
    # pegs on a3|4 and a4|5 leave Jaune a1-a3 (secured) but a4 alone and a5-a6 only two.
    state = position(
        """
        7 NJNJNNJ.
        6 JNJNJNNJ
        5 JNJNNJNN
        4 JJNJJNJJ
        3 JNJJNNJN
        2 JJNJNJNN
        1 JNNJJNNJ
        """,
        pegs=("a3|4", "a4|5"),
        to_move=2,
    )
    state = play(state, "h7")
    assert runs(state) == [("a1-a3", 1, "secured"), ("d1-d4", 1, "given-away")]
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.scores == (1, 1)
    assert outcome.draw and outcome.winners == () and outcome.summary == "Jaune 1 – Noir 1: a draw."


def test_a_run_of_four_or_more_gives_the_point_away() -> None:
    state = position(
        """
        ........
        ........
        ........
        ........
        ........
        ........
        JJJNNNNJ
        """
    )
    assert runs(state) == [("a1-c1", 1, "secured"), ("d1-g1", 2, "given-away")]
    assert provisional_scores(state) == (2, 0), "Noir's four scores for Jaune"


def test_runs_shorter_than_three_score_nothing() -> None:
    state = position(
        """
        ........
        ........
        ........
        N.......
        J.......
        JN......
        JNJJ.NN.
        """
    )
    assert runs(state) == [("a1-a3", 1, "secured")]
    assert provisional_scores(state) == (1, 0)


# --- 3. run statuses during play --------------------------------------------------------

STATUS_BOARD = """
7 ........
6 ........
5 ....N..J
4 ....N..J
3 ....N..J
2 NJJJJ..N
1 JJJN.NNN
"""


def test_each_run_is_secured_pending_or_given_away() -> None:
    state = position(STATUS_BOARD, pegs=("h5|6",))
    views = run_views(state)
    assert runs(state) == [
        ("a1-c1", 1, "secured"),  # the edge and Noir's d1 close it
        ("f1-h1", 2, "pending"),  # e1 is empty
        ("b2-e2", 1, "given-away"),  # four long
        ("e3-e5", 2, "pending"),  # e6 is empty and no peg stands on e5|6
        ("h3-h5", 1, "secured"),  # Noir's h2 below, the peg h5|6 above
    ]
    assert views[4] == RunView(1, (cell("h3"), cell("h4"), cell("h5")), True, "secured")
    assert [view.scorer for view in views] == [1, None, 2, None, 1]
    assert provisional_scores(state) == (2, 1) == ENGINE.provisional_scores(state)
    assert ENGINE.run_views(state) == views


def test_statuses_follow_the_play() -> None:
    state = position(STATUS_BOARD, pegs=("h5|6",))
    pegged = play(state, "e5|6")
    assert ("e3-e5", 2, "secured") in runs(pegged) and provisional_scores(pegged) == (2, 2)
    closed = play(state, "e1")  # Jaune's tile closes Noir's f1-h1: secured for Noir
    assert ("f1-h1", 2, "secured") in runs(closed)
    grown = play(replace(state, to_move=2), "e1")  # Noir's own tile makes d1-h1
    assert ("d1-h1", 2, "given-away") in runs(grown) and provisional_scores(grown) == (3, 1)


def test_no_run_is_pending_on_a_full_board() -> None:
    state = play(position(NEARLY_FULL, to_move=2), "h7")
    assert all(view.status != "pending" for view in run_views(state))


# --- 4. resigning and draws ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("seat", "winner", "summary"),
    [(1, 2, "Jaune resigned; Noir wins."), (2, 1, "Noir resigned; Jaune wins.")],
)
def test_a_resigning_player_loses(seat: int, winner: int, summary: str) -> None:
    state = play(ENGINE.initial_state({}), "d4")  # Noir to move; Jaune may still resign
    resigned = ENGINE.resign(state, seat)
    outcome = ENGINE.outcome(resigned)
    assert outcome is not None and outcome.winners == (winner,) and outcome.summary == summary
    assert ENGINE.to_move(resigned) is None
    with pytest.raises(IllegalMove, match="game is over"):
        ENGINE.resign(resigned, 3 - seat)
    with pytest.raises(IllegalMove, match="game is over"):
        ENGINE.apply(resigned, tile("a1"))
    with pytest.raises(IllegalMove):
        ENGINE.resign(state, 3)


def test_a_draw_by_agreement() -> None:
    drawn = ENGINE.agree_draw(ENGINE.initial_state({}))
    outcome = ENGINE.outcome(drawn)
    assert outcome is not None and outcome.draw and outcome.reason == "agreement"
    with pytest.raises(IllegalMove):
        ENGINE.agree_draw(drawn)


# --- 5. notation, wire, parameters ------------------------------------------------------------


def test_notation_round_trips_and_reads_both_peg_orders() -> None:
    state = play(ENGINE.initial_state({}), "c4")
    assert ENGINE.format_move(state, Peg(18)) == "c3|4"
    assert ENGINE.parse_move(state, " C4|3 ") == Peg(18) == ENGINE.parse_move(state, "c3|4")
    assert ENGINE.format_move(state, tile("h7")) == "h7"
    for bad in ("", "i1", "a8", "a0", "d44", "c3|5", "c3|3", "c3-4", "c3|4x"):
        with pytest.raises(InvalidMove):
            ENGINE.parse_move(state, bad)
    with pytest.raises(IllegalMove, match="c4 is not empty"):
        ENGINE.parse_move(state, "c4")


def test_wire_numbers_cells_then_peg_sites() -> None:
    assert ENGINE.move_to_wire(Tile(0)) == [0] and ENGINE.move_to_wire(Tile(55)) == [55]
    assert ENGINE.move_to_wire(Peg(0)) == [56] and ENGINE.move_to_wire(Peg(47)) == [103]
    assert ENGINE.move_from_wire([103]) == Peg(47)
    for bad in ([104], [-1], [True], [1, 2], [], "3", [3.0], None):
        with pytest.raises(InvalidMove):
            ENGINE.move_from_wire(bad)
    # Moves built by hand with numbers off the board are refused by apply, not crashed on.
    start = ENGINE.initial_state({})
    with pytest.raises(IllegalMove, match="no cell number 56"):
        ENGINE.apply(start, Tile(56))
    with pytest.raises(IllegalMove, match="no peg site number -1"):
        ENGINE.apply(start, Peg(-1))
    with pytest.raises(InvalidMove):
        ENGINE.apply(start, "d4")  # type: ignore[arg-type]


def test_parameters_are_checked() -> None:
    assert find_engine("discorder") is ENGINE
    assert ENGINE.initial_state({}) == ENGINE.initial_state({"seats": 2})
    for bad in ({"seats": 3}, {"seats": "2"}, {"seats": True}, {"board": 9}):
        with pytest.raises(InvalidParams):
            ENGINE.initial_state(bad)
