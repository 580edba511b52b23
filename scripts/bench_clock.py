#!/usr/bin/env python3
"""What the table clock costs and how true it is (issue 27): real peers on loopback.

Usage: scripts/bench_clock.py cost [--games N] [--accuracy-games N] [--delay-ms MS]
       scripts/bench_clock.py flag [--games N] [--tables N] [--clock 1+0] [--first-seed S]

``cost`` plays Consensus with 4 peer processes (``palabre host`` and three ``palabre join``,
every seat a bot), each writing a trace (``--trace``: ``time.monotonic()``, one clock for
every process of the machine) of when it sent each ply it signed and when each ply became
final there.  Reported:

* **finality**: a ply's time from being sent by its author to being final at the author and
  at all 4 peers, median and p99, on clocked tables (``--clock 10+5``) and unclocked ones,
  played in turns in the same run (seeds 0..N-1 each; normal bots waiting 300 ms, so plies
  do not queue).  A hop is half the author's round trip (its record out, the ACKs back) on
  the unclocked tables;
* **accuracy**: on clocked tables with strong bots (``--accuracy-games``, no wait, lag credit
  0 so the charge is the verdict's figure itself), the time each move was charged (from the
  host's game file, ``palabre verify --json``) against the mover's own measure of its turn:
  its own figure, which its process takes on its monotonic clock from the ply before
  becoming final there (its turn came) to its signing the move.  As a cross-check that
  reads no clock code, the mover's thinking as its trace has it (the "final" line of the
  ply before → the "sent" line of its move; both printed after the fsync of the step).
  ``--delay-ms MS`` (with ``--games 0`` for accuracy alone): in the accuracy games, what P2
  writes to P3 reaches P3 MS ms later, one way (``tests.e2e.delayed_network``).

``flag`` plays strong bots at ``--clock`` (1+0 by default) and counts losses on time: ``--games``
tables where one host process runs all four seats' bots (it judges its own clock, as one
peer does), then ``--tables`` tables of 4 peer processes, each peer running its own bot.  Each
game prints a line as it ends (stderr); the tables (markdown) go to stdout.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.e2e.tables import Table  # noqa: E402

GAME_TIMEOUT = 1_800.0
PEERS = ("host", "p2", "p3", "p4")


@dataclass
class Game:
    """One played table: each peer's trace events and the host's clock table."""

    traces: dict[str, list[dict[str, float]]]
    clock: list[dict[str, object]]
    result: str
    seconds: float
    peers: tuple[str, ...] = ()
    """The peers' trace names in the order of the clock table's figures."""


def _names(report: dict[str, object]) -> tuple[str, ...]:
    """START's peers as trace names (the host is named Host, joiners P2..P4)."""
    peers = report.get("peers")
    assert isinstance(peers, list)
    return tuple(str(peer["name"]).lower() for peer in peers)


def _verify_json(home: Path, profile: str) -> dict[str, object]:
    files = sorted((home / "profiles" / profile / "games").glob("*.palabre-log"))
    if len(files) != 1:
        raise SystemExit(f"{profile}: expected one game file, found {files}")
    done = subprocess.run(
        [sys.executable, "-m", "client", "verify", "--json", str(files[0])],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={"PALABRE_HOME": str(home), "PALABRE_MDNS": "off", "PATH": "/usr/bin:/bin"},
        timeout=300,
    )
    report: dict[str, object] = json.loads(done.stdout)
    if done.returncode != 0:
        raise SystemExit(f"{profile}: verify exits {done.returncode}: {report.get('problems')}")
    return report


def _result(output: str) -> str:
    lines = [line for line in output.splitlines() if line.startswith("Result: ")]
    return lines[-1].removeprefix("Result: ") if lines else "no result"


