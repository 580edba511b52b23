"""Render the table screen with a mid-game Consensus position to a PNG, offscreen.

    python scripts/screenshot.py [--out docs/img/consensus-table.png] [--seed N]

A real local game through the real window: seat 1 ("Ana") is played by a seeded random bot
standing in for the person, seats 2-4 by the session's own random bots, until the first
position on Ana's turn where a Président rules e5 and several corpses lie on the board.  Then
one of Ana's pieces is clicked so its destinations show, a few chat lines are sent, and the
window is grabbed.  The same seed gives the same picture.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("PALABRE_HOME", tempfile.mkdtemp(prefix="palabre-shot-"))

import qtrio  # noqa: E402
import trio  # noqa: E402

from client.bots import RandomBot  # noqa: E402
from client.local_game import LocalGame  # noqa: E402
from client.match import play_match  # noqa: E402
from engines.consensus import ENGINE  # noqa: E402
from engines.consensus_board import DEAD  # noqa: E402
from ui.app import MainWindow  # noqa: E402

ME = 1
CHAT = (
    (None, "Ana", "Whoever holds e5 now has to be stopped, and fast."),
    (None, "Ana", "Who is with me? Two turns, that is all it takes."),
)


def interesting(state: Any) -> bool:
    corpses = sum(1 for code in state.board if code & DEAD)
    mover = ENGINE.controller(state, ENGINE.to_move(state) or 1)
    return ENGINE.power_status(state).ruler is not None and corpses >= 4 and mover == ME


def first_interesting_ply(seed: int) -> int | None:
    """The ply after which the game of ``seed`` first reaches an interesting position."""
    bots = {seat: RandomBot(seed * 100 + seat) for seat in range(2, 5)}
    bots[ME] = RandomBot(seed)
    found: list[int] = []

    def look(record: Any, state: Any) -> None:
        if not found and ENGINE.outcome(state) is None and interesting(state):
            found.append(record.ply)

    play_match(ENGINE, {"seats": 4}, bots, on_ply=look)
    return found[0] if found else None


async def shoot(out: Path, seed: int, stop: int) -> None:
    async with trio.open_nursery() as nursery:
        window = MainWindow(nursery)
        window.resize(1400, 900)
        window.show()
        game = LocalGame(
            ENGINE, {"seats": 4}, my_seat=ME, player_name="Ana", bot_kind="random",
            seed=seed, bot_delay=0,
        )  # fmt: skip
        window.open_session(game)
        me = RandomBot(seed)
        while game.snapshot.ply < stop:
            snapshot = game.snapshot
            if snapshot.my_turn:
                game.move(ENGINE.move_to_wire(me.choose(ENGINE, snapshot.state)))
            await trio.sleep(0.001)
        for _, _, text in CHAT:
            game.chat(text)
        board = window.table.board
        state = game.snapshot.state
        # Select the piece with the most destinations, to show the step view.
        piece = max(
            ENGINE.movable_pieces(state), key=lambda sq: len(ENGINE.destinations(state, sq))
        )
        board.click_square(piece)
        await trio.sleep(0.2)
        out.parent.mkdir(parents=True, exist_ok=True)
        if not window.grab().save(str(out)):
            raise SystemExit(f"could not write {out}")
        print(f"wrote {out} (seed {seed}, after ply {stop})")
        window.close()
        nursery.cancel_scope.cancel()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "img" / "consensus-table.png")
    parser.add_argument("--seed", type=int, default=None, help="default: the first that fits")
    args = parser.parse_args()
    seeds = [args.seed] if args.seed is not None else list(range(50))
    for seed in seeds:
        stop = first_interesting_ply(seed)
        if stop is not None:
            qtrio.run(shoot, args.out, seed, stop)
            return 0
    print("no interesting position found for those seeds", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
