"""The corpus's crafted logs: one honest short game per kind, then each check of
docs/LOG_FORMAT.md broken on purpose, in the order that document checks them.

Every log is signed record by record by ``tests.client.gamelogs.Script``, which holds every
key of the table (the keys kept in conformance/keys.json) and keeps the chain with the
table's own rules, so a wrong record is a *signed* wrong record: the lies a player can tell
with its own key.  Each case states what a verifier must find -- the exit code and the first
problem (its ply and its code, LOG_FORMAT.md section 6) -- by construction; the corpus test
checks that ``palabre verify`` agrees.
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from client.rules.ending import result_body
from client.rules.records import SignedRecord
from client.rules.seq_book import SEQ_WINDOW
from engines import find_engine
from net.logfile import MAGIC
from tests.client.envelopes import Identity, raw_record, signed
from tests.client.gamelogs import Script
from tests.conformance.corpus_keys import KeyBook

GAMES: dict[str, tuple[list[str], dict[str, Any]]] = {
    "discorder": (["A", "B"], {"seats": 2}),
    "consensus": (["A", "B", "C", "D"], {"seats": 4}),
    "forbans": (["A", "B", "bot:B"], {"seats": 3}),
    "cognes": (["A", "bot:A", "B"], {"seats": 3, "coins": 8, "min_gain": 120}),
}
OUTSIDER = 999
MADE: list[Game] = []
"""Every game built since the last look (their keys go to conformance/keys.json)."""


@dataclass
class Crafted:
    name: str
    what: str
    data: bytes
    exit: int
    first: tuple[int | None, str] | None


def frame(envelopes: list[bytes]) -> bytes:
    return MAGIC + b"".join(struct.pack(">I", len(e)) + e for e in envelopes)


def table_id_of(seed: int) -> bytes:
    """The seed in every byte, as the corpus always had; past 255, the seed written out."""
    return bytes([seed] * 16) if seed < 256 else seed.to_bytes(16, "big")


class Game:
    """A short honest game being written: START, the genesis acked, ``plies`` moves acked,
    a chat line; ``finish`` ends it by an agreed draw, acked and ENDed by every peer."""

    def __init__(self, game: str, seed: int, plies: int = 3) -> None:
        seats, params = GAMES[game]
        self.engine = find_engine(game)
        self.s = Script(self.engine, seats, params, seed=seed, table_id=table_id_of(seed))
        self.seed = seed
        MADE.append(self)
        self.s.ack()
        self.s.play(plies)
        self.s.sign("A", "CHAT", {"text": "bonne partie"})

    # --- who is who ---------------------------------------------------------------------
    @property
    def head(self) -> Any:
        return self.s.chain.head

    def to_move(self) -> int:
        seat = self.engine.to_move(self.head.engine_state)
        assert seat is not None
        return seat

    def mover(self) -> str:
        """The name whose key signs the next ply (a peer, or ``botN``)."""
        state = self.head.engine_state
        return self.s.name_of(self.head.seat_key(self.engine.controller(state, self.to_move())))

    def peers(self) -> list[str]:
        return [self.s.name_of(k) for k in self.head.peers]

    def not_mover(self) -> str:
        """A peer that does not control the seat to move."""
        mover = self.mover()
        runner = self.runner_name(mover)
        return next(p for p in self.peers() if p != runner)

    def runner_name(self, name: str) -> str:
        key = self.s.keys[name].key
        for spec in self.head.seats:
            if spec.key == key and spec.runner not in (None, key):
                return self.s.name_of(spec.runner)
        return name

    def prev(self) -> dict[str, Any]:
        return {"ply": self.head.ply + 1, "prev": self.head.chain_digest}

    def legal_wire(self, index: int = 0) -> list[int]:
        moves = self.engine.legal_moves(self.head.engine_state)
        return list(self.engine.move_to_wire(moves[index % len(moves)]))

    def illegal_wire(self) -> list[int]:
        """A well-formed move the engine refuses here: a legal one with its last number
        changed until it is no longer legal (an occupied cell, a piece not there, ...)."""
        state = self.head.engine_state
        legal = {tuple(self.engine.move_to_wire(m)) for m in self.engine.legal_moves(state)}
        base = self.legal_wire()
        for step in range(1, 4096):
            for delta in (step, -step):
                wire = [*base[:-1], base[-1] + delta]
                if tuple(wire) not in legal and self._engine_refuses(wire):
                    return wire
        raise AssertionError("no illegal move found")

    def _engine_refuses(self, wire: list[int]) -> bool:
        try:
            move = self.engine.move_from_wire(wire)
        except Exception:
            return False
        try:
            self.engine.apply(self.head.engine_state, move)
        except Exception:
            return True
        return False

    # --- records ------------------------------------------------------------------------
    def sign(self, who: str, kind: str, body: dict[str, Any], *, log: bool = True) -> SignedRecord:
        return self.s.sign(who, kind, body, log=log)

    def log_raw(self, envelope: bytes) -> None:
        """Append bytes as a record of the file without the chain seeing them."""
        from client.rules.records import SignedRecord as _R

        self.s.records.append(_R(b"", "RAW", b"", 0, {}, b"", envelope))

    def move(self) -> SignedRecord:
        record = self.s.move()
        return record

    def acks(self, *names: str) -> None:
        self.s.ack(*names)

    def draw(self) -> None:
        accepts = [self.sign(p, "DRAW_ACCEPT", self.prev()).envelope for p in self.peers()]
        self.sign(self.runner_name(self.mover()), "DRAW_OFFER", self.prev())
        self.s.ply(self.mover(), "DRAW", acceptances=accepts)

    def finish(self, *, ends: tuple[str, ...] = ()) -> None:
        self.draw()
        self.acks()
        self.s.end(*ends)

    def outcome_body(self) -> dict[str, Any]:
        outcome = self.s.chain.outcome()
        assert outcome is not None
        return result_body(outcome)

    def end_body(self, result: dict[str, Any]) -> dict[str, Any]:
        return {"ply": self.head.ply, "digest": self.head.chain_digest, "result": result}

    def envelopes(self) -> list[bytes]:
        return [r.envelope for r in self.s.records]

    def data(self) -> bytes:
        return frame(self.envelopes())


Case = Callable[[str, int], tuple[str, bytes, int, tuple[int | None, str] | None]]
CASES: list[tuple[str, Case]] = []


def case(name: str) -> Callable[[Case], Case]:
    def register(function: Case) -> Case:
        CASES.append((name, function))
        return function

    return register


LATER_CASES: list[tuple[str, Case]] = []
"""Cases added after the corpus's first cases: seeded after them all, so that adding one
leaves the bytes of every earlier log as they were."""


def later_case(name: str) -> Callable[[Case], Case]:
    def register(function: Case) -> Case:
        LATER_CASES.append((name, function))
        return function

    return register


def honest(game: str, seed: int) -> Game:
    g = Game(game, seed)
    return g


# --- 0. honest --------------------------------------------------------------------------
@case("honest")
def _honest(game: str, seed: int):  # type: ignore[no-untyped-def]
    g = honest(game, seed)
    g.finish()
    return "an honest short game ended by an agreed draw", g.data(), 0, None


# --- 1. the file: framing, damage, torn tails --------------------------------------------
def finished(game: str, seed: int) -> Game:
    g = honest(game, seed)
    g.finish()
    return g


def file_case(
    name: str,
    what: str,
    edit: Callable[[bytes], bytes],
    exit_code: int,
    first: tuple[int | None, str] | None,
) -> None:
    """A case made by editing the bytes of a finished honest game's file."""

    def build(game, seed):  # type: ignore[no-untyped-def]
        return what, edit(finished(game, seed).data()), exit_code, first

    CASES.append((name, build))