def play(
    home: Path, seed: int, *, clock: str, level: str, pace: int, lag: int = 300, delay: int = 0
) -> Game:
    """One game of 4 peer processes on loopback (``clock`` empty: no clock); ``delay``: what
    P2 writes to P3 reaches it that many ms later (``tests.e2e.delayed_network``)."""
    home.mkdir(parents=True)
    table = Table(home)
    traces = {name: home / f"{name}.trace" for name in PEERS}
    common = ["--bot", "--bot-level", level, "--bot-delay", str(pace), "--seed", str(seed)]
    clocked = ["--clock", clock, "--clock-lag", str(lag)] if clock else []
    began = time.monotonic()
    try:
        table.host("consensus", *clocked, "--trace", str(traces["host"]), *common)
        for seat in (2, 3, 4):
            trace = str(traces[f"p{seat}"])
            faults = f"link_delay=P3:{delay}" if delay and seat == 2 else ""
            table.join(f"P{seat}", "--seat", str(seat), "--trace", trace, *common, faults=faults)
        codes = table.finish(timeout=GAME_TIMEOUT)
    finally:
        table.kill()
    if codes != [0, 0, 0, 0]:
        raise SystemExit(f"a peer failed (seed {seed}): exit codes {codes}\n{table.outputs()}")
    report = _verify_json(home, "host")
    found = report.get("clock")
    plies = found.get("plies", []) if isinstance(found, dict) else []
    return Game(
        {
            name: [json.loads(line) for line in path.read_text().splitlines()]
            for name, path in traces.items()
        },
        list(plies),
        _result(table.procs[0].output),
        time.monotonic() - began,
        _names(report),
    )


def play_solo(home: Path, seed: int, *, clock: str, level: str) -> Game:
    """One game where a single host process runs all four seats' bots."""
    home.mkdir(parents=True)
    table = Table(home)
    began = time.monotonic()
    args = ["--bots", "3", "--bot", "--bot-level", level, "--clock", clock, "--seed", str(seed)]
    try:
        table.host("consensus", *args)
        codes = table.finish(timeout=GAME_TIMEOUT)
    finally:
        table.kill()
    if codes != [0]:
        raise SystemExit(f"the host failed (seed {seed}): exit code {codes}\n{table.outputs()}")
    found = _verify_json(home, "host").get("clock")
    plies = found.get("plies", []) if isinstance(found, dict) else []
    return Game({}, list(plies), _result(table.procs[0].output), time.monotonic() - began)


# --- reading the traces ------------------------------------------------------------------
def _sent(game: Game) -> dict[int, tuple[str, float]]:
    """Ply -> (the peer that sent it, when)."""
    return {
        int(event["ply"]): (name, event["t"])
        for name, events in game.traces.items()
        for event in events
        if event["ev"] == "sent"
    }


def _finals(game: Game) -> dict[str, dict[int, float]]:
    """Peer -> ply -> when it became final there."""
    return {
        name: {int(e["ply"]): e["t"] for e in events if e["ev"] == "final"}
        for name, events in game.traces.items()
    }


def finality(game: Game) -> dict[str, list[float]]:
    """Sent → final (ms) of every ply, at its author and at all 4 peers."""
    finals = _finals(game)
    found: dict[str, list[float]] = {"author": [], "all": []}
    for ply, (author, when) in _sent(game).items():
        times = [finals[name][ply] for name in PEERS if ply in finals[name]]
        if len(times) != len(PEERS):
            continue
        found["all"].append(1000 * (max(times) - when))
        found["author"].append(1000 * (finals[author][ply] - when))
    return found


def thinking(game: Game) -> dict[int, float]:
    """Ply -> the mover's own measure (ms): the ply before final at its process → sent."""
    finals = _finals(game)
    found = {}
    for ply, (author, when) in _sent(game).items():
        turn = finals[author].get(ply - 1)
        if turn is not None:
            found[ply] = 1000 * (when - turn)
    return found


def errors(game: Game) -> dict[str, list[float]]:
    """Of every move the clock judged, in ms: the charge − the mover's own figure (its
    process's measure of its turn, from its clock's start to signing), the charge − its
    thinking as traced, and the mover's own figure − that thinking."""
    thought, sent = thinking(game), _sent(game)
    found: dict[str, list[float]] = {"own": [], "traced": [], "own-traced": []}
    for ply in game.clock:
        number, charge, figures = int(str(ply["ply"])), ply["charge"], ply["figures"]
        if ply["kind"] != "MOVE" or not isinstance(charge, int) or number not in thought:
            continue
        assert isinstance(figures, list)
        own = figures[game.peers.index(sent[number][0])]
        if isinstance(own, int):
            found["own"].append(charge - own)
            found["own-traced"].append(own - thought[number])
        found["traced"].append(charge - thought[number])
    return found


