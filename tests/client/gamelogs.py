"""Honest game logs written the way a running peer writes them, and tools to tamper with them.

``LoggedTable`` seats in-memory peers at one table (a seat plan as in ``harness.Setup``:
peer names, ``"bot:NAME"`` for a bot run by NAME).  Every peer has a real Ed25519 key, a real
``net.signer.RecordSigner`` per key it signs with (its own and its bots') writing ahead to a
real ``net.logfile.LogWriter``, and its ``Table`` journals every record it accepts to that
same file: exactly the wiring of a running peer, minus the sockets.  The router carries
records between them on a virtual clock.

``Forger`` holds every key of the table and signs any record with any ``seq``: what a test
needs to insert a wrong-but-signed record.  ``rewrite`` writes a log from record bytes.
"""

from __future__ import annotations

import itertools
import struct
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from client.bots import make_bot
from client.rules.net_adapter import NetSigner, open_envelope
from client.rules.records import START, SignedRecord
from client.rules.start import PeerSpec, SeatSpec, start_body
from client.tabletop.table import Table
from client.tabletop.table_input import AcceptDraw, Chat, OfferDraw, PlayMove, Resign
from engines import AnyEngine
from net.logfile import MAGIC, LogWriter, read_log
from net.records import Kind, sign_record
from net.signer import RecordSigner
from tests.client.envelopes import Identity
from tests.client.harness import Router, act

TABLE_ID = bytes(range(100, 116))


class LoggedTable:
    """Peers of one table, each writing its game file in ``directory``."""

    def __init__(
        self,
        directory: Path,
        seats: Sequence[str],
        engine: AnyEngine,
        params: Mapping[str, int | str] | None = None,
        *,
        bots: str = "all",
        bot_kind: str = "random",
        seed: int = 0,
        table_id: bytes = TABLE_ID,
        **network: Any,
    ) -> None:
        self.engine, self.table_id = engine, table_id
        names = list(dict.fromkeys(s.removeprefix("bot:") for s in seats))
        self.names = names
        self.identities = {n: Identity(seed * 100 + 300 + i) for i, n in enumerate(names)}
        self.bot_identities = {
            seat: Identity(seed * 100 + 350 + seat)
            for seat, s in enumerate(seats, 1)
            if s.startswith("bot:")
        }
        self.paths = {name: directory / f"{name}.palabre" for name in names}
        self.writers = {name: LogWriter.create(path) for name, path in self.paths.items()}
        specs = []
        for seat, s in enumerate(seats, 1):
            if s.startswith("bot:"):
                runner = self.identities[s.removeprefix("bot:")].key
                specs.append(SeatSpec(seat, self.bot_identities[seat].key, runner))
            else:
                specs.append(SeatSpec(seat, self.identities[s].key))
        self.signers: dict[str, dict[bytes, NetSigner]] = {}
        bot_players: dict[str, dict[bytes, Any]] = {}
        for name in names:
            me = self.identities[name]
            mine = {me.key: NetSigner(RecordSigner(me.net, table_id, self.writers[name]))}
            players: dict[bytes, Any] = {}
            for seat, s in enumerate(seats, 1):
                if s == f"bot:{name}":
                    bot = self.bot_identities[seat]
                    mine[bot.key] = NetSigner(RecordSigner(bot.net, table_id, self.writers[name]))
                    players[bot.key] = make_bot(engine.name, "random", seed * 1000 + seat)
                elif s == name and bots == "all":
                    players[me.key] = make_bot(engine.name, bot_kind, seed * 1000 + seat)
            self.signers[name] = mine
            bot_players[name] = players
        body = _start_body(engine, params, len(seats), self.identities, names, specs)
        host = names[0]
        self.start = self.signers[host][self.identities[host].key].sign(START, body)
        self.tables = {
            name: Table(
                self.start,
                engine,
                open_envelope,
                me=self.identities[name].key,
                signers=self.signers[name],
                bots=bot_players[name],
                journal=lambda record, name=name: self.writers[name].append(record.envelope),
            )
            for name in names
        }
        self.router = Router(self.tables, seed=seed, **network)
        self.router.start()
        self.router.run()

    def act(self, name: str, output: Any) -> None:
        act(self.router, name, output)

    def close(self) -> dict[str, Path]:
        for writer in self.writers.values():
            writer.close()
        return self.paths

    def forger(self) -> Forger:
        keys = {name: identity for name, identity in self.identities.items()}
        keys.update({f"bot{seat}": identity for seat, identity in self.bot_identities.items()})
        return Forger(keys, self.table_id)


def _start_body(
    engine: AnyEngine,
    params: Mapping[str, int | str] | None,
    seat_count: int,
    identities: Mapping[str, Identity],
    names: Sequence[str],
    seats: Sequence[SeatSpec],
) -> dict[str, Any]:
    return start_body(
        game=engine.name,
        ruleset=engine.ruleset,
        engine_version=engine.version,
        params=dict(params or {"seats": seat_count}),
        peers=tuple(PeerSpec(identities[n].key, n) for n in names),
        seats=tuple(seats),
    )


class Forger:
    """Signs any record with any key of the table (or an outsider's), any ``seq``."""

    _seqs = itertools.count(50_000)

    def __init__(self, identities: Mapping[str, Identity], table_id: bytes) -> None:
        self.identities = dict(identities)
        self.table_id = table_id

    def sign(
        self, who: str | Identity, kind: str, body: Mapping[str, Any], seq: int | None = None
    ) -> SignedRecord:
        identity = self.identities[who] if isinstance(who, str) else who
        number = next(self._seqs) if seq is None else seq
        from client.rules.net_adapter import record_from_net

        return record_from_net(sign_record(identity.net, Kind[kind], self.table_id, number, body))


