"""The rules of each ply kind: who may sign it and what it does to the state.

Each rule gets the state before the ply (``ply`` and ``prev`` already checked by
``Chain.check``) and returns a ``PlyEffect`` or raises ``PlyRejected``.  Authority:

* **MOVE** ``{ply, prev, seat, move}``: ``seat`` is the seat to move; signed by the key
  that controls it,
  ``seat_key(engine.controller(state, engine.to_move(state)))``.  Control transfer and
  extra moves come from the engine, so a Consensus ruler's extra move is signed by the
  ruler's key and a captured seat's moves by its captor's key.  Legality: ``engine.apply``.
* **RESIGN** ``{ply, prev, seat}``: signed by the key of ``seat`` at that player's own turn,
  i.e. when ``seat`` controls the seat to move; ``engine.resign`` decides the rest.
* **DRAW** ``{ply, prev, acceptances}``: signed like a MOVE, carrying the DRAW_ACCEPT
  records of every peer still at the table, each binding ``ply`` and ``prev``
  (``client.rules.consent``).

* **REMOVE** ``{ply, prev, removed, replacements, votes}``: appended by the remaining peer
  with the lowest seat, with a VOTE of every remaining peer (``client.rules.removal``).
* **TAKEBACK** ``{ply, prev, consents}``: signed like a MOVE, carrying a TAKEBACK_CONSENT of
  every peer at the table; it undoes the last ply, a player's own move (``client.rules.takeback``).
"""

from __future__ import annotations

from collections.abc import Mapping

from client.rules.bodies import read_int, read_list
from client.rules.chain import PlyContext, PlyEffect, PlyRule
from client.rules.consent import check_consents
from client.rules.errors import PlyRejected
from client.rules.records import DRAW, DRAW_ACCEPT, MOVE, REMOVE, RESIGN, TAKEBACK, SignedRecord
from client.rules.removal import remove_rule
from client.rules.takeback import takeback_rule
from engines import IllegalMove, InvalidMove

__all__ = ["PLY_RULES", "controlling_seat", "seat_to_move"]

MAX_WIRE_MOVE = 64


def seat_to_move(ctx: PlyContext, what: str, record: SignedRecord) -> int:
    seat = ctx.engine.to_move(ctx.before.engine_state)
    if seat is None:
        raise PlyRejected(
            f"{ctx.describe(record.author)} sent a {what} after the game ended; it was ignored",
            code="after-end",
        )
    return seat


def controlling_seat(ctx: PlyContext, seat: int) -> int:
    """The seat whose key signs ``seat``'s moves now."""
    return ctx.engine.controller(ctx.before.engine_state, seat)


def _require_controller(ctx: PlyContext, record: SignedRecord, what: str) -> int:
    """The seat to move, after checking ``record``'s author controls it."""
    seat = seat_to_move(ctx, what, record)
    controller = controlling_seat(ctx, seat)
    if record.author == ctx.before.seat_key(controller):
        return seat
    who = ctx.describe(record.author)
    holds = _holds(ctx.before.seats_of(record.author))
    played_by = f" (seat {seat} is played by seat {controller} now)" if controller != seat else ""
    raise PlyRejected(
        f"{who} sent a {what} for seat {seat} but {holds}{played_by}; the {what} was ignored",
        code="wrong-signer",
    )


def _holds(seats: tuple[int, ...]) -> str:
    return "holds seat " + ", ".join(map(str, seats)) if seats else "holds no seat"


def _move(ctx: PlyContext, record: SignedRecord) -> PlyEffect:
    claimed = read_int(record.body, "seat", 1, len(ctx.before.seats))
    seat = seat_to_move(ctx, "move", record)
    if claimed != seat:
        raise PlyRejected(
            f"{ctx.describe(record.author)} sent a move for seat {claimed}, but it is seat "
            f"{seat}'s turn; the move was ignored",
            code="not-its-turn",
        )
    _require_controller(ctx, record, "move")
    wire = read_list(record.body, "move", MAX_WIRE_MOVE)
    state = ctx.before.engine_state
    try:
        move = ctx.engine.move_from_wire(list(wire))
        label = ctx.engine.format_move(state, move)
        after = ctx.engine.apply(state, move)
    except InvalidMove as error:
        raise PlyRejected(
            f"{ctx.describe(record.author)} sent a malformed move for seat {seat} ({error}); "
            "the move was ignored",
            code="malformed",
        ) from None
    except IllegalMove as error:
        raise PlyRejected(
            f"{ctx.describe(record.author)} sent an illegal move for seat {seat}: {error}; "
            "the move was ignored",
            code="illegal-move",
        ) from None
    return PlyEffect(after, label, seat)


def _resign(ctx: PlyContext, record: SignedRecord) -> PlyEffect:
    who = ctx.describe(record.author)
    seat = read_int(record.body, "seat", 1, len(ctx.before.seats))
    if record.author != ctx.before.seat_key(seat):
        holds = _holds(ctx.before.seats_of(record.author))
        raise PlyRejected(
            f"{who} sent a resignation for seat {seat} but {holds}; the resignation was ignored",
            code="wrong-signer",
        )
    to_move = seat_to_move(ctx, "resignation", record)
    controller = controlling_seat(ctx, to_move)
    if controller != seat:
        turn = f"seat {to_move}'s turn" + (
            f", played by seat {controller}" if controller != to_move else ""
        )
        raise PlyRejected(
            f"{who} resigned seat {seat} out of turn (it is {turn}); the resignation was ignored",
            code="not-its-turn",
        )
    try:
        after = ctx.engine.resign(ctx.before.engine_state, seat)
    except IllegalMove as error:
        raise PlyRejected(
            f"{who} cannot resign seat {seat}: {error}; the resignation was ignored",
            code="illegal-move",
        ) from None
    return PlyEffect(after, f"seat {seat} resigns", to_move)


def _draw(ctx: PlyContext, record: SignedRecord) -> PlyEffect:
    seat = _require_controller(ctx, record, "draw")
    envelopes = read_list(record.body, "acceptances", len(ctx.before.peers))
    what = f"{ctx.describe(record.author)}'s draw"
    check_consents(ctx, envelopes, frozenset({DRAW_ACCEPT}), ctx.before.peers, what)
    try:
        after = ctx.engine.agree_draw(ctx.before.engine_state)
    except IllegalMove as error:
        raise PlyRejected(
            f"{what} cannot be agreed: {error}; it was ignored", code="illegal-move"
        ) from None
    return PlyEffect(after, "draw agreed", seat)


PLY_RULES: Mapping[str, PlyRule] = {
    MOVE: _move,
    RESIGN: _resign,
    DRAW: _draw,
    REMOVE: remove_rule,
    TAKEBACK: takeback_rule,
}
