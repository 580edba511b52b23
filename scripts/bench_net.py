#!/usr/bin/env python3
"""Measure the networked table: 4 peer processes on loopback playing Consensus with bots.

Usage: scripts/bench_net.py [--games N] [--quick] [--dir DIR]

Each game is ``palabre host`` + three ``palabre join`` processes (every seat a sensible
bot), each writing a trace (``--trace``: ``time.monotonic()``, one clock for every process
of the machine) of when it sent each ply it signed and when each ply became final there.

* **latency**: from a ply being sent (signed, written ahead and queued by its author) to
  being final at all 4 peers; median and p99 over every ply of every game, paced (every bot
  waits 50 ms before moving: about one ply per 50 ms) and flat out (no wait);
* **final plies per second**, flat out: plies / time from the genesis final at every peer to
  the last ply final at every peer (bots' thinking included);
* **bytes per ply**: record frames written by all 4 peers (envelopes + 21 bytes of framing
  and encryption each; lobby and heartbeats left out) / plies;
* **CPU per ply**: the 4 processes' CPU time from the genesis final to their exit / plies;
* ``--dir /dev/shm`` puts the game files on tmpfs, where fsync costs nothing, to tell the
  protocol's cost from the disk's;
* and, in the same run, the bare TCP round trip on loopback (trio) and one Ed25519 sign and
  one verify (cryptography).
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
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import trio  # noqa: E402
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey  # noqa: E402

from net.invite import Invite, parse_invite  # noqa: E402


def play(home: Path, seed: int, delay_ms: int) -> dict[str, list[dict[str, float]]]:
    """One 4-process game; each peer's trace events."""
    env = {**os.environ, "PALABRE_HOME": str(home), "PYTHONUNBUFFERED": "1"}
    common = ["--bot", "--headless", "--bot-delay", str(delay_ms), "--seed", str(seed)]
    traces = {f"peer{n}": home / f"peer{n}.trace" for n in range(1, 5)}

    def command(name: str, *args: str) -> list[str]:
        return [sys.executable, "-m", "client", "--profile", name, *args]

    host_args = ["host", "--game", "consensus", "--port", "0", "--trace", str(traces["peer1"])]
    host = subprocess.Popen(
        command("peer1", *host_args, *common),
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    assert host.stdout is not None
    invite: Invite | None = None
    for line in host.stdout:
        if line.startswith("Invite: "):
            invite = parse_invite(line.removeprefix("Invite: "))
            break
    assert invite is not None, "the host printed no invite"
    target = str(Invite(("127.0.0.1",), invite.port, invite.table_id, invite.fingerprint))
    joiners = [
        subprocess.Popen(
            command(
                name, "join", target, "--seat", name[-1], "--trace", str(traces[name]), *common
            ),
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for name in ("peer2", "peer3", "peer4")
    ]
    host.stdout.read()
    codes = [host.wait(timeout=300)] + [j.wait(timeout=300) for j in joiners]
    if codes != [0, 0, 0, 0]:
        raise SystemExit(f"a peer failed: exit codes {codes} (seed {seed})")
    return {
        name: [json.loads(line) for line in path.read_text().splitlines()]
        for name, path in traces.items()
    }


def analyse(games: list[dict[str, list[dict[str, float]]]]) -> dict[str, float]:
    latencies: list[float] = []
    plies = 0
    span = 0.0
    total_bytes = 0.0
    cpu = 0.0
    for traces in games:
        sent = {int(e["ply"]): e["t"] for tr in traces.values() for e in tr if e["ev"] == "sent"}
        finals: dict[int, list[float]] = {}
        genesis_cpu: dict[str, float] = {}
        for name, trace in traces.items():
            for event in trace:
                if event["ev"] == "final":
                    finals.setdefault(int(event["ply"]), []).append(event["t"])
                    if event["ply"] == 0:
                        genesis_cpu[name] = event["cpu"]
                elif event["ev"] == "exit":
                    total_bytes += event["bytes"]
                    cpu += event["cpu"] - genesis_cpu[name]
        last = max(finals)
        for ply, times in finals.items():
            if ply > 0 and len(times) == 4:
                latencies.append(max(times) - sent[ply])
        plies += last
        span += max(finals[last]) - max(finals[0])
    latencies.sort()
    return {
        "plies": plies,
        "median_ms": 1000 * statistics.median(latencies),
        "p99_ms": 1000 * latencies[min(len(latencies) - 1, int(0.99 * len(latencies)))],
        "plies_per_s": plies / span,
        "bytes_per_ply": total_bytes / plies,
        "cpu_ms_per_ply": 1000 * cpu / plies,
    }


async def _round_trips(count: int) -> list[float]:
    async def echo(stream: trio.SocketStream) -> None:
        while data := await stream.receive_some(64):
            await stream.send_all(data)

    async with trio.open_nursery() as nursery:
        listeners = await nursery.start(partial(trio.serve_tcp, echo, 0, host="127.0.0.1"))
        port = listeners[0].socket.getsockname()[1]
        stream = await trio.open_tcp_stream("127.0.0.1", port)
        times = []
        for _ in range(count):
            began = time.perf_counter()
            await stream.send_all(b"x" * 32)
            await stream.receive_some(64)
            times.append(time.perf_counter() - began)
        await stream.aclose()
        nursery.cancel_scope.cancel()
    return times


def crypto_costs(count: int) -> tuple[float, float]:
    key = Ed25519PrivateKey.generate()
    public = key.public_key()
    message = b"palabre/1/record\0" + bytes(120)
    began = time.perf_counter()
    for _ in range(count):
        signature = key.sign(message)
    signing = (time.perf_counter() - began) / count
    began = time.perf_counter()
    for _ in range(count):
        public.verify(signature, message)
    return signing, (time.perf_counter() - began) / count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6, help="games per pace (default 6)")
    parser.add_argument("--quick", action="store_true", help="2 games per pace")
    parser.add_argument(
        "--dir",
        default=None,
        help="where the peers' homes and game files go (e.g. /dev/shm: no disk, so no fsync cost)",
    )
    args = parser.parse_args()
    games = 2 if args.quick else args.games
    results = {}
    with tempfile.TemporaryDirectory(prefix="bench-net-", dir=args.dir) as temp:
        for label, delay in (("paced (50 ms per ply)", 50), ("flat out", 0)):
            played = []
            for seed in range(games):
                home = Path(temp) / f"{delay}-{seed}"
                home.mkdir()
                played.append(play(home, seed, delay))
            results[label] = analyse(played)
    rtt = statistics.median(trio.run(_round_trips, 2000))
    sign, verify = crypto_costs(2000)
    where = args.dir or tempfile.gettempdir()
    print(
        f"{games} Consensus games per pace, 4 peer processes, game files in {where}, "
        f"Python {platform.python_version()}"
    )
    print()
    print("| 4 peers on loopback, Consensus, sensible bots | paced (50 ms) | flat out |")
    print("|---|---|---|")
    paced, flat = results["paced (50 ms per ply)"], results["flat out"]
    rows = (
        ("plies measured", "plies", "{:.0f}"),
        ("sent → final at all 4 peers, median", "median_ms", "{:.2f} ms"),
        ("sent → final at all 4 peers, p99", "p99_ms", "{:.2f} ms"),
        ("final plies per second", "plies_per_s", "{:.0f}"),
        ("bytes per ply (record frames, all peers)", "bytes_per_ply", "{:.0f}"),
        ("CPU per ply (all 4 processes)", "cpu_ms_per_ply", "{:.2f} ms"),
    )
    for title, key, form in rows:
        print(f"| {title} | {form.format(paced[key])} | {form.format(flat[key])} |")
    print(f"| bare TCP round trip on loopback (trio), median | {1e6 * rtt:.0f} µs | |")
    crypto = f"{1e6 * sign:.0f} µs / {1e6 * verify:.0f} µs"
    print(f"| Ed25519 sign / verify (cryptography) | {crypto} | |")


if __name__ == "__main__":
    main()
