"""A game log as the replay screen steps through it: one frame per ply, and the record in order.

Built from what the verifier returns (``client.logs.verifier.Verification``), so the replay shows
exactly the chain the verifier replayed — the same states, digests and plies — and nothing
the verifier did not accept, except records it reported as problems, which are listed as
such (never drawn as plies).

* ``frames[n]`` is the position after ply n (frame 0: the start): the state, who played the
  ply, whether it is final (every peer at the table acked it; a prefix), the verifier's
  problems at that ply, and the pointing marks made on that position;
* ``lines`` is the game's record in file order, as ``palabre log show`` prints it: plies,
  chat, draw offers, takeback asks and consents, problems and halts, each with the ply to
  show when it is chosen (for a chat line: the position on the board when it arrived in this
  file).

Pointing at ply n: for each author, the last POINT in the file whose ``ply`` is n (it
replaces the author's earlier marks; one with neither arrows nor squares clears them).

Invariant: a ``Replay`` never changes after it is built; building it reads the
verification only.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from client.logs.verifier import Verification
from client.logs.verify_report import Player, Problem, Report
from client.rules.bot_names import BotNamer, bot_name
from client.rules.chain import Chain, TableState
from client.rules.clock import running_seat
from client.rules.clock_history import ClockedPly, clock_history
from client.rules.errors import ReplayUnavailable
from client.rules.records import (
    CHAT,
    DRAW_ACCEPT,
    DRAW_OFFER,
    HALT,
    MOVE,
    POINT,
    TAKEBACK,
    TAKEBACK_ASK,
    TAKEBACK_CONSENT,
    SignedRecord,
)
from client.rules.start import TableStart
from client.sessions.session_api import Pointed
from engines import AnyEngine

__all__ = ["Frame", "Line", "Replay"]


@dataclass(frozen=True)
class Frame:
    """The position after ``ply`` (0: the start)."""

    ply: int
    state: TableState
    seat: int | None
    """The seat whose turn the ply was played on (None for the start)."""
    player: int | None
    """The seat whose player made the ply (its controller then)."""
    label: str
    by: str
    """Who signed the ply, as players read it."""
    last_move: tuple[int, ...] | None
    final: bool
    problems: tuple[Problem, ...]
    marks: tuple[Pointed, ...]
    clocks: tuple[int, ...] | None = None
    """Every seat's time left (ms, seat 1 first) once this ply is judged; None on a table
    without a clock.  A ply not judged yet (the last of a cut log) leaves them as before it."""
    clocked: ClockedPly | None = None
    """How the clock judged this ply: the figures, the charge, late or disputed."""
    runs: int | None = None
    """The seat whose clock runs after this ply (the one to move), on a clocked table."""

    @property
    def engine_state(self) -> object:
        return self.state.engine_state

    @property
    def is_takeback(self) -> bool:
        return self.ply > 0 and self.state.record.kind == TAKEBACK


@dataclass(frozen=True)
class Line:
    """One line of the game's record, in the order of the file."""

    kind: str
    """``ply``, ``chat``, ``offer``, ``accept``, ``takeback-ask``, ``takeback-consent``,
    ``problem`` or ``halt``."""
    ply: int
    """The position to show for this line."""
    seat: int | None
    """Whose colour (the author's seat), if any."""
    author: str
    text: str
    about: int | None = None
    """For a takeback ask or consent: the ply to be taken back."""
    undone: bool = False
    """A ply a later TAKEBACK undid (shown struck through)."""