file_case(
    "bad-magic",
    "the magic line says another format",
    lambda data: b"palabre-log/2\n" + data[14:],
    2,
    None,
)
file_case(
    "torn-in-length",
    "a crash cut the file two bytes into a record's length",
    lambda data: data + b"\x00\x00",
    3,
    (None, "torn-tail"),
)
file_case(
    "bad-length-at-end",
    "a record length of 0 ends the file",
    lambda data: data + b"\x00\x00\x00\x00ab",
    1,
    (None, "bad-length"),
)


@case("magic-only")
def _magic_only(game, seed):  # type: ignore[no-untyped-def]
    return "the magic line and nothing else", MAGIC, 3, (0, "no-record")


@case("torn-in-envelope")
def _torn_envelope(game, seed):  # type: ignore[no-untyped-def]
    g = finished(game, seed)
    g.sign("B", "CHAT", {"text": "merci"})
    data = g.data()
    return "a crash cut a last CHAT 30 bytes short", data[:-30], 3, (None, "torn-tail")


@case("damaged-prefix")
def _damaged_prefix(game, seed):  # type: ignore[no-untyped-def]
    g = finished(game, seed)
    envelopes = g.envelopes()
    data = bytearray(frame(envelopes))
    at = len(frame(envelopes[:5]))
    data[at : at + 4] = struct.pack(">I", len(envelopes[5]) + 7000)
    return (
        "the length prefix of record 6 is wrong; the record after it is whole",
        bytes(data),
        1,
        (None, "damaged"),
    )


@case("damaged-garbage")
def _garbage(game, seed):  # type: ignore[no-untyped-def]
    g = finished(game, seed)
    envelopes = g.envelopes()
    head = frame(envelopes[:5])
    data = head + b"\xff" * 77 + frame(envelopes[5:])[14:]
    return "77 bytes of garbage between records 5 and 6", data, 1, (None, "damaged")


# --- START ----------------------------------------------------------------------------
@case("start-flipped")
def _start_flipped(game, seed):  # type: ignore[no-untyped-def]
    data = bytearray(finished(game, seed).data())
    data[14 + 4 + 40] ^= 1
    return "a bit of START's payload flipped", bytes(data), 1, (0, "bad-start")


@case("start-signed-by-second-peer")
def _start_second(game, seed):  # type: ignore[no-untyped-def]
    g = finished(game, seed)
    start = g.s.start
    forged = signed(g.s.keys["B"], g.s.table_id, 1, "START", dict(start.body))
    envelopes = g.envelopes()
    return (
        "START signed by the second peer, not the first",
        frame([forged.envelope, *envelopes[1:]]),
        1,
        (0, "bad-start"),
    )


