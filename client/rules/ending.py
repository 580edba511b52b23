"""END: every peer still at the table signs how the game ended.

When the engine reports an outcome after ply n, each peer signs END
``{ply, digest, result}`` where ``digest`` is chain digest n and ``result`` is the
outcome as a map (:func:`result_body`), with the peers absent at the end (``absent``: only
an abandoned 2-peer table has any, from the removal issue).  The table has ended for good
when it holds an END from every peer in ``TableState.peers`` at ply n, each with this
peer's digest and result; an END that disagrees on either is a divergence like a wrong ACK.

A peer that holds every END does not leave at once: a peer cut off from some others gets
their ENDs (and last ACKs) only through the rest, so each peer tells its links whom it knows
to hold every END (``EndHolders``, the mesh's ``ended`` topic, itself included once it does),
and leaves once every peer still at the table is among them, or after ``END_WAIT`` without.

Invariants: ``result_claim(read_result(result_body(o))) == result_claim(o)`` for every
outcome; ``summary`` is display text (cut to 200 characters) and not part of the claim;
``EndHolders`` only grows.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from client.rules.bodies import all_keys, read_int_list, read_list, read_text
from client.rules.errors import Malformed
from engines import Outcome

__all__ = ["EndHolders", "ResultClaim", "read_result", "result_body", "result_claim"]

ResultClaim = tuple[tuple[int, ...], bool, str, tuple[int, ...], tuple[bytes, ...]]
"""(winners, draw, reason, scores, absent): what peers must agree on."""
MAX_SUMMARY = 200


def result_body(outcome: Outcome, absent: Sequence[bytes] = ()) -> dict[str, object]:
    """The ``result`` map of an END body."""
    return {
        "winners": list(outcome.winners),
        "draw": outcome.draw,
        "reason": outcome.reason,
        "summary": outcome.summary[:MAX_SUMMARY],
        "scores": list(outcome.scores),
        "absent": list(absent),
    }


def result_claim(outcome: Outcome, absent: Sequence[bytes] = ()) -> ResultClaim:
    return (
        tuple(outcome.winners),
        outcome.draw,
        outcome.reason,
        tuple(outcome.scores),
        tuple(absent),
    )


def read_result(result: object) -> tuple[Outcome, tuple[bytes, ...]]:
    """The ``Outcome`` and absent peers of an END's ``result`` map (``Malformed`` otherwise)."""
    if not isinstance(result, Mapping):
        raise Malformed("field 'result' is not a map")
    draw = result.get("draw")
    if type(draw) is not bool:
        raise Malformed("field 'draw' is not true or false")
    absent = read_list(result, "absent", 16)
    if not all_keys(absent):
        raise Malformed("field 'absent' holds something other than keys")
    outcome = Outcome(
        winners=read_int_list(result, "winners", 64, 1, 64),
        draw=draw,
        reason=read_text(result, "reason", 32),
        summary=read_text(result, "summary", MAX_SUMMARY),
        scores=read_int_list(result, "scores", 64, -(2**63), 2**63 - 1),
    )
    return outcome, tuple(absent)


class EndHolders:
    """The peers known to hold every END of the table: told by each one, or passed on."""

    def __init__(self) -> None:
        self.keys: set[bytes] = set()

    def learn(self, keys: Iterable[bytes]) -> bool:
        """Add ``keys``; whether anything was new (then it is worth passing on)."""
        before = len(self.keys)
        self.keys.update(keys)
        return len(self.keys) > before

    def missing(self, peers: Iterable[bytes], absent: Iterable[bytes] = ()) -> list[bytes]:
        """The peers at the table, less the absent ones, not known to hold every END."""
        gone = set(absent)
        return [key for key in peers if key not in self.keys and key not in gone]

    def body(self, peers: Sequence[bytes]) -> dict[str, object]:
        """The ``ended`` message: the holders among ``peers`` (the table's, at most 16)."""
        return {"keys": [key for key in peers if key in self.keys][:16]}
