#!/usr/bin/env python3
"""Rewrite the golden playthrough files in tests/data/golden/ (on purpose only).

Usage: scripts/regen_golden.py [GAME ...]      (default: every registered game)
Each game gets seeds 0-2 for each of its ``sample_params``.  Review the diff before committing:
a changed file means the engine's behaviour changed.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engines import engine_names, find_engine  # noqa: E402
from engines.playthrough import golden_name, playthrough_text  # noqa: E402

GOLDEN_DIR = ROOT / "tests" / "data" / "golden"
SEEDS = (0, 1, 2)


def main(games: list[str]) -> int:
    GOLDEN_DIR.mkdir(parents=True, exist_ok=True)
    for game in games or list(engine_names()):
        engine = find_engine(game)
        for params in engine.sample_params:
            for seed in SEEDS:
                path = GOLDEN_DIR / golden_name(engine, params, seed)
                text = playthrough_text(engine, params, seed)
                changed = not path.exists() or path.read_text() != text
                path.write_text(text)
                plies = text.count("\n") - 2
                word = "rewrote" if changed else "same   "
                print(f"{word} {path.relative_to(ROOT)} ({plies} plies)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