@case("start-bad-options")
def _start_options(game, seed):  # type: ignore[no-untyped-def]
    g = finished(game, seed)
    body = dict(g.s.start.body)
    body["options"] = {**body["options"], "nonsense": 3}
    forged = signed(g.s.keys["A"], g.s.table_id, 1, "START", body)
    return (
        "START with an option the engine refuses",
        frame([forged.envelope, *g.envelopes()[1:]]),
        1,
        (0, "bad-start"),
    )


@later_case("start-level-on-person")
def _start_level_on_person(game, seed):  # type: ignore[no-untyped-def]
    g = finished(game, seed)
    body = dict(g.s.start.body)
    seats = [dict(seat) for seat in body["seats"]]
    seats[0]["level"] = "strong"  # the optional field a bot seat may carry (LOG_FORMAT.md)
    body["seats"] = seats
    forged = signed(g.s.keys["A"], g.s.table_id, 1, "START", body)
    return (
        "START gives a person's seat a bot level",
        frame([forged.envelope, *g.envelopes()[1:]]),
        1,
        (0, "bad-start"),
    )


@case("start-unknown-engine")
def _start_engine(game, seed):  # type: ignore[no-untyped-def]
    g = finished(game, seed)
    body = {**g.s.start.body, "engine_version": "99"}
    forged = signed(g.s.keys["A"], g.s.table_id, 1, "START", body)
    return (
        "START pins an engine version this verifier does not have",
        frame([forged.envelope, *g.envelopes()[1:]]),
        2,
        None,
    )


@case("first-not-start")
def _first_not_start(game, seed):  # type: ignore[no-untyped-def]
    g = finished(game, seed)
    return "the first record is an ACK, not START", frame(g.envelopes()[1:]), 2, None


# --- steps 1 to 6 -------------------------------------------------------------------------
def insert_at_end_of_play(game: str, seed: int, make: Callable[[Game], None]) -> Game:
    g = honest(game, seed)
    make(g)
    g.finish()
    return g


def step_case(
    name: str, what: str, code: str, make: Callable[[Game], None], ply: int | None = None
) -> None:
    def build(game, seed):  # type: ignore[no-untyped-def]
        g = insert_at_end_of_play(game, seed, make)
        return what, g.data(), 1, (ply, code)

    CASES.append((name, build))


def _not_envelope(g: Game) -> None:
    g.log_raw(b"\x93\xc4\x20" + bytes(32) + b"\xc4\x03abc" + b"\xc4\x40" + bytes(63))


def _duplicate(g: Game) -> None:
    g.log_raw(g.s.records[3].envelope)


def _outsider(g: Game) -> None:
    g.log_raw(signed(Identity(OUTSIDER), g.s.table_id, 1, "CHAT", {"text": "hello"}).envelope)


def _bad_signature(g: Game) -> None:
    record = g.sign("B", "CHAT", {"text": "salut"})
    envelope = bytearray(record.envelope)
    envelope[-1] ^= 1
    g.s.records[-1] = SignedRecord(record.author, "RAW", b"", 0, {}, b"", bytes(envelope))


def _malformed(g: Game) -> None:
    seq = g.s.seqs[g.s.keys["B"].key] = g.s.seqs.get(g.s.keys["B"].key, 0) + 1
    g.log_raw(raw_record(g.s.keys["B"], g.s.table_id, seq, 9, {"text": "x", "extra": 1}).envelope)


def _other_table(g: Game) -> None:
    seq = g.s.seqs[g.s.keys["B"].key] = g.s.seqs.get(g.s.keys["B"].key, 0) + 1
    g.log_raw(signed(g.s.keys["B"], bytes(16), seq, "CHAT", {"text": "wrong table"}).envelope)


def _seq_jump(g: Game) -> None:
    top = g.s.seqs[g.s.keys["B"].key]
    g.log_raw(
        signed(g.s.keys["B"], g.s.table_id, top + SEQ_WINDOW + 1, "CHAT", {"text": "far"}).envelope
    )


def _seq_reuse(g: Game) -> None:
    top = g.s.seqs[g.s.keys["B"].key]
    g.log_raw(signed(g.s.keys["B"], g.s.table_id, top, "CHAT", {"text": "again"}).envelope)


def _second_start(g: Game) -> None:
    g.sign("A", "START", dict(g.s.start.body))


def _bot_chat(g: Game) -> None:
    bot = next((n for n in g.s.keys if n.startswith("bot")), None)
    assert bot is not None
    g.sign(bot, "CHAT", {"text": "I am a bot"})


step_case(
    "not-envelope", "a framed record that is no signed envelope", "not-envelope", _not_envelope
)
step_case("duplicate", "a copy of record 4 (an ACK) at the end of play", "duplicate", _duplicate)
step_case("outsider", "a CHAT signed by a key START does not know", "outsider", _outsider)
step_case(
    "bad-signature",
    "a CHAT whose signature's last byte is flipped",
    "bad-signature",
    _bad_signature,
)
step_case("malformed", "a CHAT body with a field too many, really signed", "malformed", _malformed)
step_case("other-table", "a CHAT signed for another table id", "other-table", _other_table)
step_case(
    "seq-jump", "a CHAT whose seq is more than SEQ_WINDOW past its author's", "seq-jump", _seq_jump
)
step_case("seq-reuse", "a CHAT reusing its author's last seq", "seq-reuse", _seq_reuse)
step_case("second-start", "START signed again later by the host", "second-start", _second_start)


