"""END: every peer still at the table signs how the game ended.

When the engine reports an outcome after ply n, each peer signs END
``{ply, chain, result}`` where ``chain`` is chain digest n and ``result`` is the outcome
as a map (:func:`result_body`).  The table has ended for good when it holds an END from
every peer in ``TableState.peers`` at ply n, each with this peer's digest and result; an
END that disagrees on either is a divergence like a wrong ACK.

Invariants: ``result_claim(read_result(result_body(o))) == result_claim(o)`` for every
outcome; ``summary`` is display text and not part of the claim (engines may word it
differently across versions, START pins the version anyway).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from client.bodies import Malformed, read_int_list, read_text
from engines import Outcome

__all__ = ["ResultClaim", "read_result", "result_body", "result_claim"]

ResultClaim = tuple[tuple[int, ...], bool, str, tuple[int, ...]]
"""(winners, draw, reason, scores): what peers must agree on."""


def result_body(outcome: Outcome) -> dict[str, Any]:
    """The ``result`` map of an END body."""
    return {
        "winners": list(outcome.winners),
        "draw": outcome.draw,
        "reason": outcome.reason,
        "summary": outcome.summary,
        "scores": list(outcome.scores),
    }


def result_claim(outcome: Outcome) -> ResultClaim:
    return (tuple(outcome.winners), outcome.draw, outcome.reason, tuple(outcome.scores))


def read_result(result: object) -> Outcome:
    """An ``Outcome`` from an END's ``result`` map (``Malformed`` otherwise)."""
    if not isinstance(result, Mapping):
        raise Malformed("field 'result' is not a map")
    draw = result.get("draw")
    if type(draw) is not bool:
        raise Malformed("field 'draw' is not true or false")
    return Outcome(
        winners=read_int_list(result, "winners", 16, 1, 64),
        draw=draw,
        reason=read_text(result, "reason", 64),
        summary=read_text(result, "summary", 500),
        scores=read_int_list(result, "scores", 16, -(2**31), 2**31),
    )
