"""One measured piece of verifying a log, to be counted by valgrind (instructions, not time).

    python scripts/count_verify.py make [--games 5]   # write the logs once (not counted)
    valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \
        python scripts/count_verify.py none|alone|verify

``make`` plays ``--games`` Consensus games as ``scripts/bench_verify.py`` does and keeps the
first peer's files under ``--dir``.  The counted modes read those files, then do nothing more
(``none``: the imports and reads to subtract), verify every record's signature alone as
``bench_verify.signatures_alone`` does (``alone``), or verify each log as ``palabre verify``
does on one core (``verify``).  On a shared, loaded machine the instruction counts hold where
clock times do not; the ratio (verify − none) / (alone − none) is the figure of merit.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT.parent))
sys.path.insert(0, str(ROOT))

import bench_verify  # noqa: E402

from client.logs.verifier import verify_bytes  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("mode", choices=("make", "none", "alone", "verify"))
    parser.add_argument("--games", type=int, default=5, help="games to make")
    parser.add_argument("--dir", type=Path, default=Path("/tmp/palabre-count-verify"))
    args = parser.parse_args()
    if args.mode == "make":
        args.dir.mkdir(parents=True, exist_ok=True)
        plies = sum(bench_verify.play_one(args.dir, game, 0)[1] for game in range(args.games))
        print(f"{args.games} games, {plies} plies in {args.dir}")
        return 0
    logs = [path.read_bytes() for path in sorted(args.dir.glob("*-A.palabre"))]
    if args.mode == "alone":
        print(f"{bench_verify.signatures_alone(logs)[1]} signatures")
    elif args.mode == "verify":
        for index, log in enumerate(logs):
            if verify_bytes(log, f"game {index}", threads=1).report.exit_code != 0:
                raise SystemExit(f"game {index} did not verify")
    return 0


if __name__ == "__main__":
    sys.exit(main())