# --- ply records: order, prev, turn, signer, legality -------------------------------------
def ply_lie(name: str, what: str, code: str, make: Callable[[Game], None], at: int = 0) -> None:
    """A lie for the next ply inserted before the honest record of that ply."""

    def build(game, seed):  # type: ignore[no-untyped-def]
        g = Game(game, seed, plies=3 + at)
        make(g)
        ply = g.head.ply + 1  # after any plies ``make`` played first
        g.finish()
        return what, g.data(), 1, (ply, code)

    CASES.append((name if not at else f"{name}-later", build))


def _wrong_prev(g: Game) -> None:
    g.sign(
        g.mover(),
        "MOVE",
        {**g.prev(), "prev": bytes(32), "seat": g.to_move(), "move": g.legal_wire()},
    )


def _wrong_signer(g: Game) -> None:
    g.sign(g.not_mover(), "MOVE", {**g.prev(), "seat": g.to_move(), "move": g.legal_wire()})


def _not_its_turn(g: Game) -> None:
    other = 1 if g.to_move() != 1 else 2
    g.sign(g.mover(), "MOVE", {**g.prev(), "seat": other, "move": g.legal_wire()})


def _illegal(g: Game) -> None:
    g.sign(g.mover(), "MOVE", {**g.prev(), "seat": g.to_move(), "move": g.illegal_wire()})


def _resign_out_of_turn(g: Game) -> None:
    seat = next(s.seat for s in g.head.seats if g.s.name_of(s.key) == g.not_mover())
    g.sign(g.not_mover(), "RESIGN", {**g.prev(), "seat": seat})


def _draw_out_of_turn(g: Game) -> None:
    accepts = [g.sign(p, "DRAW_ACCEPT", g.prev()).envelope for p in g.peers()]
    g.sign(g.not_mover(), "DRAW", {**g.prev(), "acceptances": accepts})


def _draw_missing_accept(g: Game) -> None:
    accepts = [g.sign(p, "DRAW_ACCEPT", g.prev()).envelope for p in g.peers()[:-1]]
    g.sign(g.mover(), "DRAW", {**g.prev(), "acceptances": accepts})


def _draw_stale_accept(g: Game) -> None:
    stale = {"ply": g.head.ply, "prev": g.s.chain.at(g.head.ply - 1).chain_digest}
    accepts = [g.sign(p, "DRAW_ACCEPT", stale).envelope for p in g.peers()]
    g.sign(g.mover(), "DRAW", {**g.prev(), "acceptances": accepts})


@later_case("acks-without-clock")
def _acks_without_clock(game, seed):  # type: ignore[no-untyped-def]
    g = Game(game, seed)
    _acks_unclocked(g)
    ply = g.head.ply + 1
    g.finish()
    return (
        "a MOVE carrying the ACKs of the ply before it, at a table without a clock",
        g.data(),
        1,
        (ply, "bad-acks"),
    )


def _acks_unclocked(g: Game) -> None:
    """A MOVE carrying the ACKs of the ply before it, at a table without a clock."""
    before = {"ply": g.head.ply, "digest": g.head.chain_digest}
    carried = [g.sign(p, "ACK", before, log=False).envelope for p in g.peers()]
    body = {**g.prev(), "seat": g.to_move(), "move": g.legal_wire(), "acks": carried}
    g.sign(g.mover(), "MOVE", body)


def person_moved_last(g: Game) -> None:
    """Play on until the last ply is a person's own move (a takeback's asker's)."""
    while g.s.chain.head.record.author not in g.head.peers:
        g.move()
        g.acks()


def _takeback_wrong_signer(g: Game) -> None:
    person_moved_last(g)
    consents = [g.sign(p, "TAKEBACK_CONSENT", g.prev()).envelope for p in g.peers()]
    g.sign(g.not_mover(), "TAKEBACK", {**g.prev(), "consents": consents})


def _takeback_missing_consent(g: Game) -> None:
    person_moved_last(g)
    consents = [g.sign(p, "TAKEBACK_CONSENT", g.prev()).envelope for p in g.peers()[:-1]]
    g.sign(g.mover(), "TAKEBACK", {**g.prev(), "consents": consents})


