"""Render the table screen's evening-at-the-table views to PNGs, offscreen (issue 21).

    python scripts/screenshot_evening.py [--out-dir docs/img] [--seed N]

Real local games through the real window, seat 1 ("Ana") played by a seeded random bot
standing in for the person, the other seats by the session's random bots:

* ``consensus-recent-plies.png``: Consensus on Ana's turn, the plies since her last move
  numbered on the board and said under it;
* ``consensus-viewing-ply.png``: the same table looking back at an earlier ply (the move
  list clicked), with its "back to live" bar, and the keys' list open (F1);
* ``discorder-summary.png``: a whole Discorder game and its game-over summary;
* ``forbans-refusal.png``: Les Forbans, a click the rules do not allow, said in words.

The same seed gives the same pictures.
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
from PySide6.QtCore import Qt  # noqa: E402
from PySide6.QtTest import QTest  # noqa: E402

from client.bots import RandomBot  # noqa: E402
from client.sessions.local_game import LocalGame  # noqa: E402
from engines import find_engine  # noqa: E402
from ui.app import MainWindow  # noqa: E402


def save(window: MainWindow, out: Path) -> None:
    out.parent.mkdir(parents=True, exist_ok=True)
    if not window.grab().save(str(out)):
        raise SystemExit(f"could not write {out}")
    print(f"wrote {out}")


def open_game(window: MainWindow, game: str, seats: int, seed: int) -> LocalGame:
    """A local game of ``game`` against random bots, shown in ``window``."""
    local = LocalGame(
        find_engine(game), {"seats": seats}, player_name="Ana", bot_kind="random", seed=seed,
        bot_delay=0,
    )  # fmt: skip
    window.open_session(local)
    return local


async def play_until(game: LocalGame, me: RandomBot, done: Any) -> None:
    """Ana's moves by ``me`` until ``done(snapshot)``."""
    engine = game.snapshot.engine
    while not done(game.snapshot):
        snapshot = game.snapshot
        if snapshot.my_turn:
            game.move(engine.move_to_wire(me.choose(engine, snapshot.state)))
        await trio.sleep(0.001)


async def shoot(out_dir: Path, seed: int) -> None:
    async with trio.open_nursery() as nursery:
        window = MainWindow(nursery)
        window.resize(1400, 900)
        window.show()
        table = window.table

        game = open_game(window, "consensus", 4, seed)
        me = RandomBot(seed)
        # Ana's turn after a round where three others moved since her last move.
        await play_until(
            game,
            me,
            lambda s: s.ply >= 40 and s.my_turn and len({p.player for p in s.plies[-3:]}) == 3,
        )
        await trio.sleep(0.2)
        save(window, out_dir / "consensus-recent-plies.png")
        moves = table.moves
        row = game.snapshot.ply - 9
        moves.scrollToItem(moves.item(row))
        where = moves.visualItemRect(moves.item(row)).center()
        QTest.mouseClick(moves.viewport(), Qt.MouseButton.LeftButton, pos=where)
        QTest.keyClick(table.board, Qt.Key.Key_F1)
        await trio.sleep(0.2)
        save(window, out_dir / "consensus-viewing-ply.png")
        QTest.keyClick(table.board, Qt.Key.Key_Escape)

        game = open_game(window, "discorder", 2, seed)
        await play_until(game, RandomBot(seed), lambda s: s.outcome is not None)
        await trio.sleep(0.2)
        save(window, out_dir / "discorder-summary.png")

        game = open_game(window, "forbans", 2, seed)
        forbans = game.snapshot.engine
        await play_until(game, RandomBot(seed), lambda s: s.ply >= 16 and s.my_turn)
        board: Any = table.board
        state = game.snapshot.state
        origin = forbans.next_choices(state, [])[0][0]
        board.click_port(origin)
        far = next(
            port
            for port in range(len(forbans.map.ports))
            if port not in board.choices and port != origin and state.board[port] == 0
        )
        board.click_port(far)
        await trio.sleep(0.2)
        save(window, out_dir / "forbans-refusal.png")
        window.close()
        nursery.cancel_scope.cancel()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out-dir", type=Path, default=ROOT / "docs" / "img")
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args()
    qtrio.run(shoot, args.out_dir, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
