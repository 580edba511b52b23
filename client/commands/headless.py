"""``palabre host`` and ``palabre join`` in a terminal: ready at once, printed ply by ply.

A headless peer prints the invite (host), the lobby as it fills, each ply in notation when
it becomes final here (every peer acked this peer's chain digest for it), chat, pointing,
draw offers and takeback asks and consents, rejected records, ignored ones (a removed
player's late move) and halts with their evidence files, the result, and a last ``chain:``
line (plies, how many final, the chain digest) that the demo compares across peers.  It
exits with DESIGN.md's codes: 0 ended, 3 halted, 4 join refused, 1 any other error; and 5
when the game ended but not every END reached this peer
(its game file is incomplete: ``palabre verify`` exits 3 on it).

``--trace FILE`` (for ``scripts/bench_net.py``) appends one JSON line per ply sent and per
ply final, with ``time.monotonic()`` (one clock for every process of a machine), then the
bytes this peer wrote and its CPU time.  Test helpers pass ``setup`` (to watch or act on the
peer) and ``engine_for``; the commands never do.
"""

from __future__ import annotations

import json
import logging
import sys
import time
from argparse import Namespace
from collections.abc import Awaitable, Callable
from functools import partial
from typing import TextIO

import trio

from client.bots import kind_of_level
from client.commands.ctrl_c import CtrlC
from client.commands.ignored_words import ignored_sentence
from client.commands.repeats import REPEAT_WINDOW, RepeatSummary
from client.commands.secret_input import GENERATE
from client.commands.terminal import TerminalPlayer
from client.commands.terminal_watch import TerminalWatcher
from client.node.hosting import HostConfig
from client.node.joining import JoinConfig, parse_target
from client.node.lobby import JoinRefused
from client.node.lobby_wire import LobbyChanged, Roster
from client.node.peer_events import (
    EvidenceWritten,
    HostNotice,
    HostReached,
    JoinFailed,
    LinkLost,
    LinkRefused,
    MdnsNote,
    NameWarning,
    PeerEvent,
    RecordsSent,
    Rejoined,
    TableFlooded,
    TableStarted,
)
from client.node.peer_node import NodeConfig, next_role
from client.node.rematch import RematchChanged, RematchReady
from client.profile.settings import SettingsStore
from client.rules.clock_history import lost_on_time, verdict_on
from client.rules.records import CHAIN_KINDS, key_label
from client.rules.removal import ABANDONED, abandoned_outcome
from client.rules.seat_words import named_seats
from client.rules.seated_names import seat_name, seated_names
from client.runtime.peer import Peer
from client.sessions.notices import notice
from client.tabletop.events import (
    ChatReceived,
    DrawAccepted,
    DrawOffered,
    GameOver,
    PeerLeft,
    PlyDropped,
    PlyFinal,
    PointReceived,
    PresenceChanged,
    RecordIgnored,
    TableEnded,
    TableHalted,
    TableNotice,
    TableRejected,
    TakebackAsked,
    TakebackConsented,
    VoteReceived,
)
from client.tabletop.table_view import TableView
from engines import AnyEngine, InvalidParams, Outcome, find_engine
from net.errors import IdentityError, InviteError, LinkError, LogFileError
from net.identity import Identity, load_profile_identity
from net.invite import Invite, format_table_id, new_secret

__all__ = ["Printer", "run_host", "run_join", "table_secret"]

Setup = Callable[[Peer], None]

TWO_MACHINES = (
    "only two machines are at this table, so neither can make the other's player lose on "
    "time: each palabre stops its own player at 0, and the game file marks as disputed "
    "every move the two machines timed on different sides of the limit"
)
"""What a clock between two machines cannot do (the window's lobby says it too)."""