ply_lie(
    "wrong-prev", "a MOVE whose prev is not the chain digest before it", "wrong-prev", _wrong_prev
)
ply_lie(
    "wrong-signer",
    "a MOVE for the seat to move signed by another player",
    "wrong-signer",
    _wrong_signer,
)
ply_lie(
    "wrong-signer",
    "a MOVE for the seat to move signed by another player",
    "wrong-signer",
    _wrong_signer,
    at=1,
)
ply_lie(
    "not-its-turn",
    "the player to move signs a MOVE for another seat",
    "not-its-turn",
    _not_its_turn,
)
ply_lie(
    "illegal-move",
    "the player to move re-signs an illegal move before its real one",
    "illegal-move",
    _illegal,
)
ply_lie(
    "illegal-move",
    "the player to move re-signs an illegal move before its real one",
    "illegal-move",
    _illegal,
    at=1,
)
ply_lie("resign-out-of-turn", "a player not to move resigns", "not-its-turn", _resign_out_of_turn)
ply_lie(
    "draw-out-of-turn",
    "a player not to move signs a DRAW with every acceptance",
    "wrong-signer",
    _draw_out_of_turn,
)
ply_lie(
    "draw-missing-acceptance",
    "a DRAW without the last peer's acceptance",
    "bad-consents",
    _draw_missing_accept,
)
ply_lie(
    "draw-stale-acceptances",
    "a DRAW whose acceptances bind the ply before",
    "bad-consents",
    _draw_stale_accept,
)
ply_lie(
    "takeback-out-of-turn",
    "a TAKEBACK signed by the player who just moved",
    "bad-takeback",
    _takeback_wrong_signer,
)
ply_lie(
    "takeback-missing-consent",
    "a TAKEBACK without the last peer's consent",
    "bad-consents",
    _takeback_missing_consent,
)


@case("out-of-order")
def _out_of_order(game, seed):  # type: ignore[no-untyped-def]
    g = finished(game, seed)
    records = g.s.records
    plies = [i for i, r in enumerate(records) if r.kind == "MOVE"]
    a, b = plies[1], plies[2]  # ply 3's MOVE moved just before ply 2's
    moved = [*records[:a], records[b], *[r for i, r in enumerate(records[a:], a) if i != b]]
    return (
        "ply 3's MOVE moved before ply 2's (reported at ply 2, the one missing)",
        frame([r.envelope for r in moved]),
        1,
        (2, "out-of-order"),
    )


@case("unreplayed")
def _unreplayed(game, seed):  # type: ignore[no-untyped-def]
    g = honest(game, seed)
    missing = g.head.ply + 1
    g.sign(
        g.mover(),
        "MOVE",
        {**g.prev(), "ply": g.head.ply + 5, "seat": g.to_move(), "move": g.legal_wire()},
    )
    g.finish()
    return (
        "a MOVE for a ply five ahead that never comes (out of order at the ply missing, "
        "then unreplayed at the end)",
        g.data(),
        1,
        (missing, "out-of-order"),
    )


@case("after-end")
def _after_end(game, seed):  # type: ignore[no-untyped-def]
    g = finished(game, seed)
    ply = g.head.ply + 1
    g.sign(g.peers()[0], "RESIGN", {**g.prev(), "seat": 1})
    return "a RESIGN after the agreed draw", g.data(), 1, (ply, "after-end")


@case("equivocation")
def _equivocation(game, seed):  # type: ignore[no-untyped-def]
    g = honest(game, seed)
    before = g.head
    g.move()
    wire = list(g.s.records[-1].body["move"])
    g.acks()
    state = before.engine_state
    legal = [list(g.engine.move_to_wire(m)) for m in g.engine.legal_moves(state)]
    other = next(w for w in legal if w != wire)
    seat = g.engine.to_move(state)
    who = g.s.name_of(before.seat_key(g.engine.controller(state, seat)))
    g.sign(
        who,
        "MOVE",
        {"ply": before.ply + 1, "prev": before.chain_digest, "seat": seat, "move": other},
    )
    g.finish()
    return (
        "the player who moved signs a second legal move for the same ply",
        g.data(),
        1,
        (before.ply + 1, "equivocation"),
    )


# --- claims -----------------------------------------------------------------------------
@case("claim-too-early")
def _too_early(game, seed):  # type: ignore[no-untyped-def]
    g = honest(game, seed)
    g.move()
    ack = g.s.records[-1]
    g.acks()
    records = g.s.records
    own = next(r for r in reversed(records) if r.kind == "ACK")
    records.remove(own)
    records.insert(records.index(ack), own)
    ply = g.head.ply
    g.finish()
    return "an ACK moved before the ply it acks", g.data(), 1, (ply, "claim-too-early")


@case("wrong-digest")
def _wrong_digest(game, seed):  # type: ignore[no-untyped-def]
    g = honest(game, seed)
    g.move()
    ply = g.head.ply
    last = g.peers()[-1]
    g.acks(*g.peers()[:-1])
    g.sign(last, "ACK", {"ply": ply, "digest": bytes(32)})
    g.finish()
    return "a peer acks a chain digest the replay does not give", g.data(), 1, (ply, "wrong-digest")


@case("double-claim")
def _double_claim(game, seed):  # type: ignore[no-untyped-def]
    g = honest(game, seed)
    ply = g.head.ply
    g.sign(g.peers()[-1], "ACK", {"ply": ply, "digest": bytes(32)})
    g.finish()
    return (
        "a peer signs a second, different ACK for a ply it acked",
        g.data(),
        1,
        (ply, "double-claim"),
    )


@case("claim-beyond-log")
def _beyond(game, seed):  # type: ignore[no-untyped-def]
    g = finished(game, seed)
    ply = g.head.ply
    g.sign(g.peers()[0], "ACK", {"ply": ply + 3, "digest": bytes(32)})
    return "an ACK for a ply the log never holds", g.data(), 1, (ply + 3, "claim-too-early")


