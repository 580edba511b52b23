"""What ``palabre verify`` found: problems, a summary, an exit code, as text or JSON.

A :class:`Report` is built by ``client.logs.verifier`` and never changes after it is returned.
Each :class:`Problem` says how bad it is:

* ``invalid``: something in the file is wrong — a bad signature, a key not at the table,
  an illegal or misplaced ply, a wrong ACK or END, equivocation, a HALT, damage;
* ``incomplete``: nothing is wrong with what is there, but something is missing — the game
  is not over, a ply is not final, an END is missing, a peer's record is missing (a gap in
  its ``seq``), or the file was cut inside a record (a crash while writing).

Exit codes (DESIGN.md section 5): 0 valid and complete, 1 invalid, 2 unreadable or not a
game log (or a game this palabre cannot check), 3 valid but incomplete.  The JSON shape is
documented in docs/LOG_FORMAT.md and kept stable: fields are only ever added.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from client.logs.verify_seqs import Missing
from client.rules.clock import ClockSpec, clock_face
from client.rules.clock_history import ClockedPly
from client.rules.ending import result_body
from client.rules.start import PeerSpec
from engines import Outcome
from net.identity import fingerprint
from net.logfile import Damage, TornTail

__all__ = [
    "EXIT_INCOMPLETE",
    "EXIT_INVALID",
    "EXIT_UNREADABLE",
    "EXIT_VALID",
    "INCOMPLETE",
    "INVALID",
    "PROBLEM_CODES",
    "MissingRecords",
    "Problem",
    "Report",
]

EXIT_VALID, EXIT_INVALID, EXIT_UNREADABLE, EXIT_INCOMPLETE = 0, 1, 2, 3
INVALID = "invalid"
INCOMPLETE = "incomplete"

PROBLEM_CODES: dict[str, str] = {
    # the file
    "no-record": INCOMPLETE,
    "torn-tail": INCOMPLETE,
    "bad-length": INVALID,
    "damaged": INVALID,
    # START
    "bad-start": INVALID,
    # any record, in the order of the checks
    "not-envelope": INVALID,
    "duplicate": INVALID,
    "outsider": INVALID,
    "bad-signature": INVALID,
    "malformed": INVALID,
    "other-table": INVALID,
    "seq-jump": INVALID,
    "seq-reuse": INVALID,
    "second-start": INVALID,
    "not-at-table": INVALID,
    "unexpected-kind": INVALID,
    # ply records
    "out-of-order": INVALID,
    "not-a-ply": INVALID,
    "wrong-ply": INVALID,
    "wrong-prev": INVALID,
    "after-end": INVALID,
    "not-its-turn": INVALID,
    "wrong-signer": INVALID,
    "illegal-move": INVALID,
    "bad-consents": INVALID,
    "bad-acks": INVALID,
    "bad-remove": INVALID,
    "bad-takeback": INVALID,
    "equivocation": INVALID,
    "fork": INVALID,
    "remove-over-ack": INVALID,
    "unreplayed": INVALID,
    # ACK and END
    "claim-too-early": INVALID,
    "claim-beyond-log": INVALID,
    "double-claim": INVALID,
    "wrong-digest": INVALID,
    "end-not-over": INVALID,
    "wrong-result": INVALID,
    "bad-abandon": INVALID,
    # LEAVE
    "bad-leave": INVALID,
    "after-leave": INVALID,
    # HALT
    "halt": INVALID,
    "halt-bad-record": INVALID,
    # at the end
    "not-final": INCOMPLETE,
    "not-over": INCOMPLETE,
    "no-end": INCOMPLETE,
    "missing-records": INCOMPLETE,
}
"""Every problem code -> its severity: the stable words of ``verify --json`` (docs/LOG_FORMAT.md
section 6 lists them with their exit codes; a code is never renamed, only added)."""


@dataclass(frozen=True)
class Problem:
    """One thing wrong (or missing) in a log."""

    severity: str
    """``invalid`` or ``incomplete``."""
    reason: str
    """A sentence a person can read."""
    ply: int | None = None
    """The ply concerned (0 = START), None when the record could not be read."""
    record: int | None = None
    """The record's number in the file, from 1 (START), if one record is concerned."""
    offset: int | None = None
    """Where that record's length prefix starts in the file."""
    code: str = field(kw_only=True)
    """A stable word for programs (``bad-signature``, ``fork`` …): docs/LOG_FORMAT.md
    section 6 lists them; the sentence may be reworded, the code never is."""

    def __post_init__(self) -> None:
        if PROBLEM_CODES.get(self.code) != self.severity:  # a bug: every code is documented
            raise ValueError(f"problem code {self.code!r} is not a documented {self.severity} one")

    def line(self) -> str:
        where = [] if self.ply is None else [f"ply {self.ply}"]
        if self.record is not None:
            where.append(f"record {self.record} at offset {self.offset}")
        return f"{self.severity}: {', '.join(where) + ': ' if where else ''}{self.reason}"

    def to_json(self) -> dict[str, object]:
        return {
            "severity": self.severity,
            "code": self.code,
            "ply": self.ply,
            "record": self.record,
            "offset": self.offset,
            "reason": self.reason,
        }