class Printer:
    """Prints what a headless peer sees; one line per thing that happened."""

    def __init__(self, peer: Peer, out: TextIO, trace: TextIO | None = None) -> None:
        self.peer = peer
        self.out = out
        self.trace = trace
        self._known: dict[bytes, str] = {}
        self._bots: dict[int, str] = {}  # the lobby's bot seats, as last said
        self._clock_said = False
        self._machines = 0
        self._halted = False
        self._verdict = ""
        self._evidence = ""
        self._over: GameOver | None = None
        self._rematch: RematchChanged | None = None
        self.lines = RepeatSummary(out)
        """Every line printed, repeats summarised (``client.commands.repeats``)."""
        self.warnings = RepeatSummary(sys.stderr)
        """The ``palabre`` loggers' warnings (a link closed on a fault...), on stderr."""
        self.warnings.setLevel(logging.WARNING)
        palabre = logging.getLogger("palabre")
        palabre.addHandler(self.warnings)
        palabre.propagate = False  # no second copy from logging's last-resort handler

    def say(self, text: str, repeat: tuple[str, str] | None = None) -> None:
        """Print ``text``; a line that may come in a flood carries ``repeat`` (where from,
        what it is) and is summarised past a few (``client.commands.repeats``)."""
        fields = {"name": "palabre.terminal", "msg": text, "levelno": logging.INFO}
        record = logging.makeLogRecord({**fields, "repeat": repeat})
        self.lines.handle(record)

    def flush_repeats(self) -> None:
        """Print the summaries of repeats whose window is over (a timer calls it)."""
        self.lines.flush_due()
        self.warnings.flush_due()

    async def serve_repeats(self) -> None:
        """Print the summaries of repeats as their windows end, while the peer runs."""
        while True:
            await trio.sleep(REPEAT_WINDOW / 2)
            self.flush_repeats()

    def close(self) -> None:
        """The pending summaries, then stop taking the ``palabre`` loggers' warnings."""
        self.lines.close()
        palabre = logging.getLogger("palabre")
        palabre.removeHandler(self.warnings)
        palabre.propagate = not palabre.handlers
        self.warnings.close()

    def _trace(self, event: str, **fields: object) -> None:
        if self.trace is not None:
            line = json.dumps({"t": time.monotonic(), "ev": event, **fields})
            print(line, file=self.trace, flush=True)

    def hosting(self, invite: Invite, game: str) -> None:
        self.say(f"Hosting {game} on port {invite.port}; host key {invite.fingerprint}")
        self.say(f"Invite: {invite}")
        where = f"{invite.addresses[0]}:{invite.port}"
        if invite.secret is None:
            self.say(f"Others join with: palabre join {where}")
        else:
            # Not `--secret SECRET`: other users of a machine read its processes' command lines.
            self.say(
                "Others join with the invite (palabre join - reads it from the input), or: "
                f"palabre join {where} --secret - and type the table secret {invite.secret}"
            )
            self.say("Only players who know the table secret are admitted: share the invite")
            self.say("with your players only, not with the whole network.")

    def __call__(self, event: PeerEvent) -> None:
        match event:
            case HostReached():
                self._on_host_reached(event)
            case JoinFailed():
                self._on_join_failed(event)
            case NameWarning():
                self._on_name_warning(event)
            case MdnsNote():
                self._on_mdns_note(event)
            case LobbyChanged():
                self._on_lobby_changed(event)
            case TableStarted():
                self._on_table_started(event)
            case RecordsSent():
                self._on_records_sent(event)
            case PlyFinal():
                self._on_ply_final(event)
            case TableRejected():
                self._on_table_rejected(event)
            case RecordIgnored():
                self._on_record_ignored(event)
            case LinkRefused():
                self._on_link_refused(event)
            case TableFlooded():
                self._on_table_flooded(event)
            case TableHalted():
                self._on_table_halted(event)
            case EvidenceWritten():
                self._on_evidence_written(event)
            case GameOver():
                self._on_game_over(event)
            case TableEnded():
                self._on_table_ended(event)
            case RematchChanged():
                self._on_rematch_changed(event)
            case RematchReady():
                self._on_rematch_ready(event)
            case ChatReceived():
                self._on_chat_received(event)
            case PointReceived():
                self._on_point_received(event)
            case DrawOffered():
                self._on_draw_offered(event)
            case DrawAccepted():
                self._on_draw_accepted(event)
            case Rejoined():
                self._on_rejoined(event)
            case PresenceChanged():
                self._on_presence_changed(event)
            case VoteReceived():
                self._on_vote_received(event)
            case PeerLeft():
                who = self._peer_name(event.key, event.name)
                self.say(f"left: {who} left the table (ply {event.ply})")
            case PlyDropped():
                self._on_ply_dropped(event)
            case HostNotice():
                self._on_host_notice(event)
            case TableNotice():
                self._on_table_notice(event)
            case TakebackAsked():
                self._on_takeback_asked(event)
            case TakebackConsented():
                self._on_takeback_consented(event)
            case LinkLost():
                self._on_link_lost(event)
            case _:
                pass  # not printed (plies are printed when final, ...)

    # --- before the game ---------------------------------------------------------------------
    def _on_host_reached(self, event: HostReached) -> None:
        # Whoever answered: the host before START, any seated peer when rejoining or watching.
        self.say(f"Linked with {event.remote}; its key {event.fingerprint}")
        port = self.peer.port
        if port:
            self.say(f"Listening on port {port} for the other players' palabres")

    def _on_join_failed(self, event: JoinFailed) -> None:
        what = "join refused" if event.refused else "cannot join"
        print(f"palabre: {what}: {event.reason}", file=sys.stderr, flush=True)

    def _on_name_warning(self, event: NameWarning) -> None:
        self.say(f"WARNING: {event.text}")

    def _on_mdns_note(self, event: MdnsNote) -> None:
        self.say(f"mdns: {event.text}")

    def _on_lobby_changed(self, event: LobbyChanged) -> None:
        roster: Roster = event.roster
        for peer in roster.peers:
            if peer.key not in self._known:
                seat = roster.seat_of(peer.key)
                where = f"seat {seat}" if seat else "no seat"
                spec = roster.seats[seat - 1] if seat else None
                if spec is not None and spec.is_bot:  # its palabre's bot plays it (--bot)
                    where += f", which {roster.holder(spec)} plays"
                self.say(f"lobby: {peer.name} ({key_label(peer.key)}) is at the table, {where}")
        bots = {s.seat: roster.holder(s) for s in roster.seats if s.runner is not None}
        for seat, name in sorted(bots.items()):
            if self._bots.get(seat) != name:
                self.say(f"lobby: {name} is at the table, seat {seat}")
        gone = set(self._known) - {peer.key for peer in roster.peers}
        for key in gone:
            self.say(f"lobby: {self._known[key]} left")
        self._known = {peer.key: peer.name for peer in roster.peers}
        self._bots = bots
        self._say_clock(roster)
        if roster.waiting:
            self.say(f"lobby: waiting: {'; '.join(roster.waiting)}")

    def _say_clock(self, roster: Roster) -> None:
        """The table's clock, once; and each time the table comes to two machines, what a
        clock between two machines cannot do (bots run by a player's machine count as it)."""
        if roster.clock is None:
            return
        if not self._clock_said:
            self._clock_said = True
            minutes, seconds = roster.clock.describe().split("+")
            self.say(f"lobby: clock {minutes} min + {seconds} s a move for each player")
        machines = len(roster.peers)
        if machines == 2 and self._machines != 2:
            self.say(f"lobby: {TWO_MACHINES}")
        self._machines = machines

    def _on_table_started(self, event: TableStarted) -> None:
        start = event.start
        mine = ", ".join(map(str, event.my_seats)) or "none (watching)"
        names = ", ".join(seated_names(start.peers, start.seats))
        self.say(
            f"Start: {start.game}, {_count(len(start.seats), 'seat')}: {names}; your seats: {mine}"
        )
        self.say(f"Game file: {event.path}")

    # --- the game ----------------------------------------------------------------------------
    def _on_records_sent(self, event: RecordsSent) -> None:
        for record in event.records:
            if record.kind in CHAIN_KINDS:
                self._trace("sent", ply=record.body["ply"], kind=record.kind)

    def _on_ply_final(self, event: PlyFinal) -> None:
        self._trace("final", ply=event.ply, cpu=time.process_time())
        if event.ply > 0:
            self.say(self.ply_line(event.ply, "final"))
            self._tell_if_removed(event.ply)

    def _tell_if_removed(self, ply: int) -> None:
        """A removed player is told plainly, not left to find its key in a ply line."""
        table = self._table()
        assert table is not None
        if table.removed_me_at(ply):
            me = table.me
            left = me is not None and table.has_left(me)  # on purpose: not voted off
            self.say(notice("left-watching" if left else "voted-off").english())

    def ply_line(self, ply: int, finality: str) -> str:
        table = self._table()
        assert table is not None
        state = table.chain.at(ply)
        seat = state.seat
        before = table.chain.at(ply - 1)
        author = state.record.author
        who = (
            f"seat {seat}" if seat is not None else self._peer_name(author, table.describe(author))
        )
        if seat is not None:
            player = table.engine.controller(before.engine_state, seat)
            if player != seat:
                who += f" (played by seat {player})"
        verdict = verdict_on(table.chain, ply)
        late = "  (lost on time)" if verdict is not None and verdict.late else ""
        # seats by the names of who played them then (a bot after a removal), as the window
        who, label = (named_seats(text, table.start, before.seats) for text in (who, state.label))
        return f"{ply:4d}. {who:<28} {label:<16} {finality}{late}"

    def _on_table_rejected(self, event: TableRejected) -> None:
        self.say(f"REJECTED: {event.reason}", (key_label(event.record.author), "refused records"))

    def _on_record_ignored(self, event: RecordIgnored) -> None:
        # A removed player's late move, acks and chat arrive once it is back: one line each,
        # summarised past a few (a peer coming back from a long cut has many to send).
        table = self.peer.table
        assert table is not None
        said = ignored_sentence(table, event.record)
        self.say(f"ignored: {said}", (key_label(event.record.author), "ignored records"))

    def _on_link_refused(self, event: LinkRefused) -> None:
        where = _address(event.remote) if event.remote else key_label(event.sender)
        self.say(f"REJECTED: {event.reason}", (where, "records refused on its links"))

    def _on_table_flooded(self, event: TableFlooded) -> None:
        said = notice(event.notice_key, name=event.name, count=f"{event.dropped:,}")
        self.say(f"flood: {said.english()}")

    def _on_table_halted(self, event: TableHalted) -> None:
        self._halted = True
        self.say(f"HALTED at ply {event.evidence.ply}: {event.evidence.reason}")

    def _on_evidence_written(self, event: EvidenceWritten) -> None:
        if event.halted:
            self._verdict, self._evidence = event.verdict, str(event.path)
        else:
            self.say(f"evidence: {event.path}")

    def _on_game_over(self, event: GameOver) -> None:
        self._over = event

    def _on_table_ended(self, event: TableEnded) -> None:
        self._over = None
        self.say(
            f"Result: {self._result(event.outcome)}{self._on_time()} (after {event.ply} "
            "plies; every player's palabre signed it)"
        )

    def _result(self, outcome: Outcome) -> str:
        """The result in the players' words: seats by their names, and an abandoned table's
        absent players by name (the signed summary names them by key, for the game file)."""
        table = self._table()
        abandoned = None if table is None else table.abandoned
        if table is not None and abandoned is not None and outcome.reason == ABANDONED:
            start = table.start
            return abandoned_outcome(
                start, abandoned[1], table.absent_left, start.player_name
            ).summary
        return self._named(outcome.summary)

    def _on_time(self) -> str:
        """`` Ana lost on time.`` for each seat whose clock ran out, else nothing."""
        table = self._table()
        losses = [] if table is None else lost_on_time(table.chain)
        return "".join(
            self._named(f" Seat {seat} lost on time.", at=ply - 1) for seat, ply in losses
        )

    def _named(self, text: str, at: int | None = None) -> str:
        """``text`` (an engine's words) with its seats named as the table seated them after
        ply ``at`` (by default now: a bot that took a removed player's seat, say)."""
        table = self._table()
        if table is None:
            return text
        seats = table.head.seats if at is None else table.chain.at(at).seats
        return named_seats(text, table.start, seats)

    def _on_rematch_changed(self, event: RematchChanged) -> None:
        if event == self._rematch:
            return
        self._rematch = event
        if event.declined:
            self.say(f"rematch: {', '.join(event.declined)} will not play again; no rematch")
        elif event.accepted:
            waiting = f"; waiting for {', '.join(event.waiting)}" if event.waiting else ""
            self.say(f"rematch: {', '.join(event.accepted)} will play again{waiting}")

    def _on_rematch_ready(self, event: RematchReady) -> None:
        self.say("rematch: every player accepted; on to a new table, seats rotated")

    def _on_chat_received(self, event: ChatReceived) -> None:
        self.say(f"chat: {self._who(event.author, event.name)}: {event.text}")

    def _on_point_received(self, event: PointReceived) -> None:
        arrows = ", ".join(f"{a}->{b}" for a, b in event.arrows) or "none"
        squares = ", ".join(map(str, event.squares)) or "none"
        who = self._who(event.author, event.name)
        self.say(f"point: {who} at ply {event.ply}: arrows {arrows}; squares {squares}")

    def _on_draw_offered(self, event: DrawOffered) -> None:
        self.say(f"draw: {self._who(event.author, event.name)} offers a draw")

    def _on_draw_accepted(self, event: DrawAccepted) -> None:
        self.say(f"draw: {self._who(event.author, event.name)} accepts the draw")

    def _on_rejoined(self, event: Rejoined) -> None:
        table = self._table()
        head = table.head.ply if table is not None else 0
        if event.cut is not None:
            self.say(f"Recovered: {event.cut} from the game file; the records before it are kept")
        self.say(f"Rejoined: took the table up again from {event.path} (at ply {head})")

    def _on_presence_changed(self, event: PresenceChanged) -> None:
        who = self._peer_name(event.key, event.name)
        self.say(f"presence: {who} is {'back' if event.present else 'away'}")

    def _on_vote_received(self, event: VoteReceived) -> None:
        removed = zip(event.removed, event.names, strict=False)
        gone = ", ".join(self._peer_name(key, name) for key, name in removed)
        who = self._peer_name(event.author, event.name)
        self.say(f"vote: {who} votes to remove {gone} (ply {event.ply})")

    def _on_ply_dropped(self, event: PlyDropped) -> None:
        self.say(f"dropped: ply {event.state.ply} ({event.state.label}), its player was removed")

    def _on_host_notice(self, event: HostNotice) -> None:
        """The host's word in the lobby."""
        self.say(f"host: {event.text}")

    def _on_table_notice(self, event: TableNotice) -> None:
        self.say(f"note: {event.text}")

    def _on_takeback_asked(self, event: TakebackAsked) -> None:
        who = self._who(event.author, event.name)
        self.say(f"takeback: {who} asks to take back ply {event.ply}")

    def _on_takeback_consented(self, event: TakebackConsented) -> None:
        who = self._who(event.author, event.name)
        self.say(f"takeback: {who} consents to take back ply {event.ply}")

    def _on_link_lost(self, event: LinkLost) -> None:
        if event.fatal:
            self.say(f"LOST: {event.name}: {event.reason}; the game cannot go on")
        else:
            what = "refused handshakes" if event.reason.startswith("no link:") else "lost links"
            self.say(f"link: {event.name}: {event.reason}", (_address(event.name), what))

    def _who(self, key: bytes, described: str) -> str:
        """Who ``key`` is as players read it: the name of the seat it signs (``Ana``, ``Bot 2
        of Ana (normal)``), a peer's own name; ``described`` (the table's words) for a key
        the table does not seat."""
        table = self._table()
        if table is None:
            return described
        names = {peer.key: peer.name for peer in table.start.peers}
        spec = next((spec for spec in table.head.seats if spec.key == key), None)
        if spec is not None:
            return seat_name(spec, names)
        return names.get(key) or described

    def _peer_name(self, key: bytes, described: str) -> str:
        """The name a player's palabre gave (its presence, its vote, its leaving are that
        palabre's); ``described`` for a key that is no peer of the table."""
        table = self._table()
        names = {} if table is None else {peer.key: peer.name for peer in table.start.peers}
        return names.get(key) or described

    def _table(self) -> TableView | None:
        """The table's read-only view (None before START)."""
        table = self.peer.table
        return None if table is None else table.view

    # --- the end -----------------------------------------------------------------------------
    @property
    def ends_missing(self) -> bool:
        """The game's outcome came, but never the END of every peer at the table."""
        return self._over is not None

    def summary(self, code: int) -> None:
        """The last lines: plies left unfinal, the halt's verdict, the chain."""
        table = self._table()
        counted, refused = self.peer.evidence_budget.counted, self.peer.refused_on_links
        if counted or refused:
            self.say(
                f"not written: {refused:,} records refused on links (evidence of nothing), "
                f"{counted:,} refused records past the evidence budget"
            )
        if table is not None:
            head = table.head
            for ply in range(max(table.final_ply + 1, 1), head.ply + 1):
                self.say(self.ply_line(ply, "NOT final"))
            self.say(
                f"chain: {head.ply} plies, {max(table.final_ply, 0)} final here, "
                f"digest {head.chain_digest.hex()}"
            )
        if self._over is not None:
            over = self._over
            self.say(
                f"Result: {self._result(over.outcome)}{self._on_time()} (after {over.ply} "
                "plies; NOT every END came)"
            )
        if self._halted:
            self.say(f"verdict: {self._verdict}")
            self.say(f"evidence: {self._evidence}")
        if self.trace is not None:
            self._trace("exit", code=code, bytes=self.peer.bytes_sent, cpu=time.process_time())


