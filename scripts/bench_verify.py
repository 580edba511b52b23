"""How fast ``palabre verify`` checks a long Consensus log, against Ed25519 alone.

    python scripts/bench_verify.py [--plies 3000] [--seed 0] [--repeat 3]

Consensus games between random bots last about 60 plies, so the "long log" is as many
whole games as it takes to reach ``--plies`` plies: four peers per game, each a real
``client.tabletop.table.Table`` with real keys and ``net.signer.RecordSigner``s writing ahead to
real log files (on /dev/shm when it exists, so the benchmark measures verifying, not the disk),
records carried in order between the peers in memory.  The first peer's files are then
verified, each as ``palabre verify`` does it, on one core.  In the same run, the same
signatures (every record's, with the keys already loaded) are verified alone, and the ratio
of the two is the figure of merit (target: verifying at most 1.3 × the signatures alone).
Then the logs are verified again with half of the signatures on a second thread, as
``palabre verify`` does on a machine with two cores or more.

Prints a table; figures vary from run to run on a shared machine: compare the ratio.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import sys
import tempfile
import time
from collections import deque
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cryptography.hazmat.primitives.asymmetric.ed25519 import (  # noqa: E402
    Ed25519PrivateKey,
    Ed25519PublicKey,
)

from client.bots import make_bot  # noqa: E402
from client.logs.verifier import verify_bytes  # noqa: E402
from client.rules.net_adapter import NetSigner, open_envelope, record_from_net  # noqa: E402
from client.rules.records import START  # noqa: E402
from client.rules.start import PeerSpec, SeatSpec, start_body  # noqa: E402
from client.tabletop.events import Output  # noqa: E402
from client.tabletop.table import Table  # noqa: E402
from engines import find_engine  # noqa: E402
from net import ed25519  # noqa: E402
from net.envelope import RECORD_TAG, parse_envelope  # noqa: E402
from net.identity import Identity  # noqa: E402
from net.logfile import LogWriter, read_log  # noqa: E402
from net.records import open_record  # noqa: E402
from net.signer import RecordSigner  # noqa: E402

PEERS = "ABCD"


def identity(seed: int) -> Identity:
    secret = hashlib.blake2b(seed.to_bytes(8, "big"), digest_size=32).digest()
    return Identity(Ed25519PrivateKey.from_private_bytes(secret))


def play_one(directory: Path, game: int, seed: int) -> tuple[Path, int]:
    """One whole game between four peers; returns the first peer's log and its plies."""
    engine = find_engine("consensus")
    table_id = hashlib.blake2b(f"{seed}/{game}".encode(), digest_size=16).digest()
    people = {name: identity(seed * 10_000 + game * 10 + i) for i, name in enumerate(PEERS)}
    writers = {name: LogWriter.create(directory / f"{game}-{name}.palabre") for name in PEERS}
    signers = {
        name: NetSigner(RecordSigner(people[name], table_id, writers[name])) for name in PEERS
    }
    body = start_body(
        game=engine.name,
        ruleset=engine.ruleset,
        engine_version=engine.version,
        params={"seats": 4},
        peers=tuple(PeerSpec(people[n].public_key, n) for n in PEERS),
        seats=tuple(SeatSpec(i + 1, people[n].public_key) for i, n in enumerate(PEERS)),
    )
    start = signers["A"].sign(START, body)
    tables = {
        name: Table(
            start,
            engine,
            open_envelope,
            me=people[name].public_key,
            signers={people[name].public_key: signers[name]},
            bots={people[name].public_key: make_bot("consensus", "random", seed * 1000 + i)},
            journal=lambda record, name=name: writers[name].append(record.envelope),
        )
        for i, name in enumerate(PEERS)
    }
    queue: deque[tuple[str, bytes]] = deque()

    def take(source: str, output: Output) -> None:
        for record in output.send:
            queue.extend((name, record.envelope) for name in PEERS if name != source)

    for name, table in tables.items():
        take(name, table.begin(0.0))
    while queue:
        name, envelope = queue.popleft()
        take(name, tables[name].receive(record_from_net(open_record(envelope)), 0.0))
    for writer in writers.values():
        writer.close()
    assert tables["A"].ended, "the game did not end"
    return directory / f"{game}-A.palabre", tables["A"].head.ply


