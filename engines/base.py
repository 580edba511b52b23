"""The contract every game engine fulfils (DESIGN.md section 2).

An engine is a stateless object of pure functions over immutable states.

Invariants every engine keeps, checked by the shared conformance suite
(``tests/engines/test_conformance.py``):

* States are frozen dataclasses holding ints, bools, ``None`` and tuples only; ``apply``
  returns a new state and never mutates its input.
* Seats are numbered from 1.  ``to_move`` names the seat whose turn slot it is, ``None``
  once the game is over.
* ``legal_moves`` lists every complete legal move in a defined order; ``apply`` accepts
  exactly those moves, checking the one move it is given directly, and raises
  ``IllegalMove`` with a reason a player can read for anything else.
* A move on the wire is a short list of ints: the choices that build it, in the order a
  player makes them.  No legal move's wire form is a proper prefix of another's, so the
  step-by-step view (``next_choices``) is the prefix tree of the wire forms.
* ``format_move`` / ``parse_move`` and ``move_to_wire`` / ``move_from_wire`` round-trip.
* ``digest(state)`` is BLAKE2b-256 of ``ruleset + b"\\0" + encode(state)``: the same plies
  give the same digest in every process.
"""

from __future__ import annotations

import hashlib
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, TypeVar

from engines.canonical import encode_value

__all__ = [
    "Engine",
    "EngineError",
    "IllegalMove",
    "InvalidMove",
    "InvalidParams",
    "Outcome",
    "Params",
    "WireMove",
    "state_digest",
]

Params = Mapping[str, int | str]
WireMove = list[int]

S = TypeVar("S")
M = TypeVar("M")


class EngineError(Exception):
    """Base of the errors an engine raises on purpose."""


class InvalidParams(EngineError, ValueError):
    """The game parameters (seat count, options) are not acceptable; the message says why."""


class InvalidMove(EngineError, ValueError):
    """A move is badly formed: wrong shape, wrong types, unparsable text."""


class IllegalMove(EngineError):
    """A well-formed move that the rules do not allow in this state; the message says why."""


@dataclass(frozen=True)
class Outcome:
    """How a game ended.

    ``winners`` lists the winning seats (empty for a draw); ``reason`` is a short
    machine-friendly word (``"power"``, ``"last-one-in"``, ``"agreement"``, ...) and
    ``summary`` a sentence a player can read.  ``scores`` is per seat (index 0 = seat 1)
    for games that score, else empty.
    """

    winners: tuple[int, ...]
    draw: bool
    reason: str
    summary: str
    scores: tuple[int, ...] = ()


def state_digest(ruleset: str, encoded_state: bytes) -> bytes:
    """BLAKE2b-256 of the ruleset id, a NUL byte and the canonical state bytes."""
    return hashlib.blake2b(ruleset.encode("ascii") + b"\0" + encoded_state, digest_size=32).digest()


class Engine(ABC, Generic[S, M]):
    """One game's rules.  Subclasses set the class attributes and implement the methods."""

    name: ClassVar[str]
    """Registry name, e.g. ``"consensus"``."""
    ruleset: ClassVar[str]
    """Ruleset id pinned in the signed START, e.g. ``"consensus/1"``."""
    version: ClassVar[str]
    """Engine version; a peer refuses a table pinned to another one."""
    min_seats: ClassVar[int]
    max_seats: ClassVar[int]
    sample_params: ClassVar[tuple[Params, ...]]
    """Parameter sets the conformance suite and golden files exercise."""

    # --- the game ---------------------------------------------------------------------
    @abstractmethod
    def initial_state(self, params: Params) -> S:
        """The start position; ``params`` are validated (``InvalidParams`` with the reason)."""

    @abstractmethod
    def seat_count(self, state: S) -> int:
        """How many seats this game has."""

    @abstractmethod
    def to_move(self, state: S) -> int | None:
        """The seat whose turn slot it is, or ``None`` when the game is over."""

    @abstractmethod
    def controller(self, state: S, seat: int) -> int:
        """The seat whose player controls ``seat``'s pieces (and signs its moves)."""

    @abstractmethod
    def legal_moves(self, state: S) -> tuple[M, ...]:
        """Every complete legal move for the seat to move, in a defined order."""

    @abstractmethod
    def apply(self, state: S, move: M) -> S:
        """The state after ``move``; raises ``IllegalMove`` (never lists all moves to check)."""

    @abstractmethod
    def resign(self, state: S, seat: int) -> S:
        """The state after the player of ``seat`` resigns; ``IllegalMove`` if it cannot."""

    @abstractmethod
    def agree_draw(self, state: S) -> S:
        """The state after every player still in agreed to a draw."""

    @abstractmethod
    def outcome(self, state: S) -> Outcome | None:
        """How the game ended, or ``None`` while it goes on."""

    # --- moves on the wire and in notation --------------------------------------------
    @abstractmethod
    def move_to_wire(self, move: M) -> WireMove:
        """The move as a short list of ints (its choices in order)."""

    @abstractmethod
    def move_from_wire(self, obj: object) -> M:
        """Decode a wire move; ``InvalidMove`` on anything malformed."""

    @abstractmethod
    def format_move(self, state: S, move: M) -> str:
        """The move in the rules file's notation."""

    @abstractmethod
    def parse_move(self, state: S, text: str) -> M:
        """Parse notation; ``InvalidMove`` when it cannot be read."""

    # --- step-by-step view --------------------------------------------------------------
    def next_choices(self, state: S, partial: Sequence[int]) -> tuple[tuple[int, ...], bool]:
        """The step-by-step view of the legal moves, for the UI and bots.

        Given the choices made so far (a prefix of wire forms), return the possible next
        choices in order, and whether ``partial`` is already a complete move.  Engines with
        many moves override this with something faster; the result must match this
        definition.
        """
        prefix = list(partial)
        depth = len(prefix)
        nexts: list[int] = []
        complete = False
        for move in self.legal_moves(state):
            wire = self.move_to_wire(move)
            if wire[:depth] != prefix:
                continue
            if len(wire) == depth:
                complete = True
            elif wire[depth] not in nexts:
                nexts.append(wire[depth])
        return tuple(nexts), complete

    # --- canonical bytes ------------------------------------------------------------------
    def encode(self, state: S) -> bytes:
        """Canonical bytes of the state (see ``engines.canonical``)."""
        return encode_value(state)

    def digest(self, state: S) -> bytes:
        """BLAKE2b-256 over ``ruleset + b"\\0" + encode(state)``."""
        return state_digest(self.ruleset, self.encode(state))


AnyEngine = Engine[Any, Any]
