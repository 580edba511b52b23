"""A lying peer for the end-to-end tests: palabre's own peer with a seat's valid key, which
also sends what ``PALABRE_TEST_LIES`` asks (never used by palabre).

    python -m tests.e2e.liar [--profile P] host|join ARGS... --bot   (palabre's own arguments)

It runs the real ``palabre host``/``join`` (``client.commands.headless``) and plays its own seat
itself, with the sensible bot palabre would use (same seed), *after* telling the lies due at
that ply: so every lie reaches the others before its honest move, with no sleep anywhere,
and the game played is the one honest bots play.  ``PALABRE_TEST_LIES`` is a ``;``-separated
list of ``LIE@N`` or ``LIE@N:ARG``; ``@N`` means once the head reached ply N − 1 (the next ply
is N) and the lie can be told there (some need another seat's turn, some the liar's own: the
first ply from N on where it fits).  Each lie told prints ``liar: LIE at ply P: ...``.

Lies (the record is signed with the liar's own key unless said otherwise):

* ``other_seat``: a legal MOVE for the seat to move, which is not the liar's;
* ``out_of_turn``: a MOVE for the liar's own seat at another seat's turn;
* ``illegal``: at its turn, a well-formed MOVE the engine refuses;
* ``bad_prev``: at its turn, a legal MOVE bound to a chain digest that is not the head's;
* ``resign_other``, ``draw_other``: a RESIGN / a DRAW (with its own acceptance) for the seat
  to move, which is not the liar's;
* ``bot_chat``: a CHAT signed with the key of the bot seat it runs (a seat key, no peer);
* ``replay:PATH``: every record of the log file PATH (another table's), sent as they are;
* ``forged_chat:NAME``, ``hello_sig``, ``garbage``: on a **second** link the liar opens to
  the host (its own key, a valid handshake): a CHAT claiming to be by peer NAME (its author
  field) but signed by the liar; a record signed with the handshake's purpose tag; 36 bytes
  of noise where an encrypted frame should be;
* ``record_sig_hello``: a second link whose handshake signature (AUTH) is made for the
  record purpose (``palabre/1/record\0`` instead of ``palabre/1/hello\0``) over the same
  bytes: the converse of ``hello_sig``;
* ``dial_no_secret:NAME``: it dials peer NAME's listener (the mesh's address of it) with
  its own key but without the table secret;
* ``equivocate:NAME`` (a host): at its turn, two different legal moves for one ply, one to
  the link of peer NAME and the other to every other link;
* ``remove_unvoted``, ``remove_misvoted`` (a host, the appender of a REMOVE): a REMOVE of
  the last seat's player carrying only its own VOTE, or its own VOTE bound to another chain
  digest;
* ``false_ack``: its ACK of ply N carries a false chain digest (instead of the true one);
* ``reuse_seq_chat``: a CHAT, then a second CHAT signed with the same ``seq``;
* ``reuse_seq_move`` (at its turn): its move signed with the ``seq`` of its last ACK;
* ``idle``: once the head reaches ply N − 1 it neither moves nor acks, nor sends anything
  it signs, but keeps its links up (heartbeats, presence): connected but idle;
* ``seq_bomb``: a CHAT with seq 2⁶³ − 1 (written ahead: its own file holds it);
* ``withhold:COUNT``: COUNT chat records signed (written ahead) but sent to nobody, then one
  more sent: its ``seq`` skips COUNT numbers in every other peer's file;
* ``false_halt:NAME``: a HALT of the head, with its true state and chain digest, whose reason
  says peer NAME signed two different records for that ply (a lie: it carries no record);
* ``flood:COUNT``: COUNT chat records at once (signed in memory, seq from 10⁶ on: the
  flood is not worth writing ahead; held, so a pull is answered with them);
* ``flood_signed:COUNT``: like ``flood`` but each chat signed by its own signer (written
  ahead, in seq order), and not held (no pull is answered with them): valid records a
  rate limit must stop, not a seq window;
* ``point_flood:COUNT``: COUNT pointing records, signed the same way;
* ``outsider_flood:COUNT``: on a second link (its own key, a valid handshake), COUNT
  envelopes of almost 64 KiB each, validly signed by a fresh key that is no peer at this
  table (what they hold is never read: the author is refused first);
* ``rejected_flood:COUNT`` (at its turn): COUNT illegal moves for the next ply, each signed
  by its own key with its own seq (written ahead): each one a refused record of a seated key;
* ``bot_seat@0:S``: in the lobby, it seats a bot it runs at seat S.
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path
from typing import Any

import trio

from client.bots import Bot, make_bot
from client.commands.cli import build_parser
from client.commands.headless import run_host, run_join
from client.node.lobby_wire import LobbyChanged
from client.node.node_io import NodeSeams
from client.rules.halting import halt_body
from client.rules.net_adapter import record_from_net
from client.rules.records import SignedRecord
from client.runtime.peer import Peer, PeerLink, RecordsSent
from client.tabletop.events import Output
from engines import find_engine
from net.envelope import HELLO_TAG, RECORD_TAG, seal
from net.events import Connected, LinkClosed, SendRecord
from net.handshake import APP_VERSION, Role
from net.identity import Identity
from net.invite import Invite
from net.linkspec import AllowedKeys, LinkSpec
from net.logfile import read_log
from net.protocol import Connection
from net.records import MAX_SEQ, Kind, encode_payload, sign_record
from net.signer import RecordSigner
from net.wire import pack
from tests.e2e.faulty_peer import illegal_wire, my_turn

OTHERS_TURN = {"other_seat", "out_of_turn", "resign_other", "draw_other"}
OWN_TURN = {"illegal", "bad_prev", "equivocate", "reuse_seq_move", "rejected_flood"}
SECOND_LINK = {
    "forged_chat",
    "hello_sig",
    "garbage",
    "record_sig_hello",
    "dial_no_secret",
    "outsider_flood",
}
BIG_TEXT = 60_000
"""Characters of text in a flooding record: almost a whole 64 KiB frame."""


def lies() -> list[tuple[str, int, str]]:
    items = os.environ.get("PALABRE_TEST_LIES", "")
    told = []
    for item in filter(None, items.split(";")):
        name, _, rest = item.partition("@")
        ply, _, arg = rest.partition(":")
        told.append((name, int(ply), arg))
    return told


class Liar:
    """Watches its peer's events; tells each lie once, then plays its own turn honestly."""

    def __init__(self, peer: Peer, wanted: list[tuple[str, int, str]]) -> None:
        self.peer = peer
        self.pending = [lie for lie in wanted if lie[0] not in ("bot_seat", "false_ack", "idle")]
        self.idle_from = next((ply for name, ply, _ in wanted if name == "idle"), None)
        self.idle_told = False
        self.bot_seat = next((int(arg) for name, _, arg in wanted if name == "bot_seat"), None)
        self.bot: Bot | None = None
        self.moved: set[int] = set()
        self.last_ack: SignedRecord | None = None

    def __call__(self, event: Any) -> None:
        if isinstance(event, RecordsSent):
            acks = [r for r in event.records if r.kind == "ACK" and r.author == self.peer.me]
            self.last_ack = acks[-1] if acks else self.last_ack
        if isinstance(event, LobbyChanged) and self.bot_seat and self.peer.joining is not None:
            seat, self.bot_seat = self.bot_seat, None
            self.peer.call_soon(lambda: self.peer.add_bot(seat))
        self.peer.call_soon(self.check)

    def say(self, text: str) -> None:
        print(f"liar: {text}", flush=True)

    # --- the turn ------------------------------------------------------------------------
    def my_turn(self) -> bool:
        return my_turn(self.peer)

    def mine(self, key: bytes) -> bool:
        return key == self.peer.me or key in self.peer.bot_identities

    def check(self) -> None:
        table = self.peer.table
        if table is None or not table.live():
            return
        head = table.head
        for lie in list(self.pending):
            name, ply, arg = lie
            if head.ply < ply - 1:
                continue
            state = head.engine_state
            to_move = table.engine.to_move(state)
            if to_move is None:
                continue
            others = not self.mine(head.seat_key(table.engine.controller(state, to_move)))
            if (name in OTHERS_TURN and not others) or (name in OWN_TURN and not self.my_turn()):
                continue
            self.pending.remove(lie)
            getattr(self, f"_{name}")(arg)
            if table.head is not head or not table.live():
                return  # an equivocation moved the head (look again there), or it halted
        if self.idle():
            return
        if self.my_turn() and head.ply not in self.moved:
            self.moved.add(head.ply)
            if self.bot is None:
                seat = head.seats_of(self.peer.me)[0]
                self.bot = make_bot(table.engine.name, "sensible", self.peer.seed * 100 + seat)
            move = self.bot.choose(table.engine, head.engine_state)
            self.peer.act(lambda t, now: t.move(move, now))

    def idle(self) -> bool:
        """Whether it is idle now (``idle@N``: from the head at ply N − 1 on)."""
        table = self.peer.table
        if self.idle_from is None or table is None or table.head.ply < self.idle_from - 1:
            return False
        if not self.idle_told:
            self.idle_told = True
            self.told("idle", "it stays connected but neither moves nor acks from now on")
        return True

    def withhold(self, output: Output) -> Output:
        """Idle: what its keys signed stays in its own file and goes nowhere."""
        if self.idle():
            output.send = [r for r in output.send if not self.mine(r.author)]
        return output

    # --- signing and sending -----------------------------------------------------------------
    def sign(
        self, kind: str, body: dict[str, Any], identity: Identity | None = None
    ) -> SignedRecord:
        peer = self.peer
        record = peer.signer(identity or peer.identity).sign(kind, body)
        assert peer.file is not None
        peer.file.sync()  # written ahead, like anything palabre signs
        return record

    def send(self, record: SignedRecord, links: list[PeerLink] | None = None) -> None:
        """Send a signed lie to ``links`` (default: all), then let its own core judge it.

        Held as a peer holds what it sends, so a peer whose link is not admitted here yet
        gets it in the answer to its pull (``links`` chosen: it is meant for those only)."""
        if links is None:
            self.peer.node.relay.hold(record)
        else:
            self.peer.policy.seen.add(record.record_hash)
        for link in self.peer.links if links is None else links:
            link.send(SendRecord(record.envelope))
        self.peer.act(lambda table, now: table.receive(record, now))

    def sign_with_seq(self, seq: int, kind: str, body: dict[str, Any]) -> SignedRecord:
        """Sign with a chosen ``seq``, written ahead to its game file all the same."""
        peer = self.peer
        assert peer.file is not None and peer.table_id is not None
        signer = RecordSigner(peer.identity, peer.table_id, peer.file, seq - 1)
        record = record_from_net(signer.sign(Kind[kind], body))
        peer.file.sync()
        return record

    def ply_body(self, **fields: Any) -> dict[str, Any]:
        table = self.peer.table
        assert table is not None
        return {"ply": table.head.ply + 1, "prev": table.head.chain_digest, **fields}

    def legal_wire(self, index: int = 0) -> list[int]:
        table = self.peer.table
        assert table is not None
        state = table.head.engine_state
        moves = table.engine.legal_moves(state)
        return list(table.engine.move_to_wire(moves[index % len(moves)]))

    def told(self, name: str, text: str) -> None:
        table = self.peer.table
        assert table is not None
        self.say(f"{name} at ply {table.head.ply + 1}: {text}")

    def to_move(self) -> int:
        table = self.peer.table
        assert table is not None
        seat = table.engine.to_move(table.head.engine_state)
        assert seat is not None
        return seat

    # --- lies at the table -------------------------------------------------------------------
    def _other_seat(self, arg: str) -> None:
        seat = self.to_move()
        self.send(self.sign("MOVE", self.ply_body(seat=seat, move=self.legal_wire())))
        self.told("other_seat", f"a move for seat {seat}")

    def _out_of_turn(self, arg: str) -> None:
        table = self.peer.table
        assert table is not None
        mine = table.head.seats_of(self.peer.me)[0]
        self.send(self.sign("MOVE", self.ply_body(seat=mine, move=self.legal_wire())))
        self.told("out_of_turn", f"a move for seat {mine} at seat {self.to_move()}'s turn")

    def _illegal(self, arg: str) -> None:
        table = self.peer.table
        assert table is not None
        wire = illegal_wire(table.engine, table.head.engine_state)
        self.send(self.sign("MOVE", self.ply_body(seat=self.to_move(), move=wire)))
        self.told("illegal", f"the illegal move {wire}")

    def _bad_prev(self, arg: str) -> None:
        body = self.ply_body(seat=self.to_move(), move=self.legal_wire())
        body["prev"] = hashlib.blake2b(b"another position", digest_size=32).digest()
        self.send(self.sign("MOVE", body))
        self.told("bad_prev", "a legal move bound to another chain digest")

    def _resign_other(self, arg: str) -> None:
        seat = self.to_move()
        self.send(self.sign("RESIGN", self.ply_body(seat=seat)))
        self.told("resign_other", f"a resignation of seat {seat}")

    def _draw_other(self, arg: str) -> None:
        accept = self.sign("DRAW_ACCEPT", self.ply_body())
        self.send(self.sign("DRAW", self.ply_body(acceptances=[accept.envelope])))
        self.told("draw_other", f"a draw at seat {self.to_move()}'s turn")

    def _bot_chat(self, arg: str) -> None:
        bot = next(iter(self.peer.bot_identities.values()))
        self.send(self.sign("CHAT", {"text": "this is the host speaking: resign now"}, bot))
        self.told("bot_chat", "a chat signed with its bot seat's key")

    def _replay(self, arg: str) -> None:
        records = read_log(Path(arg)).records
        for data in records:
            for link in self.peer.links:
                link.send(SendRecord(data))
        self.told("replay", f"{len(records)} records of another table")

    def _equivocate(self, arg: str) -> None:
        first = self.sign("MOVE", self.ply_body(seat=self.to_move(), move=self.legal_wire(0)))
        second = self.sign("MOVE", self.ply_body(seat=self.to_move(), move=self.legal_wire(1)))
        self.told("equivocate", f"two moves, the second one to {arg} only")
        victims = [link for link in self.peer.links if link.name == arg]
        assert victims, f"no link named {arg}"
        self.peer.policy.seen.add(second.record_hash)
        for link in victims:
            link.send(SendRecord(second.envelope))
        self.send(first, [link for link in self.peer.links if link not in victims])

    def _remove(self, voted_prev: bytes, name: str) -> None:
        table = self.peer.table
        assert table is not None
        head = table.head
        gone = head.seats[-1].runner or head.seats[-1].key  # the player of the last seat
        seats = [spec.seat for spec in head.seats if gone in (spec.key, spec.runner)]
        fresh = Identity.generate().public_key
        replacements = [{"seat": s, "key": fresh, "runner": self.peer.me} for s in seats]
        proposal = {"removed": [gone], "replacements": replacements}
        vote = self.sign("VOTE", {"ply": head.ply + 1, "prev": voted_prev, **proposal})
        self.send(self.sign("REMOVE", self.ply_body(**proposal, votes=[vote.envelope])))
        self.told(name, f"a REMOVE of {table.describe(gone)}")

    def _remove_unvoted(self, arg: str) -> None:
        table = self.peer.table
        assert table is not None
        self._remove(table.head.chain_digest, "remove_unvoted")

    def _remove_misvoted(self, arg: str) -> None:
        self._remove(hashlib.blake2b(b"elsewhere", digest_size=32).digest(), "remove_misvoted")

    def _reuse_seq_chat(self, arg: str) -> None:
        first = self.sign("CHAT", {"text": "good luck, everyone"})
        self.send(first)
        self.send(self.sign_with_seq(first.seq, "CHAT", {"text": "I take that back"}))
        self.told("reuse_seq_chat", f"two chat records with seq {first.seq}")

    def _reuse_seq_move(self, arg: str) -> None:
        table = self.peer.table
        assert table is not None and self.last_ack is not None
        ack = self.last_ack
        body = self.ply_body(seat=self.to_move(), move=self.legal_wire())
        self.send(self.sign_with_seq(ack.seq, "MOVE", body))
        self.told(
            "reuse_seq_move", f"a move with seq {ack.seq}, its ACK of ply {ack.body['ply']}'s"
        )

    def _seq_bomb(self, arg: str) -> None:
        self.send(self.sign_with_seq(MAX_SEQ, "CHAT", {"text": "boom"}))
        self.told("seq_bomb", f"a chat with seq {MAX_SEQ}")

    def _withhold(self, arg: str) -> None:
        count = int(arg)
        kept = [self.sign("CHAT", {"text": f"never sent {n + 1}"}) for n in range(count)]
        sent = self.sign("CHAT", {"text": "after the withheld ones"})
        self.send(sent)
        self.told("withhold", f"chat seq {kept[0].seq} to {kept[-1].seq} withheld, {sent.seq} sent")

    def _false_halt(self, arg: str) -> None:
        table = self.peer.table
        assert table is not None
        head = table.head
        victim = next(p.key for p in table.start.peers if p.name == arg)
        reason = f"{table.describe(victim)} signed two different records for ply {head.ply}"
        self.send(self.sign("HALT", halt_body(table.engine, head, reason, ())))
        self.told("false_halt", f"a HALT saying {reason}")

    def _flood(self, arg: str) -> None:
        table = self.peer.table
        assert table is not None
        count = int(arg)
        self.told("flood", f"{count} chat records")
        for seq in range(10**6, 10**6 + count):
            text = {"text": f"flood {seq - 10**6 + 1} of {count}"}
            data = sign_record(self.peer.identity, Kind.CHAT, table.start.table_id, seq, text)
            self.peer.relay.hold(record_from_net(data))  # held, as ``send`` holds a lie
            for link in self.peer.links:
                link.send(SendRecord(data.data))

    def _flood_signed(self, arg: str) -> None:
        count = int(arg)
        self.told("flood_signed", f"{count} chat records")
        self.send_signed(("CHAT", {"text": f"flood {n} of {count}"}) for n in range(1, count + 1))

    def _point_flood(self, arg: str) -> None:
        table = self.peer.table
        assert table is not None
        count = int(arg)
        self.told("point_flood", f"{count} pointing records")
        ply = table.head.ply
        self.send_signed(
            ("POINT", {"ply": ply, "arrows": [[n % 81, (n // 81) % 81]], "squares": [n % 65536]})
            for n in range(count)
        )

    def _rejected_flood(self, arg: str) -> None:
        table = self.peer.table
        assert table is not None
        count = int(arg)
        wire = illegal_wire(table.engine, table.head.engine_state)
        body = self.ply_body(seat=self.to_move(), move=wire)
        self.told("rejected_flood", f"{count} illegal moves {wire}")
        self.send_signed(("MOVE", body) for _ in range(count))

    def send_signed(self, records: Any) -> None:
        """Sign each ``(kind, body)`` with its own signer (written ahead) and send them on
        every link; its own core never judges them.  The signing goes on in a task, in slices
        of 200 (each fsynced), so the liar still reads its links meanwhile.  Not held: a
        flooder answering each pull with 30,000 records makes every peer check as many
        signatures again, a CPU flood of the link (not what this lie is about)."""
        peer = self.peer
        signer = peer.signer(peer.identity)
        assert peer.file is not None
        file = peer.file

        async def sign_all() -> None:
            for index, (kind, body) in enumerate(records):
                record = signer.sign(kind, body)
                peer.policy.seen.add(record.record_hash)
                for link in peer.links:
                    link.send(SendRecord(record.envelope))
                if index % 200 == 199:
                    file.sync()
                    await trio.sleep(0)
            file.sync()

        peer.spawn(sign_all)

    def _outsider_flood(self, arg: str) -> None:
        table = self.peer.table
        assert table is not None
        count = int(arg)
        outsider = Identity.generate()
        self.second_link_flood(
            "outsider_flood",
            f"{count} records of {BIG_TEXT} characters by a key not at the table",
            [seal(outsider, RECORD_TAG, b"%06d" % n + b"x" * BIG_TEXT) for n in range(count)],
        )

    # --- lies on a second link ---------------------------------------------------------------
    def _forged_chat(self, arg: str) -> None:
        table = self.peer.table
        assert table is not None
        victim = next(p.key for p in table.start.peers if p.name == arg)
        payload = encode_payload(Kind.CHAT, table.start.table_id, 1, {"text": "I resign, sorry"})
        signature = self.peer.identity.sign(RECORD_TAG + payload)
        self.second_link("forged_chat", f"a chat said to be by {arg}", [victim, payload, signature])

    def _hello_sig(self, arg: str) -> None:
        table = self.peer.table
        assert table is not None
        payload = encode_payload(Kind.CHAT, table.start.table_id, 1, {"text": "hello"})
        signature = self.peer.identity.sign(HELLO_TAG + payload)
        envelope = [self.peer.me, payload, signature]
        self.second_link("hello_sig", "a record signed for the handshake's purpose", envelope)

    def _garbage(self, arg: str) -> None:
        self.second_link("garbage", "noise after a valid handshake", None)

    def _record_sig_hello(self, arg: str) -> None:
        self.second_link(
            "record_sig_hello", "a handshake signed for the record purpose", None, RecordPurpose
        )

    def _dial_no_secret(self, arg: str) -> None:
        table = self.peer.table
        assert table is not None
        victim = next(p.key for p in table.start.peers if p.name == arg)
        where = self.peer.node.mesh.book[victim]
        self.told(
            "dial_no_secret", f"a link to {arg} at {where.host}:{where.port} without the secret"
        )
        self.peer.spawn(self._dial_without_secret, where.host, where.port)

    async def _dial_without_secret(self, host: str, port: int) -> None:
        spec = LinkSpec(self.peer.identity, APP_VERSION, AllowedKeys(), self.peer.table_id)
        stream = await trio.open_tcp_stream(host, port)
        connection = Connection(Role.INITIATOR, spec, trio.current_time())
        if await _exchange(stream, connection, until=Connected) is not None:
            closed = await _exchange(stream, connection, until=LinkClosed)  # its AUTH is read
            self.say(f"dial_no_secret: the link closed: {closed}")
        await stream.aclose()

    def second_link(
        self, name: str, text: str, envelope: list[bytes] | None, signs: Any = None
    ) -> None:
        self.told(name, f"{text}, on a second link")
        self.peer.spawn(self._on_second_link, name, envelope, signs)

    def second_link_flood(self, name: str, text: str, envelopes: list[bytes]) -> None:
        self.told(name, f"{text}, on a second link")
        self.peer.spawn(self._on_second_link, name, None, None, envelopes)

    async def _on_second_link(
        self,
        name: str,
        envelope: list[bytes] | None,
        signs: Any,
        flood: list[bytes] | None = None,
    ) -> None:
        peer = self.peer
        assert peer.joining is not None, "second links are for a joining liar"
        target = peer.joining.config.target
        host, port = (target.addresses[0], target.port) if isinstance(target, Invite) else target
        secret = target.secret if isinstance(target, Invite) else peer.joining.config.secret
        identity = peer.identity if signs is None else signs(peer.identity)
        spec = LinkSpec(identity, APP_VERSION, AllowedKeys(), peer.table_id, secret=secret)
        stream = await trio.open_tcp_stream(host, port)
        connection = Connection(Role.INITIATOR, spec, trio.current_time())
        if await _exchange(stream, connection, until=Connected) is None:
            return
        if signs is not None:
            pass  # its AUTH was the lie: the host refuses it
        elif flood is not None:
            sent, ended = await _send_until_closed(stream, connection, flood)
            self.say(f"{name}: sent {sent} of {len(flood)} records; the link closed: {ended}")
            await stream.aclose()
            return
        elif envelope is None:
            await stream.send_all(b"\0\0\0\x20" + os.urandom(32))
        else:
            data = pack(envelope)
            await stream.send_all(connection.send(SendRecord(data), trio.current_time()))
        closed = await _exchange(stream, connection, until=LinkClosed)
        self.say(f"{name}: the host closed the second link: {closed}")
        await stream.aclose()


async def _send_until_closed(
    stream: trio.SocketStream, connection: Connection, envelopes: list[bytes]
) -> tuple[int, LinkClosed | None]:
    """Send ``envelopes`` one by one while a reader task takes what comes back: how many
    were sent before the other side closed the link (its reason), or all of them (None)."""
    sent = 0
    closed: list[LinkClosed] = []

    async def read() -> None:
        while not closed:
            data = await stream.receive_some(65536)
            now = trio.current_time()
            connection.receive_data(data, now) if data else connection.receive_eof(now)
            while (event := connection.next_event()) is not None:
                if isinstance(event, LinkClosed):
                    closed.append(event)
            if not data:
                return

    async with trio.open_nursery() as nursery:
        nursery.start_soon(read)
        for data in envelopes:
            if closed:
                break
            try:
                await stream.send_all(connection.send(SendRecord(data), trio.current_time()))
            except (trio.BrokenResourceError, trio.ClosedResourceError):
                break
            sent += 1
        with trio.move_on_after(10):
            while not closed:
                await trio.sleep(0.01)
        nursery.cancel_scope.cancel()
    return sent, (closed[0] if closed else None)


class RecordPurpose:
    """An identity whose handshake signatures are made for the record purpose instead:
    the same bytes after the tag, signed under ``palabre/1/record\0``."""

    def __init__(self, inner: Identity) -> None:
        self.inner = inner

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def sign(self, message: bytes) -> bytes:
        assert message.startswith(HELLO_TAG)
        return self.inner.sign(RECORD_TAG + message.removeprefix(HELLO_TAG))


async def _exchange(stream: trio.SocketStream, connection: Connection, until: type) -> Any:
    """Drive ``connection`` over ``stream`` until an event of type ``until`` (None if the
    link closed first)."""
    while True:
        out = connection.data_to_send()
        if out:
            await stream.send_all(out)
        event = connection.next_event()
        if isinstance(event, until):
            out = connection.data_to_send()
            if out:
                await stream.send_all(out)
            return event
        if isinstance(event, LinkClosed):
            print(f"liar: the second link closed early: {event}", flush=True)
            return None
        if event is None:
            data = await stream.receive_some(65536)
            now = trio.current_time()
            if data:
                connection.receive_data(data, now)
            else:
                connection.receive_eof(now)


class FalseAcks:
    """A signer whose ACK of one ply carries a false chain digest."""

    def __init__(self, inner: Any, ply: int) -> None:
        self.inner = inner
        self.ply = ply

    @property
    def key(self) -> bytes:
        return bytes(self.inner.key)

    def sign(self, kind: str, body: Any) -> SignedRecord:
        if kind == "ACK" and body["ply"] == self.ply:
            print(f"liar: false_ack at ply {self.ply}: a false chain digest", flush=True)
            body = {**body, "digest": hashlib.blake2b(body["digest"], digest_size=32).digest()}
        record: SignedRecord = self.inner.sign(kind, body)
        return record


def main(argv: list[str]) -> int:
    args = build_parser().parse_args(argv)
    wanted = lies()

    def setup(peer: Peer) -> None:
        peer.bot_me = False  # it plays its own seat itself, after its lies
        liar = Liar(peer, wanted)
        peer.observers.append(liar)
        false_ack = next((ply for name, ply, _ in wanted if name == "false_ack"), None)

        def lying_signer(identity: Identity, signer: Any) -> Any:
            mine = false_ack is not None and identity is peer.identity
            return FalseAcks(signer, false_ack) if mine else signer

        # the node's seams: its own ACKs signed false, what it signs withheld when idle
        peer.node.seams = NodeSeams(table_output=liar.withhold, signer=lying_signer)

    if args.command == "host":
        return run_host(args, engine_for=find_engine, setup=setup)
    return run_join(args, engine_for=find_engine, setup=setup)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
