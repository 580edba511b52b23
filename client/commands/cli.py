"""The ``palabre`` subcommands (DESIGN.md section 7).  No Qt here: ``ui.entry`` hands over."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeAlias

from client.bots import BOT_LEVELS
from client.commands.secret_input import ENV_SECRET, GENERATE
from client.logs.export_request import ExportRequest, add_export_options, export_request
from client.rules.clock import (
    DEFAULT_ACK_MS,
    DEFAULT_LAG_MS,
    MIN_ACK_MS,
    ClockSpec,
    parse_time_control,
)
from client.rules.errors import OptionError
from engines import UnknownGame, engine_names, find_engine
from engines.base import InvalidParams
from net.identity import parse_fingerprint
from net.invite import DEFAULT_PORT

Commands: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"
"""What ``add_subparsers`` returns (argparse names no public type for it)."""

__all__ = ["build_parser", "main"]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="palabre",
        description="A peer-to-peer tabletop for board games on a LAN. "
        "With no command, opens the Qt client (or runs the demo when there is no display).",
    )
    _add_global_options(parser, default="default")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    _add_host(commands)
    _add_join(commands)
    tables = commands.add_parser(
        "tables", help="list the tables announced on the LAN (mDNS), one per line, and exit"
    )
    tables.add_argument(
        "--wait", type=float, default=2.0, metavar="S", help="listen this long (default 2)"
    )
    demo = commands.add_parser(
        "demo",
        help="a game between bots, one process per peer over loopback TCP, printed ply by ply",
    )
    demo.add_argument("--game", default="consensus", help=f"one of: {', '.join(engine_names())}")
    demo.add_argument("--seed", type=int, default=0, help="bots' seed (default 0)")
    demo.add_argument(
        "--seats", type=int, default=None, help="number of seats, when the game allows"
    )
    demo.add_argument(
        "--peers", type=int, default=None, help="peer processes (default: one per seat, up to 4)"
    )
    demo.add_argument("--out", default=None, metavar="DIR", help="keep each peer's game file here")
    demo.add_argument("--pace", type=int, default=0, metavar="MS", help="pause before each move")
    demo.add_argument(
        "--local", action="store_true", help="play in this one process, without the network"
    )

    commands.add_parser("id", help="print this profile's fingerprint (creating its key if needed)")

    verify = commands.add_parser(
        "verify",
        help="check a game log, trusting none of the players",
        description="Check every signature, the chain, every move's legality, every ACK and "
        "END. Exit 0: valid and complete; 1: invalid; 2: unreadable or not a game log; "
        "3: valid but incomplete (unfinished or cut).",
    )
    verify.add_argument("file", help="a game log file")
    verify.add_argument("--json", action="store_true", help="print the report as JSON")

    log = commands.add_parser("log", help="show a game log, or draw its board at a ply")
    log.set_defaults(log_parser=log)
    log_commands = log.add_subparsers(dest="log_command", metavar="ACTION")
    show = log_commands.add_parser("show", help="print the game: players, plies, chat, result")
    show.add_argument("file", help="a game log file")
    show.add_argument("--ply", type=int, default=None, metavar="N", help="print the board at ply N")
    export = log_commands.add_parser(
        "export",
        help="draw the board at a ply (PNG, SVG), the whole game (GIF, animated PNG or WebP), "
        "or write a replay page (HTML)",
    )
    add_export_options(export)
    _global_options_everywhere(parser)
    return parser


def _add_global_options(parser: argparse.ArgumentParser, default: str) -> None:
    """The options every command takes, before or after its name."""
    parser.add_argument("--profile", default=default, help="keep several identities apart")


def _global_options_everywhere(parser: argparse.ArgumentParser) -> None:
    """People type ``palabre join X --profile ana`` as often as ``palabre --profile ana join
    X``: every subcommand takes the global options too.  Its default is SUPPRESS, so a value
    given before the subcommand is not reset by the subcommand's parser."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for command in action.choices.values():
                _add_global_options(command, default=argparse.SUPPRESS)
                _global_options_everywhere(command)


