"""Render the table screen of Les Forbans, Discorder and Cognes mid-game to PNGs, offscreen.

    python scripts/screenshot_boards.py [--games forbans,discorder,cognes] [--out docs/img]

Each picture is a real local game through the real window: seat 1 ("Ana") is played by a
seeded player standing in for the person, the other seats by the session's own bots, until
the first position on Ana's turn that shows what the board can show (threatened groups on
the map; secured, pending and given-away runs; frozen coins and a player out).  Then Ana
starts a move (a stack selected, a tile hovered, a coin aimed) and the window is grabbed as
``<out>/<game>-table.png``.  The same seeds give the same pictures.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("PALABRE_HOME", tempfile.mkdtemp(prefix="palabre-shot-"))

import qtrio  # noqa: E402
import trio  # noqa: E402

from client.bots import make_bot  # noqa: E402
from client.sessions.local_game import LocalGame  # noqa: E402
from engines import AnyEngine, find_engine  # noqa: E402
from engines.cognes import legal_flips  # noqa: E402
from engines.discorder import GIVEN_AWAY, PENDING, SECURED, run_views  # noqa: E402
from engines.forbans import PLACEMENTS  # noqa: E402
from ui.app import MainWindow  # noqa: E402
from ui.boards.forbans import danger  # noqa: E402

ME = 1


@dataclass(frozen=True)
class Scene:
    params: dict[str, int]
    bots: str
    ready: Callable[[AnyEngine, Any], bool]
    pose: Callable[[Any, AnyEngine, Any, random.Random], None]
    """Start a move on the board (what the picture shows Ana doing)."""


def forbans_ready(engine: AnyEngine, state: Any) -> bool:
    return state.ply >= PLACEMENTS + 10 and bool(danger(engine, state.board)[0])


def forbans_pose(board: Any, engine: AnyEngine, state: Any, _rng: random.Random) -> None:
    stacks = engine.next_choices(state, [])[0]
    board.click_port(max(stacks, key=lambda port: len(engine.next_choices(state, [port])[0])))


def discorder_ready(_engine: AnyEngine, state: Any) -> bool:
    statuses = {view.status for view in run_views(state)}
    empty = state.board.count(0)
    return {SECURED, PENDING, GIVEN_AWAY} <= statuses and 2 <= state.pegs_left <= 8 and empty >= 12


def discorder_pose(board: Any, engine: AnyEngine, state: Any, _rng: random.Random) -> None:
    cells = [n for n in engine.next_choices(state, [])[0] if n < 56]
    board.canvas.hover_cell = cells[len(cells) // 2]


def cognes_ready(_engine: AnyEngine, state: Any) -> bool:
    return any(state.out) and any(state.frozen) and not state.out[ME - 1]


def cognes_pose(board: Any, engine: AnyEngine, state: Any, rng: random.Random) -> None:
    flip = rng.choice(legal_flips(state))
    angle = math.radians(flip.direction / 2)
    dx, dy = round(math.cos(angle) * 900), round(math.sin(angle) * 900)
    canvas = board.canvas
    x, y = state.centres[flip.coin]
    canvas.aim = canvas.to_pixels((x + dx, y + dy))
    board.aim(flip.coin, dx, dy, False)


SCENES = {
    "forbans": Scene({"seats": 4}, "sensible", forbans_ready, forbans_pose),
    "discorder": Scene({"seats": 2}, "random", discorder_ready, discorder_pose),
    "cognes": Scene({"seats": 3, "coins": 9}, "random", cognes_ready, cognes_pose),
}


def my_choice(game: str, engine: AnyEngine, state: Any, rng: random.Random, bot: Any) -> Any:
    if game == "cognes":  # Ana plays carefully: never a foul
        return rng.choice(legal_flips(state))
    return bot.choose(engine, state)


async def play_until_ready(window: MainWindow, game: str, seed: int) -> LocalGame | None:
    scene = SCENES[game]
    engine = find_engine(game)
    session = LocalGame(
        engine, scene.params, my_seat=ME, player_name="Ana", bot_kind=scene.bots,
        seed=seed, bot_delay=0,
    )  # fmt: skip
    window.open_session(session)
    rng = random.Random(seed)
    me = make_bot(game, "sensible", seed)
    while session.snapshot.outcome is None:
        snapshot = session.snapshot
        if snapshot.my_turn:
            if scene.ready(engine, snapshot.state):
                return session
            session.move(engine.move_to_wire(my_choice(game, engine, snapshot.state, rng, me)))
        await trio.sleep(0.001)
    return None


async def shoot(games: list[str], out: Path) -> None:
    async with trio.open_nursery() as nursery:
        window = MainWindow(nursery)
        window.resize(1400, 900)
        window.show()
        for game in games:
            for seed in range(40):
                session = await play_until_ready(window, game, seed)
                if session is not None:
                    break
            else:
                raise SystemExit(f"{game}: no seed reached an interesting position")
            state = session.snapshot.state
            engine = session.snapshot.engine
            SCENES[game].pose(window.table.board, engine, state, random.Random(seed))
            window.table.board.canvas.update()
            await trio.sleep(0.2)
            path = out / f"{game}-table.png"
            path.parent.mkdir(parents=True, exist_ok=True)
            if not window.grab().save(str(path)):
                raise SystemExit(f"could not write {path}")
            print(f"wrote {path} (seed {seed}, after ply {session.snapshot.ply})")
        window.close()
        nursery.cancel_scope.cancel()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", default=",".join(SCENES))
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "img")
    args = parser.parse_args()
    games = [game.strip() for game in args.games.split(",") if game.strip()]
    unknown = [game for game in games if game not in SCENES]
    if unknown:
        print(f"no scene for {', '.join(unknown)}; known: {', '.join(SCENES)}", file=sys.stderr)
        return 2
    qtrio.run(shoot, games, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
