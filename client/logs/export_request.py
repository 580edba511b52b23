"""``palabre log export``'s options, checked before anything is drawn.

One output a command: a picture of one ply (``--png``, ``--svg`` with ``--ply``), the game
as an animation (``--gif``, ``--apng``, ``--webp``, or ``--animation`` with the format named
by the file's suffix; ``--from``/``--to`` choose the plies, ``--delay`` their pace,
``--title-card`` adds a first card), or the replay page (``--html``).  The drawing is Qt's
(``ui.log_export``), which this package never imports: ``ExportRequest`` is what it gets.

A file name whose suffix names another kind of file (``--png x.jpg``) is refused: the file
would hold PNG bytes under a JPEG name, and programs that trust the suffix fail on it.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path

from client.rules.errors import OptionError

__all__ = [
    "ANIMATIONS",
    "KINDS",
    "ExportRequest",
    "add_export_options",
    "export_request",
]

KINDS = {
    "png": (".png",),
    "svg": (".svg",),
    "gif": (".gif",),
    "apng": (".png", ".apng"),
    "webp": (".webp",),
    "html": (".html", ".htm"),
}
"""Each kind of output and the file name suffixes it may be written under."""
ANIMATIONS = ("gif", "apng", "webp")
WORDS = {
    "png": "a PNG picture",
    "svg": "an SVG drawing",
    "gif": "a GIF animation",
    "apng": "an animated PNG",
    "webp": "an animated WebP",
    "html": "an HTML page",
}
DEFAULT_SIZE = 800
MIN_SIZE, MAX_SIZE = 16, 8192
MIN_DELAY_MS, MAX_DELAY_MS = 10, 60_000


@dataclass(frozen=True)
class ExportRequest:
    log: Path
    kind: str
    """One of ``KINDS``."""
    out: Path
    size: int = DEFAULT_SIZE
    ply: int | None = None
    """The ply of a picture (``png``, ``svg``)."""
    delay_ms: int | None = None
    first: int = 0
    last: int | None = None
    """The plies of an animation (None: to the end)."""
    title_card: bool = False


def add_export_options(export: argparse.ArgumentParser) -> None:
    export.add_argument("file", help="a game log file")
    export.add_argument("--ply", type=int, default=None, metavar="N", help="the ply to draw")
    kind = export.add_mutually_exclusive_group(required=True)
    kind.add_argument("--png", metavar="OUT", help="write the board at --ply as a PNG picture")
    kind.add_argument("--svg", metavar="OUT", help="write the board at --ply as an SVG drawing")
    kind.add_argument("--gif", metavar="OUT", help="write the game as a GIF animation")
    kind.add_argument("--apng", metavar="OUT", help="write the game as an animated PNG")
    kind.add_argument("--webp", metavar="OUT", help="write the game as an animated WebP")
    kind.add_argument(
        "--animation",
        metavar="OUT",
        help="write the game as an animation of the kind OUT's suffix names "
        "(.gif, .png or .apng, .webp)",
    )
    kind.add_argument(
        "--html",
        metavar="OUT",
        help="write a replay page: one self-contained HTML file that steps through the game",
    )
    export.add_argument(
        "--size",
        type=int,
        default=DEFAULT_SIZE,
        metavar="PX",
        help=f"board width and height (default {DEFAULT_SIZE})",
    )
    export.add_argument(
        "--delay",
        type=int,
        default=None,
        metavar="MS",
        help="animations: how long each ply is shown (default 700 ms)",
    )
    export.add_argument(
        "--from", dest="first", type=int, default=None, metavar="N", help="animations: first ply"
    )
    export.add_argument(
        "--to", dest="last", type=int, default=None, metavar="N", help="animations: last ply"
    )
    export.add_argument(
        "--title-card",
        action="store_true",
        help="animations: begin with a card naming the game, players, date and verdict",
    )


def export_request(args: argparse.Namespace) -> ExportRequest:
    """The request the parsed options make (``OptionError`` says what is wrong)."""
    kind, out = _kind_and_out(args)
    if not MIN_SIZE <= args.size <= MAX_SIZE:
        raise OptionError(f"--size must be from {MIN_SIZE} to {MAX_SIZE} pixels")
    allowed = KINDS[kind]
    if out.suffix.lower() not in allowed:
        raise OptionError(
            f"{out.name}: the file will hold {WORDS[kind]}; give it a name ending in "
            + " or ".join(allowed)
        )
    animation = kind in ANIMATIONS
    if kind in ("png", "svg"):
        if args.ply is None:
            raise OptionError("--png and --svg draw one ply: give it with --ply N")
    elif args.ply is not None:
        raise OptionError(f"{WORDS[kind]} shows every ply: leave --ply out (or use --from/--to)")
    if not animation:
        for given, option in (
            (args.delay is not None, "--delay"),
            (args.first is not None or args.last is not None, "--from and --to"),
            (args.title_card, "--title-card"),
        ):
            if given:
                raise OptionError(f"{option}: only for animations (--gif, --apng, --webp)")
    if args.delay is not None and not MIN_DELAY_MS <= args.delay <= MAX_DELAY_MS:
        raise OptionError(f"--delay must be from {MIN_DELAY_MS} to {MAX_DELAY_MS} milliseconds")
    first = 0 if args.first is None else args.first
    if first < 0 or (args.last is not None and args.last < first):
        raise OptionError("--from and --to: 0 <= from <= to")
    return ExportRequest(
        log=Path(args.file),
        kind=kind,
        out=out,
        size=args.size,
        ply=args.ply,
        delay_ms=args.delay,
        first=first,
        last=args.last,
        title_card=args.title_card,
    )


def _kind_and_out(args: argparse.Namespace) -> tuple[str, Path]:
    for kind in KINDS:
        value = getattr(args, kind)
        if value:
            return kind, Path(value)
    out = Path(args.animation)
    suffix = out.suffix.lower()
    for kind in ANIMATIONS:
        if suffix in KINDS[kind]:
            return kind, out
    raise OptionError(
        f"{out.name}: --animation takes the kind from the name: end it in .gif, .png or .webp"
    )