def _add_peer_options(command: argparse.ArgumentParser) -> None:
    command.add_argument(
        "--bot",
        action="store_true",
        help="a bot plays this peer's own seat (else type moves in the game's notation)",
    )
    command.add_argument(
        "--bot-delay",
        type=int,
        default=300,
        metavar="MS",
        help="how long this peer's bots wait before moving (default 300)",
    )
    command.add_argument(
        "--bot-level",
        choices=BOT_LEVELS,
        default="normal",
        help="how well this peer's bots play (default normal)",
    )
    command.add_argument(
        "--headless", action="store_true", help="no window: ready at once, print each ply"
    )
    command.add_argument("--name", default=None, help="the name other players see")
    command.add_argument(
        "--rematch",
        type=int,
        nargs="?",
        const=1,
        default=0,
        metavar="N",
        help="after the game, play again at a new table with seats rotated, once every "
        "player accepts (N more games; default 1)",
    )
    command.add_argument("--seed", type=int, default=0, help=argparse.SUPPRESS)
    command.add_argument("--trace", default=None, help=argparse.SUPPRESS)


def _add_host(commands: Commands) -> None:
    host = commands.add_parser("host", help="host a table on this machine's LAN addresses")
    host.add_argument("--game", required=True, help=f"one of: {', '.join(engine_names())}")
    host.add_argument("--ruleset", default=None, help="the ruleset id (default: the game's)")
    host.add_argument(
        "--port", type=int, default=DEFAULT_PORT, help=f"port to listen on (default {DEFAULT_PORT})"
    )
    host.add_argument("--seats", type=int, default=None, help="number of seats, when allowed")
    host.add_argument("--bots", type=int, default=0, metavar="N", help="seats for bots you run")
    host.add_argument(
        "--away-timeout",
        type=float,
        default=60.0,
        metavar="S",
        help="a player silent this long may be voted off, a bot takes its seats "
        "(default 60, at least 5)",
    )
    host.add_argument(
        "--idle-timeout",
        type=float,
        default=900.0,
        metavar="S",
        help="a player that owes a move or an ack this long may be voted off (default 900)",
    )
    host.add_argument(
        "--clock",
        default=None,
        metavar="M+S",
        help="play with a clock: minutes each plus seconds added per move, as 5+3 "
        "(the minutes may be a fraction: 0.1+0 is 6 seconds); no clock by default",
    )
    host.add_argument(
        "--clock-lag",
        type=int,
        default=DEFAULT_LAG_MS,
        metavar="MS",
        help=f"with --clock: network time credited per move (default {DEFAULT_LAG_MS})",
    )
    host.add_argument(
        "--ack-timeout",
        type=float,
        default=DEFAULT_ACK_MS / 1000,
        metavar="S",
        help="with --clock: a player that owes an acknowledgement this long may be voted off "
        f"(default {DEFAULT_ACK_MS // 1000}, at least {MIN_ACK_MS // 1000})",
    )
    host.add_argument(
        "--no-announce", action="store_true", help="do not announce the table on the LAN (mDNS)"
    )
    host.add_argument(
        "--secret",
        nargs="?",
        const=GENERATE,
        default=None,
        metavar="TEXT",
        help="admit only players who know the table secret (given in the invite); "
        "without TEXT, a strong one is made; '-' to type it unseen (TEXT itself can be read "
        f"by every user of this machine: prefer {ENV_SECRET} or --secret-file)",
    )
    _add_secret_file(host)
    host.add_argument(
        "--refuse",
        action="append",
        default=[],
        metavar="FINGERPRINT",
        help="never admit this player's key (repeatable)",
    )
    _add_peer_options(host)


