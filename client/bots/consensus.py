"""A sensible Consensus bot: fight for e5, deny it to the others, keep the Président alive.

It looks one move ahead and reads the position each move leaves with a score built around
the power square.  Every (piece, destination) the engine offers is tried, with a few
representative further choices when there are many (corpse and displacement squares that
block a line into e5 or into our Président, the origin, an empty corner, the squares around
e5 when that helps us; exits next to e5).  The best score wins; ties and a small jitter come
from the bot's own seeded generator, so a bot is deterministic given its seed while bots of
different seeds play different games.

How the score reads a position, for the player the bot plays:

* the game's result dominates everything;
* **a ruler's chance to hold power** (``_hold_chance``): the slots that still owe the ruler a
  turn (``power_status``) come one after the other; each may strike e5 with the pieces that
  can act on a Président there (a Président or GIGN landing on it, a Fonctionnaire displacing
  it, a Haussaire reaching d5, f5, e4 or e6).  A slot that moves right away with a striker
  almost surely ends power; a later one meets the ruler's extra move first, which can answer
  one striker but hardly two.  Another player's power counts against us, ours for us minus
  the chance that our Président is killed there;
* **before anyone rules** (``_takers``): every Président with a clear line to e5 could take
  power on its next turn; its chance, read as if it stood on e5, is a threat when it is an
  enemy (so the bot blocks the line, aims strikers at e5 or attacks it) and an opportunity
  when it is ours.  A Président therefore takes e5 only when those who move after it cannot
  strike back;
* our pieces aimed at e5 while we do not rule (they deny it to everyone else);
* enemy pieces that could kill (or displace) our Président before we move again, the next
  mover most; our best piece the next mover could kill;
* living pieces on each side (a killed Président hands its seats to the killer, so its pieces
  change side), and how far our Président is from e5.

Invariants: the bot never changes a state (it only asks the engine for new ones), every move
it returns is one the engine produced for this state, and its only randomness is its own
``random.Random(seed)``, drawn in the engine's move order.

It never lists every complete move: a Fonctionnaire acting on the ruler alone has over a
thousand.  Rules questions go to the engine (``destinations_by_piece``, ``power_status``,
``slots_in_play``, ``outcome``, ``apply``; ``destinations`` and ``completions`` of its move
module for another player than the mover).  The one look-up the engine has no query for,
"which pieces could act on this square" (``_hitters``), walks the engine's ray tables outward
from the square; a test checks it against the engine's destinations on many positions.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import cast

from engines import AnyEngine
from engines.consensus import ConsensusEngine, ConsensusState, Move
from engines.consensus_board import (
    BETWEEN,
    CENTRE_NEIGHBOURS,
    COUTUMIER,
    DEAD,
    E5,
    FONCTIONNAIRE,
    GIGN,
    HAUSSAIRE,
    ORTHOGONAL,
    PRESIDENT,
    RAYS,
    SYNDICALISTE,
)
from engines.consensus_moves import completions, destinations, enemy_table
from engines.consensus_turns import mover_and_seats, ruler_of

__all__ = ["SensibleBot", "score_for", "scored_moves"]

Board = tuple[int, ...]
Turn = tuple[int, int]  # (player, slot); slot 0 for the ruler's extra move

WIN = 10_000_000
DRAW = -500_000
POWER = 200_000  # a ruler's chance to hold power, times this
DEATH = 200_000  # the chance that our Président in power is killed there, times this
TAKE = 60_000  # an enemy Président that could take e5 next turn, times its chance to hold
MY_TAKE = 30_000  # the same for ours
COVER = (8_000, 8_000, 2_000)  # our first, second, third pieces aimed at e5
PRESIDENT_NEXT = 150_000  # the next mover can kill our Président
PRESIDENT_LATER = 60_000  # a later mover (before our next turn) can
DISPLACED = 0.3  # ... or can only displace it (a Fonctionnaire): part of the above
VALUE = (0, 0, 800, 1_600, 1_400, 1_400, 1_000)  # living pieces by kind (-PSGHFC)
HANGING = 0.8  # part of its value lost when the next mover can kill a piece of ours
PRESIDENT_KILLED = 20_000  # each dead Président whose seat we control
CLOGGED = 1_500  # each corpse next to e5 while nobody rules and our Président has no line
SEALED = 30_000  # no line leads to e5 any more: nobody can win by power
ONE_STEP = 2_000  # our Président needs a move to reach a clear line to e5
DISTANCE = 500  # ... more, each square away from e5
JITTER = 300

# How much of its chance to hold power a ruler keeps through one owing slot's turn ...
KEEP_STRUCK_NOW = 0.05  # the slot moves before the ruler can answer, with a striker
KEEP_ONE_STRIKER = 0.55  # the ruler answers first and faces one striker
KEEP_STRIKERS = 0.2  # ... or two and more
KEEP_QUIET = 0.95  # no striker
# ... and how likely its Président is killed on that turn when a striker can kill.
KILLED_NOW = 0.9
KILLED_BY_ONE = 0.4
KILLED_BY_STRIKERS = 0.7

CORNERS = (0, 8, 72, 80)
MANY_CHOICES = 10


class SensibleBot:
    """One-move lookahead with a score built around the power square."""

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)

    def choose(self, engine: AnyEngine, state: ConsensusState) -> Move:
        best: list[Move] = []
        best_score = -float(10**12)
        for move, _, score in scored_moves(engine, state):
            score += self._rng.randrange(JITTER)
            if score > best_score:
                best, best_score = [move], score
            elif score == best_score:
                best.append(move)
        return best[self._rng.randrange(len(best))]


def scored_moves(
    engine: AnyEngine, state: ConsensusState
) -> Iterator[tuple[Move, ConsensusState, float]]:
    """Each move the bot tries for the player to move, with the state it leaves and that
    state's score for that player (no jitter), in the engine's move order."""
    if engine.name != ConsensusEngine.name:  # a wrapper of the engine is welcome
        raise TypeError(f"the Consensus bot plays Consensus, not {engine.name}")
    engine = cast(ConsensusEngine, engine)
    seat = engine.to_move(state)
    assert seat is not None, "asked to move in a finished game"
    me = engine.controller(state, seat)
    for move in _candidates(engine, state, me):
        after = engine.apply(state, move)
        yield move, after, _score(engine, after, me)


# --- the moves tried ---------------------------------------------------------------------


def _candidates(engine: ConsensusEngine, state: ConsensusState, me: int) -> Iterator[Move]:
    """Every (origin, target) the engine offers, each with a few representative further
    choices when it has many (placements and exits)."""
    board = state.board
    player, _ = mover_and_seats(state)
    enemy = enemy_table(state.controllers, player)
    places = _useful_squares(board, state.controllers, me)
    for origin, targets in engine.destinations_by_piece(state):
        for target in targets:
            furthers = completions(board, enemy, origin, target)
            if len(furthers) <= MANY_CHOICES:
                for further in furthers:
                    yield Move(origin, target, further)
                continue
            if target == E5 and board[origin] & 7 == GIGN:  # its only choice is the exit
                chosen = [f for f in furthers if f[0] in CENTRE_NEIGHBOURS]
            else:
                chosen = [
                    f
                    for f in furthers
                    if (f[0] in places or f[0] == origin)
                    and (len(f) == 1 or f[1] in CENTRE_NEIGHBOURS)
                ]
            for further in chosen or furthers[:: max(1, len(furthers) // 8)]:
                yield Move(origin, target, further)


def _useful_squares(board: Board, controllers: tuple[int, ...], me: int) -> set[int]:
    """Where a corpse or a displaced piece is worth putting: across the lines of enemy
    strikers into e5 and into our Président, an empty corner (out of the way), and around
    e5 when our Président is there or has a line to it (a wall for our power)."""
    useful = {next((sq for sq in CORNERS if not board[sq]), CORNERS[0])}
    mine = _president_square(board, me)
    line = BETWEEN[mine][E5] if mine is not None else None
    if mine == E5 or (line is not None and not any(board[sq] for sq in line)):
        useful.update(CENTRE_NEIGHBOURS)
    for target in (E5, mine):
        if target is None:
            continue
        for square, code in _hitters(board, target):
            if controllers[(code >> 3) - 1] not in (0, me):
                line = BETWEEN[square][target]
                if line:
                    useful.add(line[0])
    return useful


# --- reading a position ---------------------------------------------------------------------


@dataclass
class _View:
    """What the score needs about one position, gathered in one pass over the board."""

    board: Board
    controllers: tuple[int, ...]
    in_play: tuple[int, ...]
    pieces: dict[int, list[int]]  # seat -> squares of its living pieces
    material: float  # for the player the view is made for

    def squares_of(self, player: int) -> list[int]:
        seats = [s for s in self.in_play if self.controllers[s - 1] == player]
        return [sq for seat in seats for sq in self.pieces.get(seat, ())]


def _view(engine: ConsensusEngine, state: ConsensusState, me: int) -> _View:
    controllers = state.controllers
    pieces: dict[int, list[int]] = {}
    material = 0.0
    for square, code in enumerate(state.board):
        if not code:
            continue
        seat = (code >> 3) & 7
        if code < DEAD:
            pieces.setdefault(seat, []).append(square)
            side = controllers[seat - 1]
            if side == me:
                material += VALUE[code & 7]
            elif side:
                material -= VALUE[code & 7]
        elif code & 7 == PRESIDENT and controllers[seat - 1] == me:
            material += PRESIDENT_KILLED
    # The slots in play, as ``engine.slots_in_play`` has them, from the pass just made.
    in_play = tuple(seat for seat in range(1, 5) if controllers[seat - 1] and seat in pieces)
    return _View(state.board, controllers, in_play, pieces, material)


def score_for(engine: AnyEngine, state: ConsensusState, me: int) -> float:
    """The bot's score of ``state`` for player ``me``: above 0 it thinks ``me`` is ahead
    (``client.bots.answers`` reads it to answer draw offers and takebacks)."""
    return _score(cast(ConsensusEngine, engine), state, me)


def _score(engine: ConsensusEngine, state: ConsensusState, me: int) -> float:
    outcome = engine.outcome(state)
    if outcome is not None:
        if outcome.draw:
            return DRAW
        return WIN if me in outcome.winners else -WIN
    board = state.board
    mine = _president_square(board, me)
    if mine is None:
        return -WIN
    view = _view(engine, state, me)
    controllers = view.controllers
    turns = _upcoming_turns(state, view.in_play)
    score = view.material
    ruler = ruler_of(board)
    if ruler:
        owing = engine.power_status(state).owing
        hold, death = _hold_chance(view, ruler, owing, turns)
        score += POWER * hold - DEATH * death if ruler == me else -POWER * hold
    else:
        score += _takers(view, me, turns)
        way = _way_to_centre(view, me, mine)
        score -= way
        if way:
            score -= CLOGGED * sum(1 for sq in CENTRE_NEIGHBOURS if board[sq] & DEAD)
        if board[E5] or not _launch_squares(board):
            score -= SEALED  # only a Coutumier could open e5 again
    if ruler != me:
        aimed = sum(1 for _, code in _hitters(board, E5) if controllers[(code >> 3) - 1] == me)
        score += sum(COVER[:aimed])
        score -= _president_danger(view, me, mine, turns)
    if turns[0][0] != me:
        score -= HANGING * _best_kill(view, me, *turns[0])
    return score


def _president_square(board: Board, player: int) -> int | None:
    code = player << 3 | PRESIDENT
    return board.index(code) if code in board else None


def _upcoming_turns(state: ConsensusState, in_play: tuple[int, ...]) -> list[Turn]:
    """The next ten turns, ignoring passes and changes of power: after every turn of a slot
    another player controls, the ruler (if any) has its extra move."""
    return list(
        _turns_from(state.controllers, ruler_of(state.board), state.slot, state.extra, in_play)
    )


@functools.lru_cache(maxsize=4096)
def _turns_from(
    controllers: tuple[int, ...],
    ruler: int,
    slot: int,
    extra: bool,
    in_play: tuple[int, ...],
    count: int = 10,
) -> tuple[Turn, ...]:
    """``_upcoming_turns`` from what it depends on (few combinations: it is cached)."""
    turns: list[Turn] = []
    while len(turns) < count:
        player = ruler if extra else controllers[slot - 1]
        turns.append((player, 0 if extra else slot))
        if not extra and ruler and player != ruler:
            extra = True
        else:
            extra = False
            slot = next((s for s in in_play if s > slot), in_play[0])
    return tuple(turns)


def _hitters(board: Board, target: int) -> list[tuple[int, int]]:
    """(square, code) of every living piece, whichever side, that could act on a Président
    on ``target`` in one move if it were an enemy: kill it, or displace it (a Fonctionnaire),
    which on e5 ends its power.

    Lines are walked outward from ``target``: the first piece met on a line acts on it if it
    is a Président, a GIGN or a Fonctionnaire, or a Syndicaliste within two squares when
    ``target`` is not e5.  A Haussaire acts from an empty square beside ``target`` that it
    can reach.  ``target`` itself counts as occupied even when empty (a Président about to
    stand there).  A GIGN's or Fonctionnaire's need of an exit from e5 is not checked.
    """
    centre = target == E5
    found: list[tuple[int, int]] = []
    for ray in RAYS[target]:
        for distance, square in enumerate(ray, start=1):
            code = board[square]
            if code:
                kind = code & 7
                if code < DEAD and (
                    kind in (PRESIDENT, GIGN, FONCTIONNAIRE)
                    or (kind == SYNDICALISTE and distance <= 2 and not centre)
                ):
                    found.append((square, code))
                break
    for beside in ORTHOGONAL[target]:
        if board[beside] or beside == E5:  # only a Président stops on e5
            continue
        for ray in RAYS[beside]:
            if ray[0] == target:
                continue
            for square in ray:
                code = board[square]
                if code:
                    if code < DEAD and code & 7 == HAUSSAIRE and (square, code) not in found:
                        found.append((square, code))
                    break
    return found


def _hold_chance(
    view: _View, ruler: int, owing: tuple[int, ...], turns: list[Turn]
) -> tuple[float, float]:
    """Rough chances that ``ruler``'s Président on e5 keeps power through every turn it is
    owed, and that it is killed there meanwhile.

    ``turns`` are the coming turns: an owing slot that moves before the ruler can answer
    strikes at once, a later one meets the ruler's extra move first.
    """
    board, controllers = view.board, view.controllers
    enemy = enemy_table(controllers, ruler)
    if not any(destinations(board, enemy, sq) for sq in view.squares_of(ruler) if sq != E5):
        return 0.0, 0.0  # its extra move will have to take the Président off e5
    strikes: dict[int, list[int]] = {}
    for _, code in _hitters(board, E5):
        if controllers[(code >> 3) - 1] not in (0, ruler):
            strikes.setdefault(code >> 3, []).append(code & 7)
    waiting = set(owing)
    hold, death = 1.0, 0.0
    answered = False
    for player, slot in turns:
        if not waiting:
            break
        if player == ruler:
            answered = True
            continue
        if slot not in waiting:
            continue
        waiting.discard(slot)
        kinds = strikes.get(slot, [])
        if not kinds:
            hold *= KEEP_QUIET
            continue
        if not answered:
            keep, kill = KEEP_STRUCK_NOW, KILLED_NOW
        elif len(kinds) > 1:
            keep, kill = KEEP_STRIKERS, KILLED_BY_STRIKERS
        else:
            keep, kill = KEEP_ONE_STRIKER, KILLED_BY_ONE
        if set(kinds) - {FONCTIONNAIRE}:
            death += hold * kill
        hold *= keep
    return hold, death


def _takers(view: _View, me: int, turns: list[Turn]) -> float:
    """Nobody rules: the threat of enemy Présidents with a clear line to e5, and our own
    chance.  Each is read as if that Président stood on e5 right after its next turn."""
    board, controllers, in_play = view.board, view.controllers, view.in_play
    before_me: list[int] = []
    for player, slot in turns:
        if player == me:
            break
        before_me.append(slot)
    score = 0.0
    for seat in in_play:
        square = _president_square(board, seat)
        if square is None:
            continue  # its Président is dead: the seat is someone else's
        line = BETWEEN[square][E5]
        if line is None or any(board[sq] for sq in line):
            continue
        after = list(board)
        after[square], after[E5] = 0, board[square]
        later = [s for s in in_play if s > seat] + [s for s in in_play if s <= seat]
        turns_after = [t for s in later for t in ((controllers[s - 1], s), (seat, 0))]
        owing = tuple(s for s in in_play if controllers[s - 1] != seat)
        pieces = {**view.pieces, seat: [E5 if sq == square else sq for sq in view.pieces[seat]]}
        taken = _View(tuple(after), controllers, in_play, pieces, 0.0)
        hold, death = _hold_chance(taken, seat, owing, turns_after)
        chance = max(0.0, hold - DEATH / POWER * death)
        if seat == me:
            score += MY_TAKE * chance
        else:
            score -= TAKE * chance * (1.0 if seat in before_me else 0.5)
    return score


def _president_danger(view: _View, me: int, square: int, turns: list[Turn]) -> float:
    """Enemy pieces that could kill (or displace) our Président before we move again."""
    controllers = view.controllers
    attackers = [
        code
        for _, code in _hitters(view.board, square)
        if controllers[(code >> 3) - 1] not in (0, me)
    ]
    if not attackers:
        return 0.0
    danger = 0.0
    for index, (player, slot) in enumerate(turns):
        if player == me:
            break
        kinds = {
            code & 7
            for code in attackers
            if (code >> 3 == slot if slot else controllers[(code >> 3) - 1] == player)
        }
        if kinds:
            weight = PRESIDENT_NEXT if index == 0 else PRESIDENT_LATER
            # A Fonctionnaire only moves it, but to wherever the others can kill it.
            danger += weight * (1.0 if kinds - {FONCTIONNAIRE} else DISPLACED)
    return danger


def _best_kill(view: _View, me: int, player: int, slot: int) -> int:
    """The value of our best piece (the Président aside: see ``_president_danger``) that
    ``player`` could kill on its coming turn (on ``slot``'s slot, or its extra move)."""
    board, controllers = view.board, view.controllers
    enemy = enemy_table(controllers, player)
    squares = view.pieces.get(slot, []) if slot else view.squares_of(player)
    best = 0
    for square in squares:
        kind = board[square] & 7
        if kind in (FONCTIONNAIRE, COUTUMIER):
            continue
        for target in destinations(board, enemy, square):
            if kind == HAUSSAIRE:
                victims = [board[sq] for sq in ORTHOGONAL[target] if sq != square]
            else:
                victims = [board[target]]
            for code in victims:
                if 0 < code < DEAD and controllers[(code >> 3) - 1] == me:
                    best = max(best, VALUE[code & 7])
    return best


def _way_to_centre(view: _View, me: int, president: int) -> int:
    """How far our Président is from taking e5: nothing on a clear line to it, a step when
    one move reaches such a line, more (and growing with the distance) otherwise."""
    board = view.board
    line = BETWEEN[president][E5]
    if president == E5 or (line is not None and not any(board[sq] for sq in line)):
        return 0
    reach = destinations(board, enemy_table(view.controllers, me), president)
    if any(sq in reach for sq in _launch_squares(board)):
        return ONE_STEP
    rank, file = divmod(president, 9)
    return 2 * ONE_STEP + DISTANCE * max(abs(rank - 4), abs(file - 4))


def _launch_squares(board: Board) -> list[int]:
    """The empty squares with a clear line to e5."""
    found = []
    for ray in RAYS[E5]:
        for square in ray:
            if board[square]:
                break
            found.append(square)
    return found
