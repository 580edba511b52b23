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
from client.mesh import ENDED
from client.net_adapter import open_envelope, record_from_net
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
END_WAIT = 10.0
"""How long a peer waits for every END after the game's outcome, and then for every peer at
the table to hold them too (``client.ending.EndHolders``)."""
END_LINGER = 1.0
"""How long a peer stays once every peer holds every END, so its word of it reaches them."""

HALT_LINGER = 2.0
"""How long a halted peer stays so its HALT and the others' reach everyone."""


class PeerTable(PeerCore):
    """The table side of a peer: START, the table core, records in and outputs out."""

    def begin(self, start_record: SignedRecord, *, spectator: bool = False) -> None:
        """Set the table up from START and begin it (``StartRefused`` with the reason)."""
        table = self._make_table(start_record, spectator=spectator, file=None)
        self._hold(start_record)
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
            self._hold(record)
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
        self._links_changed_since_report = True
        self._mesh_wake.set()  # report and dial the mesh now
        self.notify(TableStarted(start, my_seats, self.file.path))

    def receive(self, record: Record, source: PeerLink | None) -> None:
        """A record ``net`` verified on ``source``: pass it on, then hand it to the table."""
        if self.policy.knows(record.hash):
            return  # it raced a copy on another link
        if self.left_table:
            return  # the game file is closed: this peer has left and records nothing more
        signed = record_from_net(record)
        table = self.table
        if table is not None and not self.floods.admits(signed, trio.current_time()):
            return  # too fast for a person: never held, logged, shown nor passed on
        self._hold(signed)
        runner = None if table is None else table.runner_of(signed.author)
        passed = {id(source)}
        for link in self.links:
            passes = link is not source and link.admitted
            if passes and self.mesh.passes_on(signed, runner, link.key, link.spectator):
                link.send(SendRecord(record.data))
                passed.add(id(link))
        if table is not None:
            if source is not None and not source.spectator:
                table.presence.hear(source.key, trio.current_time())
            output = table.receive(signed, trio.current_time())
            if any(isinstance(e, TableRejected) and e.record == signed for e in output.events):
                for link in self.links:  # evidence: every peer sees a refused record
                    if id(link) not in passed and link.admitted:
                        link.send(SendRecord(record.data))
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

    def call_soon(self, callback: Callable[[], None]) -> None:
        """Run ``callback`` on the peer's loop after the event being handled (an observer
        that wants to act, say, must not re-enter the table from inside its own output)."""
        self._soon.append(callback)
        self._wake.set()

    def absorb(self, output: Output) -> None:
        """Make a table output durable, send what it signed, handle and pass on its events."""
        if output.send:
            assert self.file is not None
            self.file.sync()  # write-ahead: nothing leaves before it is on disk
            for record in output.send:
                self._hold(record)
                self.broadcast(record)
            self.notify(RecordsSent(tuple(output.send)))
        elif self.file is not None and self.file.unsynced and self._sync_due is None:
            self._sync_due = trio.current_time() + SYNC_DELAY
        for event in output.events:
            self._on_table_event(event)
            self.notify(event)
        self._wake.set()

    def broadcast(self, record: SignedRecord) -> None:
        for link in self.links:
            if link.admitted:
                link.send(SendRecord(record.envelope))

    def _hold(self, record: SignedRecord) -> None:
        self.policy.seen.add(record.record_hash)
        self.held.add(record)

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
        (a peer cut off from some gets their ENDs through the others), or ``END_WAIT``."""
        table = self.table
        assert table is not None
        if table.me is None or table.me not in table.head.peers:
            self.conclude(0, END_LINGER, wait_links=False)  # nobody waits for a spectator
            return
        self.end_holders.learn([table.me])
        self.conclude(0, END_WAIT, wait_links=False, weak=True)
        self.tell_end_holders()
        self._leave_once_every_peer_holds_every_end()

    def learn_end_holders(self, keys: Sequence[bytes]) -> None:
        """A link says who holds every END: pass on what is new, leave once all do."""
        table = self.table
        if table is None or not self.end_holders.learn(keys):
            return
        if table.ended and table.me in self.end_holders.keys:
            self.tell_end_holders()
            self._leave_once_every_peer_holds_every_end()

    def tell_end_holders(self) -> None:
        table = self.table
        assert table is not None
        message = SendMessage(ENDED, self.end_holders.body(table.head.peers))
        for link in self.links:
            if link.admitted and not link.spectator:
                link.send(message)

    def _leave_once_every_peer_holds_every_end(self) -> None:
        table = self.table
        assert table is not None
        absent = table.abandoned[1] if table.abandoned is not None else ()
        if not self.end_holders.missing(table.head.peers, absent):
            self.conclude(0, END_LINGER, wait_links=False)

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