def records_of(path: Path) -> list[bytes]:
    return list(read_log(path).records)


def rewrite(path: Path, records: Sequence[bytes], tail: bytes = b"") -> Path:
    """Write a log of ``records`` (and raw ``tail`` bytes) to ``path``, replacing it."""
    data = MAGIC + b"".join(struct.pack(">I", len(r)) + r for r in records) + tail
    path.write_bytes(data)
    return path


class Script:
    """A log written record by record by a test holding every key: for what the table cannot
    play yet (REMOVE, an abandoned table) and for precise tampering.

    The chain is kept with ``client.rules.chain.Chain`` and the verifier's rules, so the digests
    the script signs are the ones the verifier replays; each signer's ``seq`` counts from 1.
    """

    def __init__(
        self,
        engine: AnyEngine,
        seats: Sequence[str],
        params: Mapping[str, int | str] | None = None,
        *,
        seed: int = 0,
        table_id: bytes = TABLE_ID,
    ) -> None:
        from client.logs.verifier import verifier_rules
        from client.rules.chain import Chain
        from client.rules.start import parse_start

        self.engine, self.table_id = engine, table_id
        names = list(dict.fromkeys(s.removeprefix("bot:") for s in seats))
        self.keys: dict[str, Identity] = {
            n: Identity(seed * 100 + 600 + i) for i, n in enumerate(names)
        }
        specs = []
        for seat, s in enumerate(seats, 1):
            if s.startswith("bot:"):
                self.keys[f"bot{seat}"] = Identity(seed * 100 + 650 + seat)
                runner = self.keys[s.removeprefix("bot:")].key
                specs.append(SeatSpec(seat, self.keys[f"bot{seat}"].key, runner))
            else:
                specs.append(SeatSpec(seat, self.keys[s].key))
        self.seqs: dict[bytes, int] = {}
        self.records: list[SignedRecord] = []
        body = _start_body(engine, params, len(seats), self.keys, names, specs)
        self.start = self.sign(names[0], START, body)
        self.chain = Chain(parse_start(self.start), engine, open_envelope, verifier_rules())
        self.bots = {
            seat: make_bot(engine.name, "random", seed * 10 + seat) for seat in range(1, 65)
        }

    def identity(self, who: str | Identity) -> Identity:
        if isinstance(who, Identity):
            return who
        if who not in self.keys:
            self.keys[who] = Identity(700 + len(self.keys))
        return self.keys[who]

    def name_of(self, key: bytes) -> str:
        return next(name for name, identity in self.keys.items() if identity.key == key)

    def sign(
        self, who: str | Identity, kind: str, body: Mapping[str, Any], *, log: bool = True
    ) -> SignedRecord:
        from client.rules.net_adapter import record_from_net

        identity = self.identity(who)
        seq = self.seqs[identity.key] = self.seqs.get(identity.key, 0) + 1
        record = record_from_net(sign_record(identity.net, Kind[kind], self.table_id, seq, body))
        if log:
            self.records.append(record)
        return record

    def ply(self, who: str, kind: str, **extra: Any) -> SignedRecord:
        head = self.chain.head
        record = self.sign(who, kind, {"ply": head.ply + 1, "prev": head.chain_digest, **extra})
        self.chain.append(self.chain.check(record))
        return record

    def move(self, move: Any = None) -> SignedRecord:
        state = self.chain.head.engine_state
        seat = self.engine.to_move(state)
        assert seat is not None
        controller = self.engine.controller(state, seat)
        if move is None:
            move = self.bots[controller].choose(self.engine, state)
        who = self.name_of(self.chain.head.seat_key(controller))
        return self.ply(who, "MOVE", seat=seat, move=self.engine.move_to_wire(move))

    def ack(self, *names: str) -> None:
        head = self.chain.head
        for key in head.peers:
            name = self.name_of(key)
            if not names or name in names:
                self.sign(name, "ACK", {"ply": head.ply, "digest": head.chain_digest})

    def play(self, plies: int | None = None) -> None:
        """Moves acked by every peer: ``plies`` of them, or until the game is over."""
        count = 0
        while self.chain.outcome() is None and (plies is None or count < plies):
            self.move()
            self.ack()
            count += 1

    def end(self, *names: str, absent: Sequence[bytes] = (), result: Any = None) -> None:
        from client.rules.ending import result_body

        head = self.chain.head
        outcome = self.chain.outcome() if result is None else result
        for key in head.peers:
            name = self.name_of(key)
            if (not names or name in names) and key not in absent:
                body = {"ply": head.ply, "digest": head.chain_digest}
                self.sign(name, "END", {**body, "result": result_body(outcome, absent)})

    def write(self, path: Path) -> Path:
        return rewrite(path, [record.envelope for record in self.records])


def short_game(directory: Path, ending: str = "draw") -> LoggedTable:
    """A short 2-player Discorder game played through intents and written to real files:
    two tiles, a chat line, then a draw offered and accepted (``ending="draw"``) or seat 1
    resigning (``"resign"``)."""
    from engines import find_engine

    engine = find_engine("discorder")
    table = LoggedTable(directory, ["A", "B"], engine, bots="none")

    def move(name: str) -> None:
        state = table.tables[name].head.engine_state
        table.act(
            name,
            table.tables[name].handle(PlayMove(engine.legal_moves(state)[0], table.router.now)),
        )

    move("A")
    move("B")
    table.act("A", table.tables["A"].handle(Chat("bonjour", table.router.now)))
    if ending == "draw":
        table.act("A", table.tables["A"].handle(OfferDraw(table.router.now)))
        table.act("B", table.tables["B"].handle(AcceptDraw(table.router.now)))
    else:
        table.act("A", table.tables["A"].handle(Resign(table.router.now)))
    table.close()
    return table