def _load() -> str:
    """The machine's load at the end of the run (its 2 cores are shared)."""
    one, five, fifteen = os.getloadavg()
    return f"{os.cpu_count()} cores, load average {one:.1f} / {five:.1f} / {fifteen:.1f}"


def spread(game: Game) -> dict[tuple[str, str], list[float]]:
    """(mover, peer) -> that peer's figure − the mover's own, over the mover's moves (ms): the
    delivery to each peer, less how much later its clock started than the mover's."""
    sent = _sent(game)
    found: dict[tuple[str, str], list[float]] = {}
    for ply in game.clock:
        figures, number = ply["figures"], int(str(ply["ply"]))
        if ply["kind"] != "MOVE" or number not in sent or not isinstance(figures, list):
            continue
        mover = sent[number][0]
        own = figures[game.peers.index(mover)]
        for name, figure in zip(game.peers, figures, strict=True):
            if name != mover and isinstance(own, int) and isinstance(figure, int):
                found.setdefault((mover, name), []).append(figure - own)
    return found


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def _stats(values: list[float]) -> str:
    if not values:
        return "-"
    return f"{statistics.median(values):.1f} / {_percentile(values, 0.99):.1f}"


# --- the two benchmarks ------------------------------------------------------------------
def cost(args: argparse.Namespace, temp: Path) -> None:
    delay = args.delay_ms
    rows: dict[str, dict[str, list[float]]] = {"unclocked": {}, "clocked 10+5": {}}
    for seed in range(args.games):
        for label, clock in (("unclocked", ""), ("clocked 10+5", "10+5")):
            game = play(temp / f"{label[:3]}-{seed}", seed, clock=clock, level="normal", pace=300)
            for kind, values in finality(game).items():
                rows[label].setdefault(kind, []).extend(values)
            print(
                f"finality: {label} seed {seed}: {len(finality(game)['all'])} plies, median "
                f"{_stats(finality(game)['all'])} ms at all 4, {game.seconds:.0f} s",
                file=sys.stderr,
                flush=True,
            )
    found: dict[str, list[float]] = {}
    spreads: dict[tuple[str, str], list[float]] = {}
    for seed in range(args.accuracy_games):
        game = play(
            temp / f"acc-{seed}", seed, clock="10+5", level="strong", pace=0, lag=0, delay=delay
        )
        for kind, values in errors(game).items():
            found.setdefault(kind, []).extend(values)
        found.setdefault("thinking", []).extend(thinking(game).values())
        for pair, values in spread(game).items():
            spreads.setdefault(pair, []).extend(values)
        sizes = [abs(error) for error in errors(game)["own"]]
        print(
            f"accuracy: seed {seed}: {len(sizes)} moves, |charge - own figure| median / p99 "
            f"{_stats(sizes)} ms, {game.seconds:.0f} s",
            file=sys.stderr,
            flush=True,
        )
    print(f"Python {platform.python_version()}, 4 peer processes on loopback; {_load()}\n")
    if rows["unclocked"]:
        print("| sent → final, ms (median / p99) | " + " | ".join(rows) + " |")
        print("|---|" + "---|" * len(rows))
        print("| plies | " + " | ".join(str(len(rows[label]["all"])) for label in rows) + " |")
        print("| at the author | " + " | ".join(_stats(rows[k]["author"]) for k in rows) + " |")
        print("| at all 4 peers | " + " | ".join(_stats(rows[k]["all"]) for k in rows) + " |")
        hop = statistics.median(rows["unclocked"]["author"]) / 2
        extra = statistics.median(rows["clocked 10+5"]["all"]) - statistics.median(
            rows["unclocked"]["all"]
        )
        print(f"\none hop (half the author's round trip, unclocked): {hop:.1f} ms; ", end="")
        print(f"clocked − unclocked at all 4 peers (medians): {extra:+.1f} ms")
    print("\n| charge against the mover, ms | moves | median | p99 | max |")
    print("|---|---:|---:|---:|---:|")
    for kind, words in (
        ("own", "abs(charge − the mover's own figure)"),
        ("traced", "abs(charge − the mover's thinking, traced)"),
        ("own-traced", "abs(the mover's own figure − its thinking, traced)"),
    ):
        sizes = [abs(error) for error in found.get(kind, [])]
        if sizes:
            print(
                f"| {words} | {len(sizes)} | {statistics.median(sizes):.1f} | "
                f"{_percentile(sizes, 0.99):.1f} | {max(sizes):.1f} |"
            )
    signed = found.get("own", [])
    if signed:
        print(
            f"| charge − own figure, signed | {len(signed)} | {statistics.median(signed):+.1f} |",
            end="",
        )
        print(f" {_percentile(signed, 0.99):+.1f} | {max(signed):+.1f} |")
    thoughts = found.get("thinking", [])
    if thoughts:
        print(
            f"| thinking itself (traced) | {len(thoughts)} | {statistics.median(thoughts):.0f} | "
            f"{_percentile(thoughts, 0.99):.0f} | {max(thoughts):.0f} |"
        )
    if spreads:
        print("\n| a peer's figure − the mover's own, ms (median) | " + " | ".join(PEERS) + " |")
        print("|---|" + "---:|" * len(PEERS))
        for mover in PEERS:
            cells = [
                ""
                if (mover, peer) not in spreads
                else f"{statistics.median(spreads[mover, peer]):+.1f}"
                for peer in PEERS
            ]
            print(f"| {mover}'s moves | " + " | ".join(cells) + " |")