def _first(group: BaseExceptionGroup[BaseException], kind: type[LogFileError]) -> LogFileError:
    for error in group.exceptions:
        if isinstance(error, kind):
            return error
        if isinstance(error, BaseExceptionGroup):
            return _first(error, kind)
    raise AssertionError("no such error in the group")


def _address(where: str) -> str:
    """The address in ``peer … at 10.0.0.9:7000`` or ``10.0.0.9:7000``, without the port."""
    address = where.rsplit(" at ", 1)[-1]
    return address.rsplit(":", 1)[0] if ":" in address else address


def _count(number: int, word: str) -> str:
    return f"{number} {word}" if number == 1 else f"{number} {word}s"


def _identity_and_name(profile: str, name: str | None) -> tuple[Identity, str]:
    identity = load_profile_identity(profile)
    return identity, name or SettingsStore(profile).settings.name


INCOMPLETE = 5
"""The exit code of a peer that saw the game end but never got every peer's END."""


def _fail(message: str, code: int = 1) -> int:
    print(f"palabre: {message}", file=sys.stderr, flush=True)
    return code


def run_host(
    args: Namespace,
    *,
    engine_for: Callable[[str], AnyEngine] = find_engine,
    setup: Setup | None = None,
    out: TextIO = sys.stdout,
) -> int:
    """``palabre host``; the exit code."""
    from client.runtime.mdns import mdns_enabled

    engine = engine_for(args.game)
    if args.ruleset is not None and args.ruleset != engine.ruleset:
        return _fail(f"this palabre plays {args.game} by ruleset {engine.ruleset} only", 2)
    params: dict[str, int | str] = dict(engine.sample_params[0]) if engine.sample_params else {}
    if args.seats is not None:
        params["seats"] = args.seats
    try:
        identity, name = _identity_and_name(args.profile, args.name)
        hosting = HostConfig(
            engine,
            params,
            name,
            bots=args.bots,
            away_ms=int(args.away_timeout * 1000),
            idle_ms=int(args.idle_timeout * 1000),
            clock=args.clock,
            secret=new_secret() if args.secret == GENERATE else args.secret,
            refuse=args.refuse,
            announce=not args.no_announce and mdns_enabled(),
            own_bot=_own_bot(args),
        )
        peer = Peer(identity, hosting, _node_config(args, engine_for))
    except (InvalidParams, JoinRefused) as error:
        return _fail(f"cannot host {args.game}: {error}", 2)
    except IdentityError as error:
        return _fail(str(error))
    return _run(peer, args, setup, out, partial(_host, peer, port=args.port))


