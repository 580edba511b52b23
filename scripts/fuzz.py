#!/usr/bin/env python3
"""Fuzz palabre for as long as asked, and print what was tried and what broke.

Usage: scripts/fuzz.py [--seconds S] [--seed N] [--only table|log]

* **table**: a Grab table of three peers where the seated liar C throws well-signed but
  arbitrary records at the two honest ones as the game goes (tests/client/fuzzing.py): any
  kind, schema-valid bodies drawn near what the core checks.  A crash is an exception out
  of the table core, or a broken property: evidence naming an honest peer, an applied ply
  that does not replay legally, the two honest chains parting without both halting.
* **log**: the game file of a short real game (Discorder, two peers, tiles, a chat line
  and an agreed draw) with random edits — bytes flipped, cut,
  inserted, records duplicated, swapped or dropped — given to ``palabre verify``'s
  verifier.  A crash is an exception, a report that it failed ("a bug in palabre"), or an
  edited file judged valid and complete while it holds other records than the game's
  (records in another order can be valid: acks and chat may arrive in any order).

Each failure prints its seed, so ``--seed`` replays it.  The last line per target is
``inputs tried, crashes``; docs/SECURITY.md quotes a run.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
import traceback
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from client.logs.verifier import verify_bytes
from net.errors import LogFileError
from net.logfile import MAGIC, parse_log
from tests.client.fuzzing import check_honest, hostile_run
from tests.client.gamelogs import short_game


def fuzz_table(rng: random.Random) -> int:
    """One hostile game; the number of records thrown."""
    lies = rng.randrange(1, 120)
    setup, router = hostile_run(rng.randrange(2**32), lies)
    check_honest(setup, router)
    return lies


def _edit(rng: random.Random, data: bytes) -> bytes:
    records = list(parse_log(data, "fuzz").records)
    roll = rng.random()
    if roll < 0.3:
        at = rng.randrange(len(MAGIC), len(data))
        return data[:at] + bytes([data[at] ^ (1 << rng.randrange(8))]) + data[at + 1 :]
    if roll < 0.45:
        at = rng.randrange(len(MAGIC), len(data))
        return data[:at] + rng.randbytes(rng.randrange(0, 40)) + data[at + rng.randrange(40) :]
    if roll < 0.6:
        return data[: rng.randrange(len(data))]
    index = rng.randrange(1, len(records))
    if roll < 0.75:
        records.insert(rng.randrange(len(records)), records[index])
    elif roll < 0.9:
        other = rng.randrange(1, len(records))
        records[index], records[other] = records[other], records[index]
    else:
        del records[index]
    out = bytearray(MAGIC)
    for record in records:
        out += len(record).to_bytes(4, "big") + record
    return bytes(out)


def _records(data: bytes) -> list[bytes]:
    try:
        return list(parse_log(data, "fuzz").records)
    except LogFileError:
        return []


def log_fuzzer(directory: Path) -> Callable[[random.Random], int]:
    original = short_game(directory).paths["A"].read_bytes()
    assert verify_bytes(original, "original").report.exit_code == 0
    records = _records(original)

    def fuzz_log(rng: random.Random) -> int:
        edited = _edit(rng, original)
        report = verify_bytes(edited, "edited").report
        if "bug in palabre" in (report.unreadable or ""):
            raise AssertionError(report.unreadable)
        if report.exit_code == 0 and sorted(_records(edited)) != sorted(records):
            raise AssertionError("an edited log verified as valid and complete")
        report.lines()
        return 1

    return fuzz_log


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="per target (default 60)")
    parser.add_argument("--seed", type=int, default=None, help="replay one seed, once")
    parser.add_argument("--only", choices=("table", "log"), default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        targets = {"table": fuzz_table, "log": log_fuzzer(Path(scratch))}
        if args.only:
            targets = {args.only: targets[args.only]}
        print(f"{'target':<8} {'runs':>8} {'inputs tried':>13} {'crashes':>8} {'seconds':>8}")
        failed = 0
        for name, fuzz in targets.items():
            runs = inputs = crashes = 0
            began = time.monotonic()
            while True:
                seed = args.seed if args.seed is not None else random.randrange(2**63)
                try:
                    inputs += fuzz(random.Random(seed))
                except Exception:
                    crashes += 1
                    print(f"{name}: CRASH with --seed {seed}", file=sys.stderr)
                    traceback.print_exc()
                runs += 1
                if args.seed is not None or time.monotonic() - began >= args.seconds:
                    break
            took = time.monotonic() - began
            print(f"{name:<8} {runs:>8} {inputs:>13} {crashes:>8} {took:>8.0f}")
            failed += crashes
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
