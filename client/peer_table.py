"""The table side of a peer: START, the table core, records in, outputs out.

``PeerTable`` is the layer of ``client.peer.Peer`` that drives ``client.table.Table``.
Invariants:

* everything the table decides goes through ``absorb``, synchronously, one call at a time:
  intents (``act``), records from links (``receive``) and ticks are never interleaved; an
  observer that wants to act waits for ``call_soon``;
* write-ahead: ``absorb`` fsyncs the game file before sending anything the table signed;
  records accepted while nothing is sent are fsynced within ``SYNC_DELAY``;
* a chat or pointing record faster than its author may send (``client.flood_guard``) is
  dropped before anything else: never held, logged, shown nor passed on; each burst of
  drops is told once (``report_floods``, ``TableFlooded``);
* a record taken from a link is passed on (``Mesh.passes_on``) before the table judges it,
  and a record the table refuses goes on to every admitted link (every peer sees the
  evidence); a duplicate (same hash) is dropped, and nothing reaches the table once the
  game file is closed;
* a restarted peer resumes from its own game file: its own records are never signed
  differently, its signers' seqs go on after the file's;
* a halt, a refused record, the END and the outcome conclude the peer (``conclude``) and
  halts and refusals are written as evidence files next to the game file, refusals within
  the budget of ``client.evidence_budget`` (past it they are counted, not written).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import trio

from client.bots import Bot
from client.bots.thinking import ThreadThinking
from client.events import (
    EvidenceUpdated,
    GameOver,
    Output,
    PlyApplied,
    TableEnded,
    TableHalted,
    TableRejected,
    VoteReceived,
)
from client.game_file import GameFile
from client.net_adapter import open_envelope, record_from_net
from client.peer_conclusion import END_WAIT, HALT_LINGER, Ended
from client.peer_core import PeerCore
from client.peer_events import EvidenceWritten, RecordsSent, TableFlooded, TableStarted
from client.peer_link import PeerLink
from client.records import REMOVE, START, SignedRecord, Signer
from client.start import StartRefused, parse_start
from client.table import Table
from net.errors import DecodeError, SignatureError
from net.events import SendMessage, SendRecord
from net.invite import format_table_id
from net.logfile import TornTail
from net.records import Record, open_record

SYNC_DELAY = 0.05
"""Received records are fsynced at the latest this long after they were appended."""


class PeerTable(PeerCore):
    """The table side of a peer: START, the table core, records in and outputs out."""

    def begin(self, start_record: SignedRecord, *, spectator: bool = False) -> None:
        """Set the table up from START and begin it (``StartRefused`` with the reason)."""
        table = self._make_table(start_record, spectator=spectator, file=None)
        self.relay.hold(start_record)
        if start_record.author == self.me:  # the host: START goes first, durable
            assert self.file is not None
            self.file.sync()
            self.broadcast(start_record)
        self._started(table)
        self.absorb(table.begin(trio.current_time()))

    def resume(self, path: Path) -> TornTail | None:
        """Take up the table of this game file again after a restart (``StartRefused`` or
        ``LogFileError`` saying why not): its own records are never signed differently.
        Returns the torn tail cut off the file (a crash while writing), None if none."""
        file, contents = GameFile.reopen(path)
        records = []
        for data in contents.records:
            try:
                records.append(record_from_net(open_record(data)))
            except (DecodeError, SignatureError):
                continue  # not ours to judge here: the verifier says what is wrong
        if not records or records[0].kind != START:
            file.close()
            raise StartRefused(f"{path} does not begin with a START record")
        for record in records:
            self._last_seqs[record.author] = max(self._last_seqs.get(record.author, 0), record.seq)
        self._table_bot_identities(records[0].table_id)
        spectator = self.me not in parse_start(records[0]).peer_keys
        table = self._make_table(records[0], spectator=spectator, file=file)
        self.mesh.restarted = True
        for record in records:
            self.relay.hold(record)
        self._started(table)
        self.absorb(table.restore(records, trio.current_time()))
        return contents.torn

    def _make_table(
        self, start_record: SignedRecord, *, spectator: bool, file: GameFile | None
    ) -> Table:
        start = parse_start(start_record)
        try:
            engine = self.engine_for(start.game)
        except LookupError:
            raise StartRefused(f"this palabre does not know the game {start.game!r}") from None
        me = None if spectator else self.me
        if me is not None and me not in start.peer_keys:
            raise StartRefused("the table started without this peer")
        if file is None:
            file = self.open_file(start.table_id)
        else:
            self.file, self.table_id = file, start.table_id
        signers: dict[bytes, Signer] = {}
        bots: dict[bytes, Bot] = {}
        if me is not None:
            signers[me] = self.signer(self.identity)
            for seat in start.seats:
                if seat.runner == me:
                    identity = self.bot_identities.get(seat.key)
                    if identity is None:
                        raise StartRefused(f"START gives this peer seat {seat.seat}'s bot to run")
                    signers[seat.key] = self.signer(identity)
                    bots[seat.key] = self._bot(start.game, seat.seat)
                elif seat.key == me and self.bot_me:
                    bots[me] = self._bot(start.game, seat.seat)
        game_file = file
        self.table = Table(
            start_record,
            engine,
            open_envelope,
            me=me,
            signers=signers,
            bots=bots,
            bot_delay=self.bot_delay,
            journal=lambda record: game_file.append(record.envelope),
            bot_factory=self._replacement_bot,
        )
        if self.think_in_thread:  # a strong bot's search must not stall this peer's links
            self.table.local.think_in(ThreadThinking(lambda: self._wake.set()))
        self.policy.keys = set(start.peer_keys) | set(start.seat_keys)
        self.mesh.peers = start.peer_keys
        self.vouch(((peer.key, peer.name) for peer in start.peers), remember=True)
        return self.table

    def _started(self, table: Table) -> None:
        assert self.file is not None
        start = table.start
        me = table.me
        my_seats = (
            () if me is None else tuple(s.seat for s in start.seats if me in (s.key, s.runner))
        )
        for link in self.links:
            if link.key in start.peer_keys and not link.spectator:
                link.admitted = True
        self.beat.links_changed()
        self._mesh_wake.set()  # report and dial the mesh now
        self.notify(TableStarted(start, my_seats, self.file.path))

    def receive(self, record: Record, source: PeerLink | None) -> None:
        """A record ``net`` verified on ``source``: pass it on, then hand it to the table."""
        relay = self.relay
        if relay.knows(record.hash):
            return  # it raced a copy on another link
        if self.left_table:
            return  # the game file is closed: this peer has left and records nothing more
        signed = record_from_net(record)
        table = self.table
        now = trio.current_time()
        if table is not None and not self.floods.admits(signed, now):
            return  # too fast for a person: never held, logged, shown nor passed on
        relay.hold(signed)
        runner = None if table is None else table.runner_of(signed.author)
        passed = relay.pass_on(signed, runner, source, self.links)
        for link in passed:
            link.send(SendRecord(record.data))
        if table is not None:
            if source is not None and not source.spectator:
                table.presence.hear(source.key, now)
            output = table.receive(signed, now)
            if any(isinstance(e, TableRejected) and e.record == signed for e in output.events):
                for link in relay.evidence(source, passed, self.links):
                    link.send(SendRecord(record.data))  # every peer sees a refused record
            self.absorb(output)

    def report_floods(self, now: float) -> None:
        """Tell of each burst of dropped chat or pointing that is over by ``now``."""
        table = self.table
        for report in self.floods.reports(now):
            name = report.author.hex() if table is None else table.describe(report.author)
            self.notify(TableFlooded(report.author, name, report.kind, report.dropped))

    def act(self, intent: Callable[[Table, float], Output]) -> None:
        """Carry out an intent on the table (``IntentRefused`` says why not)."""
        if self.table is None:
            from client.seating import IntentRefused

            raise IntentRefused("the game has not started yet")
        if self.left_table:
            from client.seating import IntentRefused

            raise IntentRefused("this peer has left the table")
        self.absorb(intent(self.table, trio.current_time()))

    def absorb(self, output: Output) -> None:
        """Make a table output durable, send what it signed, handle and pass on its events."""
        if output.send:
            assert self.file is not None
            self.file.sync()  # write-ahead: nothing leaves before it is on disk
            for record in output.send:
                self.relay.hold(record)
                self.broadcast(record)
            self.notify(RecordsSent(tuple(output.send)))
        elif self.file is not None and self.file.unsynced and self._sync_due is None:
            self._sync_due = trio.current_time() + SYNC_DELAY
        for event in output.events:
            self._on_table_event(event)
            self.notify(event)
        self._wake.set()

    def broadcast(self, record: SignedRecord) -> None:
        for link in self.relay.everyone(self.links):
            link.send(SendRecord(record.envelope))

    def _on_table_event(self, event: Any) -> None:
        if isinstance(event, TableHalted | EvidenceUpdated):
            self._halt_count += 1
            if isinstance(event, TableHalted):
                self.conclude(3, HALT_LINGER, wait_links=False)
            self._write_evidence("halt", event.evidence, halted=True)
        elif isinstance(event, TableRejected) and event.evidence is not None:
            evidence = event.evidence
            author = evidence.culprits[0] if evidence.culprits else event.record.author
            size = len(json.dumps(evidence.to_json(), indent=1, ensure_ascii=False))
            if self.evidence_budget.admit(author, size):  # past it: counted, not written
                self._rejected_count += 1
                self._write_evidence(f"rejected-{self._rejected_count}", evidence, halted=False)
        elif isinstance(event, TableEnded):
            self._hold_every_end()
        elif isinstance(event, GameOver):
            self.conclude(0, END_WAIT, wait_links=False, weak=True)
        elif isinstance(event, VoteReceived | PlyApplied):
            self._allow_new_keys(event)

    def _hold_every_end(self) -> None:
        """This peer holds every END: say so, and stay until every peer at the table does
        (``client.peer_conclusion``)."""
        message = self.conclusion.holds_every_end(self._ended(), trio.current_time())
        self._wake.set()
        if message is not None:
            self.tell_peers(message)

    def learn_end_holders(self, keys: Sequence[bytes]) -> None:
        """A link says who holds every END: pass on what is new, leave once all do."""
        table = None if self.table is None else self._ended()
        message = self.conclusion.learn_end_holders(table, keys, trio.current_time())
        if message is not None:
            self._wake.set()
            self.tell_peers(message)

    def _ended(self) -> Ended:
        table = self.table
        assert table is not None
        absent = table.abandoned[1] if table.abandoned is not None else ()
        return Ended(table.me, table.ended, table.head.peers, absent)

    def tell_peers(self, message: SendMessage) -> None:
        """Send ``message`` on every admitted link with a peer (not a spectator)."""
        for link in self.links:
            if link.admitted and not link.spectator:
                link.send(message)

    def _allow_new_keys(self, event: VoteReceived | PlyApplied) -> None:
        """The new bot keys a vote or a REMOVE names may sign here from now on."""
        record = event.state.record if isinstance(event, PlyApplied) else None
        naming = isinstance(event, VoteReceived) or (record is not None and record.kind == REMOVE)
        if naming and self.policy.keys is not None and self.table is not None:
            self.policy.keys.update(spec.key for spec in self.table.head.seats)
            for proposal in self.table.ballot.proposals():
                self.policy.keys.update(spec.key for spec in proposal.replacements)

    def _write_evidence(self, name: str, evidence: Any, *, halted: bool) -> None:
        assert self.table_id is not None
        if not self._write_json(name, evidence.to_json()):
            return
        path = self.games / f"{format_table_id(self.table_id)}.{name}.json"
        self.notify(EvidenceWritten(path, halted, evidence.reason, evidence.verdict))