def _add_join(commands: Commands) -> None:
    join = commands.add_parser("join", help="join a table by address or invite")
    join.add_argument(
        "address",
        metavar="ADDRESS[:PORT]|INVITE|-",
        help="'-' reads it from standard input (an invite on the command line can be read by "
        "every user of this machine)",
    )
    join.add_argument("--seat", type=int, default=None, metavar="N", help="ask for seat N")
    join.add_argument("--watch", action="store_true", help="watch the table without a seat")
    join.add_argument(
        "--port",
        type=int,
        default=0,
        help="port to listen on for the other peers (default: any free one)",
    )
    join.add_argument(
        "--secret",
        default=None,
        metavar="TEXT",
        help="the table secret, when joining by address (an invite carries its own); '-' to "
        f"type it unseen (TEXT itself can be read by every user of this machine: prefer "
        f"{ENV_SECRET} or --secret-file)",
    )
    _add_secret_file(join)
    _add_peer_options(join)


def _add_secret_file(command: argparse.ArgumentParser) -> None:
    command.add_argument(
        "--secret-file",
        default=None,
        metavar="FILE",
        help=f"read the table secret from FILE's first line (or set {ENV_SECRET})",
    )


def _check_peer_args(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    if args.bot_delay < 0:
        parser.error("--bot-delay must be 0 or more milliseconds")
    if args.rematch < 0:
        parser.error("--rematch must be 0 or more games")
    if args.name is not None and not (
        1 <= len(args.name.strip()) <= 32 and args.name.isprintable()
    ):
        parser.error("--name must be 1 to 32 printable characters")
    if not 0 <= args.port <= 65535:
        parser.error("--port must be a number from 0 to 65535")
    if args.command == "host":
        try:
            args.refuse = [parse_fingerprint(text) for text in args.refuse]
        except ValueError as error:
            parser.error(f"--refuse: {error}")
        if args.bots < 0:
            parser.error("--bots must be 0 or more")
        if args.away_timeout <= 0 or args.idle_timeout <= 0:
            parser.error("the timeouts must be more than 0 seconds")
        args.clock = _time_control(parser, args)
    if not args.headless:
        doing = "watching" if getattr(args, "watch", False) else "playing"
        print(
            f"palabre: {doing} in this terminal (as with --headless); to host or join from "
            "the window, run palabre without a command",
            file=sys.stderr,
        )


def _time_control(parser: argparse.ArgumentParser, args: argparse.Namespace) -> ClockSpec | None:
    """``--clock`` with its lag credit and stall timeout, read exactly (or a usage error)."""
    if args.clock is None:
        if args.clock_lag != DEFAULT_LAG_MS or args.ack_timeout != DEFAULT_ACK_MS / 1000:
            parser.error("--clock-lag and --ack-timeout set a clock's rules: give --clock too")
        return None
    try:
        return parse_time_control(
            args.clock, lag_ms=args.clock_lag, ack_ms=round(args.ack_timeout * 1000)
        )
    except ValueError as error:
        parser.error(f"--clock: {error}")


def _hold_profile(args: argparse.Namespace) -> int | None:
    """Take the profile's lock for this process's life (``client.profile.profile_lock``); the exit
    code when it cannot be taken: 4 when another process plays with the profile."""
    from client.profile.profile_lock import hold_profile
    from client.rules.errors import ProfileInUse
    from net.errors import IdentityError
    from net.fsutil import os_reason

    if args.command == "host":
        doing = "hosting a table"
    else:
        doing = "watching a table" if args.watch else "playing a table"
    try:
        hold_profile(args.profile, doing)
    except ProfileInUse as error:
        print(
            f"palabre: {error}; one profile plays one table at a time: wait for that game "
            "to end, or use another --profile",
            file=sys.stderr,
        )
        return 4
    except IdentityError as error:  # a profile name that is not allowed
        print(f"palabre: {error}", file=sys.stderr)
        return 1
    except OSError as error:
        print(
            f"palabre: cannot lock the profile {args.profile}: {os_reason(error)}", file=sys.stderr
        )
        return 1
    _warn_about_profile(args.profile)
    return None


def _warn_about_profile(profile: str) -> None:
    """Say what makes the profile's key less private than it looks (it still works)."""
    from net.identity import profile_warnings

    for text in profile_warnings(profile):
        print(f"palabre: warning: {text}", file=sys.stderr, flush=True)


def _read_secret_and_invite(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """The secret from wherever it was given (``client.commands.secret_input``), and ``join -``'s
    invite; a usage error when they cannot be read."""
    from client.commands.secret_input import read_invite, read_secret
    from client.rules.errors import SecretInputError

    def warn(text: str) -> None:
        print(f"palabre: warning: {text}", file=sys.stderr, flush=True)

    try:
        if args.command == "join":
            args.address = read_invite(args.address)
        if args.secret != GENERATE or args.secret_file is not None:
            args.secret = read_secret(args.secret, args.secret_file, warn=warn)
    except SecretInputError as error:
        parser.error(str(error))


def _print_id(profile: str) -> int:
    """``palabre id``: the fingerprint on stdout; a note on stderr when the key is new."""
    from net.errors import IdentityError
    from net.identity import identity_path, load_or_create_key

    try:
        path = identity_path(profile)
        identity, created = load_or_create_key(path)
    except IdentityError as error:
        print(f"palabre: {error}", file=sys.stderr)
        return 1
    _warn_about_profile(profile)
    if created:
        print(f"palabre: created a new key for profile {profile!r} in {path}", file=sys.stderr)
    print(identity.fingerprint)
    return 0


Exporter = Callable[[ExportRequest], int]
"""``log export``'s drawing, given by the entry point (it needs Qt, which client never
imports): the checked request -> exit code."""


def main(argv: Sequence[str] | None = None, exporter: Exporter | None = None) -> int:
    """Run one subcommand; return the process exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        if args.command == "verify":
            from client.logs.log_commands import run_verify

            return run_verify(Path(args.file), as_json=args.json)
        if args.command == "log":
            return _log(parser, args, exporter)
        if args.command in ("host", "join"):
            from client.commands.headless import run_host, run_join

            _check_peer_args(parser, args)
            refused = _hold_profile(args)
            if refused is not None:
                return refused
            _read_secret_and_invite(parser, args)
            return run_host(args) if args.command == "host" else run_join(args)
        if args.command == "demo":
            if args.pace < 0:
                parser.error("--pace must be 0 or more milliseconds")
            find_engine(args.game)
            if args.local:
                from client.commands.demo import run_demo

                return run_demo(args.game, args.seed, args.pace, args.seats)
            from client.commands.net_demo import run_net_demo

            return run_net_demo(
                args.game, args.seed, args.pace, args.seats, args.peers, args.out, args.profile
            )
        if args.command == "id":
            return _print_id(args.profile)
        if args.command == "tables":
            if not 0 < args.wait <= 600:
                parser.error("--wait must be more than 0 and at most 600 seconds")
            from client.runtime.mdns import run_tables

            return run_tables(args.wait, sys.stdout)
    except (UnknownGame, InvalidParams) as error:
        print(f"palabre: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return _interrupted()
    except BaseExceptionGroup as group:
        # Ctrl-C inside trio's nurseries (host, join, tables) comes out wrapped in a group.
        if group.split(KeyboardInterrupt)[1] is not None:
            raise
        return _interrupted()
    parser.print_help()
    return 2


def _interrupted() -> int:
    """Ctrl-C: one line and the shell's code for it; the game file is whole (every record is
    written whole before it is sent)."""
    print("palabre: interrupted", file=sys.stderr)
    return 130


def _log(
    parser: argparse.ArgumentParser, args: argparse.Namespace, exporter: Exporter | None
) -> int:
    from client.logs.log_commands import run_show

    if args.log_command == "show":
        return run_show(Path(args.file), args.ply)
    if args.log_command == "export":
        if exporter is None:
            print(
                "palabre: log export draws with Qt: run it as `palabre log export`", file=sys.stderr
            )
            return 2
        try:
            request = export_request(args)
        except OptionError as error:
            parser.error(str(error))
        return exporter(request)
    args.log_parser.print_help()
    return 2
