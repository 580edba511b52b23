"""The ``palabre`` subcommands (DESIGN.md section 7).  No Qt here: ``ui.entry`` hands over."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from engines import UnknownGame, engine_names, find_engine
from engines.base import InvalidParams

__all__ = ["build_parser", "main"]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="palabre",
        description="A peer-to-peer tabletop for board games on a LAN. "
        "With no command, opens the Qt client (or runs the demo when there is no display).",
    )
    parser.add_argument("--profile", default="default", help="keep several identities apart")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    demo = commands.add_parser("demo", help="a headless game between bots, printed move by move")
    demo.add_argument("--game", default="consensus", help=f"one of: {', '.join(engine_names())}")
    demo.add_argument("--seed", type=int, default=0, help="bots' seed (default 0)")
    demo.add_argument(
        "--seats", type=int, default=None, help="number of seats, when the game allows"
    )
    demo.add_argument("--pace", type=int, default=0, metavar="MS", help="pause after each move")

    commands.add_parser("id", help="print this profile's fingerprint (creating its key if needed)")
    return parser


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
    if created:
        print(f"palabre: created a new key for profile {profile!r} in {path}", file=sys.stderr)
    print(identity.fingerprint)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run one subcommand; return the process exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        if args.command == "demo":
            from client.demo import run_demo

            if args.pace < 0:
                parser.error("--pace must be 0 or more milliseconds")
            find_engine(args.game)
            return run_demo(args.game, args.seed, args.pace, args.seats)
        if args.command == "id":
            return _print_id(args.profile)
    except (UnknownGame, InvalidParams) as error:
        print(f"palabre: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("palabre: interrupted", file=sys.stderr)
        return 130
    parser.print_help()
    return 2