@case("end-not-over")
def _end_not_over(game, seed):  # type: ignore[no-untyped-def]
    g = honest(game, seed)
    ply = g.head.ply
    fake = {
        "winners": [1],
        "draw": False,
        "reason": "resignation",
        "summary": "x",
        "scores": [],
        "absent": [],
    }
    g.sign(g.peers()[-1], "END", g.end_body(fake))
    g.finish()
    return "an END in the middle of the game", g.data(), 1, (ply, "end-not-over")


@case("false-end")
def _false_end(game, seed):  # type: ignore[no-untyped-def]
    g = honest(game, seed)
    g.draw()
    g.acks()
    result = {**g.outcome_body(), "draw": False, "winners": [1], "reason": "resignation"}
    for p in g.peers():
        g.sign(p, "END", g.end_body(result))
    return (
        "every peer signs an END claiming seat 1 won an agreed draw",
        g.data(),
        1,
        (g.head.ply, "wrong-result"),
    )


@case("false-abandon")
def _false_abandon(game, seed):  # type: ignore[no-untyped-def]
    g = honest(game, seed)
    last = g.peers()[-1]
    absent = [g.s.keys[last].key]
    result = {
        "winners": [1],
        "draw": False,
        "reason": "abandoned",
        "summary": "abandoned",
        "scores": [],
        "absent": absent,
    }
    for p in g.peers()[:-1]:
        g.sign(p, "END", g.end_body(result))
    if len(g.peers()) == 2:  # what a 2-peer table whose other peer vanished really signs
        return (
            "one of two peers ends the table as abandoned: what a log cannot tell from a "
            "real abandonment (LOG_FORMAT.md section 4), valid",
            g.data(),
            0,
            None,
        )
    return (
        "three of four peers sign an abandoned END: more than half are left, so the "
        "table was not abandoned",
        g.data(),
        1,
        (g.head.ply, "bad-abandon"),
    )


# --- HALT -------------------------------------------------------------------------------
def _halted_by_the_last_peer(g, reason, records):  # type: ignore[no-untyped-def]
    """The last peer signs a HALT of the head with ``reason`` and ``records``; its ply."""
    from engines.canonical import encode_value

    ply = g.head.ply
    body = {
        "ply": ply,
        "digest": g.head.chain_digest,
        "state": encode_value(g.head.engine_state),
        "reason": reason,
        "records": records,
    }
    g.sign(g.peers()[-1], "HALT", body)
    g.finish()
    return ply


@case("halt")
def _halt(game, seed):  # type: ignore[no-untyped-def]
    g = honest(game, seed)
    ply = _halted_by_the_last_peer(g, "I do not like this game", [])
    return "a peer halts the table with a reason of its own", g.data(), 1, (ply, "halt")


@case("halt-bad-record")
def _halt_bad(game, seed):  # type: ignore[no-untyped-def]
    g = honest(game, seed)
    ply = _halted_by_the_last_peer(g, "evidence", [b"\x93" + bytes(40)])
    return "a HALT carrying bytes that are no record", g.data(), 1, (ply, "halt")


# --- incomplete ---------------------------------------------------------------------------
@case("not-final")
def _not_final(game, seed):  # type: ignore[no-untyped-def]
    g = honest(game, seed)
    g.move()
    ply = g.head.ply
    g.acks(*g.peers()[:-1])
    g.finish()
    return "the last peer never acks one ply", g.data(), 3, (ply, "not-final")


@case("not-over")
def _not_over(game, seed):  # type: ignore[no-untyped-def]
    g = honest(game, seed)
    return "the file stops mid-game, every ply acked", g.data(), 3, (g.head.ply, "not-over")


@case("no-end")
def _no_end(game, seed):  # type: ignore[no-untyped-def]
    g = honest(game, seed)
    g.draw()
    g.acks()
    g.s.end(*g.peers()[:-1])
    return "the last peer signs no END", g.data(), 3, (g.head.ply, "no-end")


@case("missing-records")
def _missing(game, seed):  # type: ignore[no-untyped-def]
    g = honest(game, seed)
    g.sign("B", "CHAT", {"text": "lost"})
    g.s.records.pop()
    g.finish()
    return (
        "one of B's records never reached the writer (a seq gap)",
        g.data(),
        3,
        (None, "missing-records"),
    )


# --- cases on 3+ peers: REMOVE and what removed peers sign ---------------------------------
def remove_game(seed: int) -> Game:
    g = Game("consensus", seed, plies=4)
    return g


def votes_and_remove(
    g: Game,
    removed: str = "D",
    voters: tuple[str, ...] = ("A", "B", "C"),
    runner: str = "A",
    appender: str = "A",
) -> None:
    head = g.head
    seats = [s.seat for s in head.seats if g.s.name_of(s.key) == removed]
    body = {
        **g.prev(),
        "removed": [g.s.keys[removed].key],
        "replacements": [
            {"seat": seat, "key": g.s.identity(f"new{seat}").key, "runner": g.s.keys[runner].key}
            for seat in seats
        ],
    }
    votes = [g.sign(v, "VOTE", body).envelope for v in voters]
    extra = {k: v for k, v in body.items() if k not in ("ply", "prev")}
    if appender == "A" and len(voters) == 3 and runner == "A":
        g.s.ply(appender, "REMOVE", **extra, votes=votes)
    else:
        g.sign(appender, "REMOVE", {**g.prev(), **extra, "votes": votes})