def _own_bot(args: Namespace) -> str | None:
    """The level of the bot that plays this player's own seat (``--bot``), for the table to
    say; None when the player types the moves."""
    return args.bot_level if args.bot else None


def _node_config(args: Namespace, engine_for: Callable[[str], AnyEngine]) -> NodeConfig:
    """How a headless peer plays: its profile, engines and bots, as the command line says."""
    return NodeConfig(
        profile=args.profile,
        engine_for=engine_for,
        seed=args.seed,
        bot_delay=args.bot_delay / 1000,
        bot_kind=kind_of_level(args.bot_level),
        bot_me=args.bot,
        rematch=args.rematch > 0,
    )


async def _host(peer: Peer, printer: Printer, port: int) -> int:
    try:
        invite = await peer.open(port)
    except LinkError as error:
        return _fail(str(error))
    assert peer.host is not None
    printer.hosting(invite, peer.host.config.engine.ruleset)
    code: int = await peer.run()
    return code


def run_join(
    args: Namespace,
    *,
    engine_for: Callable[[str], AnyEngine] = find_engine,
    setup: Setup | None = None,
    out: TextIO = sys.stdout,
) -> int:
    """``palabre join``; the exit code."""
    try:
        target = parse_target(args.address)
    except InviteError as error:
        return _fail(f"cannot read the address: {error}")
    try:
        identity, name = _identity_and_name(args.profile, args.name)
    except IdentityError as error:
        return _fail(str(error))
    joining = JoinConfig(
        target,
        name,
        seat=args.seat,
        watch=args.watch,
        ready=True,
        secret=args.secret,
        listen_port=args.port,
        own_bot=_own_bot(args),
    )
    peer = Peer(identity, joining, _node_config(args, engine_for))
    code = _run(peer, args, setup, out, lambda printer: peer.run())
    failure = None if peer.joining is None else peer.joining.failure
    if failure is not None and failure.kind == "wrong-secret" and peer.secret is None:
        # Not asked here and now: a player's terminal may be reading moves already.
        print(
            "palabre: this table admits only players who know its secret: join again with "
            "the invite (palabre join - reads it), or with --secret - to type the secret",
            file=sys.stderr,
            flush=True,
        )
    return code