def _flag_line(game: Game) -> tuple[int, int]:
    """(seats lost on time, the lowest time any seat had left after a ply, ms)."""
    late = sum(1 for ply in game.clock if ply["late"])
    remaining = [int(ms) for ply in game.clock for ms in ply["remaining"]]  # type: ignore[attr-defined]
    return late, min(remaining, default=0)


def flag(args: argparse.Namespace, temp: Path) -> None:
    settings = [("one host process, 4 bots", args.games), ("4 peer processes", args.tables)]
    rows = []
    for label, count in settings:
        losses, lowest, plies, seconds = 0, None, 0, 0.0
        for seed in range(args.first_seed, args.first_seed + count):
            root = temp / f"{label[:3]}-{seed}"
            if label.startswith("one"):
                game = play_solo(root, seed, clock=args.clock, level="strong")
            else:
                game = play(root, seed, clock=args.clock, level="strong", pace=300)
            late, low = _flag_line(game)
            losses += late
            lowest = low if lowest is None else min(lowest, low)
            plies += len(game.clock)
            seconds += game.seconds
            print(
                f"{label}: game {seed - args.first_seed + 1}/{count} (seed {seed}): "
                f"{len(game.clock)} plies, lost on time "
                f"{late}, lowest time left {low / 1000:.1f} s; {game.result}; "
                f"{game.seconds:.0f} s",
                file=sys.stderr,
                flush=True,
            )
        rows.append((label, count, losses, lowest, plies, seconds))
    print(f"Python {platform.python_version()}, strong bots at {args.clock}, loopback; {_load()}\n")
    print("| setup | games | plies | losses on time | lowest time left | wall |")
    print("|---|---:|---:|---:|---:|---:|")
    for label, count, losses, lowest, plies, seconds in rows:
        low = "-" if lowest is None else f"{lowest / 1000:.1f} s"
        print(f"| {label} | {count} | {plies} | {losses} | {low} | {seconds / 60:.0f} min |")


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    modes = parser.add_subparsers(dest="mode", required=True)
    measured = modes.add_parser("cost", help="finality and accuracy of the clock")
    measured.add_argument("--games", type=int, default=4, help="games per setting (default 4)")
    measured.add_argument("--accuracy-games", type=int, default=3, help="strong games (3)")
    measured.add_argument(
        "--delay-ms", type=int, default=0, help="accuracy games: P2's writes to P3 wait (0)"
    )
    on_time = modes.add_parser("flag", help="strong bots on a short clock: losses on time")
    on_time.add_argument("--games", type=int, default=50, help="one-process games (50)")
    on_time.add_argument("--tables", type=int, default=4, help="4-process games (4)")
    on_time.add_argument("--clock", default="1+0", help="the time control (1+0)")
    on_time.add_argument("--first-seed", type=int, default=0, help="seeds from this one (0)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-clock-") as temp:
        (cost if args.mode == "cost" else flag)(args, Path(temp))
    return 0


if __name__ == "__main__":
    sys.exit(main())
