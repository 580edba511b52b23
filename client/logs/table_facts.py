"""What a recent table's game file says about it, for the start screen's list: who sat (by
their seated names) and, once the table ended, how (issue 21).

Two tables of the same game and players read alike by their address and host alone, and a
finished table offered *Rejoin* to a table nobody is at any more.  The game file knows both:
START names the players, and an END signed at the end says the game is over (a HALT says it
was stopped).  The file is the player's own and only shown, so records are decoded but their
signatures are not checked here (``palabre verify`` does that).

Invariants: reading never raises (an unreadable, foreign or torn file gives None, or facts
without an ending); only the last ``TAIL`` records are looked at for the ending, which
every peer writes last.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from client.rules.ending import read_result
from client.rules.errors import Malformed
from client.rules.net_adapter import decode_envelope
from client.rules.records import END, HALT
from client.rules.seated_names import seated_names
from client.rules.start import StartRefused, parse_start
from engines import Outcome
from net.envelope import parse_envelope
from net.errors import DecodeError, LogFileError
from net.logfile import read_log

__all__ = ["TableFacts", "read_table_facts"]

TAIL = 64
"""Records read from the end for the END (every peer's END, then a few late ACKs or chat)."""


@dataclass(frozen=True)
class TableFacts:
    game: str
    players: tuple[str, ...]
    """Seat 1 first, as START names them (a bot by its bot name)."""
    outcome: Outcome | None = None
    """How the game ended (an END was signed; its summary in the engine's words)."""
    halted: bool = False
    """The table was stopped on a disagreement (a HALT): it is over too."""

    @property
    def over(self) -> bool:
        return self.outcome is not None or self.halted

    def name_of(self, seat: int) -> str | None:
        return self.players[seat - 1] if 0 < seat <= len(self.players) else None


def read_table_facts(path: Path) -> TableFacts | None:
    """The facts of the game file at ``path`` (None when it cannot be read as one)."""
    try:
        records = read_log(path).records
        if not records:
            return None
        start = parse_start(decode_envelope(parse_envelope(records[0], "START")))
    except (LogFileError, DecodeError, StartRefused, Malformed, KeyError, ValueError):
        return None
    names = seated_names(start.peers, start.seats)
    facts = TableFacts(start.game, tuple(names))
    for data in reversed(records[1:][-TAIL:]):
        try:
            record = decode_envelope(parse_envelope(data))
            if record.kind == END:
                outcome, _absent = read_result(record.body.get("result"))
                return TableFacts(start.game, tuple(names), outcome)
            if record.kind == HALT:
                return TableFacts(start.game, tuple(names), halted=True)
        except (DecodeError, Malformed, KeyError, ValueError, TypeError):
            continue
    return facts