@dataclass(frozen=True)
class Replay:
    name: str
    engine: AnyEngine
    start: TableStart
    report: Report
    frames: tuple[Frame, ...]
    lines: tuple[Line, ...]
    players: tuple[Player, ...]
    """The report's players, each bot named by the replay's ``BotNamer`` (the window's
    translates: ``client.rules.bot_names``)."""

    @property
    def plies(self) -> int:
        return len(self.frames) - 1

    def seat_name(self, seat: int, ply: int = 0) -> str:
        """Who plays ``seat`` at ``ply`` (a bot that replaced a player counts from its ply)."""
        name = f"seat {seat}"
        for player in self.players:
            if player.seat == seat and player.since_ply <= ply:
                name = player.name
        return name

    @classmethod
    def build(cls, verification: Verification, bot_namer: BotNamer = bot_name) -> Replay:
        """The replay of a verified log (``ReplayUnavailable`` if it has no chain); its bots
        named by ``bot_namer``."""
        report, start, chain, engine = (
            verification.report,
            verification.start,
            verification.chain,
            verification.engine,
        )
        if start is None or chain is None or engine is None:
            raise ReplayUnavailable(report.unreadable or "the log's START could not be read")
        marks: dict[int, dict[bytes, Pointed]] = {}
        lines: list[Line] = []
        head = 0
        for entry in verification.entries[1:]:
            record = entry.record
            if entry.status in ("applied", "dropped") and entry.ply is not None:
                if entry.status == "applied":
                    head = entry.ply
                    before = chain.at(head - 1)
                    lines.append(_ply_line(chain.at(head), engine, start, before, bot_namer))
                    if chain.at(head).record.kind == TAKEBACK:
                        _credit_takeback(lines, head - 1)
                continue
            if entry.status == "problem":
                what = record.kind if record is not None else "record"
                text = f"record {entry.number}: a {what} with a problem (not applied)"
                lines.append(Line("problem", head, None, "", text))
                continue
            if record is None:
                continue
            state = chain.at(head)
            seats = state.seats_of(record.author)
            seat = seats[0] if seats else None
            author = _name(start, record.author)
            if record.kind == POINT:
                ply = int(record.body["ply"])
                if 0 <= ply <= chain.head.ply:
                    point = _pointed(record, ply, author, chain.at(ply))
                    marks.setdefault(ply, {})[record.author] = point
            elif record.kind == CHAT:
                lines.append(Line("chat", head, seat, author, str(record.body["text"])))
            elif record.kind == DRAW_OFFER:
                lines.append(Line("offer", head, seat, author, "offers a draw"))
            elif record.kind == DRAW_ACCEPT:
                lines.append(Line("accept", head, seat, author, "accepts a draw"))
            elif record.kind in (TAKEBACK_ASK, TAKEBACK_CONSENT):
                about = int(record.body["ply"]) - 1
                kind, verb = (
                    ("takeback-ask", "asks")
                    if record.kind == TAKEBACK_ASK
                    else ("takeback-consent", "consents")
                )
                text = f"{verb} to take back ply {about}"
                lines.append(Line(kind, head, seat, author, text, about))
            elif record.kind == HALT:
                reason = str(record.body["reason"])
                lines.append(Line("halt", head, seat, author, f"halts the table: {reason}"))
        frames = []
        for state in chain.states:
            ply = state.ply
            shown = tuple(p for p in marks.get(ply, {}).values() if p.arrows or p.squares)
            before = chain.at(max(ply - 1, 0))
            frames.append(_frame(state, before, engine, start, report, shown, bot_namer))
        frames = _with_clocks(frames, chain, engine)
        players = tuple(
            player
            if player.runner is None
            else replace(
                player, name=bot_namer(player.seat, _name(start, player.runner), player.level)
            )
            for player in report.players
        )
        return cls(report.path, engine, start, report, tuple(frames), tuple(lines), players)


def _with_clocks(frames: list[Frame], chain: Chain, engine: AnyEngine) -> list[Frame]:
    """Each frame with every seat's clock once its ply is judged (``clock_history``: the
    verifier's own verdicts), and whose clock runs next; unchanged without a clock."""
    spec = chain.start.clock
    first = chain.at(0).clock
    if spec is None or first is None:
        return frames
    judged = {ply.ply: ply for ply in clock_history(chain)}
    remaining = first.clocks.remaining
    timed = []
    for frame in frames:
        clocked = judged.get(frame.ply)
        if clocked is not None:
            remaining = clocked.remaining
        runs = running_seat(engine, frame.engine_state)
        timed.append(replace(frame, clocks=remaining, clocked=clocked, runs=runs))
    return timed


def _credit_takeback(lines: list[Line], undone: int) -> None:
    """Strike the ply a TAKEBACK (the last line) undid, and credit the TAKEBACK to the player
    who asked: the one who played that ply (a takeback is only ever of the asker's own move),
    not the peer that appended it."""
    for row in range(len(lines) - 2, -1, -1):
        line = lines[row]
        if line.kind == "ply" and line.ply == undone:
            lines[row] = replace(line, undone=True)
            lines[-1] = replace(lines[-1], seat=line.seat, author=line.author)
            return


def _name(start: TableStart, key: bytes) -> str:
    for peer in start.peers:
        if peer.key == key:
            return peer.name or start.name_of(key)
    return start.name_of(key)


def _pointed(record: SignedRecord, ply: int, author: str, state: TableState) -> Pointed:
    seats = state.seats_of(record.author)
    arrows = tuple((int(a), int(b)) for a, b in record.body["arrows"])
    squares = tuple(int(s) for s in record.body["squares"])
    return Pointed(ply, seats[0] if seats else None, author, arrows, squares)


def _player(engine: AnyEngine, before: TableState, seat: int | None) -> int | None:
    if seat is None:
        return None
    return engine.controller(before.engine_state, seat)


def _ply_line(
    state: TableState, engine: AnyEngine, start: TableStart, before: TableState, namer: BotNamer
) -> Line:
    player = _player(engine, before, state.seat)
    return Line("ply", state.ply, player, _signer(start, before, state.record, namer), state.label)


def _signer(start: TableStart, before: TableState, record: SignedRecord, namer: BotNamer) -> str:
    """``Ann``, or ``Bot 3 of Ann (strong)`` (the verifier's words for the players)."""
    for spec in before.seats:
        runner = spec.bot_runner
        if spec.key == record.author and runner is not None:
            return namer(spec.seat, _name(start, runner), spec.bot_level)
    return _name(start, record.author)


def _frame(
    state: TableState,
    before: TableState,
    engine: AnyEngine,
    start: TableStart,
    report: Report,
    marks: tuple[Pointed, ...],
    namer: BotNamer,
) -> Frame:
    ply = state.ply
    record = state.record
    last = tuple(int(n) for n in record.body["move"]) if ply and record.kind == MOVE else None
    return Frame(
        ply=ply,
        state=state,
        seat=state.seat,
        player=_player(engine, before, state.seat) if ply else None,
        label=state.label if ply else "start",
        by=_signer(start, before, record, namer) if ply else _name(start, start.host),
        last_move=last,
        final=ply <= report.final,
        problems=tuple(p for p in report.problems if p.ply == ply),
        marks=marks,
    )
