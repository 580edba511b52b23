"""``palabre verify``: check a game log as a third party who trusts none of the players.

The log is read record by record, in file order (docs/LOG_FORMAT.md says what an honest log
looks like and what each check means).  For each record:

1. split the envelope (``net.envelope``);
2. a record whose hash was seen before is a copy (an honest writer drops duplicates);
3. the author must be a key START allows (a peer or a seat's key) or a REMOVE added;
4. the signature is verified over ``b"palabre/1/record\\0" || payload``, exactly as stored;
5. only then is the payload decoded, strictly (``net.records``); its table id must be
   START's, its ``seq`` may not jump more than ``client.rules.seq_book.SEQ_WINDOW`` past its
   author's highest so far, and the author may not have used it before
   (``client.logs.verify_seqs``);
6. the record is judged by kind: ply records are replayed through ``client.rules.chain.Chain``
   with the table's own rules (``client.rules.plies.PLY_RULES``: turn authority through
   ``engine.controller``, ``prev``, legality by the engine START names, DRAW acceptances,
   TAKEBACK consents and the state it restores), in chain order; ACKs and ENDs are kept
   and judged at the end against the replayed chain digests; a HALT is a divergence, its
   reason reported as its signer's claim beside what the log proves; a LEAVE must bind a
   position of the replayed chain, and its author (and its bots) sign no ply after it; chat
   and the rest must come from a peer at the table.

Then finality (every peer at the table acked the replayed chain digest), the END records
against the engine's outcome, missing ``seq`` numbers (as ranges, naming their author and
why they are missing) and the file's damage and tail (``net.logfile``).  Nothing the file
holds raises out of here: every failure becomes a ``Problem`` (``client.logs.verify_report``).

Invariants: the chain digests and turn authority are the table's own (``client.rules.chain``,
``client.rules.plies``), never re-implemented; a record is decoded only after its signature
verified; the verifier holds at most the records' hashes and the chain's states, and its
memory follows the number of records, never the values in them (a ``seq`` of 2**63 - 1
costs what any other costs).
"""

from __future__ import annotations

import bisect
from collections import deque
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from client.logs.verify_claims import ClaimJudge
from client.logs.verify_report import INCOMPLETE, INVALID, MissingRecords, Player, Problem, Report
from client.logs.verify_seqs import SeqLedger, why_missing
from client.rules.carried_acks import stated_figure
from client.rules.chain import Chain, PlyRule, TableState, describe_key
from client.rules.clock_history import clock_history
from client.rules.errors import BadEnvelope, PlyRejected
from client.rules.halting import halt_claim
from client.rules.net_adapter import decode_envelope, open_envelope
from client.rules.plies import PLY_RULES
from client.rules.records import ACK, END, HALT, LEAVE, REMOVE, START, SignedRecord
from client.rules.seated_names import seat_name
from client.rules.start import SeatSpec, StartRefused, TableStart, check_engine, parse_start
from engines import AnyEngine, find_engine
from net import ed25519
from net.envelope import RECORD_TAG, Envelope, parse_envelope
from net.errors import DecodeError, LogFileError
from net.fsutil import os_reason
from net.identity import short_fingerprint
from net.logfile import LogContents, parse_log

__all__ = ["Entry", "Progress", "Verification", "verifier_rules", "verify_bytes", "verify_file"]

Finder = Callable[[str], AnyEngine]
"""Engine name -> engine; ``LookupError`` for a game it does not know."""
Progress = Callable[[int, int], None]
"""Called with (records done, records in the file) as the verifier goes."""

BATCH = 256
"""Records whose signatures are verified together before they are decoded one by one."""
SHARE = 16
"""Signatures a thread checks at a time when two share a batch."""
OUTSIDE = frozenset(
    {"CHAT", "POINT", "DRAW_OFFER", "DRAW_ACCEPT", "VOTE", "TAKEBACK_ASK", "TAKEBACK_CONSENT"}
)


def verifier_rules() -> Mapping[str, PlyRule]:
    """The table's ply rules (REMOVE included: ``client.rules.removal.remove_rule``)."""
    return dict(PLY_RULES)


