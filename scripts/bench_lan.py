#!/usr/bin/env python3
"""Time to finality on a LAN with latency: 4 hosts of a netlab lab, every link delayed.

Usage (as root): scripts/bench_lan.py [--games N] [--delay MS] [--jitter MS]

Each game is ``palabre host`` on lab host 1 and ``palabre join`` on hosts 2-4 (every seat a
sensible bot, seats fixed, seeds 0..N-1), each peer run through ``tests.lan.lan_peer`` with
``PALABRE_TEST_DELAY=MS:JITTER``: what a peer sends reaches the wire MS ± JITTER ms later,
so every one-way hop takes about MS (the kernel has no netem; ``tests/lan/delay.py``).
Traces (``--trace``, ``time.monotonic()``, shared by the namespaces) give when each ply was
sent by its author and when it became final at each peer.  Reported, per pace (bots waiting
300 ms, palabre's default, so plies do not queue; and 20 ms, flat out), over every ply:

* sent → final at the author and at every peer, median and p99, split by who wrote the ply
  (the host, or a joiner: in a star a joiner's ply and the ACKs travel through the host);
* the same with no delay, for comparison.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.lan.harness import LanTable, lan_table  # noqa: E402


def play(root: Path, seed: int, pace: int, delay: str) -> LanTable:
    with lan_table(4, root) as table:
        common = ("--bot-delay", str(pace), "--seed", str(seed))
        table.host(1, *common, delay=delay)
        for index in (2, 3, 4):
            table.join(index, *common, delay=delay)
        codes = table.finish()
        if set(codes.values()) != {0}:
            raise SystemExit(f"a peer failed: {codes}\n{table.outputs()}")
        table.check(0)
    return table


def sample(table: LanTable) -> dict[str, list[float]]:
    """Latencies (ms) of one game, by kind."""
    host_key = _author_keys(table)
    sent, finals = table.sent(), table.finals()
    at_author = _final_at_author(table)
    found: dict[str, list[float]] = {}
    for ply, when in sent.items():
        times = finals.get(ply, [])
        if len(times) != 4 or ply not in at_author:
            continue
        who = "host" if host_key.get(ply) == 1 else "joiner"
        found.setdefault(f"all/{who}", []).append(1000 * (max(times) - when))
        found.setdefault(f"author/{who}", []).append(1000 * (at_author[ply] - when))
    return found


def _author_keys(table: LanTable) -> dict[int, int]:
    """Ply -> the lab host whose peer sent it."""
    return {
        int(event["ply"]): peer.index
        for peer in table.peers
        for event in peer.trace_events()
        if event["ev"] == "sent"
    }


def _final_at_author(table: LanTable) -> dict[int, float]:
    authors = _author_keys(table)
    found = {}
    for peer in table.peers:
        for event in peer.trace_events():
            ply = int(event.get("ply", -1))
            if event["ev"] == "final" and authors.get(ply) == peer.index:
                found[ply] = float(event["t"])
    return found


def _stats(values: list[float]) -> str:
    if not values:
        return "-"
    values = sorted(values)
    p99 = values[min(len(values) - 1, int(0.99 * len(values)))]
    return f"{statistics.median(values):.0f} / {p99:.0f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4, help="games per setting (default 4)")
    parser.add_argument("--delay", type=int, default=50, help="one-way delay, ms (default 50)")
    parser.add_argument("--jitter", type=int, default=10, help="± jitter, ms (default 10)")
    args = parser.parse_args()
    settings = [
        (f"{args.delay} ± {args.jitter} ms, pace 300 ms", 300, f"{args.delay}:{args.jitter}"),
        (f"{args.delay} ± {args.jitter} ms, pace 20 ms", 20, f"{args.delay}:{args.jitter}"),
        ("no delay, pace 300 ms", 300, ""),
    ]
    rows: dict[str, dict[str, list[float]]] = {}
    plies = {}
    with tempfile.TemporaryDirectory(prefix="bench-lan-") as temp:
        for label, pace, delay in settings:
            merged: dict[str, list[float]] = {}
            for seed in range(args.games):
                root = Path(temp) / f"{pace}-{delay or 0}-{seed}"
                for kind, values in sample(play(root, seed, pace, delay)).items():
                    merged.setdefault(kind, []).extend(values)
            rows[label] = merged
            plies[label] = sum(len(v) for k, v in merged.items() if k.startswith("all/"))
    print(f"{args.games} games per setting, 4 lab hosts, Python {platform.python_version()}")
    print()
    print("| sent → final (median / p99) | " + " | ".join(rows) + " |")
    print("|---|" + "---|" * len(rows))
    print("| plies measured | " + " | ".join(str(plies[label]) for label in rows) + " |")
    for kind, words in (
        ("author/host", "at the author, host's plies"),
        ("author/joiner", "at the author, joiners' plies"),
        ("all/host", "at all 4 peers, host's plies"),
        ("all/joiner", "at all 4 peers, joiners' plies"),
    ):
        cells = [_stats(rows[label].get(kind, [])) for label in rows]
        print(f"| {words} | " + " | ".join(cells) + " |")
    every = [v for kind, vs in rows[settings[0][0]].items() if kind.startswith("all/") for v in vs]
    print()
    print(json.dumps({"all_peers_median_ms": statistics.median(every)}))


if __name__ == "__main__":
    main()