def _run(
    peer: Peer,
    args: Namespace,
    setup: Setup | None,
    out: TextIO,
    main: Callable[[Printer], Awaitable[int]],
) -> int:
    """Play the table, then each rematch ``--rematch`` asks for that every peer accepted."""

    code = _run_one(peer, args, setup, out, main)
    left = getattr(args, "rematch", 0)
    while code == 0 and left > 0 and peer.rematch.next is not None:
        plan = peer.rematch.next
        left -= 1
        config = peer.config.next_table(bot_me=peer.config.bot_me, rematch=left > 0)
        role = next_role(plan, peer.name, config, secret=table_secret(peer), own_bot=_own_bot(args))
        peer = Peer(peer.identity, role, config)
        print(
            f"Rematch: a new table {format_table_id(plan.table_id)}; your seat {plan.seat}",
            file=out,
            flush=True,
        )
        if peer.host is not None:  # plan.is_host: next_role made it a host
            main = partial(_host, peer, port=plan.port)
        else:
            main = partial(_joined, peer)
        code = _run_one(peer, args, setup, out, main)
    return code


def table_secret(peer: Peer) -> str | None:
    """The secret of ``peer``'s table (a rematch keeps it): the host's, or the one a joiner
    proved."""
    return peer.secret


async def _joined(peer: Peer, printer: Printer) -> int:
    code: int = await peer.run()
    return code