def verify_all(logs: list[bytes], threads: int) -> float:
    """Seconds to verify every log as ``palabre verify`` does (``threads`` as it takes)."""
    began = time.perf_counter()
    for index, log in enumerate(logs):
        report = verify_bytes(log, f"game {index}", threads=threads).report
        if report.exit_code != 0:
            raise SystemExit(f"game {index} did not verify: {report.lines()}")
    return time.perf_counter() - began


def signatures_alone(logs: list[bytes]) -> tuple[float, int]:
    """Seconds to verify every record's signature of ``logs`` with the library the verifier
    uses (libsodium, net/ed25519.py), in one tight loop."""
    envelopes = [parse_envelope(data) for log in logs for data in _records(log)]
    jobs = [(e.author, e.signature, RECORD_TAG + e.payload) for e in envelopes]
    is_valid = ed25519.is_valid
    began = time.perf_counter()
    for key, signature, message in jobs:
        if not is_valid(key, signature, message):
            raise SystemExit("a signature did not verify")
    return time.perf_counter() - began, len(jobs)


def signatures_alone_openssl(logs: list[bytes]) -> float:
    """The same with cryptography (OpenSSL), keys loaded beforehand: what main used."""
    envelopes = [parse_envelope(data) for log in logs for data in _records(log)]
    keys = {e.author: Ed25519PublicKey.from_public_bytes(e.author) for e in envelopes}
    jobs = [(keys[e.author], e.signature, RECORD_TAG + e.payload) for e in envelopes]
    began = time.perf_counter()
    for key, signature, message in jobs:
        key.verify(signature, message)
    return time.perf_counter() - began


def _records(log: bytes) -> tuple[bytes, ...]:
    from net.logfile import parse_log

    return parse_log(log).records


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--plies", type=int, default=3000, help="total plies to reach")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeat", type=int, default=3, help="timed runs (best kept)")
    args = parser.parse_args()
    base = "/dev/shm" if os.path.isdir("/dev/shm") else None
    with tempfile.TemporaryDirectory(prefix="palabre-bench-", dir=base) as tmp:
        began = time.perf_counter()
        paths, plies, game = [], 0, 0
        while plies < args.plies:
            path, count = play_one(Path(tmp), game, args.seed)
            paths.append(path)
            plies += count
            game += 1
        made = time.perf_counter() - began
        logs = [path.read_bytes() for path in paths]
        records = sum(len(read_log(path).records) for path in paths)
        size = sum(len(log) for log in logs)
    print(f"made {game} Consensus games, {plies} plies, {records} records, {size} bytes "
          f"in {made:.1f} s (4 peers each, real signers writing ahead)")  # fmt: skip

    verify_times, alone_times, both_times, openssl_times = [], [], [], []
    for _ in range(args.repeat):  # interleaved, so a busy moment hurts all alike
        verify_times.append(verify_all(logs, threads=1))
        seconds, count = signatures_alone(logs)
        alone_times.append(seconds)
        both_times.append(verify_all(logs, threads=2))
        openssl_times.append(signatures_alone_openssl(logs))
    verify, alone, both = min(verify_times), min(alone_times), min(both_times)
    openssl = min(openssl_times)
    per_sig = alone / count
    rows = [
        ("plies", f"{plies}"),
        ("records (= signatures)", f"{records} ({count} signatures)"),
        ("verify, one core", f"{verify * 1000:.0f} ms"),
        ("  plies per second", f"{plies / verify:,.0f}"),
        ("  records per second", f"{records / verify:,.0f}"),
        ("  per record", f"{verify / records * 1e6:.0f} µs"),
        ("Ed25519 verify alone, one core", f"{alone * 1000:.0f} ms ({per_sig * 1e6:.0f} µs each)"),
        ("ratio verify / signatures alone", f"{verify / alone:.2f} (target ≤ 1.3)"),
        (
            "  (cryptography verify alone, one core)",
            f"{openssl * 1000:.0f} ms ({openssl / count * 1e6:.0f} µs each)",
        ),
        ("verify, signatures on two threads", f"{both * 1000:.0f} ms"),
        ("  plies per second", f"{plies / both:,.0f}"),
        ("  ratio to signatures alone (one core)", f"{both / alone:.2f}"),
    ]
    width = max(len(name) for name, _ in rows)
    print(f"best of {args.repeat} runs:")
    for name, value in rows:
        print(f"  {name:<{width}}  {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