REMOVE_CASES: list[
    tuple[str, str, Callable[[Game], tuple[int, tuple[int | None, str] | None]]]
] = []
LEAVE_CASES: list[tuple[str, str, Callable[[Game], tuple[int, tuple[int | None, str] | None]]]] = []
"""Built last (after LATER_CASES), so that adding them left every older file's bytes alone."""


def remove_case(name: str, what: str, cases: list[Any] = REMOVE_CASES):  # type: ignore[no-untyped-def]
    def register(function):  # type: ignore[no-untyped-def]
        cases.append((name, what, function))
        return function

    return register


def remove_d_and_finish(g: Game, then: Callable[[], object] = lambda: None, plies: int = 1) -> None:
    """The REMOVE of D, acked; ``then`` (what D signs late, say); ``plies`` moves; the draw."""
    votes_and_remove(g)
    g.acks()
    then()
    g.s.play(plies)
    g.finish()


@remove_case("remove-honest", "D is voted off at ply 5; a bot run by A finishes its seat")
def _remove_ok(g: Game):  # type: ignore[no-untyped-def]
    remove_d_and_finish(g, plies=2)
    return 0, None


@remove_case("remove-missing-vote", "a REMOVE without C's vote")
def _remove_vote(g: Game):  # type: ignore[no-untyped-def]
    ply = g.head.ply + 1
    votes_and_remove(g, voters=("A", "B"))
    return 1, (ply, "bad-consents")


@remove_case("remove-wrong-runner", "the replacement bot is given to B, not the lowest seat")
def _remove_runner(g: Game):  # type: ignore[no-untyped-def]
    ply = g.head.ply + 1
    votes_and_remove(g, runner="B")
    return 1, (ply, "bad-remove")


@remove_case("remove-wrong-appender", "the REMOVE is signed by B, not the new bot's runner")
def _remove_appender(g: Game):  # type: ignore[no-untyped-def]
    ply = g.head.ply + 1
    votes_and_remove(g, appender="B")
    return 1, (ply, "bad-remove")


@remove_case("removed-peer-chats", "D signs a CHAT after its REMOVE in the file")
def _removed_chat(g: Game):  # type: ignore[no-untyped-def]
    remove_d_and_finish(g, lambda: g.sign("D", "CHAT", {"text": "I am still here"}))
    return 1, (None, "not-at-table")


@remove_case("removed-peer-acks-later", "D acks a ply after its removal")
def _removed_ack(g: Game):  # type: ignore[no-untyped-def]
    votes_and_remove(g)
    g.acks()
    g.s.play(1)
    g.sign("D", "ACK", {"ply": g.head.ply, "digest": g.head.chain_digest})
    g.finish()
    return 1, (None, "not-at-table")


@remove_case("removed-peer-moves", "D signs a move for its old seat after its removal")
def _removed_move(g: Game):  # type: ignore[no-untyped-def]
    votes_and_remove(g)
    g.acks()
    while g.to_move() != 4:
        g.move()
        g.acks()
    ply = g.head.ply + 1
    g.sign("D", "MOVE", {**g.prev(), "seat": 4, "move": g.legal_wire()})
    g.finish()
    return 1, (ply, "wrong-signer")


@remove_case(
    "removed-peer-late-ack-of-remove-ply", "D's ACK of the REMOVE's own ply, any digest: ignored"
)
def _removed_late_ack(g: Game):  # type: ignore[no-untyped-def]
    remove_d_and_finish(g, lambda: g.sign("D", "ACK", {"ply": g.head.ply, "digest": bytes(32)}))
    return 0, None


def d_leaves(g: Game, digest: bytes | None = None) -> None:
    """D signs LEAVE on the head (its own chain digest there unless ``digest`` is given)."""
    head = g.head
    g.sign(
        "D", "LEAVE", {"ply": head.ply, "digest": head.chain_digest if digest is None else digest}
    )


@remove_case(
    "leave-honest",
    "D leaves at ply 4; the others remove it and a bot finishes its seat",
    LEAVE_CASES,
)
def _leave_ok(g: Game):  # type: ignore[no-untyped-def]
    d_leaves(g)
    remove_d_and_finish(g, plies=2)
    return 0, None


@remove_case(
    "leave-wrong-digest", "D's LEAVE binds a position the chain does not hold", LEAVE_CASES
)
def _leave_bad(g: Game):  # type: ignore[no-untyped-def]
    ply = g.head.ply
    d_leaves(g, bytes(32))
    remove_d_and_finish(g)
    return 1, (ply, "bad-leave")


@remove_case(
    "leave-then-moves", "D leaves, then signs a move for its seat before its removal", LEAVE_CASES
)
def _leave_then_move(g: Game):  # type: ignore[no-untyped-def]
    ply, body = until_d_moves(g)
    d_leaves(g)
    g.s.ply("D", "MOVE", **{k: v for k, v in body.items() if k not in ("ply", "prev")})
    g.acks()
    g.finish()
    return 1, (ply, "after-leave")