def _run_one(
    peer: Peer,
    args: Namespace,
    setup: Setup | None,
    out: TextIO,
    main: Callable[[Printer], Awaitable[int]],
) -> int:
    trace = open(args.trace, "a", encoding="utf-8") if args.trace else None  # noqa: SIM115
    printer: Printer | None = None
    try:
        printer = Printer(peer, out, trace)
        peer.observers.append(printer)
        typing = not args.bot and not getattr(args, "watch", False)
        player = TerminalPlayer(peer, out) if typing else None
        if getattr(args, "watch", False):
            TerminalWatcher(peer, out)
        if setup is not None:
            setup(peer)

        ctrl_c = CtrlC(peer, lambda line: print(line, file=out, flush=True))

        async def run() -> int:
            async with trio.open_nursery() as nursery:
                if player is not None:
                    nursery.start_soon(player.serve)
                    nursery.start_soon(player.watch_clock)
                nursery.start_soon(printer.serve_repeats)
                nursery.start_soon(ctrl_c.serve)  # Ctrl-C leaves with the notice
                code: int = await main(printer)
                nursery.cancel_scope.cancel()
            return code

        failure: LogFileError | None = None
        try:
            code = trio.run(run)
        except* LogFileError as group:  # the disk is full, the directory is not writable...
            failure = _first(group, LogFileError)
        if failure is not None:
            return _fail(f"cannot write the game file: {failure}")
        if ctrl_c.pressed:  # the notice went out: now palabre says it was interrupted
            raise KeyboardInterrupt
        printer.summary(code)
        if code == 0 and printer.ends_missing:
            return _fail(
                "the game is over, but not every player's END reached this computer: the "
                "game file here is incomplete (palabre verify names what is missing)",
                INCOMPLETE,
            )
        return code
    finally:
        if printer is not None:
            printer.close()
        if trace is not None:
            trace.close()
