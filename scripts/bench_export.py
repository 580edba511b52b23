"""How big and how slow ``palabre log export`` is on a 100-ply game: GIF, APNG, WebP, page.

    python scripts/bench_export.py [--game consensus] [--plies 100] [--size 600] [--seed 0]

The game is real play: ``palabre demo`` (four peer processes over loopback TCP, bots on
every seat) is run with seeds from ``--seed`` on until one game lasts at least ``--plies``
plies; its first peer's file is then exported as each kind, plies 0 to ``--plies`` (the
page: the whole game), each export a fresh ``palabre log export`` process, timed, its peak
memory read from the kernel (``wait4``).  Prints a Markdown table for docs/BENCHMARKS.md.
Target (issue 25): the GIF of a 100-ply game at 600 pixels under 2 MB.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from client.logs.verifier import verify_file  # noqa: E402

KINDS = (("--gif", ".gif"), ("--apng", ".png"), ("--webp", ".webp"), ("--html", ".html"))


def palabre(*args: str, env: dict[str, str]) -> tuple[float, int, int]:
    """Run ``palabre ARGS``: (seconds, peak resident KiB, exit code)."""
    started = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, "-m", "ui.entry", *args],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - started
    assert process.stderr is not None
    error = process.stderr.read().decode(errors="replace")
    process.stderr.close()
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        print(error, file=sys.stderr)
    return seconds, usage.ru_maxrss, code


def long_game(game: str, plies: int, seed: int, folder: Path, env: dict[str, str]) -> Path:
    for tried in range(seed, seed + 20):
        out = folder / f"demo-{tried}"
        _, _, code = palabre(
            "demo", "--game", game, "--seed", str(tried), "--out", str(out), env=env
        )
        if code != 0:
            raise SystemExit(f"palabre demo --seed {tried} failed (exit {code})")
        path = out / "peer1.palabre-log"
        played = verify_file(path).report.plies
        print(f"seed {tried}: {played} plies", file=sys.stderr)
        if played >= plies:
            return path
    raise SystemExit(f"no game of {plies} plies in 20 seeds")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="consensus")
    parser.add_argument("--plies", type=int, default=100)
    parser.add_argument("--size", type=int, default=600)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-export-") as scratch:
        folder = Path(scratch)
        env = {
            **os.environ,
            "PALABRE_HOME": str(folder / "home"),
            "PALABRE_MDNS": "off",
            "QT_QPA_PLATFORM": "offscreen",
        }
        log = long_game(args.game, args.plies, args.seed, folder, env)
        played = verify_file(log).report.plies
        print(f"{args.game}, {played} plies played, {args.size} px; exported:")
        print("| kind | plies | size | time | peak memory |")
        print("|---|---|---|---|---|")
        for option, suffix in KINDS:
            out = folder / f"game{suffix}"
            extra = [] if option == "--html" else ["--to", str(args.plies)]
            seconds, peak, code = palabre(
                "log",
                "export",
                str(log),
                option,
                str(out),
                "--size",
                str(args.size),
                *extra,
                env=env,
            )
            if code != 0:
                raise SystemExit(f"log export {option} failed (exit {code})")
            shown = played if option == "--html" else args.plies
            size = out.stat().st_size
            print(
                f"| {option[2:]} | 0-{shown} | {size / 1e6:.2f} MB | {seconds:.1f} s "
                f"| {peak / 1024:.0f} MiB |"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
