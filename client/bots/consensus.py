"""A sensible Consensus bot: fight for e5, deny it to the others, keep the Président alive.

It looks one move ahead and reads the position that move leaves with a score built around
the power square.  Every (piece, destination) the engine offers is tried with a few
representative further choices (corpse and displacement squares that block lines into e5
or our Président, around e5, the origin, the far corners; every Haussaire choice; exits next
to e5), each result is scored, and the best one is played.  Ties and a small jitter come from
the bot's own seeded generator, so a bot is deterministic given its seed while games between
bots of different seeds vary.

How the score reads a position (from the point of view of the player the bot plays):

* the game's result dominates everything;
* **a ruler's chance to hold power** (``_hold_chance``): the slots that still owe the ruler a
  turn (``power_status``) come one after the other; each may strike e5 with the pieces that
  can act on a Président there (a Président or GIGN landing on it, a Fonctionnaire displacing
  it, a Haussaire reaching d5, f5, e4 or e6).  A slot moving right away with a strike almost
  surely ends power; a later one faces the ruler's extra move first, which can answer one
  striker but hardly two.  Our own power counts for us, another player's against us, so a
  bot that cannot strike now still values keeping strikers aimed and lines open;
* **before anyone rules**: every Président with a clear line to e5 could take power on its
  next turn; the same chance, computed as if it stood there, is a threat when it is an enemy
  (the bot blocks the line, aims strikers at e5, or attacks it) and an opportunity for ours;
  so a Président takes e5 only when the players right after it cannot strike back;
* enemy pieces that could kill our Président before we move again, the next mover most;
* living pieces on each side (a killed Président hands its seats to the killer, so its pieces
  change side), and how far our Président is from e5.

It never lists every complete move: a Fonctionnaire acting on the ruler alone has over a
thousand.  The reverse look-up "which pieces can act on this square" (``_hitters``) walks the
engine's own ray tables outward from the square; a test checks it against the engine's
``destinations`` on many positions.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from engines import AnyEngine
from engines.consensus import ConsensusState, Move
from engines.consensus_board import (
    BETWEEN,
    CENTRE_NEIGHBOURS,
    DEAD,
    E5,
    FONCTIONNAIRE,
    GIGN,
    HAUSSAIRE,
    ORTHOGONAL,
    COUTUMIER,
    PRESIDENT,
    RAYS,
    SYNDICALISTE,
)
from engines.consensus_moves import completions, destinations, enemy_table, pieces_of
from engines.consensus_turns import mover_and_seats, owing_slots, ruler_of, slots_in_play

__all__ = ["SensibleBot"]

WIN = 10_000_000
DRAW = -500_000
POWER = 200_000  # a ruler's chance to hold power, times this
TAKE = 60_000  # a Président that could take e5 next turn, times its chance to hold it
MY_TAKE = 30_000
DEATH = 200_000  # our Président in power is likely to be killed, times that chance
PRESIDENT_NEXT = 150_000  # the next mover can kill our Président
PRESIDENT_LATER = 60_000  # a later mover (before our next turn) can
VALUE = (0, 0, 800, 1_600, 1_400, 1_400, 1_000)  # living pieces by kind (PSGHFC)
HANGING = 0.8  # how much of its value a piece the next mover can kill is worth
CLOGGED = 1_500  # a corpse next to e5 when nobody rules and our Président has no line
COVER = (8_000, 8_000, 2_000)  # our first, second and third pieces aimed at e5
PRESIDENT_KILLED = 20_000
BLOCKER = 1_500
DISTANCE = 1_000
JITTER = 300

# How much of its chance to hold power a ruler keeps through one owing slot's turn.
KEEP_STRUCK_NOW = 0.05  # the slot moves right away and can strike
KEEP_ONE_STRIKER = 0.55  # the ruler moves first and must answer one striker
KEEP_STRIKERS = 0.2  # ... or two or more
KEEP_QUIET = 0.95  # no striker now: it might still bring one
# How likely the ruler's Président is killed on such a turn, when a striker can kill.
KILLED_NOW = 0.9
KILLED_BY_ONE = 0.4
KILLED_BY_STRIKERS = 0.7

FAR_CORNERS = (0, 8, 72, 80)
MANY_CHOICES = 10


class SensibleBot:
    """One-move lookahead with a score built around the power square."""

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)

    def choose(self, engine: AnyEngine, state: ConsensusState) -> Move:
        seat = engine.to_move(state)
        assert seat is not None, "asked to move in a finished game"
        me = engine.controller(state, seat)
        best: list[Move] = []
        best_score = -(10**12)
        for move in _candidates(engine, state, me):
            score = _score(engine, engine.apply(state, move), me)
            score += self._rng.randrange(JITTER)
            if score > best_score:
                best, best_score = [move], score
            elif score == best_score:
                best.append(move)
        return best[self._rng.randrange(len(best))]


# --- the moves tried ---------------------------------------------------------------------


def _candidates(engine: AnyEngine, state: ConsensusState, me: int) -> Iterator[Move]:
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
            wanted = places | {origin}
            chosen = [
                f for f in furthers if f[0] in wanted and (len(f) == 1 or f[1] in CENTRE_NEIGHBOURS)
            ]
            for further in chosen or furthers[:: max(1, len(furthers) // 8)]:
                yield Move(origin, target, further)


def _useful_squares(board: tuple[int, ...], controllers: tuple[int, ...], me: int) -> set[int]:
    """Where a corpse or a displaced piece is worth putting: on the lines into e5 and into
    our Président (blocking them), around e5, and far away in the corners."""
    useful = set(CENTRE_NEIGHBOURS) | set(FAR_CORNERS)
    mine = _president_square(board, me)
    for target in (E5, mine):
        if target is None:
            continue
        for square, code in _hitters(board, target):
            if controllers[(code >> 3) - 1] not in (0, me):
                line = BETWEEN[square][target]
                if line:  # block next to the striker: next to e5 would wall it in
                    useful.add(line[0])
    return useful


# --- reading a position ---------------------------------------------------------------------


def _score(engine: AnyEngine, state: ConsensusState, me: int) -> float:
    outcome = engine.outcome(state)
    if outcome is not None:
        if outcome.draw:
            return DRAW
        return WIN if me in outcome.winners else -WIN
    board = state.board
    controllers = state.controllers
    mine = _president_square(board, me)
    if mine is None:
        return -WIN
    turns = _upcoming_turns(state)
    score = 0.0
    ruler = ruler_of(board)
    if ruler:
        hold, death = _hold_chance(board, controllers, ruler, owing_slots(state), turns)
        if controllers[ruler - 1] == me:
            score += POWER * hold - DEATH * death
        else:
            score -= POWER * hold
    else:
        score += _takers(board, controllers, me, turns)
        way = _way_to_centre(board, mine)
        score -= way
        if way:
            score -= CLOGGED * sum(1 for sq in CENTRE_NEIGHBOURS if board[sq] & DEAD)
    if not ruler or controllers[ruler - 1] != me:
        aimed = sum(
            1 for _, code in _hitters(board, E5) if controllers[(code >> 3) - 1] == me
        )
        score += sum(COVER[: min(aimed, len(COVER))])
    if mine != E5:  # in power, the danger is part of the chance to hold it
        score -= _president_danger(board, controllers, me, mine, turns)
    for code in board:
        if 0 < code < DEAD:
            side = controllers[(code >> 3) - 1]
            if side == me:
                score += VALUE[code & 7]
            elif side:
                score -= VALUE[code & 7]
        elif code & 7 == PRESIDENT and code & DEAD and controllers[((code >> 3) & 7) - 1] == me:
            score += PRESIDENT_KILLED
    if turns and turns[0][0] != me:
        score -= HANGING * _best_capture(board, controllers, me, *turns[0])
    return score


def _best_capture(
    board: tuple[int, ...], controllers: tuple[int, ...], me: int, player: int, seat: int
) -> int:
    """The value of the best piece of ours (our Président aside: see ``_president_danger``)
    that ``player`` could kill on its coming turn (on ``seat``'s slot, or an extra move)."""
    enemy = enemy_table(controllers, player)
    seats = (seat,) if seat else tuple(s for s in range(1, 5) if controllers[s - 1] == player)
    best = 0
    for square in pieces_of(board, seats):
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


def _president_square(board: tuple[int, ...], player: int) -> int | None:
    code = player << 3 | PRESIDENT
    return board.index(code) if code in board else None


def _upcoming_turns(state: ConsensusState, count: int = 10) -> list[tuple[int, int]]:
    """The next ``count`` turns as (player, seat), seat 0 for a ruler's extra move (any of its
    pieces may move then), ignoring passes and changes of power."""
    board, controllers = state.board, state.controllers
    ruler = ruler_of(board)
    ruling = controllers[ruler - 1] if ruler else 0
    in_play = slots_in_play(board, controllers)
    slot, extra = state.slot, state.extra
    turns: list[tuple[int, int]] = []
    while len(turns) < count and in_play:
        player = ruling if extra else controllers[slot - 1]
        turns.append((player, 0 if extra else slot))
        if not extra and ruling and player != ruling:
            extra = True
        else:
            extra = False
            slot = next((s for s in in_play if s > slot), in_play[0])
    return turns


def _hitters(board: tuple[int, ...], target: int) -> list[tuple[int, int]]:
    """(square, code) of every living piece, whichever side, that could kill a Président on
    ``target`` (or, on e5, end its power) in one move if it were an enemy.

    Lines are walked outward from ``target``: the first piece met on a line acts on it if it
    is a Président or a GIGN, a Fonctionnaire when ``target`` is e5, a Syndicaliste within
    two squares when it is not.  A Haussaire acts from an empty square beside ``target`` that
    it can reach.  ``target`` itself counts as occupied even when empty (a Président about
    to stand there).
    """
    centre = target == E5
    found: list[tuple[int, int]] = []
    for ray in RAYS[target]:
        for distance, square in enumerate(ray, start=1):
            code = board[square]
            if code:
                kind = code & 7
                if code < DEAD and (
                    kind == PRESIDENT
                    or kind == GIGN
                    or (kind == FONCTIONNAIRE and centre)
                    or (kind == SYNDICALISTE and distance <= 2 and not centre)
                ):
                    found.append((square, code))
                break
    for beside in ORTHOGONAL[target]:
        if board[beside]:
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


def _strikes_by_seat(
    board: tuple[int, ...], controllers: tuple[int, ...], target: int, victim: int
) -> dict[int, tuple[int, int]]:
    """For each seat, how many of its pieces could act on ``victim``'s Président on
    ``target``, and how many of those would kill it (all but a Fonctionnaire)."""
    counts: dict[int, tuple[int, int]] = {}
    for _, code in _hitters(board, target):
        seat = code >> 3
        if controllers[seat - 1] not in (0, victim):
            total, killers = counts.get(seat, (0, 0))
            counts[seat] = (total + 1, killers + (code & 7 != FONCTIONNAIRE))
    return counts


def _hold_chance(
    board: tuple[int, ...],
    controllers: tuple[int, ...],
    ruler: int,
    owing: tuple[int, ...],
    turns: list[tuple[int, int]],
) -> tuple[float, float]:
    """Rough chances that the Président of ``ruler`` on e5 survives every turn it is owed
    in power, and that it is killed meanwhile.

    ``turns`` are the coming turns; a slot owing a turn that moves before the ruler can
    answer strikes now, later ones meet the ruler's extra move first.
    """
    ruling = controllers[ruler - 1]
    strikes = _strikes_by_seat(board, controllers, E5, ruling)
    waiting = set(owing)
    hold = 1.0
    death = 0.0
    ruler_answered = False
    for player, seat in turns:
        if not waiting:
            break
        if player == ruling:
            ruler_answered = True
            continue
        if seat not in waiting:
            continue
        waiting.discard(seat)
        hits, killers = strikes.get(seat, (0, 0))
        if not hits:
            hold *= KEEP_QUIET
            continue
        if not ruler_answered:
            keep, kill = KEEP_STRUCK_NOW, KILLED_NOW
        elif hits > 1:
            keep, kill = KEEP_STRIKERS, KILLED_BY_STRIKERS
        else:
            keep, kill = KEEP_ONE_STRIKER, KILLED_BY_ONE
        if killers:
            death += hold * kill
        hold *= keep
    return hold, death


def _takers(
    board: tuple[int, ...], controllers: tuple[int, ...], me: int, turns: list[tuple[int, int]]
) -> float:
    """Nobody rules: the threat of enemy Présidents that can reach e5 on their next turn, and
    our own chance.  Each is read as if that Président stood on e5 right after its turn."""
    score = 0.0
    before_me: list[int] = []
    for player, slot in turns:
        if player == me:
            break
        before_me.append(slot)
    in_play = slots_in_play(board, controllers)
    for seat in in_play:
        if controllers[seat - 1] != seat:
            continue  # its Président is dead: the seat is someone else's
        square = board.index(seat << 3 | PRESIDENT)
        line = BETWEEN[square][E5]
        if line is None or any(board[sq] for sq in line):
            continue
        after = list(board)
        after[square], after[E5] = 0, board[square]
        later = [s for s in in_play if s > seat] + [s for s in in_play if s <= seat]
        turns_after = [t for s in later for t in ((controllers[s - 1], s), (seat, 0))]
        owing = tuple(s for s in in_play if controllers[s - 1] != seat)
        hold, death = _hold_chance(tuple(after), controllers, seat, owing, turns_after)
        chance = max(0.0, hold - DEATH / POWER * death)
        if seat == me:
            score += MY_TAKE * chance
        else:
            score -= TAKE * chance * (1.0 if seat in before_me else 0.5)
    return score


def _president_danger(
    board: tuple[int, ...],
    controllers: tuple[int, ...],
    me: int,
    square: int,
    turns: list[tuple[int, int]],
) -> float:
    """Enemy pieces that could kill our Président before we move again."""
    attackers = [
        code >> 3
        for _, code in _hitters(board, square)
        if controllers[(code >> 3) - 1] not in (0, me)
        and not (code & 7 == FONCTIONNAIRE)  # a displacement does not kill
    ]
    if not attackers:
        return 0.0
    danger = 0.0
    for index, (player, seat) in enumerate(turns):
        if player == me:
            break
        hits = sum(
            1 for s in attackers if (s == seat if seat else controllers[s - 1] == player)
        )
        if hits:
            danger += PRESIDENT_NEXT if index == 0 else PRESIDENT_LATER
    return danger


def _way_to_centre(board: tuple[int, ...], president: int) -> int:
    """How far our Président is from e5: pieces in the way, or squares away."""
    if president == E5:
        return 0
    between = BETWEEN[president][E5]
    if between is not None:
        return BLOCKER * sum(2 if board[sq] & DEAD else 1 for sq in between if board[sq])
    rank, file = divmod(president, 9)
    return BLOCKER + DISTANCE * max(abs(rank - 4), abs(file - 4))