def until_d_moves(g: Game) -> tuple[int, dict[str, Any]]:
    """Play until D (seat 4) is to move; the next ply and D's legal move body for it."""
    while g.to_move() != 4:
        g.move()
        g.acks()
    return g.head.ply + 1, {**g.prev(), "seat": 4, "move": g.legal_wire()}


@remove_case("remove-drops-unacked", "D's move nobody else acked is dropped by the REMOVE of D")
def _remove_drops(g: Game):  # type: ignore[no-untyped-def]
    _ply, body = until_d_moves(g)
    late = g.sign("D", "MOVE", body)
    g.sign("D", "ACK", {"ply": body["ply"], "digest": g.s.chain.check(late).chain_digest})
    remove_d_and_finish(g)
    return 0, None


@remove_case("remove-over-ack", "a REMOVE dropping D's move, which B had acked")
def _remove_over_ack(g: Game):  # type: ignore[no-untyped-def]
    ply, body = until_d_moves(g)
    late = g.sign("D", "MOVE", body)
    g.sign("B", "ACK", {"ply": ply, "digest": g.s.chain.check(late).chain_digest})
    votes_and_remove(g)
    return 1, (ply, "remove-over-ack")


@remove_case(
    "removed-peer-late-legal-move",
    "D's legal move for the ply its REMOVE took, arriving after the REMOVE: ignored, not a fork",
)
def _late_legal(g: Game):  # type: ignore[no-untyped-def]
    _ply, body = until_d_moves(g)
    remove_d_and_finish(g, lambda: g.sign("D", "MOVE", body))
    return 0, None


@remove_case(
    "removed-peer-late-illegal-move",
    "D's illegal move for the ply its REMOVE took, arriving after the REMOVE",
)
def _late_illegal(g: Game):  # type: ignore[no-untyped-def]
    ply, body = until_d_moves(g)
    body = {**body, "move": g.illegal_wire()}
    remove_d_and_finish(g, lambda: g.sign("D", "MOVE", body))
    return 1, (ply, "illegal-move")


@remove_case("remove-two-of-four", "a REMOVE of two peers out of four: not more than half stay")
def _remove_half(g: Game):  # type: ignore[no-untyped-def]
    head = g.head
    ply = head.ply + 1
    removed = ["C", "D"]
    seats = [s.seat for s in head.seats if g.s.name_of(s.key) in removed]
    body = {
        **g.prev(),
        "removed": [g.s.keys[n].key for n in removed],
        "replacements": [
            {"seat": seat, "key": g.s.identity(f"new{seat}").key, "runner": g.s.keys["A"].key}
            for seat in seats
        ],
    }
    votes = [g.sign(v, "VOTE", body).envelope for v in ("A", "B")]
    extra = {k: v for k, v in body.items() if k not in ("ply", "prev")}
    g.sign("A", "REMOVE", {**g.prev(), **extra, "votes": votes})
    return 1, (ply, "bad-remove")


def remove_builder(function):  # type: ignore[no-untyped-def]
    def build(game, seed):  # type: ignore[no-untyped-def]
        g = remove_game(seed)
        exit_code, first = function(g)
        if exit_code and first and first[1] in ("bad-remove", "bad-consents", "remove-over-ack"):
            g.finish()
        return g.data(), exit_code, first

    return build


# --- the corpus ---------------------------------------------------------------------------
def crafted_logs(keys: KeyBook) -> Iterator[Crafted]:
    seed = 0

    def of_every_game(cases: list[tuple[str, Case]]) -> Iterator[Crafted]:
        nonlocal seed
        for name, build in cases:
            for game in GAMES:
                seed += 1
                what, data, exit_code, first = build(game, seed)
                keys_of_scripts(keys)
                yield Crafted(f"{game}-{name}", what, data, exit_code, first)

    yield from of_every_game(CASES)
    for name, what, function in REMOVE_CASES:
        for variant in range(3):
            seed += 1
            data, exit_code, first = remove_builder(function)("consensus", seed)
            keys_of_scripts(keys)
            yield Crafted(f"consensus-{name}-{variant + 1}", what, data, exit_code, first)
    yield from of_every_game(LATER_CASES)
    for name, what, function in LEAVE_CASES:
        seed += 1
        data, exit_code, first = remove_builder(function)("consensus", seed)
        keys_of_scripts(keys)
        yield Crafted(f"consensus-{name}", what, data, exit_code, first)


def keys_of_scripts(keys: KeyBook) -> None:
    keys.add(Identity(OUTSIDER), OUTSIDER, "an outsider: no table knows it")
    """The keys of every game built since the last call, with the seeds ``Script`` gave them:
    its peers ``seed*100+600+i``, its bots ``seed*100+650+seat``, any key it made later
    ``700+n`` (n: how many keys it held then)."""
    while MADE:
        g = MADE.pop()
        seats, _ = GAMES[g.engine.name]
        names = list(dict.fromkeys(s.removeprefix("bot:") for s in seats))
        for position, (name, identity) in enumerate(g.s.keys.items()):
            if name in names:
                seed = g.seed * 100 + 600 + names.index(name)
            elif name.startswith("bot") and name[3:].isdigit():
                seed = g.seed * 100 + 650 + int(name[3:])
            else:
                seed = 700 + position
            keys.add(identity, seed, name)