@dataclass(slots=True)
class Entry:
    """One record of the file, as the verifier took it (for ``palabre log show``)."""

    number: int
    """From 1 (START)."""
    offset: int
    record: SignedRecord | None
    """None when the record could not be opened."""
    ply: int | None = None
    """For a ply record: the ply it occupies in the replayed chain."""
    status: str = "ok"
    """``ok``, ``applied`` (a ply of the chain), ``dropped`` (replaced by a REMOVE) or
    ``problem``."""


@dataclass
class Verification:
    """The report, and the replayed chain for showing the game."""

    report: Report
    start: TableStart | None = None
    engine: AnyEngine | None = None
    chain: Chain | None = None
    entries: list[Entry] = field(default_factory=list)


def verify_file(
    path: Path, progress: Progress | None = None, find: Finder = find_engine, threads: int = 1
) -> Verification:
    """Verify the log at ``path``; never raises for anything the file holds.

    ``find`` gives the engine START names (the registry's, unless a test plays another);
    ``threads`` 2 shares the signatures with a second thread (Ed25519 verification lets
    other threads run), for a machine with a core to spare."""
    try:
        data = path.read_bytes()
    except OSError as error:
        return Verification(Report(str(path), unreadable=f"cannot read it: {os_reason(error)}"))
    return verify_bytes(data, str(path), progress, find, threads)


def verify_bytes(
    data: bytes,
    name: str,
    progress: Progress | None = None,
    find: Finder = find_engine,
    threads: int = 1,
) -> Verification:
    """Verify log bytes (``name`` is only used in messages; the rest as in ``verify_file``)."""
    try:
        contents = parse_log(data, name)
    except LogFileError as error:
        return Verification(Report(name, unreadable=str(error)))
    verifier = _Verifier(name, contents, progress, find)
    try:
        if threads < 2:
            return verifier.run()
        with ThreadPoolExecutor(1, thread_name_prefix="palabre-verify") as pool:
            verifier.pool = pool
            return verifier.run()
    except Exception as error:  # a bug of ours, never the file's fault: say so, no traceback
        record = len(verifier.result.entries)
        verifier.report.unreadable = (
            f"this palabre failed while checking record {record} ({type(error).__name__}: "
            f"{error}); that is a bug in palabre, please report it with the file"
        )
        return verifier.result