@dataclass(frozen=True)
class Player:
    """Who signs a seat: a person (``runner`` None) or a bot run by a peer (the peer itself
    when its palabre's bot plays its own seat, ``--bot``)."""

    seat: int
    key: bytes
    name: str
    runner: bytes | None = None
    since_ply: int = 0
    """0 for START's seats; the REMOVE's ply for a bot that replaced a removed player."""
    level: str | None = None
    """The bot's level when START names it (``easy``, ``normal``, ``strong``)."""

    def line(self) -> str:
        """``seat 2   GVPH-57LN-…  a bot run by Ann  (from ply 7)``."""
        since = f"  (from ply {self.since_ply})" if self.since_ply else ""
        return f"seat {self.seat:<2}  {fingerprint(self.key)}  {self.name}{since}"

    def to_json(self) -> dict[str, object]:
        return {
            "seat": self.seat,
            "name": self.name,
            "key": self.key.hex(),
            "fingerprint": fingerprint(self.key),
            "bot": self.runner is not None,
            "runner": None if self.runner is None else fingerprint(self.runner),
            "since_ply": self.since_ply,
            "level": self.level,
        }


@dataclass(frozen=True)
class MissingRecords:
    """Whose records a log lacks (``who``: the author as players read it), which, and why."""

    who: str
    gap: Missing
    why: str

    def to_json(self) -> dict[str, object]:
        return {
            "who": self.who,
            "key": self.gap.author.hex(),
            "fingerprint": fingerprint(self.gap.author),
            "count": self.gap.count,
            "ranges": [list(run) for run in self.gap.ranges],
            "highest": self.gap.highest,
            "why": self.why,
        }


@dataclass
class Report:
    """Everything ``palabre verify`` prints.  ``unreadable`` set means exit 2."""

    path: str
    problems: list[Problem] = field(default_factory=list)
    unreadable: str | None = None
    game: str | None = None
    ruleset: str | None = None
    engine_version: str | None = None
    table_id: bytes | None = None
    options: Mapping[str, int | str] = field(default_factory=dict)
    peers: Sequence[PeerSpec] = ()
    players: list[Player] = field(default_factory=list)
    removed: list[tuple[int, bytes]] = field(default_factory=list)
    """(ply, key) of each peer a REMOVE took off the table."""
    records: int = 0
    signatures: int = 0
    """Signatures verified: records plus the consents and records embedded in them."""
    plies: int = 0
    final: int = -1
    """The last final ply (finality is a prefix); -1 when not even START is final."""
    result: Outcome | None = None
    absent: tuple[bytes, ...] = ()
    left: tuple[bytes, ...] = ()
    """Peers that signed LEAVE (they left on purpose), in file order."""
    ended: bool = False
    """An END from every peer still at the table, agreeing with the replay."""
    cut: TornTail | None = None
    damaged: tuple[Damage, ...] = ()
    """Damage with whole records after it (``net.logfile``): the file is invalid."""
    missing: list[MissingRecords] = field(default_factory=list)
    """Each author whose records are missing (a gap in its ``seq``)."""
    clock: ClockSpec | None = None
    """The time control START pinned, None for a table without a clock."""
    clocked: list[ClockedPly] = field(default_factory=list)
    """Every judged clocked ply, recomputed from the log's figures alone."""

    @property
    def exit_code(self) -> int:
        if self.unreadable is not None:
            return EXIT_UNREADABLE
        if any(problem.severity == INVALID for problem in self.problems):
            return EXIT_INVALID
        if self.problems:
            return EXIT_INCOMPLETE
        return EXIT_VALID

    @property
    def status(self) -> str:
        return {
            EXIT_VALID: "valid and complete",
            EXIT_INVALID: "invalid",
            EXIT_UNREADABLE: "unreadable",
            EXIT_INCOMPLETE: "valid but incomplete",
        }[self.exit_code]

    def count(self, severity: str) -> int:
        return sum(problem.severity == severity for problem in self.problems)

    # --- text ---------------------------------------------------------------------------
    def lines(self) -> list[str]:
        """The problems, one per line, then the summary."""
        out = [problem.line() for problem in self.problems]
        if self.unreadable is not None:
            out.append(f"unreadable: {self.unreadable}")
        if out:
            out.append("")
        out.append(f"file:     {self.path}")
        if self.game is not None:
            table = self.table_id.hex() if self.table_id else "?"
            out.append(
                f"game:     {self.game} (ruleset {self.ruleset}, engine {self.engine_version}), "
                f"table {table}"
            )
            if self.options:
                options = ", ".join(f"{k}={v}" for k, v in sorted(self.options.items()))
                out.append(f"options:  {options}")
            out.append("peers:")
            for peer in self.peers:
                gone = [ply for ply, key in self.removed if key == peer.key]
                note = f"  (removed at ply {gone[0]})" if gone else ""
                out.append(f"  {fingerprint(peer.key)}  {peer.name}{note}")
            out.append("players:")
            out.extend(f"  {player.line()}" for player in self.players)
            out.append(f"records:  {self.records} ({self.signatures} signatures verified)")
            final = "none" if self.final < 0 else f"up to ply {self.final}"
            out.append(f"plies:    {self.plies}, final {final}")
            out.append(f"result:   {self._result_line()}")
            if self.clock is not None:
                out.extend(self._clock_lines(self.clock))
        if self.cut is not None:
            out.append(f"cut:      {self.cut}")
        for damage in self.damaged:
            out.append(f"damaged:  {damage}")
        out.append(f"problems: {self._problem_count()}")
        out.append(f"verdict:  {self.status} (exit {self.exit_code})")
        return out

    def _result_line(self) -> str:
        if self.result is None:
            return "none: the game is not over"
        ended = "ENDs from every peer" if self.ended else "not every peer signed END"
        return f"{self.result.summary} ({self.result.reason}; {ended})"

    def _clock_lines(self, spec: ClockSpec) -> list[str]:
        """The time control, who ran out, the disputed plies and the clocks at the end."""
        out = [
            f"clock:    {spec.describe()} (lag credit {spec.lag_ms} ms, stall after "
            f"{spec.ack_ms / 1000:g} s), {len(self.clocked)} plies judged"
        ]
        for ply in self.clocked:
            if ply.verdict.late:
                out.append(
                    f"          seat {ply.seat} ran out of time at ply {ply.ply} (measured "
                    f"{ply.verdict.figure} ms, allowed {ply.verdict.threshold} ms)"
                )
        disputed = [str(ply.ply) for ply in self.clocked if ply.verdict.disputed]
        out.append(f"disputed: {', '.join(disputed) if disputed else 'none'}")
        if self.clocked:
            left = ", ".join(
                f"seat {seat} {clock_face(ms, 10_000)}"
                for seat, ms in enumerate(self.clocked[-1].remaining, 1)
            )
            out.append(f"time left: {left}")
        return out

    def _problem_count(self) -> str:
        if not self.problems:
            return "none"
        parts = [
            f"{n} {severity}" for severity in (INVALID, INCOMPLETE) if (n := self.count(severity))
        ]
        return ", ".join(parts)

    # --- JSON ---------------------------------------------------------------------------
    def to_json(self) -> dict[str, object]:
        result = None
        if self.result is not None:
            result = result_body(self.result, self.absent)
            result["absent"] = [fingerprint(key) for key in self.absent]
        cut = None
        if self.cut is not None:
            cut = {"offset": self.cut.offset, "length": self.cut.length, "kind": self.cut.kind}
        return {
            "file": self.path,
            "exit": self.exit_code,
            "status": self.status,
            "unreadable": self.unreadable,
            "game": self.game,
            "ruleset": self.ruleset,
            "engine_version": self.engine_version,
            "table_id": None if self.table_id is None else self.table_id.hex(),
            "options": dict(self.options),
            "peers": [
                {
                    "name": peer.name,
                    "key": peer.key.hex(),
                    "fingerprint": fingerprint(peer.key),
                    "removed_at": next((p for p, k in self.removed if k == peer.key), None),
                }
                for peer in self.peers
            ],
            "players": [player.to_json() for player in self.players],
            "records": self.records,
            "signatures": self.signatures,
            "plies": self.plies,
            "final": self.final,
            "result": result,
            "ended": self.ended,
            "cut": cut,
            "damaged": [
                {"offset": d.offset, "said": d.said, "skipped": d.skipped, "size": d.size}
                for d in self.damaged
            ],
            "problems": [problem.to_json() for problem in self.problems],
            "missing": [missing.to_json() for missing in self.missing],
            "clock": None
            if self.clock is None
            else {**self.clock.to_body(), "plies": [ply.to_json() for ply in self.clocked]},
        }