class _Verifier:
    def __init__(
        self, name: str, contents: LogContents, progress: Progress | None, find: Finder
    ) -> None:
        self.contents = contents
        self.find = find
        self.progress = progress
        self.report = Report(
            name, records=len(contents.records), cut=contents.torn, damaged=contents.damaged
        )
        self.result = Verification(self.report)
        self.keys: dict[bytes, bytes] = {}
        self.runner: dict[bytes, bytes] = {}
        """Every key allowed so far -> the peer that speaks for it."""
        self.removed_at: dict[bytes, int] = {}
        self.left: dict[bytes, int] = {}
        """Peers that signed LEAVE -> the ply they left at (their first LEAVE)."""
        self.seen: dict[bytes, int] = {}
        self.seqs = SeqLedger()
        self.pending: dict[int, list[tuple[SignedRecord, Entry]]] = {}
        self.gaps_reported: set[int] = set()
        self.acks_read: dict[int, dict[bytes, bytes]] = {}
        self.figures_read: dict[int, dict[bytes, int | None]] = {}
        """On a clocked table, each ACK's figure (``ms``) by ply and author: the last ply is
        judged from its own ACKs (every earlier one from those the next ply carries)."""
        self.names: dict[bytes, str] = {}
        self.verified: set[int] = set()
        """Records whose signature a batch verified already."""
        self.pool: ThreadPoolExecutor | None = None
        """A second thread sharing each batch's signatures, if one is given."""
        self.chain: Chain
        self.start: TableStart
        self.claims: ClaimJudge[Entry]

    # --- problems -------------------------------------------------------------------------
    def problem(
        self,
        code: str,
        severity: str,
        reason: str,
        ply: int | None = None,
        entry: Entry | None = None,
    ) -> None:
        """Report a problem; ``code`` is its stable word (docs/LOG_FORMAT.md section 6)."""
        number = offset = None
        if entry is not None:
            number, offset = entry.number, entry.offset
            entry.status = "problem"
        self.report.problems.append(Problem(severity, reason, ply, number, offset, code=code))

    def invalid(
        self, code: str, reason: str, ply: int | None = None, entry: Entry | None = None
    ) -> None:
        self.problem(code, INVALID, reason, ply, entry)

    def describe(self, key: bytes) -> str:
        """``peer K3QF-7XZA… (Ann)`` or ``the bot of seat 3 run by ...`` (cached: messages
        are built for every record, and fingerprints cost a hash each)."""
        name = self.names.get(key)
        if name is None:
            name = self.names[key] = describe_key(self.start, self.chain.head.seats, key)
        return name

    # --- the run --------------------------------------------------------------------------
    def run(self) -> Verification:
        records = self.contents.records
        if not records:
            self.problem(
                "no-record", INCOMPLETE, "the log holds no record: START was never written whole", 0
            )
        elif self._open_start():
            for first in range(1, len(records), BATCH):
                if self.progress is not None:
                    self.progress(first - 1, len(records))
                batch = range(first, min(first + BATCH, len(records)))
                for index, opened in zip(batch, self._open_batch(batch), strict=True):
                    self._take(index, opened)
            self._finish()
        for damage in self.contents.damaged:
            number = self._number_at(damage.offset) if damage.size is not None else None
            reason = f"the file is damaged: {damage}"
            where = Problem(INVALID, reason, None, number, damage.offset, code="damaged")
            self.report.problems.append(where)
        torn = self.contents.torn
        if torn is not None:
            # A crash (``short``) or damage where no whole record follows (``bad-length``).
            severity, code = (
                (INCOMPLETE, "torn-tail") if torn.kind == "short" else (INVALID, "bad-length")
            )
            self.problem(code, severity, f"the file was cut: {torn}")
        if self.progress is not None:
            self.progress(len(records), len(records))
        return self.result

    def _number_at(self, offset: int) -> int | None:
        """The number (from 1) of the record whose length prefix is at ``offset``."""
        index = bisect.bisect_left(self.contents.offsets, offset)
        found = index < len(self.contents.offsets) and self.contents.offsets[index] == offset
        return index + 1 if found else None

    def _entry(self, index: int) -> Entry:
        entry = Entry(index + 1, self.contents.offsets[index], None)
        self.result.entries.append(entry)
        return entry

    def _open_start(self) -> bool:
        entry = self._entry(0)
        data = self.contents.records[0]
        try:
            envelope = parse_envelope(data, "record 1")
            signed = ed25519.is_valid(
                envelope.author, envelope.signature, RECORD_TAG + envelope.payload
            )
            record = decode_envelope(envelope) if signed else None
        except DecodeError as error:
            reason = str(error)
            record = None
        else:
            reason = "its signature does not verify"
        if record is None:
            self.invalid(
                "bad-start", f"the first record (START) cannot be opened: {reason}", 0, entry
            )
            return False
        entry.record = record
        self.report.signatures += 1
        if record.kind != START:
            self.report.unreadable = f"not a game log: it begins with a {record.kind}, not START"
            return False
        try:
            start = parse_start(record)
        except StartRefused as error:
            self.invalid("bad-start", str(error), 0, entry)
            return False
        self._describe_start(start)
        try:
            engine = self.find(start.game)
        except LookupError:
            self.report.unreadable = (
                f"this palabre does not know the game {start.game!r}, so it cannot check this log"
            )
            return False
        if engine.ruleset != start.ruleset or engine.version != start.engine_version:
            self.report.unreadable = (
                f"this log plays {start.ruleset} with engine {start.engine_version}, but this "
                f"palabre has {engine.ruleset} with engine {engine.version}: it cannot check it"
            )
            return False
        try:
            check_engine(start, engine)
        except StartRefused as error:
            self.invalid("bad-start", f"START: {error}", 0, entry)
            return False
        self.start, self.result.start, self.result.engine = start, start, engine
        self.chain = Chain(start, engine, self._open_embedded, verifier_rules())
        self.result.chain = self.chain
        self.claims = ClaimJudge(self.chain, self.describe, self.removed_at)
        entry.status, entry.ply = "applied", 0
        self.seen[record.record_hash] = 0
        self.seqs.note(record.author, record.seq, 0)
        self.keys[record.author] = record.author
        for peer in start.peer_keys:
            self._allow(peer, peer)
        for spec in start.seats:
            self._allow(spec.key, spec.runner or spec.key)
        return True

    def _open_embedded(self, envelope: bytes) -> SignedRecord:
        """The opener the chain uses for consents embedded in plies (DRAW acceptances,
        REMOVE votes): only keys allowed at the table, signature verified, then decoded."""
        record = open_envelope(envelope, self.keys.__contains__)
        self.report.signatures += 1
        return record

    def _describe_start(self, start: TableStart) -> None:
        report = self.report
        report.game, report.ruleset = start.game, start.ruleset
        report.engine_version, report.table_id = start.engine_version, start.table_id
        report.options, report.peers = start.params, start.peers
        report.players = [
            Player(
                spec.seat,
                spec.key,
                _player_name(start, spec),
                spec.bot_runner,
                level=spec.bot_level,
            )
            for spec in start.seats
        ]

    def _allow(self, key: bytes, runner: bytes) -> None:
        self.runner.setdefault(key, runner)
        if key not in self.keys and len(key) == ed25519.PUBLIC_KEY_SIZE:
            self.keys[key] = key  # a key of another size is not a key: it can sign nothing

    # --- one record -----------------------------------------------------------------------
    def _open_batch(self, batch: range) -> list[Envelope | DecodeError]:
        """Split a batch of records and verify the signatures of known authors in one go.

        Signatures are the bulk of the work, and checking a run of them back to back is
        faster than one between every two decodes (and can be shared with a second thread);
        nothing is decoded here.  A record whose author is not (yet) allowed is left to
        ``_take``, which decides in file order (an allowed key stays allowed)."""
        opened: list[Envelope | DecodeError] = []
        jobs: list[tuple[int, bytes, Envelope]] = []
        for index in batch:
            try:
                envelope = parse_envelope(self.contents.records[index], f"record {index + 1}")
            except DecodeError as error:
                opened.append(error)
                continue
            key = self.keys.get(envelope.author)
            if key is not None and index not in self.verified:
                jobs.append((index, key, envelope))
            opened.append(envelope)
        if self.pool is None or len(jobs) <= SHARE:
            self.verified.update(_good_signatures(jobs))
            return opened
        # Both threads take runs of SHARE jobs until none is left, so that a second thread
        # that gets no core (the machine is busy) costs nothing: this one does it all.
        runs = deque(jobs[at : at + SHARE] for at in range(0, len(jobs), SHARE))
        theirs = self.pool.submit(_take_runs, runs)
        self.verified.update(_take_runs(runs))
        if not theirs.cancel():  # it began: wait for the run it took
            self.verified.update(theirs.result())
        return opened

    def _take(self, index: int, opened: Envelope | DecodeError) -> None:
        entry = self._entry(index)
        if isinstance(opened, DecodeError):
            self.invalid("not-envelope", f"not a signed envelope: {opened}", None, entry)
            return
        envelope = opened
        earlier = self.seen.setdefault(envelope.hash, index)
        if earlier != index:
            self.invalid("duplicate", f"a copy of record {earlier + 1}", None, entry)
            return
        key = self.keys.get(envelope.author)
        if key is None:
            self.invalid(
                "outsider",
                f"signed by key {short_fingerprint(envelope.author)}, which neither START nor "
                "any REMOVE allows at this table",
                None,
                entry,
            )
            return
        if index not in self.verified and not ed25519.is_valid(
            key, envelope.signature, RECORD_TAG + envelope.payload
        ):
            self.invalid(
                "bad-signature",
                f"the signature said to be by {self.describe(envelope.author)} does not verify "
                f"(near ply {self.chain.head.ply + 1})",
                None,
                entry,
            )
            return
        self.report.signatures += 1
        try:
            record = decode_envelope(envelope)
        except DecodeError as error:
            self.invalid("malformed", f"signed but malformed: {error}", None, entry)
            return
        entry.record = record
        if record.table_id != self.start.table_id:
            who = self.describe(record.author)
            self.invalid(
                "other-table", f"{who} signed a {record.kind} for another table", None, entry
            )
            return
        jump = self.seqs.jump(record.kind, record.author, record.seq)
        if jump is not None:  # refused, as a live table refuses it: it leaves no gap
            self.invalid("seq-jump", f"{self.describe(record.author)} {jump}", None, entry)
            return
        first = self.seqs.note(record.author, record.seq, index)
        if first != index:
            self.invalid(
                "seq-reuse",
                f"{self.describe(record.author)} signed two different records with seq "
                f"{record.seq}: records {first + 1} and {entry.number}",
                None,
                entry,
            )
            return
        self._dispatch(record, entry)

    def _dispatch(self, record: SignedRecord, entry: Entry) -> None:
        kind = record.kind
        head = self.chain.head
        if kind == START:
            self.invalid(
                "second-start", f"{self.describe(record.author)} signed a second START", None, entry
            )
        elif self.chain.is_ply_kind(kind):
            self._on_ply(record, entry)
        elif record.author not in head.peers and not self._word_from_before(record):
            gone = self.removed_at.get(record.author)
            why = f"was removed at ply {gone}" if gone is not None else "is not a peer"
            who = self.describe(record.author)
            self.invalid("not-at-table", f"{who} {why} and may not sign a {kind}", None, entry)
        elif kind in (ACK, END):
            ply = int(record.body["ply"])
            if ply > head.ply:
                who = self.describe(record.author)
                self.invalid(
                    "claim-too-early",
                    f"{who}'s {record.kind} for ply {ply} comes before that ply in the log",
                    ply,
                    entry,
                )
            if record.kind == ACK:
                self.acks_read.setdefault(ply, {}).setdefault(record.author, record.body["digest"])
                if self.start.clock is not None:
                    figures = self.figures_read.setdefault(ply, {})
                    figures.setdefault(record.author, stated_figure(record.body))
            self.claims.add(record, entry)
        elif kind == HALT:
            self._on_halt(record, entry)
        elif kind == LEAVE:
            self._on_leave(record, entry)
        elif kind not in OUTSIDE:
            who = self.describe(record.author)
            self.invalid(
                "unexpected-kind", f"{who} signed a {kind}, which a log never holds", None, entry
            )

    def _on_leave(self, record: SignedRecord, entry: Entry) -> None:
        """A LEAVE binds a position the log's chain holds, already there in file order (a
        table takes one only once it applied that ply); its author plays no later ply."""
        who, ply = self.describe(record.author), int(record.body["ply"])
        if ply > self.chain.head.ply or self.chain.at(ply).chain_digest != record.body["digest"]:
            self.invalid(
                "bad-leave",
                f"{who} left at ply {ply} from a position this log does not hold there",
                ply,
                entry,
            )
            return
        self.left.setdefault(record.author, ply)
        for state in self.chain.states[ply + 1 :]:
            self._check_not_left(state)

    def _check_not_left(self, state: TableState) -> None:
        """A ply signed (by a peer or a bot it runs) after that peer's LEAVE: a LEAVE is final."""
        runner = self.runner.get(state.record.author)
        left = self.left.get(runner) if runner is not None else None
        if left is not None and state.ply > left and state.record.kind != REMOVE:
            who = self.describe(state.record.author)
            self.invalid(
                "after-leave",
                f"{who} signed ply {state.ply} after its peer left the table at ply {left}",
                state.ply,
            )

    def _word_from_before(self, record: SignedRecord) -> bool:
        """A removed peer's ACK or END about a ply up to its removal: it was at the table
        then, and a peer cut off from the others acks what it missed once it is back, before
        it learns of its removal (the table takes such claims; ``ClaimJudge`` checks them)."""
        gone = self.removed_at.get(record.author)
        return record.kind in (ACK, END) and gone is not None and int(record.body["ply"]) <= gone

    # --- plies ----------------------------------------------------------------------------
    def _on_ply(self, record: SignedRecord, entry: Entry) -> None:
        ply = int(record.body["ply"])
        head = self.chain.head.ply
        if ply == head + 1:
            self._apply(record, entry)
        elif ply > head + 1:
            if head + 1 not in self.gaps_reported:
                self.gaps_reported.add(head + 1)
                self.invalid(
                    "out-of-order",
                    f"this {record.kind} is for ply {ply} but ply {head + 1} is not in the log "
                    "before it: plies are logged in chain order, so a record is missing or out "
                    "of place",
                    head + 1,
                    entry,
                )
            self.pending.setdefault(ply, []).append((record, entry))
        else:
            self._judge_occupied(record, ply, entry)

    def _apply(self, record: SignedRecord, entry: Entry) -> None:
        """Apply the record for the next ply, then those that waited for it, in a loop (a
        record moved far back may release thousands: no recursion)."""
        self._apply_one(record, entry)
        while waiting := self.pending.pop(self.chain.head.ply + 1, None):
            for later, later_entry in waiting:
                ply = int(later.body["ply"])
                if ply == self.chain.head.ply + 1:
                    self._apply_one(later, later_entry)
                else:
                    self._judge_occupied(later, ply, later_entry)

    def _apply_one(self, record: SignedRecord, entry: Entry) -> None:
        try:
            state = self.chain.check(record)
        except PlyRejected as error:
            self.invalid(error.code, str(error), self.chain.head.ply + 1, entry)
            return
        self._append(state, entry)

    def _append(self, state: TableState, entry: Entry) -> None:
        self.chain.append(state)
        self._check_not_left(state)
        if entry.status != "problem":
            entry.status = "applied"
        entry.ply = state.ply
        before = self.chain.at(state.ply - 1)
        if state.seats is before.seats and state.peers is before.peers:
            return  # the roster did not change (a ply that changes nothing keeps its tuples)
        if state.seats != before.seats:
            self.names.clear()  # a bot took a seat: descriptions change
        for spec in state.seats:
            if spec not in before.seats:
                self._allow(spec.key, spec.runner or spec.key)
                name = _player_name(self.start, spec)
                self.report.players.append(
                    Player(spec.seat, spec.key, name, spec.bot_runner, state.ply, spec.bot_level)
                )
        for peer in before.peers:
            if peer not in state.peers:
                self.removed_at[peer] = state.ply
                self.report.removed.append((state.ply, peer))

    def _judge_occupied(self, record: SignedRecord, ply: int, entry: Entry) -> None:
        """A second record for ply ``ply``: a REMOVE dropping the head, equivocation, a fork
        or simply a refused record."""
        head = self.chain.head
        if record.kind == REMOVE and ply == head.ply and self._drops_head(record, entry):
            return
        try:
            self.chain.check(record, ply)
        except PlyRejected as error:
            self.invalid(error.code, str(error), ply, entry)
            return
        existing = self.chain.at(ply).record
        if existing.kind == REMOVE and self._removed_by(existing, record):
            # The mirror of a REMOVE dropping the record before it: the removed peer's late
            # (legal) record for the ply its REMOVE took is ignored, never a fork (TABLE.md).
            if entry.record is record:  # not a HALT carrying it: that HALT stays a problem
                entry.status, entry.ply = "dropped", ply
            return
        first = self.seen.get(existing.record_hash, -1) + 1
        if self.runner.get(record.author) == self.runner.get(existing.author):
            who = self.start.name_of(self.runner.get(record.author, record.author))
            code = "equivocation"
            reason = (
                f"{who} signed two different legal records for ply {ply} "
                f"(equivocation): records {first} and {entry.number}"
            )
        else:
            code = "fork"
            reason = (
                f"two different legal records for ply {ply}: record {first} by "
                f"{self.describe(existing.author)} and record {entry.number} by "
                f"{self.describe(record.author)}"
            )
        self.invalid(code, reason, ply, entry)

    def _removed_by(self, remove: SignedRecord, record: SignedRecord) -> bool:
        """Whether ``record``'s signer (a peer, or a bot it runs) is one ``remove`` removed."""
        return self.runner.get(record.author, record.author) in set(remove.body["removed"])

    def _drops_head(self, record: SignedRecord, entry: Entry) -> bool:
        """A REMOVE for the head's ply replacing the absent peer's unacked record."""
        head = self.chain.head
        try:
            state = self.chain.check(record, head.ply)
        except PlyRejected:
            return False  # judged (and reported) as any other record for an occupied ply
        removed = set(record.body["removed"])
        if self.runner.get(head.record.author) not in removed:
            return False
        ackers = [
            self.describe(peer)
            for peer, digest in self.acks_read.get(head.ply, {}).items()
            if peer in state.peers and digest == head.chain_digest
        ]
        if ackers:
            self.invalid(
                "remove-over-ack",
                f"this REMOVE drops the record of ply {head.ply}, which "
                f"{', '.join(ackers)} acked already: a REMOVE never competes with a record a "
                "remaining peer acked",
                head.ply,
                entry,
            )
            return True
        self.chain.drop_head()
        for earlier in self.result.entries:
            if earlier.ply == head.ply and earlier.status == "applied":
                earlier.status = "dropped"
        self._append(state, entry)
        return True

    def _on_halt(self, record: SignedRecord, entry: Entry) -> None:
        ply = int(record.body["ply"])
        claim = halt_claim(self.describe(record.author), str(record.body["reason"]), ply)
        if ply > self.chain.head.ply:
            fact = f"this log does not reach ply {ply} before it"
        elif self.chain.at(ply).chain_digest == record.body["digest"]:
            fact = f"the chain digest it signed for ply {ply} is the one this log replays"
        else:
            fact = f"the chain digest it signed for ply {ply} is not the one this log replays"
        self.invalid("halt", f"{claim}; {fact}", ply, entry)
        for data in record.body["records"]:
            try:
                embedded = self._open_embedded(data)
            except BadEnvelope as error:
                self.invalid(
                    "halt-bad-record",
                    f"this HALT carries a record that does not open: {error}",
                    ply,
                    entry,
                )
                continue
            if embedded.record_hash in self.seen or embedded.table_id != self.start.table_id:
                continue
            kind, at = embedded.kind, int(embedded.body.get("ply", 0))
            if self.chain.is_ply_kind(kind) and 1 <= at <= self.chain.head.ply:
                self._judge_occupied(embedded, at, entry)
            elif kind in (ACK, END):
                self.claims.add(embedded, entry)

    # --- the end --------------------------------------------------------------------------
    def _finish(self) -> None:
        leftover = sorted(self.pending)
        if leftover:
            self.invalid(
                "unreplayed",
                f"{sum(len(v) for v in self.pending.values())} ply records (plies "
                f"{leftover[0]} to {leftover[-1]}) could not be replayed: ply "
                f"{self.chain.head.ply + 1} is missing",
                self.chain.head.ply + 1,
            )
        self._judge_last_ply()
        for code, severity, reason, ply, entry in self.claims.judge():
            self.problem(code, severity, reason, ply, entry)
        report = self.report
        report.clock = self.start.clock
        report.clocked = clock_history(self.chain)
        report.plies = self.chain.head.ply
        report.final = self.claims.final_ply
        report.result, report.absent = self.claims.result, self.claims.absent
        report.left = tuple(self.left)
        report.ended = self.claims.ended
        self._missing_seqs()

    def _judge_last_ply(self) -> None:
        """On a clocked table, judge the last ply from its own ACKs, as every peer does once
        it is final there (a late one: its seat resigned instead, and the END is checked on
        that position).  Unjudged while a peer's ACK of it is missing: not final anyway."""
        head = self.chain.head
        if self.start.clock is None or head.ply == 0:
            return
        digests = self.acks_read.get(head.ply, {})
        figures = self.figures_read.get(head.ply, {})
        if any(digests.get(peer) != head.chain_digest for peer in head.peers):
            return
        self.chain.judge_head([figures.get(peer) for peer in head.peers])

    def _missing_seqs(self) -> None:
        """Each author's missing ``seq`` numbers, as ranges, with whose they are and why."""
        contents = self.contents
        why = why_missing(damaged=bool(contents.damaged), cut=contents.torn is not None)
        for missing in self.seqs.missing():
            who = self.describe(missing.author)
            self.report.missing.append(MissingRecords(who, missing, why))
            self.problem(
                "missing-records",
                INCOMPLETE,
                f"{missing.count:,} record(s) signed by {who} are not in this log (seq "
                f"{missing.listed()}; its records here go up to seq {missing.highest}): {why}",
            )


def _take_runs(runs: deque[list[tuple[int, bytes, Envelope]]]) -> list[int]:
    """``_good_signatures`` of run after run taken from ``runs`` (shared between threads:
    ``popleft`` is atomic) until it is empty."""
    good: list[int] = []
    while True:
        try:
            run = runs.popleft()
        except IndexError:
            return good
        good.extend(_good_signatures(run))


def _good_signatures(jobs: list[tuple[int, bytes, Envelope]]) -> list[int]:
    """The indices of the jobs whose envelope's signature verifies with the key given."""
    is_valid = ed25519.is_valid
    return [
        index
        for index, key, envelope in jobs
        if is_valid(key, envelope.signature, RECORD_TAG + envelope.payload)
    ]


def _player_name(start: TableStart, spec: SeatSpec) -> str:
    """``Ann`` for a person, ``Bot 3 of Ann (strong)`` for a bot (``client.rules.bot_names``;
    its level when START names it), and for a seat Ann's palabre plays by a bot."""
    return seat_name(spec, {peer.key: peer.name for peer in start.peers})
